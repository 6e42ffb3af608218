"""Benchmark: JSON-RPC messages into version-free application types and back, ours against the
official SDK's hand-written layer (`mcp_types.methods`), on the same messages.

Messages: every official example of a client request (`examples/<Type>Request/*.json`, sent by a
client) and of a server result (`examples/<Type>Result/*.json`, paired with its request's method)
of 2026-07-28 (the version with examples that both sides know).

- parse: ours `app.parse_message(message, version=V, direction="client_to_server")` (validate
  with V's validators once and build the application objects from the JSON in one pass) vs the
  SDK's `parse_client_request(method, V, params)` (validate against V's surface model, then
  parse the version-free pydantic model);
- serialize: ours `app.serialize(result, version=V, method=M)` (the version gate, the conversion
  rules, V's validators once, the JSON) vs the SDK's `serialize_server_result(M, V, data)`.

Each message is timed in interleaved rounds (ours and the SDK's in turn, the order alternating);
a message's ratio is the median over rounds of SDK time ÷ ours in the same round (above 1: ours
is faster); a direction's figure is the median of its messages' ratios, and the total ratio
(sum of the SDK's median µs ÷ sum of ours). `python -m benchmarks.run --only apptypes` puts
this in the report; standalone, run from the repository root:
`python -m benchmarks.apptypes [--dist DIR] [-n CALLS]` (DIR: a distribution generated from
the seven official schemas with `--package mcp_bindings`; generated into a temporary directory
when not given). Asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus

from .common import distribution

VERSION = "2026-07-28"
ROUNDS = 7
KINDS = ("parse", "serialize")


@dataclass(frozen=True)
class Case:
    kind: str  # "parse" | "serialize"
    method: str
    ours: Callable[[], Any]
    sdk: Callable[[], Any]


@dataclass(frozen=True)
class Row:
    kind: str
    method: str
    ours_us: float  # median over rounds
    sdk_us: float
    ratio: float  # median over rounds of sdk / ours in the same round


def _messages(methods: dict[str, str]) -> tuple[list[dict[str, Any]], list[tuple[str, Any]]]:
    """(client requests as messages, (method, result) pairs) from the official examples."""
    requests, results = [], []
    for ex in corpus.examples(VERSION):
        inst = ex.instance
        if ex.type_name.endswith("Request") and isinstance(inst, dict) and "method" in inst:
            requests.append({"jsonrpc": "2.0", "id": 1, **inst})
        elif ex.type_name.endswith("Result") and ex.type_name in methods:
            results.append((methods[ex.type_name], inst))
    return requests, results


def cases(app: ModuleType, versions: ModuleType, sdk: ModuleType) -> list[Case]:
    """The messages both sides handle, each as a pair of calls."""
    by_result = {}
    for (method, key), types in versions.SERVER_RESULTS.items():
        if key == VERSION:
            by_result[types[0]] = method
    requests, results = _messages(by_result)
    out = []
    for msg in requests:
        method, params = msg["method"], msg.get("params")
        if (method, VERSION) not in sdk.CLIENT_REQUESTS:
            continue
        out.append(Case(
            "parse", method,
            lambda m=msg: app.parse_message(m, version=VERSION, direction="client_to_server"),
            lambda m=method, p=params: sdk.parse_client_request(m, VERSION, p),
        ))  # fmt: skip
    for method, data in results:
        if (method, VERSION) not in sdk.SERVER_RESULTS:
            continue
        obj = app.parse_result(method, data, version=VERSION)
        out.append(Case(
            "serialize", method,
            lambda o=obj, m=method: app.serialize(o, version=VERSION, method=m),
            lambda m=method, d=data: sdk.serialize_server_result(m, VERSION, d),
        ))  # fmt: skip
    return out


def _mean_us(fn: Callable[[], Any], n: int) -> float:
    start = time.perf_counter_ns()
    for _ in range(n):
        fn()
    return (time.perf_counter_ns() - start) / n / 1000


def measure(items: list[Case], n: int, rounds: int = ROUNDS) -> list[Row]:
    """Each case in `rounds` interleaved rounds of `n` calls per side."""
    rows = []
    for case in items:
        case.ours(), case.sdk()  # warm: the passes and the SDK's models are made on first use
        ours, theirs, ratios = [], [], []
        for r in range(rounds):
            if r % 2:
                b, a = _mean_us(case.sdk, n), _mean_us(case.ours, n)
            else:
                a, b = _mean_us(case.ours, n), _mean_us(case.sdk, n)
            ours.append(a)
            theirs.append(b)
            ratios.append(b / a)
        rows.append(Row(case.kind, case.method, statistics.median(ours),
                        statistics.median(theirs), statistics.median(ratios)))  # fmt: skip
    return rows


def summarise(rows: list[Row]) -> dict[str, dict[str, float]]:
    """Per direction: messages, the median of their ratios, the total ratio."""
    out = {}
    for kind in KINDS:
        picked = [r for r in rows if r.kind == kind]
        if picked:
            out[kind] = {
                "messages": len(picked),
                "median_ratio": statistics.median(r.ratio for r in picked),
                "total_ratio": sum(r.sdk_us for r in picked) / sum(r.ours_us for r in picked),
            }
    return out


def load(dist: Path, package: str) -> tuple[ModuleType, ModuleType, ModuleType]:
    """(app, versions, the SDK's `mcp_types.methods`) with `dist` on the path."""
    sys.path.insert(0, str(dist))
    app = importlib.import_module(f"{package}.app")
    versions = importlib.import_module(f"{package}.versions")
    from mcp_types import methods as sdk  # the official SDK (the bench extra installs it)

    return app, versions, sdk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=None)
    parser.add_argument("--package", default="mcp_bindings", help="the package name in --dist")
    parser.add_argument("-n", type=int, default=200, help="calls per timed round")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="interleaved rounds")
    args = parser.parse_args(argv)
    dist = distribution(args.dist, corpus.version_names(), "apptypes_bench_")
    rows = measure(cases(*load(dist, args.package)), args.n, args.rounds)
    print(f"protocol version {VERSION}: median µs per message over {args.rounds} interleaved "
          "rounds (ratio = SDK / ours, the median over rounds)")  # fmt: skip
    print(f"{'message':48} {'ours':>9} {'SDK':>9} {'ratio':>7}")
    for r in rows:
        print(f"{r.kind + ' ' + r.method:48} {r.ours_us:9.1f} {r.sdk_us:9.1f} {r.ratio:7.2f}")
    for kind, s in summarise(rows).items():
        print(f"{kind}: {s['messages']} messages, median ratio {s['median_ratio']:.2f}, "
              f"total ratio {s['total_ratio']:.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
