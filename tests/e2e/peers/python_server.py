"""MCP stdio test peer built on the official Python SDK (``mcp`` 2.3.0, low-level ``Server``).

Run: ``python tests/e2e/peers/python_server.py`` (speaks newline-delimited JSON-RPC on stdio).

The low-level API is used on purpose: every tool/prompt/resource is spelled out here, so the
wire shapes the e2e tests see are fixed by this file rather than by SDK introspection.

Surface (``CATALOG`` below is the machine-readable summary the tests import):
  tools      echo, add (structuredContent + outputSchema), log (sends notifications/message),
             fail (isError result), update_resource (notifications/resources/updated when
             subscribed), ask_client (server->client sampling/createMessage, elicitation/create,
             roots/list; on 2026-07-28 the same three come back as an InputRequiredResult),
             progress (one notifications/progress per step when the request has a progressToken)
  prompts    greet(name, style?) with completions for ``style``; hello (no arguments)
  resources  demo://static/readme (text), demo://static/logo (blob), demo://static/counter
             (text, changed by update_resource); resources/list paginates, PAGE_SIZE per page
  templates  demo://items/{item_id}, with completions for ``item_id``
  other      ping, completion/complete, logging/setLevel, resources/subscribe + unsubscribe,
             subscriptions/listen (2026-07-28), server/discover (2026-07-28)

Protocol versions (mcp 2.3.0): ``initialize`` negotiates 2024-11-05, 2025-03-26, 2025-06-18 and
2025-11-25 verbatim and answers any other requested version (2026-07-28 included) with
2025-11-25. 2026-07-28 is served only stateless, when the first request carries the
``_meta["io.modelcontextprotocol/protocolVersion"]`` envelope (no initialize handshake).
"""

from __future__ import annotations

import base64
import json
import warnings
from typing import Any, ClassVar, TypeGuard

import anyio
import mcp.types as t
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

Ctx = ServerRequestContext[Any, Any]

PAGE_SIZE = 2
LEVELS: list[t.LoggingLevel] = [
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]  # fmt: skip
STYLES = ["casual", "formal", "pirate"]
ITEM_IDS = ["1", "2", "3", "42"]
LOGO = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()

CATALOG: dict[str, list[str]] = {
    "tools": ["echo", "add", "log", "fail", "update_resource", "ask_client", "progress"],
    "server_requesting_tools": ["ask_client"],
    "prompts": ["greet", "hello"],
    "resources": ["demo://static/readme", "demo://static/logo", "demo://static/counter"],
    "resource_templates": ["demo://items/{item_id}"],
}


class State:
    min_level: ClassVar[t.LoggingLevel] = "debug"
    counter: ClassVar[int] = 0
    subscribed: ClassVar[set[str]] = set()
    bus: ClassVar[InMemorySubscriptionBus] = InMemorySubscriptionBus()


def _obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or []}


_STR = {"type": "string"}
_NUM = {"type": "number"}

TOOLS = [
    t.Tool(
        name="echo", description="Echo the text back.", input_schema=_obj({"text": _STR}, ["text"])
    ),
    t.Tool(
        name="add",
        title="Add two numbers",
        description="Return a + b as structured content.",
        input_schema=_obj({"a": _NUM, "b": _NUM}, ["a", "b"]),
        output_schema=_obj({"sum": _NUM}, ["sum"]),
        annotations=t.ToolAnnotations(read_only_hint=True, idempotent_hint=True),
    ),
    t.Tool(
        name="log",
        description="Send one notifications/message at the given level (honours logging/setLevel).",
        input_schema=_obj(
            {"level": {"type": "string", "enum": LEVELS}, "message": _STR}, ["level", "message"]
        ),
    ),
    t.Tool(name="fail", description="Always returns isError: true.", input_schema=_obj({})),
    t.Tool(
        name="update_resource",
        description="Bump demo://static/counter; subscribers get notifications/resources/updated.",
        input_schema=_obj({}),
    ),
    t.Tool(
        name="ask_client",
        description="Ask the client for sampling, elicitation and roots; return what came back.",
        input_schema=_obj({"question": _STR}, ["question"]),
        output_schema=_obj(
            {"sampling": {}, "elicitation": {}, "roots": {}}, ["sampling", "elicitation", "roots"]
        ),
    ),
    t.Tool(
        name="progress",
        description="Report progress once per step (given a progressToken), then return.",
        input_schema=_obj({"steps": {"type": "integer", "minimum": 2, "maximum": 5}}, ["steps"]),
    ),
]


def _text(text: str) -> list[t.ContentBlock]:
    return [t.TextContent(type="text", text=text)]


def _ask_requests(
    question: str,
) -> tuple[t.CreateMessageRequest, t.ElicitRequest, t.ListRootsRequest]:
    sampling = t.CreateMessageRequest(
        params=t.CreateMessageRequestParams(
            messages=[
                t.SamplingMessage(role="user", content=t.TextContent(type="text", text=question))
            ],
            max_tokens=50,
        )
    )
    elicit = t.ElicitRequest(
        params=t.ElicitRequestFormParams(
            message=f"Answer: {question}",
            requested_schema={
                "type": "object",
                "properties": {"answer": {"type": "string"}},
                "required": ["answer"],
            },
        )
    )
    return sampling, elicit, t.ListRootsRequest()


def _is_number(x: object) -> TypeGuard[int | float]:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _dump(model: Any) -> Any:
    return (
        model.model_dump(by_alias=True, mode="json", exclude_none=True)
        if model is not None
        else None
    )


async def _ask_client(
    ctx: Ctx, params: t.CallToolRequestParams
) -> t.CallToolResult | t.InputRequiredResult:
    question = str((params.arguments or {}).get("question", ""))
    sampling, elicit, roots = _ask_requests(question)
    got: dict[str, Any]
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        # 2026-07-28: no server->client JSON-RPC requests; ask via InputRequiredResult and retry.
        if not params.input_responses:
            return t.InputRequiredResult(
                input_requests={"sampling": sampling, "elicitation": elicit, "roots": roots}
            )
        got = {
            k: _dump(params.input_responses.get(k)) for k in ("sampling", "elicitation", "roots")
        }
    else:
        session = ctx.session
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = {
                "sampling": _dump(await session.send_request(sampling, t.CreateMessageResult)),
                "elicitation": _dump(await session.send_request(elicit, t.ElicitResult)),
                "roots": _dump(await session.send_request(roots, t.ListRootsResult)),
            }
    return t.CallToolResult(content=_text(json.dumps(got, sort_keys=True)), structured_content=got)


async def list_tools(ctx: Ctx, params: t.PaginatedRequestParams | None) -> t.ListToolsResult:
    return t.ListToolsResult(tools=TOOLS)


async def call_tool(
    ctx: Ctx, params: t.CallToolRequestParams
) -> t.CallToolResult | t.InputRequiredResult:
    args = params.arguments or {}
    match params.name:
        case "echo":
            return t.CallToolResult(content=_text(str(args.get("text", ""))))
        case "add":
            a, b = args.get("a"), args.get("b")
            if not _is_number(a) or not _is_number(b):
                raise MCPError(t.INVALID_PARAMS, "a and b must be numbers")
            total = a + b
            return t.CallToolResult(
                content=_text(json.dumps({"sum": total})), structured_content={"sum": total}
            )
        case "log":
            level = args["level"]
            if level not in LEVELS:
                raise MCPError(t.INVALID_PARAMS, f"unknown level {level!r}")
            sent = LEVELS.index(level) >= LEVELS.index(State.min_level)
            if sent:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    await ctx.session.send_log_message(level, args["message"], logger="python-peer")
            return t.CallToolResult(content=_text("logged" if sent else "filtered"))
        case "fail":
            return t.CallToolResult(content=_text("this tool always fails"), is_error=True)
        case "update_resource":
            State.counter += 1
            uri = "demo://static/counter"
            if uri in State.subscribed and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
                await ctx.session.send_resource_updated(uri)
            await State.bus.publish(ResourceUpdated(uri=uri))
            return t.CallToolResult(content=_text(str(State.counter)))
        case "ask_client":
            return await _ask_client(ctx, params)
        case "progress":
            steps = args.get("steps")
            if not isinstance(steps, int) or not 1 <= steps <= 5:
                raise MCPError(t.INVALID_PARAMS, "steps must be an integer from 1 to 5")
            for step in range(1, steps + 1):
                await ctx.session.report_progress(step, steps, f"step {step} of {steps}")
            return t.CallToolResult(content=_text(f"{steps} steps done"))
    raise MCPError(t.INVALID_PARAMS, f"Unknown tool: {params.name}")


def _static() -> dict[str, t.TextResourceContents | t.BlobResourceContents]:
    return {
        "demo://static/readme": t.TextResourceContents(
            uri="demo://static/readme", mime_type="text/markdown", text="# Python peer\n"
        ),
        "demo://static/logo": t.BlobResourceContents(
            uri="demo://static/logo", mime_type="image/png", blob=LOGO
        ),
        "demo://static/counter": t.TextResourceContents(
            uri="demo://static/counter", mime_type="text/plain", text=str(State.counter)
        ),
    }


async def list_resources(
    ctx: Ctx, params: t.PaginatedRequestParams | None
) -> t.ListResourcesResult:
    uris = list(_static())
    try:
        start = int(params.cursor) if params and params.cursor else 0
    except ValueError:
        raise MCPError(t.INVALID_PARAMS, "invalid cursor") from None
    page = uris[start : start + PAGE_SIZE]
    nxt = str(start + PAGE_SIZE) if start + PAGE_SIZE < len(uris) else None
    resources = [
        t.Resource(uri=u, name=u.rsplit("/", 1)[1], mime_type=_static()[u].mime_type) for u in page
    ]
    return t.ListResourcesResult(resources=resources, next_cursor=nxt)


async def list_templates(
    ctx: Ctx, params: t.PaginatedRequestParams | None
) -> t.ListResourceTemplatesResult:
    template = t.ResourceTemplate(
        uri_template="demo://items/{item_id}", name="item", mime_type="application/json"
    )
    return t.ListResourceTemplatesResult(resource_templates=[template])


async def read_resource(ctx: Ctx, params: t.ReadResourceRequestParams) -> t.ReadResourceResult:
    uri = str(params.uri)
    if (content := _static().get(uri)) is not None:
        return t.ReadResourceResult(contents=[content])
    if uri.startswith("demo://items/"):
        item = uri.removeprefix("demo://items/")
        text = json.dumps({"id": item, "name": f"Item {item}"})
        return t.ReadResourceResult(
            contents=[t.TextResourceContents(uri=uri, mime_type="application/json", text=text)]
        )
    raise MCPError(t.INVALID_PARAMS, f"Resource not found: {uri}", {"uri": uri})


async def subscribe(ctx: Ctx, params: t.SubscribeRequestParams) -> t.EmptyResult:
    State.subscribed.add(str(params.uri))
    return t.EmptyResult()


async def unsubscribe(ctx: Ctx, params: t.UnsubscribeRequestParams) -> t.EmptyResult:
    State.subscribed.discard(str(params.uri))
    return t.EmptyResult()


PROMPTS = [
    t.Prompt(
        name="greet",
        description="Greet someone.",
        arguments=[
            t.PromptArgument(name="name", description="Who to greet", required=True),
            t.PromptArgument(
                name="style", description="One of " + ", ".join(STYLES), required=False
            ),
        ],
    ),
    t.Prompt(name="hello", description="A prompt without arguments."),
]


async def list_prompts(ctx: Ctx, params: t.PaginatedRequestParams | None) -> t.ListPromptsResult:
    return t.ListPromptsResult(prompts=PROMPTS)


async def get_prompt(ctx: Ctx, params: t.GetPromptRequestParams) -> t.GetPromptResult:
    args = params.arguments or {}
    if params.name == "hello":
        return t.GetPromptResult(
            messages=[
                t.PromptMessage(role="user", content=t.TextContent(type="text", text="Hello!"))
            ]
        )
    if params.name != "greet":
        raise MCPError(t.INVALID_PARAMS, f"Unknown prompt: {params.name}")
    if "name" not in args:
        raise MCPError(t.INVALID_PARAMS, "Missing required argument: name")
    text = f"Greet {args['name']} in a {args.get('style', 'casual')} style."
    return t.GetPromptResult(
        description="A greeting",
        messages=[t.PromptMessage(role="user", content=t.TextContent(type="text", text=text))],
    )


async def complete(ctx: Ctx, params: t.CompleteRequestParams) -> t.CompleteResult:
    ref, arg = params.ref, params.argument
    options: list[str] = []
    if isinstance(ref, t.PromptReference) and ref.name == "greet" and arg.name == "style":
        options = STYLES
    elif isinstance(ref, t.ResourceTemplateReference) and arg.name == "item_id":
        options = ITEM_IDS
    values = [v for v in options if v.startswith(arg.value)]
    return t.CompleteResult(
        completion=t.Completion(values=values, total=len(values), has_more=False)
    )


async def set_level(ctx: Ctx, params: t.SetLevelRequestParams) -> t.EmptyResult:
    State.min_level = params.level
    return t.EmptyResult()


def build_server() -> Server[Any]:
    with warnings.catch_warnings():
        # on_set_logging_level warns: logging is deprecated in 2026-07-28 (still served here).
        warnings.simplefilter("ignore")
        return Server(
            "mcp-codegen-python-peer",
            version="1.0.0",
            instructions="Test peer for mcp-codegen end-to-end tests.",
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_list_resources=list_resources,
            on_list_resource_templates=list_templates,
            on_read_resource=read_resource,
            on_subscribe_resource=subscribe,
            on_unsubscribe_resource=unsubscribe,
            on_subscriptions_listen=ListenHandler(State.bus),
            on_list_prompts=list_prompts,
            on_get_prompt=get_prompt,
            on_completion=complete,
            on_set_logging_level=set_level,
        )


async def main() -> None:
    server = build_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options(NotificationOptions()))


if __name__ == "__main__":
    anyio.run(main)
