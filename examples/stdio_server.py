"""A complete MCP server over stdio on one generated distribution: tools (one with structured
output, one that reports progress and logs), resources, prompts, completion and errors, in
every protocol version of the distribution (2025-06-18, 2025-11-25 and 2026-07-28 here).

    mcp-codegen 2025-06-18 2025-11-25 2026-07-28 -o out --package mcp_bindings
    PYTHONPATH=out python examples/stdio_server.py [VERSION ...]   # offer only these versions
"""

from __future__ import annotations

import sys

from mcp_bindings import JSON, app
from mcp_bindings.server import Context, McpError, ServerHandlers, Session, serve_stdio

NUMBERS: dict[str, JSON] = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
           "required": ["a", "b"]}  # fmt: skip
TOOLS = [
    app.Tool(name="add", description="Add two numbers", input_schema=NUMBERS,
             output_schema={"type": "object", "properties": {"sum": {"type": "number"}}}),
    app.Tool(name="count", description="Count to n, reporting progress",
             input_schema={"type": "object", "properties": {"n": {"type": "integer"}}}),
]  # fmt: skip
README = app.Resource(uri="demo://readme", name="readme", mime_type="text/plain")
GREET = app.Prompt(name="greet", description="Greet someone",
                   arguments=[app.PromptArgument(name="name", required=True)])  # fmt: skip
NAMES = ["Ada", "Alan", "Grace"]


def number(value: object) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise McpError(-32602, f"Invalid params: expected a number, got {value!r}")


class Demo(ServerHandlers):
    def tools_list(
        self, params: app.PaginatedRequestParams | None, ctx: Context
    ) -> app.ListToolsResult:
        return app.ListToolsResult(tools=TOOLS)

    def tools_call(self, params: app.CallToolRequestParams, ctx: Context) -> app.CallToolResult:
        args = params.arguments or {}
        if params.name == "add":
            total = number(args.get("a")) + number(args.get("b"))
            return app.CallToolResult(content=[app.TextContent(text=str(total))],
                                      structured_content={"sum": total})  # fmt: skip
        if params.name == "count":
            n = int(number(args.get("n", 3)))
            for i in range(1, n + 1):
                ctx.progress(i, n, f"step {i}")
                ctx.log("info", {"step": i})
            return app.CallToolResult(content=[app.TextContent(text=f"counted to {n}")])
        raise McpError(-32602, f"Unknown tool: {params.name}")

    def resources_list(
        self, params: app.PaginatedRequestParams | None, ctx: Context
    ) -> app.ListResourcesResult:
        return app.ListResourcesResult(resources=[README])

    def resources_read(
        self, params: app.ReadResourceRequestParams, ctx: Context
    ) -> app.ReadResourceResult:
        if params.uri != README.uri:
            raise McpError(-32002, f"Resource not found: {params.uri}")
        text = app.TextResourceContents(uri=README.uri, mime_type="text/plain", text="Hello!")
        return app.ReadResourceResult(contents=[text])

    def prompts_list(
        self, params: app.PaginatedRequestParams | None, ctx: Context
    ) -> app.ListPromptsResult:
        return app.ListPromptsResult(prompts=[GREET])

    def prompts_get(self, params: app.GetPromptRequestParams, ctx: Context) -> app.GetPromptResult:
        name = (params.arguments or {}).get("name", "you")
        text = app.TextContent(text=f"Say hello to {name}.")
        return app.GetPromptResult(messages=[app.PromptMessage(role="user", content=text)])

    def completion_complete(
        self, params: app.CompleteRequestParams, ctx: Context
    ) -> app.CompleteResult:
        found = [n for n in NAMES if n.startswith(params.argument.value)]
        return app.CompleteResult(completion=app.CompleteResultCompletion(values=found))


if __name__ == "__main__":
    me = app.Implementation(name="stdio-server-example", version="1.0")
    serve_stdio(Session(Demo(), server_info=me, versions=tuple(sys.argv[1:]) or None))
