"""Agree on a protocol version with an MCP server, over stdio or Streamable HTTP, then list its
tools and call some, with the one package that mcp-codegen writes for several protocol versions.

mcp-codegen ../shared/spec/{2025-06-18,2025-11-25,2026-07-28}/schema.ts -o out --package mcp_bindings
PYTHONPATH=out python examples/client.py echo,add -- python tests/e2e/peers/python_server.py
PYTHONPATH=out python examples/client.py 2025-06-18 echo,add -- ...   # offer an older version
PYTHONPATH=out python examples/client.py http://127.0.0.1:8000/mcp    # HTTP: call every tool

Over HTTP it answers JSON or SSE responses, resumes a stream the server closes (after the
`retry` time, with Last-Event-ID), and answers the server's requests: elicitation (accepting the
schema's defaults), sampling, roots and ping.
"""

import itertools
import json
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import mcp_bindings as mcp
from mcp_bindings import versions

cli = sys.argv[1:]
http = "--" not in cli  # else stdio: the server's command follows "--"
head = cli[:-1] if http else cli[: cli.index("--")]
calls, offer = (
    head[-1].split(",") if head else None,
    head[0] if len(head) > 1 else mcp.LATEST_PROTOCOL_VERSION,
)
wire = versions.registry(offer).PROTOCOL_VERSION  # a draft's label shares its release's version
supported = mcp.PROTOCOL_VERSIONS[: mcp.PROTOCOL_VERSIONS.index(wire) + 1]  # nothing newer
ids, SAMPLES = itertools.count(1), {"string": "hello", "number": 2, "integer": 2, "boolean": True}
ME = {"name": "example-client", "version": "1.0"}
# over HTTP it answers sampling and elicitation; a JSON value, since the class differs by version
CAPABILITIES: dict[str, Any] = {"sampling": {}, "elicitation": {}} if http else {}


class Stdio:
    """A server started as a subprocess; messages are lines."""

    def __init__(self, argv: list[str]) -> None:
        self.server = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.server.stdin is not None and self.server.stdout is not None
        self.stdin, self.stdout = self.server.stdin, self.server.stdout

    def send(self, message: dict[str, Any]) -> Iterator[Any]:
        """Send a message; what the server sends from then on (read lazily)."""
        self.stdin.write(json.dumps(message) + "\n")
        self.stdin.flush()
        return (json.loads(line) for line in self.stdout)

    def close(self) -> None:
        self.stdin.close()
        self.server.wait(timeout=10)


class Http:
    """Streamable HTTP: each message is a POST; a request's answer is JSON or an SSE stream."""

    def __init__(self, url: str) -> None:
        self.url, self.session, self.protocol = url, "", ""

    def open(self, method: str, body: object = None, **headers: str) -> Any:
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        if self.protocol:
            headers["MCP-Protocol-Version"] = self.protocol
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url, data, headers, method=method)
        return urllib.request.urlopen(req, timeout=60)

    def send(self, message: dict[str, Any]) -> Iterator[Any]:
        reply = self.open("POST", message, Accept="application/json, text/event-stream")
        self.session = reply.headers.get("Mcp-Session-Id") or self.session
        if "id" not in message or "method" not in message:
            reply.close()  # a notification or a response: nothing comes back (202)
            return iter(())
        if reply.headers.get_content_type() == "text/event-stream":
            return self.events(reply)
        return iter([json.loads(reply.read())])

    def events(self, reply: Any) -> Iterator[Any]:
        """The messages of an SSE stream; when the server closes it early, wait `retry` ms and
        resume it with a GET carrying the last event id (the caller stops at its answer)."""
        last, retry, data = "", 1000, list[str]()
        while True:
            with reply:
                for raw in reply:
                    field, _, value = raw.decode().rstrip("\r\n").partition(":")
                    value = value.removeprefix(" ")
                    if field == "id":
                        last = value
                    elif field == "retry" and value.isdigit():
                        retry = int(value)
                    elif field == "data":
                        data.append(value)
                    elif not field and data:  # a blank line ends an event
                        text, data = "\n".join(data), []
                        if text.strip():  # an empty one only primes the stream with an id
                            yield json.loads(text)
            if not last:
                return
            time.sleep(retry / 1000)
            reply = self.open("GET", None, Accept="text/event-stream", **{"Last-Event-ID": last})

    def listen(self, handle: Callable[[Any], None]) -> None:
        """Hand what arrives on the session's GET stream (requests and notifications outside
        any request of ours) to `handle`, in a thread; a server without one answers 405."""

        def run() -> None:
            try:
                for value in self.events(self.open("GET", None, Accept="text/event-stream")):
                    handle(value)
            except OSError:
                pass

        threading.Thread(target=run, daemon=True).start()

    def close(self) -> None:
        try:
            self.open("DELETE").close()
        except OSError:  # a server without sessions answers 405
            pass


transport = Http(cli[-1]) if http else Stdio(cli[cli.index("--") + 1 :])


class RpcError(Exception):
    def __init__(self, error: Any) -> None:
        super().__init__(f"error {error.code}: {error.message}")
        self.code = error.code


def answer(version: str, msg: Any) -> None:
    """Answer a request from the server with the types of `version`."""
    m, reg = mcp.bindings(version), versions.registry(version)
    if msg.method == "elicitation/create":  # accept the schema's defaults, else samples
        schema = msg.obj.params.requested_schema
        content = {
            k: SAMPLES[p["type"]]
            for k, p in schema["properties"].items()
            if k in schema.get("required", [])
        }
        content |= {k: p["default"] for k, p in schema["properties"].items() if "default" in p}
        out = reg.result(msg.id, m.ElicitResult(action="accept", content=content))
    elif msg.method == "sampling/createMessage":
        reply = m.TextContent(text="An answer from the example client")
        out = reg.result(
            msg.id, m.CreateMessageResult(role="assistant", content=reply, model="none")
        )
    elif msg.method == "roots/list":
        out = reg.result(msg.id, m.ListRootsResult(roots=[]))
    elif msg.method == "ping":
        out = reg.result(msg.id, m.Result())
    else:
        out = reg.error(msg.id, m.METHOD_NOT_FOUND, f"no {msg.method} here")
    transport.send(out)  # a response: nothing comes back


def received(version: str, value: object) -> None:
    """A message outside our requests: answer a request, skip a notification."""
    msg = mcp.parse_message(value, version=version, direction="server_to_client")
    if msg.kind == "request":
        answer(version, msg)


def request(version: str, method: versions.RequestMethod, **params: Any) -> Any:  # types vary
    """Send `method` with the types of `version` and return its decoded result."""
    rid, m, reg = next(ids), mcp.bindings(version), versions.registry(version)
    info = reg.METHODS[method]
    if versions.HANDSHAKES[version] == "server/discover":  # each request names its version
        params["meta"] = m.RequestMetaObject(
            io_modelcontextprotocol_protocol_version=reg.PROTOCOL_VERSION,
            io_modelcontextprotocol_client_info=m.Implementation(**ME),
            io_modelcontextprotocol_client_capabilities=m.ClientCapabilities(),
        )
    payload = info.params_class(**params) if params else None
    # whatever arrives is validated and decoded; the server's requests are answered
    for value in transport.send(mcp.request_message(method, payload, id=rid, version=version)):
        msg = mcp.parse_message(value, version=version, direction="server_to_client")
        if msg.kind == "request":
            answer(version, msg)
        elif msg.kind in ("result", "error") and msg.id == rid:
            if msg.kind == "error":
                error: Any = msg.obj  # the version's error response
                raise RpcError(error.error)
            return mcp.parse_result(method, msg, version=version)
    raise ConnectionError(f"no answer to {method}")


def negotiate() -> tuple[str, Any]:
    """The version agreed on (a key of mcp.bindings) and the server's Implementation."""
    if versions.HANDSHAKES[offer] == "server/discover":
        try:
            found = request(offer, "server/discover")
        except RpcError as err:  # no server/discover: an older server, so initialize
            if err.code != mcp.bindings(offer).METHOD_NOT_FOUND:
                raise
        else:
            agreed = versions.choose_version(found.supported_versions, supported)
            if versions.HANDSHAKES[agreed] == "server/discover":
                agreed = offer if agreed == wire else agreed  # keep the draft if it was offered
                return agreed, found.meta.io_modelcontextprotocol_server_info
    version = versions.initialize_version(supported)
    m = mcp.bindings(version)
    caps = m.ClientCapabilities.from_dict(CAPABILITIES)
    init = request(version, "initialize", protocol_version=version,
                   capabilities=caps, client_info=m.Implementation(**ME))  # fmt: skip
    agreed = versions.accept_initialize(init.protocol_version, supported)  # else: disconnect
    transport.send(
        versions.registry(agreed).notification(mcp.bindings(agreed).InitializedNotification())
    )
    if isinstance(transport, Http):  # later requests carry the version; the server may ask too
        transport.protocol = versions.registry(agreed).PROTOCOL_VERSION
        transport.listen(lambda value: received(agreed, value))
    return agreed, init.server_info


agreed, info = negotiate()
print(f"{info.name} {info.version}, protocol {versions.registry(agreed).PROTOCOL_VERSION}"
      f" (bindings {agreed})")  # fmt: skip
for tool in request(agreed, "tools/list").tools:
    print(f"tool {tool.name}: {tool.description or ''}")  # an absent field is UNSET, falsy
    if calls is None or tool.name in calls:
        schema = tool.input_schema  # JSON Schema stays a plain dict
        args = {k: SAMPLES[schema["properties"][k]["type"]] for k in schema.get("required", [])}
        result = request(agreed, "tools/call", name=tool.name, arguments=args)
        content = result.to_dict()["content"]
        print(f"  {tool.name}({json.dumps(args)}) -> {content}")
transport.close()
