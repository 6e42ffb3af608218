"""Benchmark: JSON-RPC messages into version-free application types and back, ours against the
official SDK's hand-written layer (`mcp_types.methods`), on the same messages.

Messages: every official example of a client request (`examples/<Type>Request/*.json`, sent by a
client) and of a server result (`examples/<Type>Result/*.json`, paired with its request's method)
of the versions both sides know (2025-11-25 has no examples; 2026-07-28 has).

- parse: ours `app.parse_message(message, version=V, direction="client_to_server")` (validate
  with V's wire types, decode, convert to application types) vs the SDK's
  `parse_client_request(method, V, params)` (validate against V's surface model, then parse the
  version-free pydantic model);
- serialize: ours `app.serialize(result, version=V, method=M)` (the version gate, check, convert
  to V's wire type, validate, JSON) vs the SDK's `serialize_server_result(M, V, data)`.

Run from the repository root: `python -m benchmarks.apptypes [--dist DIR]` (DIR: a distribution
generated from the seven official schemas with `--package mcp_bindings`; generated into a
temporary directory when not given). Prints the median µs per message of each side and the
ratios (SDK time / ours: above 1 means ours is faster). Asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import corpus

from .common import distribution, median_us

VERSION = "2026-07-28"
ROUNDS = 7


def _dist(path: Path | None) -> Path:
    return distribution(path, corpus.version_names(), "apptypes_bench_")


def _median_us(fn: Callable[[], Any], n: int) -> float:
    return median_us(fn, n, ROUNDS)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=None)
    parser.add_argument("--package", default="mcp_bindings", help="the package name in --dist")
    parser.add_argument("-n", type=int, default=200, help="calls per timed round")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(_dist(args.dist)))
    app = importlib.import_module(f"{args.package}.app")
    versions = importlib.import_module(f"{args.package}.versions")
    from mcp_types import methods as sdk  # the official SDK (the bench extra installs it)

    by_result = {}
    for (method, key), types in versions.SERVER_RESULTS.items():
        if key == VERSION:
            by_result[types[0]] = method
    requests, results = _messages(by_result)
    rows = []
    for msg in requests:
        method, params = msg["method"], msg.get("params")
        if (method, VERSION) not in sdk.CLIENT_REQUESTS:
            continue
        ours = _median_us(lambda m=msg: app.parse_message(m, version=VERSION,
                                                          direction="client_to_server"), args.n)  # fmt: skip
        theirs = _median_us(lambda m=method, p=params: sdk.parse_client_request(m, VERSION, p), args.n)  # fmt: skip
        rows.append(("parse " + method, ours, theirs))
    for method, data in results:
        if (method, VERSION) not in sdk.SERVER_RESULTS:
            continue
        obj = app.parse_result(method, data, version=VERSION)
        ours = _median_us(lambda o=obj, m=method: app.serialize(o, version=VERSION, method=m), args.n)  # fmt: skip
        theirs = _median_us(lambda m=method, d=data: sdk.serialize_server_result(m, VERSION, d), args.n)  # fmt: skip
        rows.append(("serialize " + method, ours, theirs))
    print(f"protocol version {VERSION}: median µs per message (ratio = SDK / ours)")
    print(f"{'message':48} {'ours':>9} {'SDK':>9} {'ratio':>7}")
    for name, ours, theirs in rows:
        print(f"{name:48} {ours:9.1f} {theirs:9.1f} {theirs / ours:7.2f}")
    for kind in ("parse", "serialize"):
        picked = [(o, t) for n, o, t in rows if n.startswith(kind)]
        if picked:
            total_ours, total_sdk = sum(o for o, _ in picked), sum(t for _, t in picked)
            print(f"{kind}: {len(picked)} messages, total ratio {total_sdk / total_ours:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
