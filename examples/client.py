"""Agree on a protocol version with an MCP server over stdio, then list its tools and call some,
with the one package that mcp-codegen writes for several protocol versions.

mcp-codegen ../shared/spec/{2025-06-18,2025-11-25,2026-07-28}/schema.ts -o out --package mcp_bindings
PYTHONPATH=out python examples/client.py echo,add -- python tests/e2e/peers/python_server.py
PYTHONPATH=out python examples/client.py 2025-06-18 echo,add -- ...   # offer an older version
"""

import dataclasses
import itertools
import json
import subprocess
import sys
from typing import Any

import mcp_bindings as mcp
from mcp_bindings import versions

head, argv = sys.argv[1 : sys.argv.index("--")], sys.argv[sys.argv.index("--") + 1 :]
calls, offer = head[-1].split(","), head[0] if len(head) > 1 else mcp.LATEST_PROTOCOL_VERSION
wire = versions.registry(offer).PROTOCOL_VERSION  # a draft's label shares its release's version
supported = mcp.PROTOCOL_VERSIONS[: mcp.PROTOCOL_VERSIONS.index(wire) + 1]  # nothing newer
server = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
assert server.stdin is not None and server.stdout is not None
stdin, stdout = server.stdin, server.stdout
ids, SAMPLES = itertools.count(1), {"string": "hello", "number": 2, "integer": 2, "boolean": True}
ME = {"name": "example-client", "version": "1.0"}


class RpcError(Exception):
    def __init__(self, error: Any) -> None:
        super().__init__(f"error {error.code}: {error.message}")
        self.code = error.code


def send(message: object) -> None:  # a wire message from registry.request/notification
    stdin.write(json.dumps(message) + "\n")
    stdin.flush()


def request(version: str, method: str, **params: Any) -> Any:  # types vary with `version`
    """Send `method` with the types of `version` and return its decoded result."""
    rid, m, reg = next(ids), mcp.bindings(version), versions.registry(version)
    info = reg.METHODS[method]
    if versions.HANDSHAKES[version] == "server/discover":  # each request names its version
        params["meta"] = m.RequestMetaObject(
            io_modelcontextprotocol_protocol_version=reg.PROTOCOL_VERSION,
            io_modelcontextprotocol_client_info=m.Implementation(**ME),
            io_modelcontextprotocol_client_capabilities=m.ClientCapabilities(),
        )
    body = {"params": info.params_class(**params)} if params else {}
    if "id" in {f.name for f in dataclasses.fields(info.message_class)}:  # 2025-11-25 on
        body["id"] = rid
    send(reg.request(info.message_class(**body), id=rid))  # method and jsonrpc: defaults
    while True:  # whatever arrives is validated and decoded; notifications are skipped
        line = json.loads(stdout.readline())
        msg = mcp.parse_message(line, version=version, direction="server_to_client")
        if msg.kind in ("result", "error") and msg.id == rid:
            if msg.kind == "error":
                raise RpcError(msg.obj.error)
            return mcp.parse_result(method, msg, version=version)


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
    init = request(version, "initialize", protocol_version=version,
                   capabilities=m.ClientCapabilities(), client_info=m.Implementation(**ME))  # fmt: skip
    agreed = versions.accept_initialize(init.protocol_version, supported)  # else: disconnect
    send(versions.registry(agreed).notification(mcp.bindings(agreed).InitializedNotification()))
    return agreed, init.server_info


agreed, info = negotiate()
print(f"{info.name} {info.version}, protocol {versions.registry(agreed).PROTOCOL_VERSION}"
      f" (bindings {agreed})")  # fmt: skip
for tool in request(agreed, "tools/list").tools:
    print(f"tool {tool.name}: {tool.description or ''}")  # an absent field is UNSET, falsy
    if tool.name in calls:
        schema = tool.input_schema  # JSON Schema stays a plain dict
        args = {k: SAMPLES[schema["properties"][k]["type"]] for k in schema.get("required", [])}
        result = request(agreed, "tools/call", name=tool.name, arguments=args)
        content = result.to_dict()["content"]
        print(f"  {tool.name}({json.dumps(args)}) -> {content}")
stdin.close()
server.wait(timeout=10)
