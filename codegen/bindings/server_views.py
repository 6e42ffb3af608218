"""View model of a distribution's `server.py`: one typed handler method per request and
notification a client sends, taking the application params class and returning the
application result classes of every version; and the handler table the session reads.

Pure: the application model and the versions' method models in, a plain template context out.
The session itself is static source (templates/python/static/_session.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..appmodel import AppModel
from ..methods import Method, method_model
from ..versions import Version
from .text import code_literal, sort_imports
from .views import Context

# What the session answers itself (negotiation, liveness, the log level): no handler method.
SESSION_METHODS = frozenset({"initialize", "server/discover", "ping", "logging/setLevel",
                             "notifications/initialized"})  # fmt: skip
CAPABILITIES_TYPE = "ServerCapabilities"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TYPING = {"Mapping": "collections.abc", "Sequence": "collections.abc"}
_RUNTIME = {"JSON", "JSONInput", "UnsetType"}


@dataclass(frozen=True)
class HandlerView:
    method: str  # literal
    attr: str  # the handler method's name
    kind: str  # literal: "request" or "notification"
    capability: str  # literal of the capability it declares, or "None"
    params: str  # hint
    result: str  # hint ("None" for notifications)
    doc: str  # one line: what it answers and in which versions
    session: bool  # answered by the session unless overridden: no method is generated


@dataclass(frozen=True)
class ServerView:
    handlers: tuple[HandlerView, ...]
    app_imports: tuple[str, ...]
    abc_imports: tuple[str, ...]
    runtime_imports: tuple[str, ...]


def handler_name(method: str) -> str:
    """`tools/call` -> `tools_call`, `logging/setLevel` -> `logging_set_level`."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", method).lower()
    return re.sub(r"[^a-z0-9]+", "_", snake).strip("_")


def server_view(model: AppModel, versions: tuple[Version, ...], app: Context) -> ServerView:
    app_of = {(key, wire): f.name for f in model.facts for key, wire in f.wire_names.items()}
    classes = {c.name: c for c in app.index.dataclasses()}
    caps = classes.get(CAPABILITIES_TYPE)
    capability_names = {f.prop.name for f in caps.fields} if caps is not None else set()
    per_method: dict[str, list[tuple[str, Method]]] = {}
    for v in versions:
        for m in method_model(v.resolved).methods:
            if m.via == "jsonrpc" and m.direction in ("client_to_server", "both"):
                per_method.setdefault(m.method, []).append((v.key, m))
    names: set[str] = set()
    handlers = []
    for method in sorted(per_method):
        defs = per_method[method]
        key, first = defs[-1]
        request = classes.get(app_of.get((key, first.type_name), first.type_name))
        params = "None"
        if request is not None:
            field = next((f for f in request.fields if f.prop.name == "params"), None)
            if field is not None:
                hint = app.hints.field(field.prop).removesuffix(" | UnsetType")
                optional = any(m.params_optional for _, m in defs) or field.prop.optional
                params = f"{hint} | None" if optional else hint
        result = "None"
        if first.kind == "request":
            seen: list[str] = []
            for k, m in defs:
                for wire in m.result_types:
                    name = "Result | None" if wire == "EmptyResult" else app_of.get((k, wire), wire)
                    py = name if name == "Result | None" else app.index.py_name(name)
                    if py not in seen:
                        seen.append(py)
            result = " | ".join(sorted(seen, key=lambda s: s.endswith("None")))
        if method not in SESSION_METHODS:
            names.update(_NAME.findall(params + " " + result))
        segment = method.split("/", 1)[0]
        capability = next((c for c in (segment, segment + "s") if c in capability_names), None)
        if method == "notifications/cancelled" or segment == "notifications":
            capability = None
        handlers.append(
            HandlerView(
                method=code_literal(method),
                attr=handler_name(method),
                kind=code_literal(first.kind),
                capability=code_literal(capability) if capability else "None",
                params=params,
                result=result,
                doc=_doc(method, first.kind, [k for k, _ in defs], versions),
                session=method in SESSION_METHODS,
            )
        )
    names -= {"None"}
    names |= {"Implementation", CAPABILITIES_TYPE}  # the Session's own parameters
    return ServerView(
        handlers=tuple(handlers),
        app_imports=tuple(
            sort_imports([n for n in names if n not in _TYPING and n not in _RUNTIME])
        ),
        abc_imports=tuple(sorted(n for n in names if n in _TYPING)),
        runtime_imports=tuple(sorted(n for n in names if n in _RUNTIME)),
    )


def _doc(method: str, kind: str, keys: list[str], versions: tuple[Version, ...]) -> str:
    every = len(keys) == len(versions)
    where = "every version" if every else ", ".join(keys)
    verb = "Answer" if kind == "request" else "Receive"
    return f"{verb} `{method}` ({where})."
