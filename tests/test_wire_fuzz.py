"""A `serve_stdio` (and a `serve_stdio_async`) server in a child process fed 10,000 random and
hostile lines (a fixed seed: the same lines on every run; `FUZZ_SEED` draws others): every line
it writes is one valid JSON-RPC 2.0 response in strict UTF-8 JSON, every well-formed request is
answered exactly once with its own id, and it still answers `ping` afterwards."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bindings_support import import_package
from test_dispatch import initialize
from test_wire_hostile import HOSTILE_LINES, check_response

pytestmark = [pytest.mark.spec, pytest.mark.slow]
PKG = "mcp_dispatch"  # the distribution tests/test_dispatch.py generates: made once a run
LINES = 10_000
SEED = int(os.environ.get("FUZZ_SEED", "35"))

SERVER = """
import asyncio, json, sys
from {pkg} import app
from {pkg}.server import McpError, ServerHandlers, Session, serve_stdio, serve_stdio_async


class Echo(ServerHandlers):
    def tools_list(self, params, ctx):
        return app.ListToolsResult(tools=[app.Tool(name="echo", input_schema={{}})])

    def tools_call(self, params, ctx):
        ctx.progress(1, 2)
        ctx.log("info", params.arguments)
        if params.name == "fail":
            raise McpError(-32000, "failed", {{"arguments": params.arguments}})
        if params.name == "boom":
            raise RecursionError("deep")
        return app.CallToolResult(content=[app.TextContent(text=json.dumps(params.arguments))])


session = Session(Echo(), server_info=app.Implementation(name="fuzz", version="1"))
if sys.argv[1:] == ["async"]:
    asyncio.run(serve_stdio_async(session))
else:
    serve_stdio(session)
"""

STRINGS = ["", "x", "é", "\ud800", "\udfff", "\ud83d\ude00", "\x00", "\u2028", '"', "\\", "\n"]
METHODS = ["ping", "tools/list", "tools/call", "resources/list", "prompts/get", "initialize",
           "logging/setLevel", "nope", "notifications/initialized", "sampling/createMessage"]  # fmt: skip


def value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value (lone surrogates included), at most 4 levels deep."""
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 2**53 + 1, 2**64, rng.randrange(-(10**9), 10**9)])
    if kind == 2:
        return rng.choice([1.5, -0.0, 1e-7, 1e300, rng.random()])
    if kind in (3, 4):
        return "".join(rng.choice(STRINGS) for _ in range(rng.randrange(4)))
    if kind in (5, 6):
        return {
            rng.choice(STRINGS) + str(i): value(rng, depth + 1) for i in range(rng.randrange(4))
        }
    return [value(rng, depth + 1) for _ in range(rng.randrange(4))]


def message(rng: random.Random, rid: Any) -> dict[str, Any]:
    method = rng.choice(METHODS)
    params: Any = {"name": rng.choice(["echo", "fail", "boom", "x"]), "arguments": value(rng)}
    if method != "tools/call":
        params = rng.choice([{}, value(rng), {"_meta": value(rng)}, {"level": "info"}])
    out: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if rid is not None:
        out["id"] = rid
    return out


def mutate(rng: random.Random, line: bytes) -> bytes:
    data = bytearray(line)
    for _ in range(rng.randrange(1, 4)):
        pos = rng.randrange(len(data) + 1)
        op = rng.randrange(3)
        if op == 0 and pos < len(data):
            data[pos] = rng.randrange(256) if rng.random() < 0.3 else rng.choice(b'{}[]",:\\0e-')
        elif op == 1:
            del data[pos : pos + rng.randrange(1, 5)]
        else:
            data[pos:pos] = rng.choice([b"\xff", b"NaN", b"\\ud800", b'"a":1,', b"[", b"\r", b" "])
    return bytes(data).replace(b"\n", b" ")


def hostile(rng: random.Random) -> bytes:
    n = rng.choice([300, 1_000, 5_000])
    return rng.choice([
        rng.choice(HOSTILE_LINES[3:]),
        b"[" * n, b"{" * n, b'{"a":' * n, b"[" * n + b"]" * n,
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":' + b"[" * n + b"]" * n + b"}}",
        b'{"jsonrpc":"2.0","id":"' + b"x" * 100_000 + b'","method":"ping"}',
        b" \t\r", b"\r", b'{"jsonrpc":"2.0","id":[],"method":"ping"}',
        json.dumps([message(rng, 1) for _ in range(3)]).encode(),
    ])  # fmt: skip


def lines(seed: int) -> tuple[list[bytes], dict[str, Any]]:
    """The fuzz lines, and the ids of the well-formed requests among them (each answered once)."""
    rng = random.Random(seed)
    out: list[bytes] = [json.dumps({**initialize("2025-11-25"), "id": "init"}).encode()]
    expected: dict[str, Any] = {'"init"': "init"}
    for n in range(LINES):
        kind = rng.random()
        if kind < 0.35:  # a well-formed request: its id is unique
            rid = rng.choice([f"r{n}", n + 10**6, n + 0.5, f"\ud800{n}"])
            out.append(json.dumps(message(rng, rid)).encode())
            expected[json.dumps(rid)] = rid
        elif kind < 0.45:  # a notification: never answered
            out.append(json.dumps(message(rng, None)).encode())
        elif kind < 0.85:
            out.append(mutate(rng, json.dumps(message(rng, rng.randrange(10**6))).encode()))
        else:
            out.append(hostile(rng))
    out.append(b'{"jsonrpc":"2.0","id":"final-ping","method":"ping"}')
    expected['"final-ping"'] = "final-ping"
    return out, expected


@pytest.mark.parametrize("loop", ["sync", "async"])
def test_ten_thousand_hostile_lines_then_ping(
    session_distribution: Callable[[str], Path], tmp_path: Path, loop: str
) -> None:
    root = session_distribution(PKG)
    runtime = import_package(root, f"{PKG}._runtime")
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(SERVER.format(pkg=PKG)))
    data, expected = lines(SEED)
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONIOENCODING": "utf-8:strict"}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, str(script), loop], input=b"\n".join(data) + b"\n",
                          capture_output=True, env=env, timeout=300, check=False)  # fmt: skip
    took = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    answered: dict[str, int] = {}
    out = proc.stdout.splitlines()
    for line in out:
        msg = runtime.loads(line)
        if "method" in msg:  # the progress and log notifications of tools/call
            assert msg["method"] in ("notifications/progress", "notifications/message"), line
            continue
        msg = check_response(runtime, line)
        key = json.dumps(msg["id"])
        answered[key] = answered.get(key, 0) + 1
    missing = [k for k in expected if answered.get(k) != 1]
    assert not missing, f"{len(missing)} requests not answered exactly once: {missing[:5]}"
    if loop == "sync":  # the async loop answers in the order its tasks end
        assert runtime.loads(out[-1]) == {"jsonrpc": "2.0", "id": "final-ping", "result": {}}
    assert b"Traceback" not in proc.stderr or b"RecursionError: deep" in proc.stderr
    print(f"{len(data)} lines, {len(out)} answers in {took:.1f} s")
