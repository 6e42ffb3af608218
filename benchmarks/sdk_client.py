"""The client of examples/stdio_client.py written on the official Python SDK's `ClientSession`
(mcp 2.3.0), feature for feature: it agrees on a version with the server (the SDK offers its
newest), lists and calls its tools (with progress), reads its resources, gets its prompts, and
answers the server's sampling, elicitation and roots requests and log messages.

tests/test_dispatch.py counts the non-blank, non-comment lines of both: the generated client
must need no more than the SDK does.

    python benchmarks/sdk_client.py [TOOL,...] -- SERVER COMMAND ...
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import mcp.types as t
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

SAMPLES: dict[str, Any] = {"string": "hello", "number": 2, "integer": 2, "boolean": True}


async def sampling(
    ctx: ClientRequestContext, params: t.CreateMessageRequestParams
) -> t.CreateMessageResult:
    text = t.TextContent(type="text", text="42")
    return t.CreateMessageResult(role="assistant", model="example", content=text)


async def elicitation(ctx: ClientRequestContext, params: t.ElicitRequestParams) -> t.ElicitResult:
    return t.ElicitResult(action="decline")


async def roots(ctx: ClientRequestContext) -> t.ListRootsResult:
    return t.ListRootsResult(roots=[t.Root(uri="file:///tmp", name="tmp")])


async def log(params: t.LoggingMessageNotificationParams) -> None:
    print(f"  log {params.level}: {json.dumps(params.data)}")


async def progress(done: float, total: float | None, message: str | None) -> None:
    print(f"  {done}/{total}")


def arguments(tool: t.Tool) -> dict[str, Any]:
    """Sample values for a tool's required arguments, from its input schema."""
    properties = tool.input_schema.get("properties")
    required = tool.input_schema.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        return {}
    args: dict[str, Any] = {}
    for key in required:
        spec = properties.get(key) if isinstance(key, str) else None
        if isinstance(key, str) and isinstance(spec, dict):
            args[key] = SAMPLES.get(str(spec.get("type")), "x")
    return args


async def talk(session: ClientSession, calls: list[str] | None) -> None:
    for tool in (await session.list_tools()).tools:
        if calls is not None and tool.name not in calls:
            continue
        try:
            result = await session.call_tool(tool.name, arguments(tool), progress_callback=progress)
            print(f"tool {tool.name}: {[c.model_dump(exclude_none=True) for c in result.content]}")
        except MCPError as exc:
            print(f"tool {tool.name}: error {exc.error.code} {exc.error.message}")
    for resource in (await session.list_resources()).resources:
        read = await session.read_resource(resource.uri)
        print(f"resource {resource.uri}: {len(read.contents)} content(s)")
    for prompt in (await session.list_prompts()).prompts:
        args = {a.name: "hello" for a in prompt.arguments or () if a.required}
        try:
            got = await session.get_prompt(prompt.name, args)
            print(f"prompt {prompt.name}: {len(got.messages)} message(s)")
        except MCPError as exc:
            print(f"prompt {prompt.name}: error {exc.error.code} {exc.error.message}")


async def main(argv: list[str]) -> None:
    head, command = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    server = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with stdio_client(server) as (read, write), ClientSession(
        read, write, sampling_callback=sampling, elicitation_callback=elicitation,
        list_roots_callback=roots, logging_callback=log,
    ) as session:  # fmt: skip
        result = await session.initialize()
        print(f"protocol {result.protocol_version}")
        if result.capabilities.logging is not None:
            await session.set_logging_level("info")
        await talk(session, head[0].split(",") if head else None)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1:])
