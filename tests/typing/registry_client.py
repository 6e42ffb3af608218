"""Typed uses of the method registry, per version and in application types, over a distribution
`mcp_bindings` of 2025-06-18, 2025-11-25 and 2026-07-28: `mypy --strict` must find nothing."""

from __future__ import annotations

from collections.abc import Sequence

from mcp_bindings import app, versions
from mcp_bindings.server import Context, ServerHandlers
from mcp_bindings.v2025_11_25 import models as m
from mcp_bindings.v2025_11_25 import registry as r

V = "2025-11-25"
answer = r.result(1, m.CallToolResult(content=[]), method="tools/call")
task = r.result(1, m.CreateTaskResult(task=m.Task(task_id="t", status="working", created_at="",
                                                  last_updated_at="", ttl=None)),
                method="tools/call")  # fmt: skip
pong = r.result(2, m.Result(), method="ping")
untyped = r.result(3, m.ListToolsResult(tools=[]))  # without a method: any result class
tools: Sequence[m.Tool] = r.parse_result("tools/list", {"tools": []}).tools
name: r.MethodName = r.lookup_method(str(answer["jsonrpc"]))
anything: r.ResultObject = r.parse_result(name, {})

msg = r.parse_message({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}})
if isinstance(msg.obj, m.CallToolRequest):
    tool: str = msg.obj.params.name
match msg.obj:
    case m.ListToolsRequest(params=params):
        print(params)
    case m.JSONRPCErrorResponse(error=error):
        print(error.message)

payload = app.serialize(app.CallToolResult(content=[]), version=V, method="tools/call")
request = app.serialize(app.ListToolsRequest(), version=V)
decoded = app.parse_message({"jsonrpc": "2.0", "id": 1, "method": "ping"}, version=V)
if isinstance(decoded.obj, app.CallToolRequest):
    again: str = decoded.obj.params.name
listed: Sequence[app.Tool] = app.parse_result("tools/list", {"tools": []}, version=V).tools
method: app.MethodName = app.lookup_method("tools/list")
info = versions.method_info(method, V)
wire = versions.request_message("tools/list", id=1, version=V)
converted = app.to_app(m.Tool(name="t", input_schema={"type": "object"}))
if isinstance(converted, app.Tool):
    title: str = converted.name


class Good(ServerHandlers):
    def tools_call(self, params: app.CallToolRequestParams, ctx: Context) -> app.CallToolResult:
        return app.CallToolResult(content=[])
