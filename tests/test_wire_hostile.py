"""A peer on the wire is data: the generated server and client (a distribution of the three
versions the SDK speaks) answer JSON-RPC 2.0 to the letter, keep going after any single bad line
or answer, and turn every malformed answer into `McpError` or `ValidationError`."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bindings_support import import_package
from test_dispatch import in_fresh_thread, initialize

pytestmark = pytest.mark.spec
PKG = "mcp_dispatch"  # the distribution tests/test_dispatch.py generates: made once a run
INFO = {"name": "s", "version": "1"}


@pytest.fixture(scope="module")
def pkg(session_distribution: Callable[[str], Path]) -> ModuleType:
    root = session_distribution(PKG)
    package = import_package(root, PKG)
    import_package(root, f"{PKG}.server")
    import_package(root, f"{PKG}.client")
    return package


def server(pkg: ModuleType, handlers: Any = None) -> Any:
    app, srv = pkg.app, pkg.server

    class Echo(srv.ServerHandlers):  # type: ignore[misc,name-defined]
        def tools_list(self, params: Any, ctx: Any) -> Any:
            return app.ListToolsResult(tools=[app.Tool(name="echo", input_schema={})])

        def tools_call(self, params: Any, ctx: Any) -> Any:
            if params.name == "none":
                return None
            if params.name == "set":
                raise srv.McpError(-32000, "not JSON data", {"x": {1, 2}})
            text = json.dumps(params.arguments)
            return app.CallToolResult(content=[app.TextContent(text=text)])

    me = app.Implementation(name="echo", version="1")
    return srv.Session(handlers if handlers is not None else Echo(), server_info=me)


def ready(pkg: ModuleType) -> Any:
    session = server(pkg)
    session.handle(initialize("2025-11-25"))
    return session


# -- Session.handle: JSON-RPC 2.0 to the letter -------------------------------------------------


@pytest.mark.parametrize("rid", [1.5, -2.25, 0, 2**53 + 1, -7, "", "abc", "\ud800", 1e300])
def test_every_id_mcp_allows_comes_back_as_it_was(pkg: ModuleType, rid: object) -> None:
    [reply] = ready(pkg).handle({"jsonrpc": "2.0", "id": rid, "method": "ping"})
    assert reply == {"jsonrpc": "2.0", "id": rid, "result": {}}
    assert type(reply["id"]) is type(rid)


INVALID = [  # (message, the id of the answer)
    ({"jsonrpc": "2.0", "method": 1, "params": "bar"}, None),  # JSON-RPC 2.0's own example
    ({"id": 3, "method": "ping"}, 3),  # no jsonrpc
    ({"jsonrpc": "1.0", "id": 4, "method": "ping"}, 4),
    ({"jsonrpc": 2.0, "id": 5, "method": "ping"}, 5),
    ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None),  # MCP: an id is never null
    ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": [1], "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": float("nan"), "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": 6, "method": None}, 6),
    ({"jsonrpc": "2.0", "id": 7, "method": ["ping"]}, 7),
    ({"jsonrpc": "2.0", "id": 8, "method": "ping", "params": "x"}, 8),
    ({"jsonrpc": "2.0", "id": 9, "method": "ping", "params": 3}, 9),
    ({"jsonrpc": "2.0", "method": "notifications/initialized", "params": True}, None),
    ({}, None),
    ([], None),  # a batch: MCP has none since 2025-06-18
    ([{"jsonrpc": "2.0", "id": 1, "method": "ping"}], None),
    ("ping", None),
    (None, None),
]


@pytest.mark.parametrize(("message", "rid"), INVALID)
def test_an_invalid_request_is_invalid_request(pkg: ModuleType, message: Any, rid: Any) -> None:
    [reply] = ready(pkg).handle(message)
    assert reply["jsonrpc"] == "2.0" and reply["id"] == rid and "id" in reply
    assert reply["error"]["code"] == -32600, reply
    assert reply["error"]["message"].startswith("Invalid Request")


def test_invalid_params_are_invalid_params(pkg: ModuleType) -> None:
    session = ready(pkg)
    [bad] = session.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}})
    assert bad["error"]["code"] == -32602 and bad["id"] == 1
    [array] = session.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": [1]})
    assert array["error"]["code"] == -32602 and array["id"] == 2


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "method": "notifications/nope"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": {}}},
        {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "echo"}},  # no id
        {"jsonrpc": "2.0", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
        {"jsonrpc": "2.0", "id": 1, "result": {}},  # responses are not answered
        {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}},
        {"id": None, "error": "x"},
        {"result": 1},
    ],
)
def test_notifications_and_responses_are_never_answered(pkg: ModuleType, message: Any) -> None:
    assert ready(pkg).handle(message) == []
    assert server(pkg).handle(message) == []  # before the handshake too


def test_mcp_error_refuses_what_json_rpc_cannot_send(pkg: ModuleType) -> None:
    McpError = pkg.server.McpError
    with pytest.raises(TypeError, match=r"code must be an int, got 'unknown tool' \(the arg"):
        McpError("unknown tool", -32602)
    for code in (1.5, True, "1", None):
        with pytest.raises(TypeError, match="code must be an int"):
            McpError(code, "x")
    with pytest.raises(TypeError, match="message must be a str"):
        McpError(-32000, b"bytes")
    session = ready(pkg)
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "set"}}
    [reply] = session.handle(call)
    assert reply["error"] == {"code": -32603, "message": "Internal error"}


def test_a_handler_that_returns_nothing_is_named(pkg: ModuleType) -> None:
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "none"}}
    [reply] = ready(pkg).handle(call)
    assert reply["error"]["code"] == -32603
    assert "tools_call returned None" in reply["error"]["message"]


def test_a_peers_error_is_never_relayed(pkg: ModuleType) -> None:
    """A client that answers the server's request with an error (well-formed or not) fails the
    tool call with -32603: its code is about its own request, and a malformed one would make
    the server's answer invalid JSON-RPC."""
    app, srv = pkg.app, pkg.server
    caught: list[Any] = []

    class Asks(srv.AsyncServerHandlers):  # type: ignore[misc,name-defined]
        async def tools_call(self, params: Any, ctx: Any) -> Any:
            if params.name == "catch":
                try:
                    await ctx.request(app.ListRootsRequest())
                except srv.PeerError as exc:
                    caught.append((exc.code, exc.message))
                    raise srv.McpError(-32000, "no roots") from None
            await ctx.request(app.ListRootsRequest())
            return app.CallToolResult(content=[])

    answers: list[Any] = [
        {"code": "x", "message": 5},
        {"code": -32601, "message": "Method not found"},
        "not an object",
        {"code": 1.5, "message": "float"},
        {"code": True, "message": "bool"},
    ]

    async def run() -> list[list[dict[str, Any]]]:
        session = server(pkg, Asks())
        out: list[list[dict[str, Any]]] = []
        for n, error in enumerate([*answers, answers[1]]):
            sent: list[dict[str, Any]] = []

            async def send(message: dict[str, Any], sent: list[Any] = sent) -> None:
                sent.append(message)

            await session.async_handle(initialize("2025-11-25"), send)
            name = "catch" if n == len(answers) else "plain"
            call = {
                "jsonrpc": "2.0",
                "id": 10 + n,
                "method": "tools/call",
                "params": {"name": name},
            }
            task = asyncio.ensure_future(session.async_handle(call, send))
            while not any(m.get("method") == "roots/list" for m in sent):
                await asyncio.sleep(0)
            asked = next(m for m in sent if m.get("method") == "roots/list")
            await session.async_handle({"jsonrpc": "2.0", "id": asked["id"], "error": error}, send)
            await session.async_handle(
                {"jsonrpc": "2.0", "id": {}, "result": {}}, send
            )  # unhashable
            await task
            out.append([m for m in sent if m.get("id") == 10 + n])
        return out

    replies = in_fresh_thread(asyncio.run, run())
    for [reply] in replies[:-1]:
        assert reply["error"] == {"code": -32603, "message": "Internal error"}, reply
    assert replies[-1][0]["error"] == {"code": -32000, "message": "no roots"}
    assert caught == [(-32601, "Method not found")]


# -- the stdio loop -----------------------------------------------------------------------------

HOSTILE_LINES = [
    b"[" * 100_000,
    b"{" * 100_000,
    b'{"a":' * 50_000,
    b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',  # a lone surrogate id: answered
    (
        b'{"jsonrpc":"2.0","id":"\\udfff\\ud800x","method":"tools/call","params":{"name":"echo",'
        b'"arguments":{"\\ud800":"\\udc00"}}}'
    ),
    b"\xff",
    b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"\xff\xfe"}',
    b'{"jsonrpc":"2.0","id":2,"id":3,"method":"ping"}',  # duplicate keys
    b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}',
    b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":'
    + b'{"a":' * 900
    + b"1"
    + b"}" * 901
    + b"}",
    b"\x00",
    b"\xef\xbb\xbf{}",
    b'"\\ud800"',
    b"[]",
    b"1",
]


def serve(
    pkg: ModuleType, lines: list[bytes], stdin_text: bool = False, loop: str = "sync"
) -> list[bytes]:
    """Run `serve_stdio` (or `serve_stdio_async`) over these lines after an initialize, then a
    ping; the output lines."""
    data = b"\n".join([json.dumps(initialize("2025-11-25")).encode(), *lines,
                       b'{"jsonrpc":"2.0","id":"last","method":"ping"}']) + b"\n"  # fmt: skip
    stdin: Any = io.BytesIO(data)
    out = io.BytesIO()
    stdout: Any = out
    if stdin_text:  # what sys.stdin and sys.stdout are: strict text over a buffer
        stdin = io.TextIOWrapper(stdin, encoding="utf-8", errors="strict")
        stdout = io.TextIOWrapper(out, encoding="ascii", errors="strict", write_through=True)
    if loop == "sync":
        pkg.server.serve_stdio(server(pkg), stdin, stdout)
    else:
        in_fresh_thread(asyncio.run, pkg.server.serve_stdio_async(server(pkg), stdin, stdout))
    stdout.flush()
    return out.getvalue().splitlines()


def check_response(runtime: ModuleType, line: bytes) -> dict[str, Any]:
    """`line` is one valid JSON-RPC 2.0 response in strict UTF-8 JSON; the message."""
    message = runtime.loads(line)  # strict: UTF-8, no NaN, no duplicate keys
    assert isinstance(message, dict) and message["jsonrpc"] == "2.0", line[:200]
    assert ("result" in message) != ("error" in message), line[:200]
    assert set(message) == {"jsonrpc", "id", "result" if "result" in message else "error"}
    rid = message["id"]
    assert rid is None or type(rid) in (str, int, float), line[:200]
    if "error" in message:
        error = message["error"]
        assert type(error["code"]) is int and isinstance(error["message"], str), line[:200]
        assert set(error) <= {"code", "message", "data"}
    else:
        assert isinstance(message["result"], dict)
    return message


@pytest.mark.parametrize("loop", ["sync", "async"])
@pytest.mark.parametrize("stdin_text", [False, True], ids=["bytes", "text"])
def test_no_line_stops_the_stdio_loop(pkg: ModuleType, stdin_text: bool, loop: str) -> None:
    out = serve(pkg, HOSTILE_LINES, stdin_text, loop)
    replies = [check_response(pkg._runtime, line) for line in out]
    by_id = {json.dumps(r["id"]): r for r in replies}
    assert by_id['"last"'] == {"jsonrpc": "2.0", "id": "last", "result": {}}
    assert by_id['"\\ud800"']["result"] == {}
    assert b'"id":"\\ud800"' in b"\n".join(out)  # escaped: the line is UTF-8
    echoed = by_id['"\\udfff\\ud800x"']["result"]["content"][0]["text"]
    assert json.loads(echoed) == {"\ud800": "\udc00"}
    assert by_id["4"]["error"]["code"] == -32602  # 900 levels: too deep for the types
    parse_errors = [r for r in replies if r.get("error", {}).get("code") == -32700]
    assert len(parse_errors) == 10 and all(r["id"] is None for r in parse_errors)
    messages = [r["error"]["message"] for r in parse_errors]
    assert any("given twice" in m for m in messages) and any("UTF-8" in m for m in messages)
    assert all(len(m) < 300 for m in messages)
    invalid = [r for r in replies if r.get("error", {}).get("code") == -32600]
    assert len(invalid) == 4  # {} (after the byte order mark), "\ud800", [] and 1


def test_a_line_past_the_limit_is_one_parse_error(pkg: ModuleType) -> None:
    stdio = pkg.server
    stream = io.BytesIO(b'{"a":"' + b"x" * 100 + b'"}\n[1]\n' + b"y" * 250 + b"\n2")
    got = list(stdio.read_lines(stream, max_line=40))
    assert got == [stdio.ParseFailure("a line longer than 40 bytes"), [1],
                   stdio.ParseFailure("a line longer than 40 bytes"), 2]  # fmt: skip
    text = list(stdio.read_lines(io.StringIO('[1]\n\n{"a":NaN}\n' + "z" * 50 + "\n{}"), 40))
    assert text[0] == [1] and text[-1] == {} and len(text) == 4
    assert "NaN is not JSON" in text[1].reason and "longer than 40" in text[2].reason


def test_the_stdio_loop_ends_quietly_when_the_client_stops_reading(pkg: ModuleType) -> None:
    class Closed(io.BytesIO):
        def write(self, data: Any) -> int:
            raise BrokenPipeError

    stdin = io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n' * 3)
    pkg.server.serve_stdio(server(pkg), stdin, Closed())


# -- the client ---------------------------------------------------------------------------------


class Scripted:
    """A transport whose server is `reply(message) -> messages to receive`."""

    def __init__(self, reply: Callable[[dict[str, Any]], list[Any]]) -> None:
        self.reply, self.sent, self.inbox = reply, [], []  # type: ignore[var-annotated]

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        self.inbox.extend(self.reply(message))

    def receive(self) -> object:
        return self.inbox.pop(0)


def client(pkg: ModuleType, reply: Callable[[dict[str, Any]], list[Any]], **options: Any) -> Any:
    transport = Scripted(reply)
    me = pkg.app.Implementation(name="c", version="1")
    session = pkg.client.Session(client_info=me, send=transport.send, receive=transport.receive,
                                 **options)  # fmt: skip
    session.transport = transport
    return session


def old_server(answer: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], list[Any]]:
    """A 2025-11-25 server whose answer to every request after initialize is `answer(msg)`."""

    def reply(msg: dict[str, Any]) -> list[Any]:
        if "id" not in msg:
            return []
        if msg.get("method") == "initialize":
            result = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": INFO}
            return [{"jsonrpc": "2.0", "id": msg["id"], "result": result}]
        found = answer(msg)
        return found if isinstance(found, list) else [found]

    return reply


@pytest.mark.parametrize(
    "error",
    [
        {"code": "-32000", "message": "x"},
        {"code": None, "message": "x"},
        {"message": "x"},
        {"code": -32000},
        {"code": -32000, "message": 5},
        "error",
        None,
        [],
        {"code": 1.5, "message": "x"},
    ],
)
def test_a_malformed_error_answer_is_a_peer_error(pkg: ModuleType, error: Any) -> None:
    session = client(pkg, old_server(lambda m: {"jsonrpc": "2.0", "id": m["id"], "error": error}))
    session.connect("2025-11-25")
    with pytest.raises(pkg.client.PeerError, match="malformed error answer") as caught:
        session.request(pkg.app.ListToolsRequest())
    assert caught.value.code == -32603


@pytest.mark.parametrize(
    "answer",
    [
        {"result": []},
        {"result": {"tools": "x"}},
        {"result": None},
        {},
        {"result": {}, "error": {}},
        {"result": {"tools": [{"name": 5}]}},
    ],
)
def test_a_malformed_result_is_a_validation_error(pkg: ModuleType, answer: dict[str, Any]) -> None:
    session = client(pkg, old_server(lambda m: {"jsonrpc": "2.0", "id": m["id"], **answer}))
    session.connect("2025-11-25")
    with pytest.raises((pkg.client.McpError, pkg.ValidationError)):
        session.request(pkg.app.ListToolsRequest())


def test_a_response_to_another_id_is_not_this_ones(pkg: ModuleType) -> None:
    ok = {"tools": []}

    def answer(m: dict[str, Any]) -> list[Any]:
        return [{"jsonrpc": "2.0", "id": True, "result": {"tools": 5}},
                {"jsonrpc": "2.0", "id": str(m["id"]), "result": {"tools": 5}},
                {"jsonrpc": "2.0", "id": m["id"], "result": ok}]  # fmt: skip

    session = client(pkg, old_server(answer))
    session.connect("2025-11-25")
    assert session.request(pkg.app.ListToolsRequest()).tools == []


@pytest.mark.parametrize(
    "params",
    [
        {"progressToken": "p2"},
        {"progressToken": "p2", "progress": "half"},
        {"progressToken": "p2", "progress": 1, "total": []},
        None,
        "x",
    ],
)
def test_a_malformed_progress_notification_is_dropped(pkg: ModuleType, params: Any) -> None:
    def answer(m: dict[str, Any]) -> list[Any]:
        bad = {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}
        good = {"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": "p2", "progress": 2, "total": 4}}  # fmt: skip
        return [bad, good, {"jsonrpc": "2.0", "id": m["id"], "result": {"tools": []}}]

    session = client(pkg, old_server(answer))
    session.connect("2025-11-25")
    seen: list[Any] = []
    result = session.request(pkg.app.ListToolsRequest(), progress=lambda *a: seen.append(a))
    assert result.tools == [] and seen == [(2, 4, None)]


def test_discover_retries_are_bounded(pkg: ModuleType) -> None:
    """A server that answers every server/discover with "unsupported version", whatever the
    version: each version is offered once, then the client falls back to initialize."""
    code = pkg.versions.UNSUPPORTED_PROTOCOL_VERSION

    def reply(msg: dict[str, Any]) -> list[Any]:
        if msg.get("method") == "server/discover":
            data = {"supported": ["2026-07-28"], "requested": "2026-07-28"}
            error = {"code": code, "message": "unsupported", "data": data}
            return [{"jsonrpc": "2.0", "id": msg["id"], "error": error}]
        return old_server(lambda m: [])(msg)

    session = client(pkg, reply)
    assert session.connect() == "2025-11-25"
    methods = [m.get("method") for m in session.transport.sent]
    assert methods.count("server/discover") == 1 and "initialize" in methods


def input_required(msg: dict[str, Any]) -> list[Any]:
    """A 2026-07-28 server that answers every tools/call with another input request."""
    method = msg.get("method")
    if method == "server/discover":
        meta = {"io.modelcontextprotocol/serverInfo": INFO}
        result = {
            "supportedVersions": ["2026-07-28"],
            "capabilities": {},
            "_meta": meta,
            "resultType": "complete",
            "ttlMs": 0,
            "cacheScope": "private",
        }
        return [{"jsonrpc": "2.0", "id": msg["id"], "result": result}]
    if method == "tools/call":
        asks = {"roots": {"method": "roots/list"}}
        result = {"resultType": "input_required", "inputRequests": asks, "requestState": "s"}
        return [{"jsonrpc": "2.0", "id": msg["id"], "result": result}]
    return []


def test_input_required_rounds_are_bounded(pkg: ModuleType) -> None:
    app, cl = pkg.app, pkg.client

    class Roots(cl.ClientHandlers):  # type: ignore[misc,name-defined]
        def roots_list(self, params: Any, ctx: Any) -> Any:
            return app.ListRootsResult(roots=[])

    transport = Scripted(input_required)
    session = cl.Session(Roots(), client_info=app.Implementation(name="c", version="1"),
                         send=transport.send, receive=transport.receive, max_input_rounds=3)  # fmt: skip
    assert session.connect() == "2026-07-28"
    call = app.CallToolRequest(params=app.CallToolRequestParams(name="t"))
    with pytest.raises(cl.PeerError, match="more than max_input_rounds=3 times"):
        session.request(call)
    calls = [m for m in transport.sent if m.get("method") == "tools/call"]
    assert len(calls) == 4
    assert calls[-1]["params"]["inputResponses"] == {"roots": {"roots": []}}


def test_a_request_times_out_and_is_cancelled(pkg: ModuleType) -> None:
    waited: list[float | None] = []
    transport = Scripted(old_server(lambda m: []))

    def receive(timeout: float | None = None) -> object:
        if transport.inbox:
            return transport.inbox.pop(0)
        waited.append(timeout)
        raise TimeoutError

    me = pkg.app.Implementation(name="c", version="1")
    session = pkg.client.Session(client_info=me, send=transport.send, receive=receive,
                                 timeout=30)  # fmt: skip
    session.connect("2025-11-25")
    with pytest.raises(pkg.client.RequestTimeout, match=r"tools/list: no answer within 0.2 s"):
        session.request(pkg.app.ListToolsRequest(), timeout=0.2)
    assert len(waited) == 1 and waited[0] is not None and 0 < waited[0] <= 0.2
    cancel = transport.sent[-1]
    assert cancel["method"] == "notifications/cancelled"
    assert cancel["params"]["requestId"] == transport.sent[-2]["id"]


def test_a_chatty_server_cannot_hold_a_request_past_its_timeout(pkg: ModuleType) -> None:
    """`receive` without a timeout: the deadline is checked as each message arrives."""
    chatter = {"jsonrpc": "2.0", "method": "notifications/message",
               "params": {"level": "info", "data": "x"}}  # fmt: skip
    session = client(pkg, old_server(lambda m: [chatter] * 10**6), timeout=0.3)
    session.connect("2025-11-25")
    with pytest.raises(pkg.client.RequestTimeout):
        session.request(pkg.app.ListToolsRequest())


def test_a_server_line_that_is_not_json_is_answered_and_the_request_goes_on(
    pkg: ModuleType,
) -> None:
    failure = pkg.server.ParseFailure("invalid JSON text")

    def answer(m: dict[str, Any]) -> list[Any]:
        return [failure, {"jsonrpc": "2.0", "id": m["id"], "result": {"tools": []}}]

    session = client(pkg, old_server(answer))
    session.connect("2025-11-25")
    assert session.request(pkg.app.ListToolsRequest()).tools == []
    [parse_error] = [m for m in session.transport.sent if "error" in m]
    assert parse_error["error"]["code"] == -32700 and parse_error["id"] is None
