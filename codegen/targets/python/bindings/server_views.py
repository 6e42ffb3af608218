"""View models of a distribution's `server.py` and `client.py`: one typed handler method per
request and notification the other side sends, taking the application params class and
returning the application result classes of every version; the handler table the session
reads; and one typed `request` overload per request the side sends (the client's `request`,
the server's `ctx.request`).

Pure: the application model and the versions' method models in, plain template contexts out.
The sessions themselves are static source (templates/python/static/_session.py, _client.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from ....analysis.methods import Method, method_model
from ....analysis.versions import Version
from ....pytext import Code, code_literal, compose
from ..appmodel import AppModel
from .views import Context

Side = Literal["server", "client"]

# What a session answers itself (negotiation, liveness, the log level): no handler method.
_SERVER_ANSWERS = ("initialize", "server/discover", "ping", "logging/setLevel",
                   "notifications/initialized")  # fmt: skip
SESSION_METHODS: dict[Side, frozenset[str]] = {
    "server": frozenset(_SERVER_ANSWERS),
    "client": frozenset({"ping"}),
}
# Results a client's `request` returns as they are: the session retries an input-required
# result itself, and a task is created only for a request that asked for one.
NOT_RETURNED = frozenset({"InputRequiredResult", "CreateTaskResult"})
CAPABILITIES_TYPE: dict[Side, str] = {
    "server": "ServerCapabilities",
    "client": "ClientCapabilities",
}
RECEIVES: dict[Side, str] = {"server": "client_to_server", "client": "server_to_client"}
SENDS: dict[Side, str] = {"server": "server_to_client", "client": "client_to_server"}
# Where each generator's name a hint may spell (`Hints`) is imported from.
_ABC = "abc"
_TYPING = "typing"
_RUNTIME = "runtime"
_OWN_HOMES = {
    "Mapping": _ABC, "Sequence": _ABC, "Literal": _TYPING, "NoReturn": _TYPING,
    "JSON": _RUNTIME, "JSONInput": _RUNTIME, "UnsetType": _RUNTIME,
}  # fmt: skip


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
    request: bool  # a request (its default answers "method not found"), not a notification


@dataclass(frozen=True)
class RequestView:
    """One `request` overload (the client's, or the server's `ctx.request`): the request class
    and what it returns."""

    request: str
    result: str


@dataclass(frozen=True)
class SideView:
    handlers: tuple[HandlerView, ...]
    requests: tuple[RequestView, ...]  # the requests this side sends
    app_imports: tuple[str, ...]
    abc_imports: tuple[str, ...]
    typing_imports: tuple[str, ...]
    runtime_imports: tuple[str, ...]


def handler_name(method: str) -> str:
    """`tools/call` -> `tools_call`, `logging/setLevel` -> `logging_set_level`."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", method).lower()
    return re.sub(r"[^a-z0-9]+", "_", snake).strip("_")


class AppFacts:
    """The application names of the versions' types, and the hints of their fields."""

    def __init__(self, model: AppModel, app: Context) -> None:
        self.app_of = {(k, wire): f.name for f in model.facts for k, wire in f.wire_names.items()}
        self.classes = {c.name: c for c in app.index.dataclasses()}
        self.app = app

    def py(self, key: str, wire: str) -> str:
        return self.app.index.py_name(self.app_of.get((key, wire), wire))

    def result(self) -> Code:
        """The base of every result (what a request whose results are left out returns)."""
        py = self.app.index.py_name("Result")
        return Code(py, defined=(py,))

    def params(self, defs: list[tuple[str, Method]]) -> Code:
        key, last = defs[-1]
        request = self.classes.get(self.app_of.get((key, last.type_name), last.type_name))
        field = (
            next((f for f in request.fields if f.prop.name == "params"), None) if request else None
        )
        if field is None:
            return Code("None")
        # what a handler is passed: never unset (absent params arrive as None where optional)
        hint = self.app.hints.field_code(replace(field.prop, optional=False))
        optional = any(m.params_optional for _, m in defs) or field.prop.optional
        return compose(f"{hint.text} | None", hint) if optional else hint

    def results(
        self, defs: list[tuple[str, Method]], leave_out: frozenset[str] = frozenset()
    ) -> Code:
        seen: dict[str, Code] = {}
        empty: list[Code] = []  # `Result | None`, last: answered with `{}`, the handler may
        for key, m in defs:  # return None
            for wire in m.result_types:
                if wire in leave_out:
                    continue
                if wire == "EmptyResult":
                    if not empty:
                        result = self.result()
                        empty.append(compose(f"{result.text} | None", result))
                else:
                    py = self.py(key, wire)
                    seen.setdefault(py, Code(py, defined=(py,)))
        parts = [*seen.values(), *empty]
        return compose(" | ".join(c.text for c in parts), *parts)


def side_view(model: AppModel, versions: tuple[Version, ...], app: Context, side: Side) -> SideView:
    facts = AppFacts(model, app)
    caps = facts.classes.get(CAPABILITIES_TYPE[side])
    capability_names = {f.prop.name for f in caps.fields} if caps is not None else set()
    received: dict[str, list[tuple[str, Method]]] = {}
    sent: dict[str, list[tuple[str, Method]]] = {}
    for v in versions:
        for m in method_model(v.resolved).methods:
            receives = m.direction in (RECEIVES[side], "both")
            if receives and (m.via == "jsonrpc" or side == "client"):
                received.setdefault(m.method, []).append((v.key, m))
            if m.kind == "request" and m.via == "jsonrpc" and m.direction in (SENDS[side], "both"):
                sent.setdefault(m.method, []).append((v.key, m))
    # the Session's parameters; a client's `log_level` and the type of `server_capabilities`
    used = [Code("", defined=("Implementation", CAPABILITIES_TYPE[side]))]
    if side == "client":
        used.append(Code("", defined=("LoggingLevel", "ServerCapabilities")))
    handlers = []
    for method in sorted(received):
        defs = received[method]
        kind = defs[-1][1].kind
        session = method in SESSION_METHODS[side]
        params = facts.params(defs)
        result = facts.results(defs) if kind == "request" else Code("None")
        if not session:
            used += (params, result)
        segment = method.split("/", 1)[0]
        capability = next((c for c in (segment, segment + "s") if c in capability_names), None)
        handlers.append(HandlerView(
            method=code_literal(method),
            attr=handler_name(method),
            kind=code_literal(kind),
            capability=code_literal(capability) if capability and segment != "notifications" else "None",
            params=params.text,
            result=result.text,
            doc=_doc(method, kind, [k for k, _ in defs], versions),
            session=session,
            request=kind == "request",
        ))  # fmt: skip
    requests = []
    for method in sorted(sent):
        defs = sent[method]
        key, last = defs[-1]
        request = facts.py(key, last.type_name)
        result = facts.results(defs, NOT_RETURNED)
        if not result.text:
            result = facts.result()
        if method in ("initialize", "server/discover"):
            continue  # connect() sends these
        used += (Code(request, defined=(request,)), result)
        requests.append(RequestView(request, result.text))
    mentioned = compose("", *used)
    return SideView(
        handlers=tuple(handlers),
        requests=tuple(sorted(requests, key=lambda r: r.request)),
        app_imports=tuple(sorted(mentioned.defined)),
        abc_imports=_imports(mentioned.own, _ABC, facts.app),
        typing_imports=_imports(mentioned.own, _TYPING, facts.app),
        runtime_imports=_imports(mentioned.own, _RUNTIME, facts.app),
    )


def _imports(own: frozenset[str], home: str, app: Context) -> tuple[str, ...]:
    """The generator's names of `own` that `home` provides, as the app module spells them
    (`JSON as JSON_` where a schema type took the name)."""
    spell = app.index.names.own.peek
    return tuple(
        sorted(key if spell(key) == key else f"{key} as {spell(key)}"
               for key in own if _OWN_HOMES[key] == home)
    )  # fmt: skip


def _doc(method: str, kind: str, keys: Iterable[str], versions: tuple[Version, ...]) -> str:
    keys = list(keys)
    where = "every version" if len(keys) == len(versions) else ", ".join(keys)
    verb = "Answer" if kind == "request" else "Receive"
    return f"{verb} `{method}` ({where})."
