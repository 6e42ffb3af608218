"""Smoke tests against the real stdio peers, using raw dicts only (no generated bindings).

What the peers are (probed with the pinned versions; see peers.py for the pins):

node: @modelcontextprotocol/server-everything 2026.8.31 (TypeScript SDK 1.32.2),
  ``node .../server-everything/dist/index.js stdio``.
  initialize: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 echoed; anything else (2026-07-28
    included) is answered with 2025-11-25. No 2026-07-28 stateless mode (server/discover: -32601).
  Serves: initialize, ping, tools/list, tools/call, prompts/list, prompts/get, resources/list,
    resources/templates/list, resources/read, resources/subscribe, resources/unsubscribe,
    completion/complete, logging/setLevel, tasks/get|list|cancel|result. It does not check that
    initialize came first. Never paginates (no nextCursor; a cursor param is ignored).
  Tools: echo, get-annotated-message, get-env, get-resource-links, get-resource-reference,
    get-structured-content (outputSchema + structuredContent), get-sum, get-tiny-image,
    gzip-file-as-resource (fetches a URL by default: do not call offline), toggle-simulated-logging
    (notifications/message every 5 s), toggle-subscriber-updates (notifications/resources/updated),
    trigger-long-running-operation (notifications/progress). Registered after initialized, only if
    the client declared the capability: get-roots-list (roots/list), trigger-elicitation-request
    and trigger-url-elicitation (elicitation/create), trigger-sampling-request
    (sampling/createMessage), simulate-research-query (tasks); the *-async variants need
    tasks.requests.* client capabilities.
  Unprompted traffic: 5x notifications/tools/list_changed right after notifications/initialized;
    ~350 ms later roots/list (if the client declared roots), then a notifications/message.
  Prompts: simple-prompt, args-prompt, completable-prompt, resource-prompt.
  Resources: 7 demo://resource/static/document/*.md; templates
    demo://resource/dynamic/{text,blob}/{resourceId}.

python: peers/python_server.py on mcp 2.3.0 (see its docstring for tools/prompts/resources).
  initialize: the same four versions echoed; anything else answered with 2025-11-25.
  2026-07-28 only stateless (per-request _meta envelope, server/discover; no initialize, no ping).
  Serves everything the node peer does except tasks/*, plus subscriptions/listen and
    server/discover. resources/list paginates (2 per page, cursor "2"); the other lists do not.
  Enforces initialize first. Sends elicitation/create params with "mode": "form" even at 2025-06-18.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Spawn
from .stdio import Message, StdioPeer

TIMEOUT = 30.0  # whole-exchange bound for slow starts (node); every wait below is bounded
CLIENT_CAPS: Message = {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {"form": {}}}
HANDSHAKE_VERSIONS = ["2025-06-18", "2025-11-25"]
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "mcp-codegen-e2e", "version": "0"},
    "io.modelcontextprotocol/clientCapabilities": CLIENT_CAPS,
}

# peer -> (server name, a tool to call with its arguments, expected text in the result)
PEERS: dict[str, tuple[str, str, dict[str, Any], str]] = {
    "node": ("mcp-servers/everything", "echo", {"message": "hi"}, "Echo: hi"),
    "python": ("mcp-codegen-python-peer", "echo", {"text": "hi"}, "hi"),
}
NODE_TOOLS = {"echo", "get-sum", "get-structured-content", "trigger-long-running-operation"}
PYTHON_TOOLS = {"echo", "add", "log", "fail", "update_resource", "ask_client", "progress"}

FAKE_ANSWERS: dict[str, Message] = {
    "roots/list": {"roots": [{"uri": "file:///tmp/e2e", "name": "e2e"}]},
    "sampling/createMessage": {
        "role": "assistant",
        "content": {"type": "text", "text": "sampled"},
        "model": "fake-model",
        "stopReason": "endTurn",
    },
    "elicitation/create": {"action": "accept", "content": {"answer": "elicited"}},
}


def fake_client(peer: StdioPeer, msg: Message) -> None:
    """Answer server->client requests the way a real client would; ignore notifications."""
    if "id" in msg and "method" in msg:
        if (answer := FAKE_ANSWERS.get(msg["method"])) is not None:
            peer.respond(msg, answer)
        else:
            peer.respond_error(msg, -32601, f"Method not found: {msg['method']}")


class Client:
    def __init__(self, peer: StdioPeer) -> None:
        self.peer = peer

    def call(self, method: str, params: Message | None = None, timeout: float = TIMEOUT) -> Message:
        msg: Message = {"jsonrpc": "2.0", "id": self.peer.next_id(), "method": method}
        if params is not None:
            msg["params"] = params
        response = self.peer.request(msg, timeout=timeout)
        assert response["jsonrpc"] == "2.0"
        return response

    def result(self, method: str, params: Message | None = None) -> Message:
        response = self.call(method, params)
        assert "error" not in response, response
        result: Message = response["result"]
        return result

    def initialize(self, version: str) -> Message:
        return self.result(
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": CLIENT_CAPS,
                "clientInfo": {"name": "e2e", "version": "0"},
            },
        )


def _start(spawn: Spawn, argv: list[str], name: str) -> Client:
    return Client(spawn(argv, name=name, handler=fake_client))


def text_of(result: Message) -> str:
    return "".join(c.get("text", "") for c in result["content"] if c.get("type") == "text")


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
@pytest.mark.slow
def test_handshake_smoke(spawn: Spawn, peer_name: str, argv: list[str], version: str) -> None:
    server_name, tool, args, expected = PEERS[peer_name]
    client = _start(spawn, argv, peer_name)
    init = client.initialize(version)
    assert init["protocolVersion"] == version
    assert init["serverInfo"]["name"] == server_name
    assert isinstance(init["serverInfo"]["version"], str)
    assert {"tools", "prompts", "resources", "logging", "completions"} <= set(init["capabilities"])
    client.peer.notify("notifications/initialized")

    tools = client.result("tools/list")["tools"]
    names = {t["name"] for t in tools}
    assert (NODE_TOOLS if peer_name == "node" else PYTHON_TOOLS) <= names
    assert all(t["inputSchema"]["type"] == "object" for t in tools)
    assert "nextCursor" not in client.result("tools/list")

    result = client.result("tools/call", {"name": tool, "arguments": args})
    assert text_of(result) == expected and not result.get("isError", False)
    assert client.result("ping") == {}
    unknown = client.call("no/such/method")
    assert unknown["error"]["code"] == -32601

    assert client.peer.close() is not None
    assert all(e.message is not None for e in client.peer.transcript)


@pytest.mark.slow
def test_initialize_2026_07_28_is_counter_offered(
    spawn: Spawn, peer_name: str, argv: list[str]
) -> None:
    """Neither peer takes 2026-07-28 through initialize: both answer with their latest, 2025-11-25."""
    client = _start(spawn, argv, peer_name)
    assert client.initialize(MODERN)["protocolVersion"] == "2025-11-25"


def test_structured_output(spawn: Spawn, peer_name: str, argv: list[str]) -> None:
    client = _start(spawn, argv, peer_name)
    client.initialize("2025-06-18")
    client.peer.notify("notifications/initialized")
    tool, args = (
        ("get-structured-content", {"location": "Chicago"})
        if peer_name == "node"
        else ("add", {"a": 1, "b": 2})
    )
    schema = next(t for t in client.result("tools/list")["tools"] if t["name"] == tool)[
        "outputSchema"
    ]
    result = client.result("tools/call", {"name": tool, "arguments": args})
    assert set(schema["required"]) <= set(result["structuredContent"])
    if peer_name == "python":
        assert result["structuredContent"] == {"sum": 3}


@pytest.mark.slow
def test_server_to_client_requests(spawn: Spawn, peer_name: str, argv: list[str]) -> None:
    client = _start(spawn, argv, peer_name)
    client.initialize("2025-11-25")
    client.peer.notify("notifications/initialized")
    if peer_name == "node":
        calls = [
            ("trigger-sampling-request", {"prompt": "q", "maxTokens": 5}, "sampled"),
            ("trigger-elicitation-request", {}, "elicited"),
            ("get-roots-list", {}, "file:///tmp/e2e"),
        ]
        for tool, args, expected in calls:
            assert expected in text_of(
                client.result("tools/call", {"name": tool, "arguments": args})
            )
    else:
        got = client.result("tools/call", {"name": "ask_client", "arguments": {"question": "q"}})
        assert got["structuredContent"] == {
            "sampling": FAKE_ANSWERS["sampling/createMessage"],
            "elicitation": FAKE_ANSWERS["elicitation/create"],
            "roots": FAKE_ANSWERS["roots/list"],
        }
    methods = {m["method"] for m in client.peer.server_requests}
    assert {"sampling/createMessage", "elicitation/create", "roots/list"} <= methods


@pytest.mark.slow
def test_python_peer_features(spawn: Spawn, python_peer: list[str]) -> None:
    client = _start(spawn, python_peer, "python")
    client.initialize("2025-11-25")
    client.peer.notify("notifications/initialized")

    first = client.result("resources/list")
    second = client.result("resources/list", {"cursor": first["nextCursor"]})
    assert "nextCursor" not in second
    uris = [r["uri"] for r in first["resources"] + second["resources"]]
    assert uris == ["demo://static/readme", "demo://static/logo", "demo://static/counter"]
    assert client.result("resources/read", {"uri": "demo://static/logo"})["contents"][0]["blob"]
    templates = client.result("resources/templates/list")["resourceTemplates"]
    assert [t["uriTemplate"] for t in templates] == ["demo://items/{item_id}"]
    item = client.result("resources/read", {"uri": "demo://items/42"})["contents"][0]
    assert item["mimeType"] == "application/json" and '"42"' in item["text"]

    assert client.result("resources/subscribe", {"uri": "demo://static/counter"}) == {}
    client.result("tools/call", {"name": "update_resource", "arguments": {}})
    updated = client.peer.wait_for(
        lambda m: m.get("method") == "notifications/resources/updated", 10
    )
    assert updated["params"] == {"uri": "demo://static/counter"}

    assert client.result("logging/setLevel", {"level": "warning"}) == {}
    assert (
        text_of(
            client.result(
                "tools/call", {"name": "log", "arguments": {"level": "info", "message": "x"}}
            )
        )
        == "filtered"
    )
    client.result("tools/call", {"name": "log", "arguments": {"level": "error", "message": "boom"}})
    logged = client.peer.wait_for(lambda m: m.get("method") == "notifications/message", 10)
    assert logged["params"] == {"level": "error", "logger": "python-peer", "data": "boom"}

    prompt_ref = {"type": "ref/prompt", "name": "greet"}
    done = client.result(
        "completion/complete", {"ref": prompt_ref, "argument": {"name": "style", "value": "p"}}
    )
    assert done["completion"]["values"] == ["pirate"]
    prompts = {p["name"]: p for p in client.result("prompts/list")["prompts"]}
    assert [a["name"] for a in prompts["greet"]["arguments"]] == ["name", "style"]
    got = client.result(
        "prompts/get", {"name": "greet", "arguments": {"name": "Ann", "style": "formal"}}
    )
    assert got["messages"][0]["content"]["text"] == "Greet Ann in a formal style."

    failed = client.result("tools/call", {"name": "fail", "arguments": {}})
    assert failed["isError"] is True
    assert client.call("tools/call", {"name": "nope", "arguments": {}})["error"]["code"] == -32602


@pytest.mark.slow
def test_python_peer_2026_07_28_stateless(spawn: Spawn, python_peer: list[str]) -> None:
    """2026-07-28: no initialize; every request carries the _meta envelope."""
    client = _start(spawn, python_peer, "python")
    discover = client.result("server/discover", {"_meta": META})
    assert discover["supportedVersions"] == [MODERN] and discover["resultType"] == "complete"
    assert (
        discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mcp-codegen-python-peer"
    )

    tools = client.result("tools/list", {"_meta": META})
    assert PYTHON_TOOLS <= {t["name"] for t in tools["tools"]}
    added = client.result(
        "tools/call", {"_meta": META, "name": "add", "arguments": {"a": 2, "b": 3}}
    )
    assert added["structuredContent"] == {"sum": 5} and added["resultType"] == "complete"

    ask: Message = {"_meta": META, "name": "ask_client", "arguments": {"question": "q"}}
    pending = client.result("tools/call", ask)
    assert pending["resultType"] == "input_required"
    requests = pending["inputRequests"]
    assert {k: v["method"] for k, v in requests.items()} == {
        "sampling": "sampling/createMessage",
        "elicitation": "elicitation/create",
        "roots": "roots/list",
    }
    responses = {k: FAKE_ANSWERS[v["method"]] for k, v in requests.items()}
    done = client.result("tools/call", {**ask, "inputResponses": responses})
    assert done["resultType"] == "complete" and done["structuredContent"] == responses
    assert client.peer.server_requests == []  # no server->client JSON-RPC requests in this era

    assert client.call("ping", {"_meta": META})["error"]["code"] == -32601
    refused = client.call(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "x", "version": "0"},
        },
    )
    assert "error" in refused
