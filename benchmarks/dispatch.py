"""Benchmark: the overhead of the generated dispatch. `Session.handle` of a `tools/call`
(negotiated version 2026-07-28, the official CallToolRequest example and a CallToolResult)
against what it must do anyway: `app.parse_message` of the request plus `app.serialize` of the
result. Issue target: at most 20% more.

Run from the repository root: `python -m benchmarks.dispatch [--dist DIR]` (a distribution with
`--package mcp_bindings` of 2025-06-18, 2025-11-25 and 2026-07-28; generated into a temporary
directory when not given). Prints medians (µs per message) and the ratio, in wall time and in
the process's CPU time (on a shared machine the CPU-time ratio is the one to read). Asserts
nothing.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import corpus

from .common import distribution, median_us

VERSION = "2026-07-28"
VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
ROUNDS = 9
META = {"io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip


def _dist(path: Path | None) -> Path:
    return distribution(path, VERSIONS, "dispatch_bench_")


def _median_us(fn: Callable[[], Any], n: int, clock: Callable[[], int] | None = None) -> float:
    return median_us(fn, n, ROUNDS, clock)


def measure(dist: Path, n: int, clock: Callable[[], int] | None = None) -> tuple[float, float]:
    """(µs of parse + serialize, µs of Session.handle) for one tools/call, by `clock`."""
    sys.path.insert(0, str(dist))
    app = importlib.import_module("mcp_bindings.app")
    server = importlib.import_module("mcp_bindings.server")
    example = next(e.instance for e in corpus.examples(VERSION) if e.type_name == "CallToolRequest")
    params = {**example.get("params", {}), "_meta": META}
    message = {"jsonrpc": "2.0", "id": 1, **example, "params": params}
    result = app.CallToolResult(content=[app.TextContent(text="42")], result_type="complete")

    class Handlers(server.ServerHandlers):  # type: ignore[misc,name-defined]
        def tools_call(self, p: Any, ctx: Any) -> Any:
            return result

    session = server.Session(Handlers(), server_info=app.Implementation(name="b", version="1"))
    assert "result" in session.handle(message)[-1], session.handle(message)

    def baseline() -> None:
        app.parse_message(message, version=VERSION, direction="client_to_server")
        app.serialize(result, version=VERSION, method="tools/call")

    def dispatched() -> None:
        session.handle(message)

    base, ours = [], []
    for _ in range(3):  # interleaved, so a noisy neighbour hits both alike
        base.append(_median_us(baseline, n, clock))
        ours.append(_median_us(dispatched, n, clock))
    return sorted(base)[1], sorted(ours)[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=None)
    parser.add_argument("-n", type=int, default=300, help="calls per timed round")
    args = parser.parse_args(argv)
    dist = _dist(args.dist)
    for label, clock in (("wall", None), ("CPU", time.process_time_ns)):
        base, ours = measure(dist, args.n, clock)
        print(f"parse_message + serialize: {base:8.1f} µs ({label})")
        print(f"Session.handle:            {ours:8.1f} µs ({label})")
        print(f"overhead: {100 * (ours / base - 1):+.1f}% (target: at most +20%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
