"""Seeded mistakes against the registry of `mcp_bindings` (as in registry_client.py): each line
marked `# expect: CODE` must be reported by `mypy --strict` at that line, and nothing else."""

from __future__ import annotations

from mcp_bindings import app, versions
from mcp_bindings.server import Context, ServerHandlers
from mcp_bindings.v2025_11_25 import models as m
from mcp_bindings.v2025_11_25 import registry as r

V = "2025-11-25"
# a wrong result class for the method
r.result(1, m.ListToolsResult(tools=[]), method="tools/call")  # expect: call-overload
app.serialize(app.ListToolsResult(tools=[]), version=V, method="tools/call")  # expect: call-overload
# a method-name typo
r.parse_result("tools/lsit", {})  # expect: call-overload
app.parse_result("tools/lsit", {}, version=V)  # expect: call-overload
r.result(1, m.Result(), method="tools/lsit")  # expect: call-overload
versions.request_message("tools/lsit", id=1, version=V)  # expect: arg-type
# an attribute typo on a decoded message (and on one not narrowed to its class)
msg = r.parse_message({"jsonrpc": "2.0", "id": 1, "method": "tools/call"})
print(msg.obj.params.nmae)  # expect: union-attr
decoded = app.parse_message({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}, version=V)
print(decoded.obj.params.nmae)  # expect: union-attr
if isinstance(decoded.obj, app.CallToolRequest):
    print(decoded.obj.params.nmae)  # expect: attr-defined
print(app.parse_result("tools/call", {}, version=V).toolz)  # expect: union-attr
print(app.to_app(m.Tool(name="t", input_schema={"type": "object"})).nmae)  # expect: attr-defined


# a handler override with the wrong result or params type
class WrongResult(ServerHandlers):
    def tools_call(self, params: app.CallToolRequestParams, ctx: Context) -> app.ListToolsResult:  # expect: override
        return app.ListToolsResult(tools=[])


class WrongParams(ServerHandlers):
    def tools_list(self, params: app.CallToolRequestParams, ctx: Context) -> app.ListToolsResult:  # expect: override
        return app.ListToolsResult(tools=[])
