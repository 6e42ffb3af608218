"""The generated dispatch of a distribution (`NAME.server`): typed handlers over the application
types and a `Session` that negotiates, answers the session's own methods, converts results to
the negotiated version and answers every failure with its JSON-RPC error, on the official
2025-06-18, 2025-11-25 and 2026-07-28 schemas."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bindings_support import import_package, mypy_strict, ruff_check
from conftest import SESSION_VERSIONS

pytestmark = pytest.mark.spec
VERSIONS = SESSION_VERSIONS
PKG = "mcp_dispatch"
STATELESS = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
             "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip


@pytest.fixture(scope="module")
def root(session_distribution: Callable[[str], Path]) -> Path:
    return session_distribution(PKG)


@pytest.fixture(scope="module")
def example_root(session_distribution: Callable[[str], Path]) -> Path:
    """The same distribution as the package `mcp_bindings` the example imports."""
    return session_distribution("mcp_bindings")


@pytest.fixture(scope="module")
def pkg(root: Path) -> ModuleType:
    package = import_package(root, PKG)
    import_package(root, f"{PKG}.server")
    return package


def in_fresh_thread(fn: Any, *args: Any) -> Any:
    """`fn(*args)` in a thread of its own: another test's browser session (Playwright's sync
    API) may keep an event loop running in the test thread, where `asyncio.run` refuses."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result(timeout=120)


def server(pkg: ModuleType, secret: str = "do-not-leak") -> Any:
    app, srv = pkg.app, pkg.server

    class Demo(srv.ServerHandlers):  # type: ignore[misc,name-defined]
        def tools_list(self, params: Any, ctx: Any) -> Any:
            return app.ListToolsResult(
                tools=[app.Tool(name="add", input_schema={"type": "object"})]
            )

        def tools_call(self, params: Any, ctx: Any) -> Any:
            ctx.progress(1, 2, "half")
            ctx.log("info", {"adding": params.arguments})
            ctx.log("debug", "detail")
            if params.name == "boom":
                raise RuntimeError(secret)
            if params.name == "wrong":
                return app.ListToolsResult(tools=[])
            if params.name == "refuse":
                raise srv.McpError(-32000, "refused", {"why": "test"})
            return app.CallToolResult(content=[app.TextContent(text="3")])

    return srv.Session(Demo(), server_info=app.Implementation(name="demo", version="1.0"))


def initialize(version: str, rid: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip


def call(rid: int, name: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": {"a": 1}}
    if meta is not None:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
def test_initialize_negotiates_and_declares_overridden_handlers(
    pkg: ModuleType, version: str
) -> None:
    session = server(pkg)
    [reply] = session.handle(initialize(version))
    result = reply["result"]
    assert reply["id"] == 1 and result["protocolVersion"] == version
    assert result["capabilities"] == {"logging": {}, "tools": {}}
    assert result["serverInfo"] == {"name": "demo", "version": "1.0"}
    assert session.handle({"jsonrpc": "2.0", "method": "notifications/initialized"}) == []
    [tools] = session.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert tools["result"] == {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}


def test_unknown_version_gets_the_latest_handshake_version(pkg: ModuleType) -> None:
    [reply] = server(pkg).handle(initialize("1999-01-01"))
    assert reply["result"]["protocolVersion"] == "2025-11-25"


def test_notifications_come_before_the_response_and_honour_the_level(pkg: ModuleType) -> None:
    session = server(pkg)
    session.handle(initialize("2025-11-25"))
    out = session.handle(call(2, "add", {"progressToken": "p1"}))
    assert [m.get("method") for m in out] == ["notifications/progress", "notifications/message",
                                              "notifications/message", None]  # fmt: skip
    assert out[0]["params"] == {"progressToken": "p1", "progress": 1, "total": 2, "message": "half"}
    assert out[-1] == {"jsonrpc": "2.0", "id": 2,
                       "result": {"content": [{"type": "text", "text": "3"}]}}  # fmt: skip
    assert session.handle({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel",
                           "params": {"level": "info"}}) == [{"jsonrpc": "2.0", "id": 3, "result": {}}]  # fmt: skip
    out = session.handle(call(4, "add"))  # no progress token: no progress; debug filtered out
    assert [m.get("method") for m in out] == ["notifications/message", None]


def test_stateless_version_discover_meta_and_defaults(pkg: ModuleType) -> None:
    session = server(pkg)
    [found] = session.handle({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                              "params": {"_meta": STATELESS}})  # fmt: skip
    result = found["result"]
    assert result["supportedVersions"] == ["2026-07-28"]
    assert result["resultType"] == "complete" and result["capabilities"] == {
        "logging": {},
        "tools": {},
    }
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "demo"
    quiet = session.handle(call(2, "add", STATELESS))  # the client asked for no log level
    assert quiet == [{"jsonrpc": "2.0", "id": 2,
                      "result": {"resultType": "complete", "content": [{"type": "text", "text": "3"}]}}]  # fmt: skip
    loud = session.handle(
        call(3, "add", {**STATELESS, "io.modelcontextprotocol/logLevel": "debug"})
    )
    assert [m.get("method") for m in loud] == ["notifications/message"] * 2 + [None]
    [refused] = session.handle(call(4, "add", {**STATELESS,
                                               "io.modelcontextprotocol/protocolVersion": "1999-01-01"}))  # fmt: skip
    assert refused["error"]["code"] == pkg.versions.UNSUPPORTED_PROTOCOL_VERSION
    assert refused["error"]["data"]["supported"] == ["2026-07-28"] and refused["id"] == 4


def test_errors_have_their_codes_and_never_leak(pkg: ModuleType) -> None:
    session = server(pkg)
    session.handle(initialize("2025-11-25"))
    [boom] = session.handle(call(2, "boom"))[-1:]
    assert boom["error"] == {"code": -32603, "message": "Internal error"}
    assert "do-not-leak" not in json.dumps(boom)
    [wrong] = session.handle(call(3, "wrong"))[-1:]
    assert wrong["error"]["code"] == -32603
    assert "ListToolsResult is not a result of 'tools/call'" in wrong["error"]["message"]
    [refused] = session.handle(call(4, "refuse"))[-1:]
    assert refused["error"] == {"code": -32000, "message": "refused", "data": {"why": "test"}}
    [bad] = session.handle(
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"nmae": 1}}
    )
    assert bad["error"]["code"] == -32602
    assert {
        "path": "$.params.name",
        "message": "required property missing (expected string)",
    } in bad["error"]["data"]["errors"]
    [typo] = session.handle({"jsonrpc": "2.0", "id": 6, "method": "tools/lsit"})
    assert typo["error"]["code"] == -32601 and typo["id"] == 6
    [absent] = session.handle({"jsonrpc": "2.0", "id": 7, "method": "prompts/list"})
    assert absent["error"] == {"code": -32601, "message": "Method not found: prompts/list"}


@pytest.mark.parametrize("message", [None, 3, "x", [], [1, 2], {}, {"id": 1}, {"method": 5},
                                     {"jsonrpc": "2.0", "id": {"x": 1}, "method": "tools/call"},
                                     {"jsonrpc": "1.0", "id": 1, "method": "ping"},
                                     {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": []},
                                     {"jsonrpc": "2.0", "id": True, "method": "tools/list"}])  # fmt: skip
def test_bad_input_always_gets_an_error_and_never_raises(pkg: ModuleType, message: Any) -> None:
    session = server(pkg)
    session.handle(initialize("2025-11-25"))
    out = session.handle(message)
    assert len(out) == 1 and out[0]["jsonrpc"] == "2.0"
    assert out[0]["error"]["code"] in (-32600, -32601, -32602)


def test_async_handlers_stream_ask_the_client_and_see_cancellation(pkg: ModuleType) -> None:
    app, srv = pkg.app, pkg.server
    started = asyncio.Event()

    class Slow(srv.AsyncServerHandlers):  # type: ignore[misc,name-defined]
        async def tools_call(self, params: Any, ctx: Any) -> Any:
            ctx.progress(1)
            if params.name == "ask":
                roots = await ctx.request(app.ListRootsRequest())
                return app.CallToolResult(content=[app.TextContent(text=roots.roots[0].uri)])
            started.set()
            await asyncio.sleep(10)
            raise AssertionError("not cancelled")

    async def run() -> list[dict[str, Any]]:
        session = srv.Session(Slow(), server_info=app.Implementation(name="s", version="1"))
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await session.async_handle(initialize("2025-11-25"), send)
        asking = asyncio.ensure_future(
            session.async_handle(call(2, "ask", {"progressToken": 7}), send)
        )
        while not any(m.get("method") == "roots/list" for m in sent):
            await asyncio.sleep(0)
        request = next(m for m in sent if m.get("method") == "roots/list")
        assert sent[1]["method"] == "notifications/progress"  # streamed before the result
        await session.async_handle({"jsonrpc": "2.0", "id": request["id"],
                                    "result": {"roots": [{"uri": "file:///r"}]}}, send)  # fmt: skip
        await asking
        slow = asyncio.ensure_future(session.async_handle(call(3, "slow"), send))
        await started.wait()
        await session.async_handle({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                    "params": {"requestId": 3}}, send)  # fmt: skip
        await slow
        return sent

    sent = in_fresh_thread(asyncio.run, run())
    answer = next(m for m in sent if m.get("id") == 2 and "result" in m)
    assert answer["result"]["content"] == [{"type": "text", "text": "file:///r"}]
    assert not any(m.get("id") == 3 and ("result" in m or "error" in m) for m in sent)


GOOD = """
from {pkg} import app
from {pkg}.server import Context, ServerHandlers


class Good(ServerHandlers):
    def tools_list(self, params: app.PaginatedRequestParams | None, ctx: Context) -> app.ListToolsResult:
        return app.ListToolsResult(tools=[])
"""

BAD = """
from {pkg} import app
from {pkg}.client import Session
from {pkg}.server import Context, ServerHandlers


class WrongResult(ServerHandlers):
    def tools_call(self, params: app.CallToolRequestParams, ctx: Context) -> app.ListToolsResult:
        return app.ListToolsResult(tools=[])


class WrongParams(ServerHandlers):
    def tools_list(self, params: app.CallToolRequestParams, ctx: Context) -> app.ListToolsResult:
        return app.ListToolsResult(tools=[])


def typo(session: Session) -> None:
    print(session.request(app.ListToolsRequest()).toolz)
"""


def test_mypy_checks_handler_overrides(root: Path, pkg: ModuleType, tmp_path: Path) -> None:
    """A handler with the wrong params or result class is a mypy error; the generated server
    module and the session pass `mypy --strict` and ruff."""
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(textwrap.dedent(GOOD.format(pkg=PKG)))
    bad.write_text(textwrap.dedent(BAD.format(pkg=PKG)))
    generated = [
        root / PKG / name
        for name in ("server.py", "client.py", "_session.py", "_client.py", "_stdio.py")
    ]
    assert ruff_check(generated).returncode == 0
    proc = mypy_strict([good, bad, *generated], tmp_path / ".mypy")
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert all(line.startswith("bad.py:") for line in errors), proc.stdout
    assert any("bad.py:8:" in line and "Return type" in line for line in errors), proc.stdout
    assert any("bad.py:13:" in line and "Argument 1" in line for line in errors), proc.stdout
    assert any("bad.py:18:" in line and '"ListToolsResult" has no attribute "toolz"' in line
               for line in errors), proc.stdout  # fmt: skip
    assert len(errors) == 3, proc.stdout


# -- the example server with the official SDK's client ------------------------------------

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "stdio_server.py"
SDK_SERVER = Path(__file__).resolve().parent.parent / "benchmarks" / "sdk_lowlevel_server.py"


def code_lines(path: Path) -> int:
    """Non-blank lines that are not comments, docstrings included (they are what users read)."""
    return sum(1 for line in path.read_text().splitlines()
               if line.strip() and not line.strip().startswith("#"))  # fmt: skip


def test_example_server_is_no_longer_than_the_sdk_one() -> None:
    ours, sdk = code_lines(EXAMPLE), code_lines(SDK_SERVER)
    assert ours <= sdk, f"examples/stdio_server.py has {ours} lines, the SDK server {sdk}"


EXAMPLE_CLIENT = EXAMPLE.parent / "stdio_client.py"
SDK_CLIENT = SDK_SERVER.parent / "sdk_client.py"


def test_example_client_is_no_longer_than_the_sdk_one() -> None:
    ours, sdk = code_lines(EXAMPLE_CLIENT), code_lines(SDK_CLIENT)
    assert ours <= sdk, f"examples/stdio_client.py has {ours} lines, the SDK client {sdk}"


@pytest.mark.slow
def test_the_sdk_client_does_the_same(example_root: Path) -> None:
    """The line count compares like with like: both clients, against the example server, print
    the same session (the SDK writes progress as floats, `1.0/3.0`)."""
    env = {**os.environ, "PYTHONPATH": str(example_root), "PYTHONWARNINGS": "ignore"}
    server = [sys.executable, str(EXAMPLE)]
    outs = []
    for cmd in ([str(EXAMPLE_CLIENT), "2025-11-25"], [str(SDK_CLIENT)]):
        proc = subprocess.run([sys.executable, *cmd, "--", *server], capture_output=True,
                              text=True, env=env, timeout=120, check=False)  # fmt: skip
        assert proc.returncode == 0, proc.stderr[-3000:]
        outs.append(proc.stdout.replace(".0/", "/").replace(".0\n", "\n"))
    assert outs[0] == outs[1]
    assert "tool add: [{'type': 'text', 'text': '4'}]" in outs[0]


async def sdk_client_session(argv: list[str], env: dict[str, str], version: str) -> dict[str, Any]:
    """One session of the official SDK's client (mcp 2.3.0) with the server `argv`: what it saw."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError

    logs: list[Any] = []
    progress: list[tuple[float, float | None]] = []

    async def on_log(params: Any) -> None:
        logs.append(params.data)

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    seen: dict[str, Any] = {}
    async with stdio_client(params) as (read, write):
        stateless = version == "2026-07-28"
        async with ClientSession(read, write, logging_callback=on_log,
                                 log_level="debug" if stateless else None) as session:  # fmt: skip
            if stateless:
                found = await session.discover()
                seen["version"] = session.protocol_version
                assert "2026-07-28" in found.supported_versions
            else:
                seen["version"] = (await session.initialize()).protocol_version
            seen["tools"] = [tool.name for tool in (await session.list_tools()).tools]
            added = await session.call_tool("add", {"a": 1, "b": 2})
            seen["sum"] = added.structured_content
            counted = await session.call_tool("count", {"n": 2}, progress_callback=on_progress)
            seen["counted"] = counted.content[0].text
            read_result = await session.read_resource("demo://readme")
            seen["resource"] = read_result.contents[0].text
            seen["resources"] = [str(r.uri) for r in (await session.list_resources()).resources]
            prompt = await session.get_prompt("greet", {"name": "Bo"})
            seen["prompt"] = prompt.messages[0].content.text
            seen["prompts"] = [p.name for p in (await session.list_prompts()).prompts]
            ref = {"type": "ref/prompt", "name": "greet"}
            completion = await session.complete(ref, {"name": "name", "value": "A"})
            seen["completion"] = completion.completion.values
            try:
                await session.call_tool("nope", {})
            except MCPError as exc:
                seen["error"] = exc.error.code
    seen["progress"], seen["logs"] = progress, logs
    return seen


EXPECTED = {"tools": ["add", "count"], "sum": {"sum": 3}, "counted": "counted to 2",
            "resource": "Hello!", "resources": ["demo://readme"], "prompt": "Say hello to Bo.",
            "prompts": ["greet"], "completion": ["Ada", "Alan"], "error": -32602,
            "progress": [(1, 2), (2, 2)], "logs": [{"step": 1}, {"step": 2}]}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_example_server_with_the_sdk_client(example_root: Path, version: str) -> None:
    import anyio

    env = {**os.environ, "PYTHONPATH": str(example_root)}
    argv = [sys.executable, str(EXAMPLE), version]
    seen = in_fresh_thread(anyio.run, sdk_client_session, argv, env, version)
    assert seen.pop("version") == version
    assert seen == EXPECTED


@pytest.mark.slow
def test_the_sdk_server_does_the_same() -> None:
    """The line count compares like with like: the SDK server answers the same session."""
    import anyio

    argv = [sys.executable, str(SDK_SERVER)]
    seen = in_fresh_thread(anyio.run, sdk_client_session, argv, dict(os.environ), "2025-11-25")
    assert seen.pop("version") == "2025-11-25"
    assert seen == EXPECTED


# -- application types that are version-free where the dispatch needs them ------------------


def test_meta_reaches_versions_whose_params_do_not_declare_it(pkg: ModuleType) -> None:
    """A progress token in `params.meta` goes to a 2025-06-18 peer in `_meta`, where the wire
    carries it as an undeclared member, and comes back as `meta`."""
    app = pkg.app
    meta = app.RequestMetaObject(progress_token="t1")
    request = app.CallToolRequest(id=1, params=app.CallToolRequestParams(name="x", meta=meta))
    message = app.serialize(request, version="2025-06-18")
    assert message["params"]["_meta"] == {"progressToken": "t1"}
    back = app.parse_message(
        {**message, "id": 1}, version="2025-06-18", direction="client_to_server"
    )
    assert back.obj.params.meta.progress_token == "t1"


def test_members_other_versions_require_are_dropped(pkg: ModuleType) -> None:
    """`resultType` (required from 2026-07-28) set on a result is not sent to a 2025 peer."""
    app = pkg.app
    result = app.CallToolResult(content=[app.TextContent(text="x")], result_type="complete")
    for version in ("2025-06-18", "2025-11-25"):
        payload = app.serialize(result, version=version, method="tools/call")
        assert payload == {"content": [{"type": "text", "text": "x"}]}
    assert (
        app.serialize(result, version="2026-07-28", method="tools/call")["resultType"] == "complete"
    )


def test_json_schema_payloads_are_plain_dicts(pkg: ModuleType) -> None:
    app = pkg.app
    tool = app.Tool(name="t", input_schema={"type": "object", "properties": {"a": {}}})
    for version in VERSIONS:
        wire = app.serialize(
            app.ListToolsResult(tools=[tool]), version=version, method="tools/list"
        )
        assert wire["tools"][0]["inputSchema"] == {"type": "object", "properties": {"a": {}}}
    parsed = app.parse_result("tools/list", wire, version="2026-07-28")
    assert isinstance(parsed.tools[0].input_schema, dict)
