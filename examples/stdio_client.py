"""A complete MCP client over stdio on one generated distribution: it agrees on a version with
the server, lists and calls its tools (with progress), reads its resources, gets its prompts,
and answers the server's sampling, elicitation and roots requests and log messages.

    mcp-codegen 2025-06-18 2025-11-25 2026-07-28 -o out --package mcp_bindings
    PYTHONPATH=out python examples/stdio_client.py [VERSION [TOOL,...]] -- SERVER COMMAND ...

It calls every tool, or only those named.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp_bindings import JSON, app
from mcp_bindings.client import ClientHandlers, Context, McpError, Session, stdio_client

SAMPLES: dict[str, JSON] = {"string": "hello", "number": 2, "integer": 2, "boolean": True}


class Answers(ClientHandlers):
    def sampling_create_message(self, params: Any, ctx: Context) -> app.CreateMessageResult:
        text = app.TextContent(text="42")
        return app.CreateMessageResult(role="assistant", model="example", content=text)

    def elicitation_create(self, params: Any, ctx: Context) -> app.ElicitResult:
        return app.ElicitResult(action="decline")

    def roots_list(self, params: Any, ctx: Context) -> app.ListRootsResult:
        return app.ListRootsResult(roots=[app.Root(uri="file:///tmp", name="tmp")])

    def notifications_message(
        self, params: app.LoggingMessageNotificationParams, ctx: Context
    ) -> None:
        print(f"  log {params.level}: {json.dumps(params.data)}")


def arguments(tool: app.Tool) -> dict[str, JSON]:
    """Sample values for a tool's required arguments, from its input schema."""
    properties = tool.input_schema.get("properties")
    required = tool.input_schema.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        return {}
    args: dict[str, JSON] = {}
    for key in required:
        spec = properties.get(key) if isinstance(key, str) else None
        if isinstance(key, str) and isinstance(spec, dict):
            args[key] = SAMPLES.get(str(spec.get("type")), "x")
    return args


def talk(session: Session, calls: list[str] | None) -> None:
    for tool in session.request(app.ListToolsRequest()).tools:
        if calls is not None and tool.name not in calls:
            continue
        params = app.CallToolRequestParams(name=tool.name, arguments=arguments(tool))
        try:
            result = session.request(app.CallToolRequest(params=params),
                                     progress=lambda done, total, msg: print(f"  {done}/{total}"))  # fmt: skip
            print(f"tool {tool.name}: {[c.to_dict() for c in result.content]}")
        except McpError as exc:
            print(f"tool {tool.name}: error {exc.code} {exc.message}")
    for resource in session.request(app.ListResourcesRequest()).resources:
        read = session.request(
            app.ReadResourceRequest(params=app.ReadResourceRequestParams(uri=resource.uri))
        )
        print(f"resource {resource.uri}: {len(read.contents)} content(s)")
    for prompt in session.request(app.ListPromptsRequest()).prompts:
        args = {a.name: "hello" for a in prompt.arguments or () if a.required}
        asked = app.GetPromptRequestParams(name=prompt.name, arguments=args)
        try:
            got = session.request(app.GetPromptRequest(params=asked))
            print(f"prompt {prompt.name}: {len(got.messages)} message(s)")
        except McpError as exc:
            print(f"prompt {prompt.name}: error {exc.code} {exc.message}")


def main(argv: list[str]) -> None:
    head, command = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    me = app.Implementation(name="stdio-client-example", version="1.0")
    with stdio_client(command, Answers(), client_info=me, version=head[0] if head else None,
                      log_level="info") as session:  # fmt: skip
        print(f"protocol {session.version}")
        talk(session, head[1].split(",") if len(head) > 1 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
