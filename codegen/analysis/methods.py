"""The method model of a resolved schema: every method string, who sends it, what answers it.

Pure: a resolved IR in, frozen and sorted data out. Generated registries, the `registry`
subcommand and the diff's levels are all read from here (which methods carry a type: `reach`).

How each fact is derived (MCP conventions; every rule below is exercised by tests/test_methods.py):

* Message unions. `ClientRequest`, `ClientNotification`, `ClientResult` list what a client sends;
  `ServerRequest`, `ServerNotification`, `ServerResult` what a server sends. Their members are
  references to declared types; a single-member "union" (`type ClientResult = EmptyResult`) is a
  plain reference and counts as one member.
* Input requests. From 2026-07-28 on there is no `ServerRequest`: the server asks the client for
  sampling, roots or elicitation by embedding requests in an `InputRequiredResult`. The members
  of the `InputRequest` union are therefore server-to-client requests carried `via`
  "input_required", answered by the members of `InputResponse` (which travel back inside the
  retried request's params). All other requests and notifications are carried `via` "jsonrpc".
* Method string. The literal type of a message type's own `method` property. A member whose
  `method` is not a string literal is not a method (it is reported in `MethodModel.notes`).
* Kind and direction. A member of a `*Request` union (or `InputRequest`) is a request, of a
  `*Notification` union a notification. A method in both the client's and the server's union is
  `both`; otherwise the side whose union lists it sends it.
* Params. The type of the message's `params` property: a declared name, or the path-derived name
  of an inline object (`PingRequest` in 2024-11-05 inherits `Request.params`, named
  `RequestParams`). None when there is no `params` property.
* Result of a request, first rule that applies:
  1. An explicit response type: a declared object other than `JSONRPCResultResponse` that has a
     `result` property and the request's `@category` (2026-07-28: `CallToolResultResponse` with
     `result: CallToolResult | InputRequiredResult`). The member sharing the request's category
     (else the one named like the request) is the result; the other members are alternatives
     the responder may send instead (`InputRequiredResult`).
  2. `@category`: the one member of the answering result union (`ServerResult` for a client's
     request, `ClientResult` for a server's, both for `both`, `InputResponse` for input requests)
     with the request's category (`tasks/get` -> `GetTaskResult`).
  3. Name: `FooRequest` -> `FooResult` when the answering union has it (2024-11-05 has no tags).
  4. Otherwise the request carries no result of its own: `EmptyResult` (`ping`,
     `resources/subscribe`, `logging/setLevel`), or `Result` if the schema has no `EmptyResult`.
* Task augmentation (2025-11-25): a request whose params type (or any member of a params union)
  extends `TaskAugmentedRequestParams` may be answered with `CreateTaskResult` instead, so that is
  an alternative result. This is the one rule read from a base name rather than a union, because
  the schema states it only in prose on that base.
* Senders of a type: the sides from whose message unions (plus the `JSONRPCMessage` envelope, sent
  by both) the type is reachable through references. Inheritance is flattened in the resolved IR,
  so a base type is "sent" only where it is also referenced.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .. import ir
from ..records import record
from .reach import ancestors, reach, refs

Kind = Literal["request", "notification"]
Direction = Literal["client_to_server", "server_to_client", "both"]
Side = Literal["client", "server"]
Via = Literal["jsonrpc", "input_required"]

SIDES: tuple[Side, ...] = ("client", "server")
# side -> (request union, notification union, result union)
UNIONS: dict[Side, tuple[str, str, str]] = {
    "client": ("ClientRequest", "ClientNotification", "ClientResult"),
    "server": ("ServerRequest", "ServerNotification", "ServerResult"),
}
INPUT_REQUEST_UNION = "InputRequest"  # server -> client, embedded in InputRequiredResult
INPUT_RESPONSE_UNION = "InputResponse"  # client -> server, embedded in the retried request
ENVELOPE_UNION = "JSONRPCMessage"  # sent by both sides
GENERIC_RESPONSE = "JSONRPCResultResponse"
# (envelope type, the message base it wraps): what JSON-RPC adds to every request/notification
ENVELOPES = (("JSONRPCRequest", "Request"), ("JSONRPCNotification", "Notification"))
EMPTY_RESULTS = ("EmptyResult", "Result")
TASK_AUGMENTED_BASE = "TaskAugmentedRequestParams"
CREATE_TASK_RESULT = "CreateTaskResult"


@dataclass(frozen=True, slots=True, order=True)
class Method:
    """One method string of a schema version."""

    method: str
    kind: Kind
    direction: Direction
    type_name: str  # the request/notification type: "CallToolRequest"
    params_type: str | None  # "CallToolRequestParams"; None when there is no params property
    params_optional: bool  # `params?:` - a sender may omit params
    result_type: str | None  # requests only: "CallToolResult", "EmptyResult"
    alt_result_types: tuple[str, ...] = ()  # sorted: results sent instead ("InputRequiredResult")
    via: Via = "jsonrpc"
    category: str | None = None  # the `@category` tag, backticks removed

    @property
    def senders(self) -> tuple[Side, ...]:
        """Who sends the request/notification (the result goes the other way)."""
        return _direction_sides(self.direction)

    @property
    def result_types(self) -> tuple[str, ...]:
        """The result and its alternatives: every type that may answer the request."""
        return ((self.result_type,) if self.result_type else ()) + self.alt_result_types


@record(slots=True)
class TypeUse:
    """Which sides send a declared type (reachable from their message unions)."""

    name: str
    sent_by: tuple[Side, ...]


@record(slots=True)
class MethodModel:
    protocol_version: str | None  # value of LATEST_PROTOCOL_VERSION, if declared
    methods: tuple[Method, ...]  # sorted by method string
    type_uses: tuple[TypeUse, ...]  # sorted by name; only types sent by someone
    notes: tuple[str, ...] = ()  # ambiguities that the rules above could not settle

    def get(self, method: str) -> Method | None:
        return next((m for m in self.methods if m.method == method), None)

    def sent_by(self, type_name: str) -> tuple[Side, ...]:
        return next((u.sent_by for u in self.type_uses if u.name == type_name), ())

    def requests(self) -> tuple[Method, ...]:
        return tuple(m for m in self.methods if m.kind == "request")

    def notifications(self) -> tuple[Method, ...]:
        return tuple(m for m in self.methods if m.kind == "notification")


# ---------------------------------------------------------------------------------------------
# Small helpers over the resolved IR


def category(td: ir.TypeDef) -> str | None:
    value = td.doc.tag("category")
    return value.strip().strip("`").strip() if value else None


def union_members(types: dict[str, ir.TypeDef], name: str) -> tuple[str, ...]:
    """Referenced member names of a declared union (a bare reference is a one-member union)."""
    td = types.get(name)
    if td is None:
        return ()
    t = td.type
    members = t.members if isinstance(t, ir.Union_) else (t,)
    return tuple(m.name for m in members if isinstance(m, ir.Ref))


_DIRECTION_SIDES: dict[Direction, tuple[Side, ...]] = {
    "client_to_server": ("client",),
    "server_to_client": ("server",),
    "both": SIDES,
}


def envelope_properties(types: dict[str, ir.TypeDef]) -> dict[str, ir.Property]:
    """Properties the JSON-RPC envelope puts on every message (`jsonrpc`, `id`): those declared
    by `JSONRPCRequest`/`JSONRPCNotification` but not by the `Request`/`Notification` they wrap.
    A message carried as JSON-RPC has them on the wire whether or not its own type declares them."""
    out: dict[str, ir.Property] = {}
    for envelope, base in ENVELOPES:
        env, wrapped = types.get(envelope), types.get(base)
        if env is None or not isinstance(env.type, ir.Obj):
            continue
        for p in env.type.properties:
            if (
                wrapped is None
                or not isinstance(wrapped.type, ir.Obj)
                or wrapped.type.prop(p.name) is None
            ):
                out.setdefault(p.name, p)
    return out


def _direction_sides(direction: Direction) -> tuple[Side, ...]:
    return _DIRECTION_SIDES[direction]


def _direction(sides: set[Side]) -> Direction:
    if sides == {"client", "server"}:
        return "both"
    return "client_to_server" if "client" in sides else "server_to_client"


def _prop(td: ir.TypeDef, name: str) -> ir.Property | None:
    return td.type.prop(name) if isinstance(td.type, ir.Obj) else None


def _type_name(t: ir.TypeExpr) -> str | None:
    if isinstance(t, ir.Ref):
        return t.name
    if isinstance(t, ir.Obj):
        return t.name or None
    return None


# ---------------------------------------------------------------------------------------------
# Building the model


class _Builder:
    def __init__(self, resolved: ir.Resolved) -> None:
        self.types = resolved.type_map()
        self.notes: list[str] = []
        self.version = resolved.protocol_version

    def members(self, name: str) -> tuple[str, ...]:
        return union_members(self.types, name)

    def result_union(self, senders: Iterable[Side], via: Via) -> set[str]:
        """Results that may answer a request sent by `senders` (all of them must accept it)."""
        if via == "input_required":
            return set(self.members(INPUT_RESPONSE_UNION))
        sets = [
            set(self.members(UNIONS["server" if s == "client" else "client"][2])) for s in senders
        ]
        return set.intersection(*sets) if sets else set()

    def method_of(self, name: str) -> str | None:
        td = self.types[name]
        p = _prop(td, "method")
        if p is not None and isinstance(p.type, ir.Lit) and p.type.kind == "string":
            return str(p.type.value)
        self.notes.append(f"{name}: listed in a message union but has no string-literal `method`")
        return None

    def build(self) -> MethodModel:
        # method string -> (kind, type name, sending sides, via)
        found: dict[str, tuple[Kind, str, set[Side], Via]] = {}

        def add(kind: Kind, member: str, side: Side, via: Via) -> None:
            method = self.method_of(member)
            if method is None:
                return
            prev = found.get(method)
            if prev is None:
                found[method] = (kind, member, {side}, via)
            elif (prev[0], prev[1], prev[3]) != (kind, member, via):
                self.notes.append(
                    f"method '{method}': {prev[1]} ({prev[0]}) and {member} ({kind}) both claim it; "
                    f"keeping {prev[1]}"
                )
            else:
                prev[2].add(side)

        for side in SIDES:
            req_union, note_union, _ = UNIONS[side]
            for member in self.members(req_union):
                add("request", member, side, "jsonrpc")
            for member in self.members(note_union):
                add("notification", member, side, "jsonrpc")
        for member in self.members(INPUT_REQUEST_UNION):
            add("request", member, "server", "input_required")

        methods = [self.method(m, *info) for m, info in found.items()]
        return MethodModel(
            protocol_version=self.version,
            methods=tuple(sorted(methods)),
            type_uses=self.type_uses(methods),
            notes=tuple(sorted(set(self.notes))),
        )

    def method(self, method: str, kind: Kind, type_name: str, sides: set[Side], via: Via) -> Method:
        td = self.types[type_name]
        direction = _direction(sides)
        params = _prop(td, "params")
        params_type = _type_name(params.type) if params is not None else None
        result: str | None = None
        alts: tuple[str, ...] = ()
        if kind == "request":
            result, alts = self.result_of(td, method, direction, via, params_type)
        return Method(
            method=method,
            kind=kind,
            direction=direction,
            type_name=type_name,
            params_type=params_type,
            params_optional=params.optional if params is not None else True,
            result_type=result,
            alt_result_types=alts,
            via=via,
            category=category(td),
        )

    def result_of(
        self, td: ir.TypeDef, method: str, direction: Direction, via: Via, params_type: str | None
    ) -> tuple[str | None, tuple[str, ...]]:
        cat = category(td)
        by_name = td.name[: -len("Request")] + "Result" if td.name.endswith("Request") else None
        allowed = self.result_union(_direction_sides(direction), via)
        alts: set[str] = set()
        result: str | None = None

        # 1. an explicit `XResultResponse { result: A | B }` with the request's category
        for response in self.types.values():
            p = _prop(response, "result")
            if (
                p is None
                or response.name == GENERIC_RESPONSE
                or cat is None
                or category(response) != cat
            ):
                continue
            answers = [r for r in refs(p.type) if r in self.types]
            primary = [a for a in answers if category(self.types[a]) == cat] or [
                a for a in answers if a == by_name
            ]
            if len(primary) == 1:
                result = primary[0]
                alts.update(a for a in answers if a != result)
            else:
                self.notes.append(
                    f"{method}: cannot tell the result among {response.name}.result members"
                )
        # 2. the one answering-union member with the same category
        if result is None and cat is not None:
            same = sorted(r for r in allowed if r in self.types and category(self.types[r]) == cat)
            if len(same) > 1:
                same = [r for r in same if r == by_name] or same
                if len(same) > 1:
                    self.notes.append(f"{method}: several results share category '{cat}': {same}")
            result = same[0] if same else None
        # 3. FooRequest -> FooResult
        if result is None and by_name in allowed:
            result = by_name
        # 4. no result of its own
        if result is None:
            result = next((r for r in EMPTY_RESULTS if r in allowed), None)
            if result is None:
                self.notes.append(f"{method}: no result type found")
        if result is not None and result not in allowed:
            self.notes.append(f"{method}: result {result} is not in the answering result union")
        if (
            params_type is not None
            and CREATE_TASK_RESULT in self.types
            and self.task_augmented(params_type)
        ):
            alts.add(CREATE_TASK_RESULT)
        alts.discard(result or "")
        return result, tuple(sorted(alts))

    def task_augmented(self, params_type: str) -> bool:
        names = [params_type, *union_members(self.types, params_type)]
        return any(TASK_AUGMENTED_BASE in ancestors(self.types, n) for n in names)

    def type_uses(self, methods: Iterable[Method]) -> tuple[TypeUse, ...]:
        responders: dict[Side, list[str]] = {"client": [], "server": []}
        for m in methods:  # alternative results are in no union: their responders send them
            for side in SIDES:
                if side not in m.senders or m.direction == "both":
                    responders[side].extend(m.result_types)
        sent: dict[str, set[Side]] = {}
        for side in SIDES:
            roots = [n for u in UNIONS[side] for n in (u, *self.members(u))] + responders[side]
            if side == "server":
                roots.append(INPUT_REQUEST_UNION)
            else:
                roots.append(INPUT_RESPONSE_UNION)
            roots.append(ENVELOPE_UNION)
            for name in reach(self.types, roots):
                sent.setdefault(name, set()).add(side)
        return tuple(TypeUse(n, tuple(s for s in SIDES if s in sent[n])) for n in sorted(sent))


def method_model(resolved: ir.Resolved) -> MethodModel:
    """The method model of one resolved schema."""
    return _Builder(resolved).build()


@record(slots=True)
class Usage:
    """For each method, the declared types its messages may contain (through references)."""

    by_method: tuple[tuple[str, frozenset[str]], ...]

    def methods_using(self, names: Iterable[str]) -> tuple[str, ...]:
        wanted = set(names)
        return tuple(m for m, used in self.by_method if used & wanted)


def usage(resolved: ir.Resolved, model: MethodModel) -> Usage:
    types = resolved.type_map()
    rows = []
    for m in model.methods:
        rows.append((m.method, reach(types, (m.type_name, *m.result_types))))
    return Usage(tuple(rows))
