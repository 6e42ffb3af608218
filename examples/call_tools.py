"""List an MCP server's tools and call some, over stdio, with a package made by mcp-codegen.

mcp-codegen path/to/spec/2025-11-25/schema.ts -o out/mcp_2025_11_25
python examples/call_tools.py out/mcp_2025_11_25 echo,add -- python tests/e2e/peers/python_server.py
"""

import importlib
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

pkg, calls, argv = Path(sys.argv[1]), sys.argv[2].split(","), sys.argv[sys.argv.index("--") + 1 :]
sys.path.insert(0, str(pkg.parent))
mcp, reg = importlib.import_module(pkg.name), importlib.import_module(f"{pkg.name}.registry")
server = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
assert server.stdin is not None and server.stdout is not None
stdin, stdout = server.stdin, server.stdout
ids, SAMPLES = itertools.count(1), {"string": "hello", "number": 2, "integer": 2, "boolean": True}


def send(message: object) -> None:  # a wire message from registry.request/notification
    stdin.write(json.dumps(message) + "\n")
    stdin.flush()


def request(method: str, **params: Any) -> Any:  # the package is loaded by path: untyped here
    rid, info = next(ids), reg.METHODS[method]
    body = {"params": info.params_class(**params)} if params else {}
    send(reg.request(info.message_class(id=rid, **body)))  # method and jsonrpc: defaults
    while True:  # whatever arrives is validated and decoded; notifications are skipped
        msg = reg.parse_message(json.loads(stdout.readline()), direction="server_to_client")
        if msg.kind in ("result", "error") and msg.id == rid:
            if msg.kind == "error":
                sys.exit(f"{method} failed: {msg.obj.error.message}")
            return reg.parse_result(method, msg)


me = mcp.Implementation(name="call-tools-example", version="1.0")
init = request("initialize", protocol_version=reg.PROTOCOL_VERSION,
               capabilities=mcp.ClientCapabilities(), client_info=me)  # fmt: skip
print(f"{init.server_info.name} {init.server_info.version}, protocol {init.protocol_version}")
send(reg.notification(mcp.InitializedNotification()))
for tool in request("tools/list").tools:
    print(f"tool {tool.name}: {tool.description or ''}")  # an absent field is UNSET, falsy
    if tool.name in calls:
        schema = tool.input_schema  # JSON Schema stays a plain dict
        args = {k: SAMPLES[schema["properties"][k]["type"]] for k in schema.get("required", [])}
        result = request("tools/call", name=tool.name, arguments=args)
        print(f"  {tool.name}({json.dumps(args)}) -> {mcp.encode(result)['content']}")
stdin.close()
server.wait(timeout=10)
