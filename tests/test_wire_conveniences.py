"""The SDK's conveniences on the generated server and client (issue 39, items 3 and 4): the
async stdio server loop, `stdio_client` and the async client, `supports`, typed `ctx.request`,
`server_info` and log levels, and the mistakes caught before anything is sent (a handler name
that answers nothing, swapped `McpError` arguments, a wire class where an application one
goes), each by mypy --strict or a clear error."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bindings_support import import_package, mypy_strict
from test_dispatch import in_fresh_thread, initialize
from test_wire_hostile import Scripted

pytestmark = pytest.mark.spec
PKG = "mcp_dispatch"  # the distribution tests/test_dispatch.py generates: made once a run

SERVER = """
import asyncio, sys
from {pkg} import app
from {pkg}.server import AsyncServerHandlers, Context, PeerError, Session, UnsupportedMethod
from {pkg}.server import serve_stdio_async


class Slow(AsyncServerHandlers):
    async def tools_list(self, params: app.PaginatedRequestParams | None, ctx: Context) -> app.ListToolsResult:
        return app.ListToolsResult(tools=[app.Tool(name="roots", input_schema={{"type": "object"}})])

    async def tools_call(self, params: app.CallToolRequestParams, ctx: Context) -> app.CallToolResult:
        if params.name == "sleep":
            await asyncio.sleep(30)
        ctx.progress(1, 2, "asking")
        ctx.log("info", "asking for roots")
        try:
            await ctx.request(app.ListTasksRequest(id=0))
            tasks = "sent"
        except UnsupportedMethod as exc:
            tasks = exc.message
        except PeerError as exc:
            tasks = f"peer {{exc.code}}"
        roots = await ctx.request(app.ListRootsRequest())
        text = f"{{roots.roots[0].uri}} | {{tasks}}"
        return app.CallToolResult(content=[app.TextContent(text=text)])


me = app.Implementation(name="async", version="1")
asyncio.run(serve_stdio_async(Session(Slow(), server_info=me, versions=tuple(sys.argv[1:]) or None)))
"""


@pytest.fixture(scope="module")
def root(session_distribution: Callable[[str], Path]) -> Path:
    return session_distribution(PKG)


@pytest.fixture(scope="module")
def pkg(root: Path) -> ModuleType:
    package = import_package(root, PKG)
    import_package(root, f"{PKG}.server")
    import_package(root, f"{PKG}.client")
    return package


@pytest.fixture(scope="module")
def argv(root: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    script = tmp_path_factory.mktemp("async_server") / "server.py"
    script.write_text(textwrap.dedent(SERVER.format(pkg=PKG)))
    return [sys.executable, str(script)]


def env(root: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(root)}


@pytest.mark.slow
def test_the_async_stdio_loop_sends_while_the_handler_runs(
    pkg: ModuleType, root: Path, argv: list[str]
) -> None:
    """The progress and log notifications and the server's own request leave before the
    handler ends (it waits for the roots the client has not sent yet)."""
    with pkg.client.StdioProcess([*argv, "2025-06-18"], env=env(root)) as server:
        server.send(initialize("2025-06-18"))
        assert server.receive(timeout=30)["result"]["protocolVersion"] == "2025-06-18"
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "x", "_meta": {"progressToken": "t"}}})  # fmt: skip
        got = [server.receive(timeout=30) for _ in range(3)]
        assert [m.get("method") for m in got] == [
            "notifications/progress", "notifications/message", "roots/list"]  # fmt: skip
        server.send({"jsonrpc": "2.0", "id": got[2]["id"],
                     "result": {"roots": [{"uri": "file:///r"}]}})  # fmt: skip
        reply = server.receive(timeout=30)
        [text] = reply["result"]["content"]
        assert text["text"] == (
            "file:///r | 'tasks/list' is not a method of protocol version 2025-06-18, the one "
            "agreed with the peer"
        )
        server.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})  # the loop goes on
        assert server.receive(timeout=30) == {"jsonrpc": "2.0", "id": 3, "result": {}}


@pytest.mark.slow
def test_stdio_client_and_its_timeout(pkg: ModuleType, root: Path, argv: list[str]) -> None:
    app, cl = pkg.app, pkg.client

    class Roots(cl.ClientHandlers):  # type: ignore[misc,name-defined]
        def roots_list(self, params: Any, ctx: Any) -> Any:
            return app.ListRootsResult(roots=[app.Root(uri="file:///c")])

    me = app.Implementation(name="c", version="1")
    two = [*argv, "2025-06-18", "2025-11-25"]
    with cl.stdio_client(two, Roots(), client_info=me, env=env(root), timeout=60) as session:
        assert session.version == "2025-11-25"  # discover refused: initialize, the newest
        assert isinstance(session.server_info, app.Implementation)
        assert session.server_info.name == "async"
        assert session.supports("tools/call") and session.supports("tasks/list")
        assert not session.supports("server/discover")
        seen: list[Any] = []
        call = app.CallToolRequest(params=app.CallToolRequestParams(name="x"))
        result = session.request(call, progress=lambda *a: seen.append(a))
        assert result.content[0].text == "file:///c | peer -32601"  # asked: no handler
        assert seen == [(1, 2, "asking")]
        started = time.monotonic()
        sleep = app.CallToolRequest(params=app.CallToolRequestParams(name="sleep"))
        with pytest.raises(cl.RequestTimeout, match="tools/call: no answer within 0.5 s"):
            session.request(sleep, timeout=0.5)
        assert time.monotonic() - started < 20
        assert [t.name for t in session.request(app.ListToolsRequest()).tools] == ["roots"]


@pytest.mark.slow
def test_async_stdio_client(pkg: ModuleType, root: Path, argv: list[str]) -> None:
    app, cl = pkg.app, pkg.client

    async def run() -> tuple[str | None, list[str]]:
        me = app.Implementation(name="c", version="1")
        async with cl.async_stdio_client(
            [*argv, "2025-06-18"], client_info=me, env=env(root), timeout=60
        ) as session:
            tools = await session.request(app.ListToolsRequest())
            return session.version, [t.name for t in tools.tools]

    assert in_fresh_thread(asyncio.run, run()) == ("2025-06-18", ["roots"])


def test_a_request_the_version_lacks_is_refused_before_it_is_sent(pkg: ModuleType) -> None:
    app = pkg.app

    def reply(msg: dict[str, Any]) -> list[Any]:
        if msg.get("method") != "initialize":
            return []
        result = {"protocolVersion": "2025-06-18", "capabilities": {},
                  "serverInfo": {"name": "s", "version": "1"}}  # fmt: skip
        return [{"jsonrpc": "2.0", "id": msg["id"], "result": result}]

    transport = Scripted(reply)
    session = pkg.client.Session(client_info=app.Implementation(name="c", version="1"),
                                 send=transport.send, receive=transport.receive)  # fmt: skip
    assert not session.supports("tools/list")  # nothing agreed yet
    session.connect("2025-06-18")
    sent = len(transport.sent)
    assert session.supports("tools/list") and not session.supports("tasks/list")
    with pytest.raises(pkg.client.UnsupportedMethod, match="'tasks/list' is not a method") as e:
        session.request(app.ListTasksRequest(id=0))
    assert isinstance(e.value, pkg.client.McpError) and e.value.code == -32601
    assert len(transport.sent) == sent


def test_a_handler_name_that_answers_nothing_is_a_type_error(pkg: ModuleType) -> None:
    srv, cl = pkg.server, pkg.client
    with pytest.raises(TypeError, match=r"Typo\.tool_call answers no method .*did you mean "
                       r"tools_call"):  # fmt: skip

        class Typo(srv.ServerHandlers):  # type: ignore[misc,name-defined]
            def tool_call(self, params: Any, ctx: Any) -> Any:
                return None

    with pytest.raises(TypeError, match=r"AsyncTypo\.resources_lists .*did you mean "):

        class AsyncTypo(srv.AsyncServerHandlers):  # type: ignore[misc,name-defined]
            async def resources_lists(self, params: Any, ctx: Any) -> Any:
                return None

    with pytest.raises(TypeError, match=r"Answers\.root_list .*did you mean roots_list"):

        class Answers(cl.ClientHandlers):  # type: ignore[misc,name-defined]
            def root_list(self, params: Any, ctx: Any) -> Any:
                return None

    class Fine(srv.ServerHandlers):  # type: ignore[misc,name-defined]
        LIMIT = 3  # not a method

        def tools_list(self, params: Any, ctx: Any) -> Any:
            return self._tools()

        def _tools(self) -> Any:  # a helper
            return pkg.app.ListToolsResult(tools=[])

        def ping(self, params: Any, ctx: Any) -> Any:  # a method the session answers itself
            return None

    assert Fine.LIMIT == 3


def test_a_wire_object_where_an_application_one_goes_names_both_modules(pkg: ModuleType) -> None:
    app, srv = pkg.app, pkg.server
    wire = pkg.versions.bindings("2025-11-25").models

    class Wrong(srv.ServerHandlers):  # type: ignore[misc,name-defined]
        def tools_call(self, params: Any, ctx: Any) -> Any:
            return wire.CallToolResult(content=[wire.TextContent(text="x")])

    session = srv.Session(Wrong(), server_info=app.Implementation(name="s", version="1"))
    session.handle(initialize("2025-11-25"))
    [reply] = session.handle(
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t"}}
    )
    message = reply["error"]["message"]
    assert reply["error"]["code"] == -32603
    assert f"{PKG}.v2025_11_25.models.CallToolResult is not {PKG}.app.models.CallToolResult" in (
        message
    )
    with pytest.raises(pkg.ProtocolError, match="to_app converts a wire object"):
        app.serialize(wire.ListToolsRequest(id=1), version="2025-11-25")


def test_the_library_never_warns_about_its_own_use(pkg: ModuleType) -> None:
    """A 2026-07-28 client with a log level (deprecated there: the library's own use of it),
    and a 2025-11-25 client answering roots/list: no warning at all."""
    app, srv, cl = pkg.app, pkg.server, pkg.client

    class Roots(cl.ClientHandlers):  # type: ignore[misc,name-defined]
        def roots_list(self, params: Any, ctx: Any) -> Any:
            return app.ListRootsResult(roots=[app.Root(uri="file:///x")])

    class Tools(srv.ServerHandlers):  # type: ignore[misc,name-defined]
        def tools_list(self, params: Any, ctx: Any) -> Any:
            return app.ListToolsResult(tools=[])

    me = app.Implementation(name="c", version="1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for version in ("2026-07-28", "2025-11-25"):
            server = srv.Session(Tools(), server_info=me)
            transport = Scripted(server.handle)
            client = cl.Session(Roots(), client_info=me, send=transport.send,
                                receive=transport.receive, log_level="info")  # fmt: skip
            assert client.connect(version) == version
            assert client.request(app.ListToolsRequest()).tools == []
            if version == "2026-07-28":
                meta = transport.sent[-1]["params"]["_meta"]
                assert meta["io.modelcontextprotocol/logLevel"] == "info"
                continue
            [answer] = client.handle({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"})
            assert answer["result"] == {"roots": [{"uri": "file:///x"}]}


MISTAKES = """
from {pkg} import app
from {pkg}.client import Session
from {pkg}.server import AsyncServerHandlers, Context, McpError


class Server(AsyncServerHandlers):
    async def tools_call(self, params: app.CallToolRequestParams, ctx: Context) -> app.CallToolResult:
        ctx.log("warn", "x")
        roots = await ctx.request(app.ListRootsRequest())
        print(roots.rootz)
        raise McpError("unknown tool", -32602)


def info(session: Session) -> str:
    return session.server_info.nam


def handler_returns_nothing(params: app.CallToolRequestParams, ctx: Context) -> app.CallToolResult:
    print(params.name)
"""


@pytest.mark.slow
def test_mypy_strict_catches_the_seeded_mistakes(root: Path, tmp_path: Path) -> None:
    """`ctx.log("warn")`, a typo on the awaited result of `ctx.request`, swapped `McpError`
    arguments, an optional `server_info` used as is, a handler that returns nothing."""
    user = tmp_path / "user.py"
    user.write_text(textwrap.dedent(MISTAKES.format(pkg=PKG)))
    generated = [root / PKG / "server.py", root / PKG / "client.py"]
    proc = mypy_strict([user, *generated], tmp_path / ".mypy")
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    lines = {int(line.split(":")[1]) for line in errors}
    assert {9, 11, 12, 16, 19} <= lines, proc.stdout
    text = "\n".join(errors)
    assert "Literal['warn']" in text and '"rootz"' in text and '"nam"' in text, proc.stdout
    assert "Missing return statement" in text, proc.stdout


def test_ctx_request_of_a_method_that_travels_inside_a_result(pkg: ModuleType) -> None:
    """From 2026-07-28 the server's requests go inside an input-required result: `ctx.request`
    refuses them before anything is sent, and `ctx.supports` says so first."""
    app, srv = pkg.app, pkg.server
    seen: list[Any] = []

    class Asks(srv.AsyncServerHandlers):  # type: ignore[misc,name-defined]
        async def tools_call(self, params: Any, ctx: Any) -> Any:
            seen.append((ctx.version, ctx.supports("roots/list")))
            try:
                await ctx.request(app.ListRootsRequest())
            except srv.UnsupportedMethod as exc:
                seen.append(exc.message)
            return app.CallToolResult(content=[])

    async def run() -> list[dict[str, Any]]:
        session = srv.Session(Asks(), server_info=app.Implementation(name="s", version="1"))
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "t", "_meta": meta}}  # fmt: skip
        await session.async_handle(call, send)
        return sent

    [reply] = in_fresh_thread(asyncio.run, run())
    assert reply["result"]["content"] == []
    inside = "'roots/list' travels inside an input-required result in protocol version 2026-07-28"
    assert seen == [("2026-07-28", False), inside]
