"""What the e2e client does with a server: everything the server offers, found by asking it.

``explore(client, plan)`` works for any server and either era of the protocol: it lists tools,
prompts, resources and templates (following cursors), subscribes to resources
(``resources/subscribe`` or a ``subscriptions/listen`` stream), calls every tool with arguments
built from its ``inputSchema`` (task-augmented when the tool requires it, retried with
``inputResponses`` when the result is input-required), gets every prompt with arguments found by
``completion/complete``, reads resources (static ones, links returned by tools, and templates
filled in by completion), says the roots changed, and undoes what it started. ``Plan`` holds the
few peer-specific choices (argument overrides that keep calls offline and short).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .client import Client, Json, RpcError, arguments_for

TERMINAL = ("completed", "failed", "cancelled")
TASK_TIMEOUT = 30.0


@dataclass(frozen=True)
class Plan:
    tool_arguments: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Per-tool argument overrides (on top of those built from the input schema)."""
    toggles: frozenset[str] = frozenset()
    """Tools that start something periodic: called once more at the end to stop it."""
    task_mode: Literal["complete", "cancel"] = "complete"
    """Task-augmented tool calls: poll to completion and fetch the result, or cancel at once."""
    reads: int = 3
    """How many listed resources to read (plus every link returned by a tool, and templates)."""
    argument_fallbacks: Mapping[str, str] = field(default_factory=dict)
    """Prompt/template argument values for when completion offers none."""


@dataclass
class Outcome:
    kind: str  # "ok", "isError", "rpc error -32601", "task completed", "input_required x1"...
    text: str = ""
    structured: Any = None
    links: list[str] = field(default_factory=list)  # resource_link URIs in the content


@dataclass
class Exploration:
    tools: dict[str, Outcome] = field(default_factory=dict)
    prompts: dict[str, str] = field(default_factory=dict)
    reads: dict[str, int] = field(default_factory=dict)  # uri -> number of contents
    completions: dict[str, list[str]] = field(default_factory=dict)
    subscribed: list[str] = field(default_factory=list)


def texts(content: Any) -> str:
    return "\n".join(c.get("text", "") for c in content or [] if c.get("type") == "text")


def explore(client: Client, plan: Plan) -> Exploration:
    out = Exploration()
    b = client.bindings
    m = b.models
    if b.has("ping"):
        client.call("ping")
    if client.server_has("logging") and b.has("logging/setLevel"):
        client.call("logging/setLevel", level="debug")

    tools = [b.codec.encode(t) for t in list_all(client, "tools/list", "tools", "tools")]
    resources = [r.uri for r in list_all(client, "resources/list", "resources", "resources")]
    templates = [
        t.uri_template
        for t in list_all(client, "resources/templates/list", "resource_templates", "resources")
    ]
    prompts = list_all(client, "prompts/list", "prompts", "prompts")

    listen_id = subscribe(client, resources, out)

    links: list[str] = []
    for tool in tools:
        outcome = call_tool(client, tool, plan)
        out.tools[tool["name"]] = outcome
        links += outcome.links

    for prompt in prompts:
        args = complete_arguments(client, m.PromptReference(name=prompt.name),
                                  [(a.name, a.required is True) for a in prompt.arguments or []]
                                  if prompt.arguments is not client.unset else [], plan, out)  # fmt: skip
        try:
            got = client.call("prompts/get", name=prompt.name, arguments=args or client.unset)
        except RpcError as err:
            out.prompts[prompt.name] = f"rpc error {err.code}: {err.message}"
            continue
        out.prompts[prompt.name] = "\n".join(
            str(b.codec.encode(msg.content).get("text", "")) for msg in got.messages
        )

    to_read = resources[: plan.reads] + list(dict.fromkeys(links))[: plan.reads]
    for template in templates:
        names = re.findall(r"\{(\w+)\}", template)
        ref = m.ResourceTemplateReference(uri=template)
        args = complete_arguments(client, ref, [(n, True) for n in names], plan, out)
        to_read.append(fill_template(template, args))
    for uri in to_read:
        try:
            out.reads[uri] = len(client.call("resources/read", uri=uri).contents)
        except RpcError as err:
            out.reads[uri] = -err.code

    if b.has("notifications/roots/list_changed"):
        # We declared roots.listChanged: a server may ask for roots/list again.
        asked = len(client.server_requests)
        client.notify("notifications/roots/list_changed")
        client.settle(1.0, until=lambda: len(client.server_requests) > asked or None)
    for name in sorted(plan.toggles & out.tools.keys()):
        call_tool(client, next(t for t in tools if t["name"] == name), plan)
    unsubscribe(client, out, listen_id)
    if b.has("ping"):
        client.call("ping")
    client.settle(0.3)
    return out


def fill_template(template: str, values: Mapping[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda g: values[g.group(1)], template)


def list_all(client: Client, method: str, member: str, capability: str) -> list[Any]:
    if not client.bindings.has(method) or not client.server_has(capability):
        return []
    items: list[Any] = []
    cursor = None
    for _ in range(20):
        result = client.call(method) if cursor is None else client.call(method, cursor=cursor)
        items += getattr(result, member)
        cursor = result.next_cursor
        if cursor is client.unset or cursor is None:
            return items
    raise AssertionError(f"{method}: more than 20 pages")


def subscribe(client: Client, uris: list[str], out: Exploration) -> int | None:
    """Subscribe to every listed resource; returns the id of a subscriptions/listen stream."""
    b = client.bindings
    if not uris or not client.server_has("resources", "subscribe"):
        return None
    if b.has("resources/subscribe"):
        for uri in uris:
            client.call("resources/subscribe", uri=uri)
        out.subscribed = list(uris)
        return None
    if not b.has("subscriptions/listen"):
        return None
    wanted = b.models.SubscriptionFilter(
        resource_subscriptions=list(uris),
        tools_list_changed=True,
        prompts_list_changed=True,
        resources_list_changed=True,
    )
    listen = client.send_request(
        "subscriptions/listen", client.params("subscriptions/listen", notifications=wanted)
    )
    client.wait_notification("notifications/subscriptions/acknowledged")
    out.subscribed = list(uris)
    return listen


def unsubscribe(client: Client, out: Exploration, listen_id: int | None) -> None:
    b = client.bindings
    if listen_id is not None:
        # End the stream the way any request is abandoned.
        client.notify("notifications/cancelled", request_id=listen_id, reason="e2e done")
    elif out.subscribed and b.has("resources/unsubscribe"):
        for uri in out.subscribed:
            client.call("resources/unsubscribe", uri=uri)


def call_tool(client: Client, tool: Json, plan: Plan) -> Outcome:
    b = client.bindings
    m = b.models
    name = tool["name"]
    fields: dict[str, Any] = {
        "name": name,
        "arguments": arguments_for(tool.get("inputSchema", {}), plan.tool_arguments.get(name)),
    }
    meta = {"progressToken": f"e2e-{name}"}
    if (
        tool.get("execution", {}).get("taskSupport") == "required"
        and b.has("tasks/get")
        and client.server_has("tasks")
    ):
        fields["task"] = m.TaskMetadata(ttl=60000)
    rounds = 0
    try:
        result = client.call("tools/call", meta=meta, **fields)
        while is_a(result, m, "InputRequiredResult"):
            rounds += 1
            assert rounds <= 3, f"{name}: still input-required after 3 rounds"
            retry = {**fields, "input_responses": client.answer_inputs(result)}
            if result.request_state is not client.unset:
                retry["request_state"] = result.request_state
            result = client.call("tools/call", meta=meta, **retry)
        if is_a(result, m, "CreateTaskResult"):
            return drive_task(client, result.task, plan)
    except RpcError as err:
        return Outcome(f"rpc error {err.code}", err.message)
    wire = b.codec.encode(result)
    kind = "isError" if wire.get("isError") else "ok"
    if rounds:
        kind += f" after input_required x{rounds}"
    content = wire.get("content", [])
    links = [c["uri"] for c in content if c.get("type") == "resource_link"]
    return Outcome(kind, texts(content), wire.get("structuredContent"), links)


def is_a(obj: Any, models: Any, name: str) -> bool:
    """``isinstance`` against a class the version may not have."""
    cls = getattr(models, name, None)
    return cls is not None and isinstance(obj, cls)


def drive_task(client: Client, task: Any, plan: Plan) -> Outcome:
    if plan.task_mode == "cancel":
        cancelled = client.call("tasks/cancel", task_id=task.task_id)
        return Outcome(f"task {cancelled.status}", str(cancelled.status_message))
    deadline = time.monotonic() + TASK_TIMEOUT
    while task.status not in TERMINAL:
        assert time.monotonic() < deadline, f"task {task.task_id} not done in {TASK_TIMEOUT}s"
        interval = task.poll_interval if task.poll_interval is not client.unset else 500
        client.settle(min(max(interval, 100), 1000) / 1000)
        task = client.call("tasks/get", task_id=task.task_id)
    payload = client.bindings.codec.encode(client.call("tasks/result", task_id=task.task_id))
    client.call("tasks/list")
    return Outcome(f"task {task.status}", texts(payload.get("content", [])))


def complete_arguments(
    client: Client,
    ref: Any,
    arguments: list[tuple[str, bool]],
    plan: Plan,
    out: Exploration,
) -> dict[str, str]:
    """Values for (name, required) arguments: the first completion the server offers (with the
    arguments chosen so far as context), else the plan's fallback, else a made-up one."""
    b = client.bindings
    m = b.models
    chosen: dict[str, str] = {}
    for name, required in arguments:
        value = None
        if client.server_has("completions") and b.has("completion/complete"):
            fields: dict[str, Any] = {
                "ref": ref,
                "argument": m.CompleteRequestParamsArgument(name=name, value=""),
            }
            if chosen and hasattr(m, "CompleteRequestParamsContext"):
                fields["context"] = m.CompleteRequestParamsContext(arguments=dict(chosen))
            values = list(client.call("completion/complete", **fields).completion.values)
            out.completions[f"{b.codec.encode(ref).get('name') or ref.uri}:{name}"] = values
            value = values[0] if values else None
        if value is None and (required or name in plan.argument_fallbacks):
            value = plan.argument_fallbacks.get(name, f"e2e-{name}")
        if value is not None:
            chosen[name] = value
    return chosen
