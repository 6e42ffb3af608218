"""The server of examples/stdio_server.py written on the official Python SDK's low-level
`mcp.server.lowlevel.Server` (mcp 2.3.0), feature for feature: tools (structured output,
progress, logging that honours the client's level), resources, prompts, completion, errors.

tests/test_dispatch.py counts the non-blank, non-comment lines of both: the generated dispatch
must need no more than the SDK does.

    python benchmarks/sdk_lowlevel_server.py
"""

from __future__ import annotations

import warnings
from typing import Any

import anyio
import mcp.types as t
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

Ctx = ServerRequestContext[Any, Any]
LEVELS: list[t.LoggingLevel] = [
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]  # fmt: skip
NUMBERS = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
           "required": ["a", "b"]}  # fmt: skip
TOOLS = [
    t.Tool(name="add", description="Add two numbers", input_schema=NUMBERS,
           output_schema={"type": "object", "properties": {"sum": {"type": "number"}}}),
    t.Tool(name="count", description="Count to n, reporting progress",
           input_schema={"type": "object", "properties": {"n": {"type": "integer"}}}),
]  # fmt: skip
README = t.Resource(uri="demo://readme", name="readme", mime_type="text/plain")
GREET = t.Prompt(name="greet", description="Greet someone",
                 arguments=[t.PromptArgument(name="name", required=True)])  # fmt: skip
NAMES = ["Ada", "Alan", "Grace"]


class State:
    min_level: t.LoggingLevel = "debug"


def number(value: object) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise MCPError(t.INVALID_PARAMS, f"Invalid params: expected a number, got {value!r}")


async def list_tools(ctx: Ctx, params: t.PaginatedRequestParams | None) -> t.ListToolsResult:
    return t.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: Ctx, params: t.CallToolRequestParams) -> t.CallToolResult:
    args = params.arguments or {}
    if params.name == "add":
        total = number(args.get("a")) + number(args.get("b"))
        return t.CallToolResult(content=[t.TextContent(type="text", text=str(total))],
                                structured_content={"sum": total})  # fmt: skip
    if params.name == "count":
        n = int(number(args.get("n", 3)))
        for i in range(1, n + 1):
            await ctx.session.report_progress(i, n, f"step {i}")
            if LEVELS.index("info") >= LEVELS.index(State.min_level):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    await ctx.session.send_log_message("info", {"step": i})
        return t.CallToolResult(content=[t.TextContent(type="text", text=f"counted to {n}")])
    raise MCPError(t.INVALID_PARAMS, f"Unknown tool: {params.name}")


async def list_resources(
    ctx: Ctx, params: t.PaginatedRequestParams | None
) -> t.ListResourcesResult:
    return t.ListResourcesResult(resources=[README])


async def read_resource(ctx: Ctx, params: t.ReadResourceRequestParams) -> t.ReadResourceResult:
    if str(params.uri) != README.uri:
        raise MCPError(-32002, f"Resource not found: {params.uri}")
    text = t.TextResourceContents(uri=README.uri, mime_type="text/plain", text="Hello!")
    return t.ReadResourceResult(contents=[text])


async def list_prompts(ctx: Ctx, params: t.PaginatedRequestParams | None) -> t.ListPromptsResult:
    return t.ListPromptsResult(prompts=[GREET])


async def get_prompt(ctx: Ctx, params: t.GetPromptRequestParams) -> t.GetPromptResult:
    name = (params.arguments or {}).get("name", "you")
    text = t.TextContent(type="text", text=f"Say hello to {name}.")
    return t.GetPromptResult(messages=[t.PromptMessage(role="user", content=text)])


async def complete(ctx: Ctx, params: t.CompleteRequestParams) -> t.CompleteResult:
    found = [n for n in NAMES if n.startswith(params.argument.value)]
    return t.CompleteResult(completion=t.Completion(values=found))


async def set_level(ctx: Ctx, params: t.SetLevelRequestParams) -> t.EmptyResult:
    State.min_level = params.level
    return t.EmptyResult()


def build_server() -> Server[Any]:
    with warnings.catch_warnings():  # on_set_logging_level warns: deprecated in 2026-07-28
        warnings.simplefilter("ignore")
        return Server("stdio-server-example", version="1.0", on_list_tools=list_tools,
                      on_call_tool=call_tool, on_list_resources=list_resources,
                      on_read_resource=read_resource, on_list_prompts=list_prompts,
                      on_get_prompt=get_prompt, on_completion=complete,
                      on_set_logging_level=set_level)  # fmt: skip


async def main() -> None:
    server = build_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options(NotificationOptions()))


if __name__ == "__main__":
    anyio.run(main)
