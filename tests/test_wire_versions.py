"""Every negotiated version served (issue 39, item 2): what the negotiated version lacks of an
optional member is left out of what a session sends (one debug log line); a required member or
a value the version cannot express still fails, naming the member and the version; `strict=True`
refuses both. Against our client and the official SDK's (mcp 2.3.0) in 2025-06-18."""

from __future__ import annotations

import json
import logging
import os
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bindings_support import import_package
from test_dispatch import in_fresh_thread, initialize
from test_wire_hostile import Scripted

pytestmark = pytest.mark.spec
PKG = "mcp_dispatch"  # the distribution tests/test_dispatch.py generates: made once a run

SERVER = """
import sys
from {pkg} import app
from {pkg}.server import ServerHandlers, Session, serve_stdio

ICON = app.Icon(src="data:image/png;base64,AA==", mime_type="image/png")
RUNS = app.ToolExecution(task_support="optional")


class Tools(ServerHandlers):
    def tools_list(self, params, ctx):
        tool = app.Tool(name="add", input_schema={{"type": "object"}}, icons=[ICON], execution=RUNS)
        return app.ListToolsResult(tools=[tool])


me = app.Implementation(name="icons", version="1")
serve_stdio(Session(Tools(), server_info=me, versions=(sys.argv[1],), strict=sys.argv[2] == "strict"))
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


def tools_server(pkg: ModuleType, strict: bool = False) -> Any:
    app, srv = pkg.app, pkg.server

    class Tools(srv.ServerHandlers):  # type: ignore[misc,name-defined]
        def tools_list(self, params: Any, ctx: Any) -> Any:
            icon = app.Icon(src="data:image/png;base64,AA==", mime_type="image/png")
            tool = app.Tool(name="add", input_schema={"type": "object"}, icons=[icon],
                            execution=app.ToolExecution(task_support="optional"))  # fmt: skip
            return app.ListToolsResult(tools=[tool])

    me = app.Implementation(name="icons", version="1")
    return srv.Session(Tools(), server_info=me, strict=strict)


LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip


@pytest.mark.parametrize(
    ("version", "kept"),
    [("2025-06-18", set()), ("2025-11-25", {"icons", "execution"}), ("2026-07-28", {"icons"})],
)
def test_members_a_version_lacks_are_left_out_and_logged(
    pkg: ModuleType, version: str, kept: set[str], caplog: pytest.LogCaptureFixture
) -> None:
    session = tools_server(pkg)
    if version == "2026-07-28":
        request: dict[str, Any] = {**LIST, "params": {"_meta": META}}
    else:
        session.handle(initialize(version))
        request = LIST
    with caplog.at_level(logging.DEBUG):
        [reply] = session.handle(request)
    [tool] = reply["result"]["tools"]
    assert set(tool) == {"name", "inputSchema"} | kept
    lines = [r.getMessage() for r in caplog.records if "left out" in r.getMessage()]
    if kept == {"icons", "execution"}:
        assert lines == []
    else:
        lacked = ", ".join(f"$.tools[0].{m}" for m in ("icons", "execution") if m not in kept)
        assert lines == [f"protocol version {version} has no {lacked}: left out"]


def test_strict_refuses_naming_the_member_and_the_version(pkg: ModuleType) -> None:
    session = tools_server(pkg, strict=True)
    session.handle(initialize("2025-06-18"))
    [reply] = session.handle(LIST)
    assert reply["error"]["code"] == -32603
    assert (
        "protocol version 2025-06-18 cannot express $.tools[0].icons" in reply["error"]["message"]
    )
    with pytest.raises(pkg.app.ConversionError, match=r"2025-06-18 cannot express \$.tools\[0\]"):
        pkg.app.serialize(
            session.handlers.tools_list(None, None), version="2025-06-18", method="tools/list"
        )


def test_what_a_version_cannot_express_still_fails(pkg: ModuleType) -> None:
    """A required member the version needs (`requestId` of a 2025-06-18 cancellation) and a
    value of a type the version lacks (a tool-use block in a 2025-06-18 sampling result) fail
    without `strict` too, naming the member and the version."""
    app = pkg.app
    session = tools_server(pkg)
    cancel = app.CancelledNotification(params=app.CancelledNotificationParams(reason="x"))
    with pytest.raises(app.ConversionError, match=r"2025-06-18 cannot express \$.params.request"):
        session.serialize(cancel, "2025-06-18")
    assert session.serialize(cancel, "2025-11-25")["params"] == {"reason": "x"}
    use = app.ToolUseContent(id="u1", name="t", input={})
    result = app.CreateMessageResult(role="assistant", model="m", content=use)
    with pytest.raises(app.ConversionError, match="protocol version 2025-06-18 cannot express"):
        app.serialize(result, version="2025-06-18", method="sampling/createMessage", strict=False)


def test_our_2025_06_18_client_gets_the_tools(pkg: ModuleType) -> None:
    server = tools_server(pkg)
    transport = Scripted(server.handle)
    me = pkg.app.Implementation(name="c", version="1")
    client = pkg.client.Session(client_info=me, send=transport.send, receive=transport.receive,
                                versions=("2025-06-18",))  # fmt: skip
    assert client.connect() == "2025-06-18"
    [tool] = client.request(pkg.app.ListToolsRequest()).tools
    assert tool.name == "add" and tool.icons is pkg.UNSET


def test_the_client_leaves_out_what_the_version_lacks_and_tolerates_results(
    pkg: ModuleType,
) -> None:
    """Requests: a member the version lacks is left out (strict: `ConversionError`); results:
    `tolerant=True` keeps a content block the version does not know."""
    app = pkg.app
    block = {"type": "hologram", "data": "?"}

    def reply(msg: dict[str, Any]) -> list[Any]:
        if msg.get("method") == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {},
                      "serverInfo": {"name": "s", "version": "1"}}  # fmt: skip
            return [{"jsonrpc": "2.0", "id": msg["id"], "result": result}]
        if msg.get("method") == "tools/call":
            return [{"jsonrpc": "2.0", "id": msg["id"], "result": {"content": [block]}}]
        return []

    me = app.Implementation(name="c", version="1", icons=[app.Icon(src="data:x")])
    for tolerant in (False, True):
        transport = Scripted(reply)
        client = pkg.client.Session(client_info=me, send=transport.send, tolerant=tolerant,
                                    receive=transport.receive)  # fmt: skip
        assert client.connect("2025-06-18") == "2025-06-18"
        assert transport.sent[0]["params"]["clientInfo"] == {"name": "c", "version": "1"}
        call = app.CallToolRequest(params=app.CallToolRequestParams(name="t"))
        if not tolerant:
            with pytest.raises(pkg.ValidationError):
                client.request(call)
            continue
        with pytest.warns(UserWarning):
            [content] = client.request(call).content
        assert content.to_dict() == block
    strict = pkg.client.Session(client_info=me, send=lambda m: None, receive=lambda: None,
                                strict=True)  # fmt: skip
    with pytest.raises(
        app.ConversionError, match=r"2025-06-18 cannot express \$.params.clientInfo"
    ):
        strict.connect("2025-06-18")


async def sdk_tools(argv: list[str], env: dict[str, str]) -> Any:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError

    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        version = (await session.initialize()).protocol_version
        try:
            tools = (await session.list_tools()).tools
        except MCPError as exc:
            return version, (exc.error.code, exc.error.message)
        return version, [json.loads(t.model_dump_json(exclude_none=True)) for t in tools]


@pytest.mark.slow
def test_the_sdk_client_in_2025_06_18(root: Path, tmp_path: Path) -> None:
    import anyio

    script = tmp_path / "icons_server.py"
    script.write_text(textwrap.dedent(SERVER.format(pkg=PKG)))
    env = {**os.environ, "PYTHONPATH": str(root)}
    for mode in ("lenient", "strict"):
        argv = [sys.executable, str(script), "2025-06-18", mode]
        version, seen = in_fresh_thread(anyio.run, sdk_tools, argv, env)
        assert version == "2025-06-18"
        if mode == "lenient":
            assert seen == [{"name": "add", "input_schema": {"type": "object"}}]
        else:
            code, message = seen
            assert code == -32603
            assert "protocol version 2025-06-18 cannot express $.tools[0].icons" in message
