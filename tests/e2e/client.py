"""A small MCP client built only on the generated bindings, for the e2e tests.

Every message it sends is a dataclass from the negotiated version's ``models`` turned into the
wire message by ``registry.request``/``notification``/``result``/``error`` (checked on the way); every message it receives goes through ``registry.parse_message`` (and a
result through ``registry.parse_result``). ``StdioPeer`` only moves lines.

    client = Client(peer, bindings_by_label)
    client.connect("2025-11-25")           # initialize (or server/discover), then picks bindings
    tools = client.call("tools/list").tools
    result = client.call("tools/call", name="echo", arguments={"text": "hi"})

Session set-up follows the bindings of the requested version: a version with ``initialize``
negotiates through it and switches to the bindings of the version the server answers with
(``bindings.select``); a stateless version (2026-07-28) calls ``server/discover`` with the
``_meta`` envelope on every request, and falls back to ``initialize`` (through the newest
bindings that have it, still offering the requested version) if the server does not know
``server/discover``.

Server->client requests (``roots/list``, ``sampling/createMessage``, ``elicitation/create``,
``ping``), whether JSON-RPC messages or ``inputRequests`` of an input-required result, are answered
with result dataclasses (``answer``); notifications are kept in ``notifications``.

``audit()`` re-checks the whole transcript afterwards, line by line and in both directions: each
message must validate, decode and re-encode to JSON equal to the line (``check_message``), and a
result must do the same as its method's result type; both JSON text paths of the runtime (the
standard library's and orjson's) must read the line to the same value and write the same text
(``check_json_paths``). See ``Audit``.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bindings_support import JSON_PATHS, json_path

from .bindings import Bindings, select
from .stdio import Message as Json
from .stdio import StdioPeer

__all__ = ["Audit", "Client", "Json", "Rejected", "RpcError", "arguments_for", "check_message"]

Direction = Literal["client_to_server", "server_to_client"]

TIMEOUT = 20.0  # one request; every wait in here is bounded
CLIENT_INFO = {"name": "mcp-codegen-e2e", "version": "0.1.0"}
ROOT_URI = "file:///tmp/mcp-codegen-e2e"
SAMPLED_TEXT = "sampled by the mcp-codegen e2e client"
SAMPLING_MODEL = "e2e-fake-model"


def same_json(a: object, b: object) -> bool:
    """JSON equality that keeps true and 1, and 1 and 1.0, apart (key order aside)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def json_diff(a: object, b: object, path: str = "$") -> list[str]:
    """Where two JSON values differ, as JSON paths (for re-encoding mismatches)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [
            f"{path}.{k}: only in {'re-encoded' if k in a else 'received'}"
            for k in a.keys() ^ b.keys()
        ]
        for k in a.keys() & b.keys():
            out += json_diff(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in json_diff(x, y, f"{path}[{i}]")]
    return [] if same_json(a, b) else [f"{path}: re-encoded {_short(a)}, received {_short(b)}"]


def _short(value: object, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class RpcError(Exception):
    """The peer answered a request with a JSON-RPC error (decoded by the bindings)."""

    def __init__(self, method: str, code: int, message: str, data: Any) -> None:
        super().__init__(f"{method}: error {code}: {message}")
        self.method, self.code, self.message, self.data = method, code, message, data


class Rejected(AssertionError):
    """The bindings rejected a message, or re-encoding it changed it; the text has JSON paths."""

    def __init__(self, what: str, errors: list[str], value: object) -> None:
        self.what, self.errors, self.value = what, errors, value
        lines = "".join(f"\n    {e}" for e in errors)
        super().__init__(f"{what}:{lines}\n    message: {_short(value, 2000)}")


def _errors_of(err: Exception) -> list[str]:
    details = getattr(err, "errors", None)
    if details:
        return [str(d) for d in details]
    return [f"{type(err).__name__}: {err}"]


def check_message(
    b: Bindings, value: object, direction: Direction, requests: Mapping[Any, str]
) -> tuple[Any, Any]:
    """Validate, decode and re-encode one received or sent message with bindings ``b``; for a
    result response also its ``result`` as the result of the method of request ``requests[id]``
    (the requests sent the other way). Returns the registry ``Message`` and the decoded result
    (None unless a result); raises ``Rejected`` with JSON paths into the message."""
    reg = b.registry
    what = f"{direction} message, bindings {b}"
    try:
        msg = reg.parse_message(value, direction=direction)
    except Exception as err:  # ValidationError, or a bug in the bindings
        raise Rejected(f"{what}: parse_message failed", _errors_of(err), value) from err
    again = reg.encode(msg)
    if not same_json(again, value):
        raise Rejected(f"{what}: re-encoded JSON differs", json_diff(again, value), value)
    if msg.kind != "result":
        return msg, None
    assert isinstance(value, dict)
    method = requests.get(msg.id)
    if method is None:
        raise Rejected(f"{what}: a result for no pending request", [f"$.id: {msg.id!r}"], value)
    what = f"{what}, result of {method}"
    try:
        result = reg.parse_result(method, value["result"])
    except Exception as err:
        errors = [e.replace("$", "$.result", 1) for e in _errors_of(err)]
        raise Rejected(f"{what}: parse_result failed", errors, value) from err
    again = reg.encode(result)
    if not same_json(again, value["result"]):
        diffs = json_diff(again, value["result"], "$.result")
        raise Rejected(f"{what}: re-encoded result differs", diffs, value)
    return msg, result


def check_json_paths(b: Bindings, raw: str, msg: Any, result: Any) -> None:
    """Issue 28 on real traffic: the line read by both JSON text paths to the same value (types
    included, as str and as bytes), the re-encoded message and the decoded result written to
    the same text; raises ``Rejected``."""
    rt = importlib.import_module(b.package.__name__.split(".")[0] + "._runtime")
    out: dict[str, list[str]] = {}
    for p in JSON_PATHS:
        with json_path(rt, p):
            wire = b.registry.encode(msg)
            out[p] = [
                repr(rt.loads(raw)),
                repr(rt.loads(raw.encode())),
                rt.dumps(wire, "JSON", True),
            ]
            if result is not None and hasattr(result, "to_json"):
                out[p].append(result.to_json())
    if out["orjson"] != out["stdlib"]:
        diffs = [
            f"stdlib {a[:200]} / orjson {b_[:200]}"
            for a, b_ in zip(out["stdlib"], out["orjson"])
            if a != b_
        ]
        raise Rejected(f"bindings {b}: the JSON text paths differ", diffs, raw)


@dataclass
class Audit:
    """The outcome of checking a whole transcript."""

    checked: Counter[str] = field(default_factory=Counter)  # per direction
    requests: Counter[str] = field(default_factory=Counter)  # "c2s method" / "s2c method"
    notifications: Counter[str] = field(default_factory=Counter)
    results: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    failures: list[Rejected] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.checked.values())


_ARROW = {"client_to_server": "c2s", "server_to_client": "s2c"}


class Client:
    def __init__(self, peer: StdioPeer, available: Mapping[str, Bindings]) -> None:
        self.peer = peer
        self.available = dict(available)
        self.bindings: Bindings = next(iter(available.values()))
        self.initial: Bindings = self.bindings
        self.requested: str | None = None
        self.stateless = False
        self.server_info: Any = None
        self.server_capabilities: Any = None
        self.instructions: Any = None
        self.notifications: list[Any] = []  # registry Messages, in arrival order
        self.server_requests: list[Any] = []  # registry Messages answered (JSON-RPC or input)
        self.rejected: list[Rejected] = []  # received messages the client could not decode
        # After the response with this id (from the server), use these bindings (for the audit).
        self._switch_after: dict[Any, Bindings] = {}
        self._responses: dict[Any, Json] = {}
        self._last_id: Any = None

    # ------------------------------------------------------------------ session set-up

    def connect(self, requested: str) -> Bindings:
        """Open a session asking for protocol version ``requested`` (a spec label); returns the
        bindings of the version agreed on."""
        self.requested = requested
        self.bindings = self.initial = self.available[requested]
        if self.bindings.handshake:
            return self._initialize(requested)
        self.stateless = True
        try:
            found = self.call("server/discover")
        except RpcError as err:
            if err.code != -32601:
                raise
            # No server/discover: a server of the initialize era. Offer the same version there.
            self.stateless = False
            fallback = max(
                (b for b in self.available.values() if b.handshake), key=lambda b: b.version
            )
            self._use(fallback, after=self._last_id)
            return self._initialize(self.bindings.version)
        if self.bindings.version not in found.supported_versions:
            raise AssertionError(
                f"server/discover: {found.supported_versions}, no {self.bindings.version}"
            )
        self.server_capabilities = found.capabilities
        self.instructions = found.instructions
        meta = found.meta
        self.server_info = None if meta is self.unset else meta.io_modelcontextprotocol_server_info
        return self.bindings

    def _initialize(self, version: str) -> Bindings:
        m = self.bindings.models
        init = self.call(
            "initialize",
            protocol_version=version,
            capabilities=m.ClientCapabilities.from_dict(self.capabilities_json()),
            client_info=m.Implementation(**CLIENT_INFO),
        )
        self._use(select(self.available, init.protocol_version), after=self._last_id)
        init = self.bindings.registry.parse_result(
            "initialize", self._responses[self._last_id]["result"]
        )
        self.server_info, self.server_capabilities = init.server_info, init.capabilities
        self.instructions = init.instructions
        self.notify("notifications/initialized")
        return self.bindings

    def _use(self, b: Bindings, *, after: Any) -> None:
        self.bindings = b
        self._switch_after[after] = b

    def capabilities_json(self) -> Json:
        m = self.bindings.models
        # Where the schema spells out elicitation modes (2025-11-25 on), declare both.
        modes = hasattr(m, "ClientCapabilitiesElicitation")
        elicitation: Json = {"form": {}, "url": {}} if modes else {}
        roots = {} if self.stateless else {"listChanged": True}
        return {"roots": roots, "sampling": {}, "elicitation": elicitation}

    @property
    def unset(self) -> Any:
        return self.bindings.package.UNSET

    def server_has(self, capability: str, sub: str | None = None) -> bool:
        """Whether the server declared ``capability`` (and its flag ``sub``)."""
        got = getattr(self.server_capabilities, capability, self.unset)
        if got is self.unset or got is None:
            return False
        if sub is None:
            return True
        value = getattr(got, sub, None) if not isinstance(got, dict) else got.get(sub)
        return value not in (None, False, self.unset)

    # ------------------------------------------------------------------ building messages

    def _message(self, method: str, params: Any, **fields: Any) -> Any:
        """The request or notification object of ``method`` (``method`` and ``jsonrpc`` are
        defaults; ``fields``: an ``id`` where the version's request classes declare one)."""
        cls = self.bindings.registry.METHODS[method].message_class
        return cls(**fields) if params is None else cls(params=params, **fields)

    def params(self, method: str, meta: Json | None = None, **fields: Any) -> Any:
        """The params dataclass of ``method`` (None when it takes none and none are needed);
        ``meta`` goes to ``_meta`` (the stateless envelope is added here)."""
        info = self.bindings.registry.METHODS[method]
        cls = info.params_class
        if cls is None or not isinstance(cls, type):
            raise TypeError(f"{method}: no single params class ({info.params_type})")
        if self.stateless:
            fields["meta"] = self.envelope(meta)
        elif meta:
            names = {f.name for f in dataclasses.fields(cls)}
            if "meta" in names:
                fields["meta"] = self.bindings.models.RequestParamsMeta.from_dict(meta)
            else:  # this version does not declare _meta on these params: an undeclared member
                fields["extra"] = {**fields.get("extra", {}), "_meta": meta}
        elif not fields and info.params_optional:
            return None
        return cls(**fields)

    def envelope(self, meta: Json | None = None) -> Any:
        """The 2026-07-28 per-request ``_meta``: protocol version, client info, capabilities."""
        m = self.bindings.models
        extra = dict(meta or {})
        fields: dict[str, Any] = {
            "io_modelcontextprotocol_protocol_version": self.bindings.version,
            "io_modelcontextprotocol_client_info": m.Implementation(**CLIENT_INFO),
            "io_modelcontextprotocol_client_capabilities": m.ClientCapabilities.from_dict(
                self.capabilities_json()
            ),
        }
        if "progressToken" in extra:
            fields["progress_token"] = extra.pop("progressToken")
        if "io.modelcontextprotocol/logLevel" in extra:  # deprecated: asked for by name only
            fields["io_modelcontextprotocol_log_level"] = extra.pop(
                "io.modelcontextprotocol/logLevel"
            )
        return m.RequestMetaObject(**fields, extra=extra)

    # ------------------------------------------------------------------ sending and receiving

    def _send(self, wire: Json) -> None:
        self.peer.send_raw(json.dumps(wire, ensure_ascii=False, separators=(",", ":")))

    def call(
        self, method: str, *, meta: Json | None = None, timeout: float = TIMEOUT, **fields: Any
    ) -> Any:
        """Send request ``method`` (params from ``fields``) and return its decoded result;
        raises ``RpcError`` for an error response and ``Rejected`` for one the bindings reject."""
        return self.call_with(method, self.params(method, meta, **fields), timeout=timeout)

    def call_with(self, method: str, params: Any, *, timeout: float = TIMEOUT) -> Any:
        rid = self.send_request(method, params)
        return self.result_of(method, rid, timeout=timeout)

    def send_request(self, method: str, params: Any) -> int:
        rid = self.peer.next_id()
        self._last_id = rid
        cls = self.bindings.registry.METHODS[method].message_class
        own = {"id": rid} if "id" in {f.name for f in dataclasses.fields(cls)} else {}
        self._send(self.bindings.registry.request(self._message(method, params, **own), id=rid))
        return rid

    def result_of(self, method: str, rid: Any, *, timeout: float = TIMEOUT) -> Any:
        raw = self.pump(lambda: self._responses.get(rid), timeout, f"the response to {method}")
        msg, result = check_message(self.bindings, raw, "server_to_client", {rid: method})
        if msg.kind == "error":
            err = msg.obj.error
            raise RpcError(
                method, err.code, err.message, None if err.data is self.unset else err.data
            )
        return result

    def notify(self, method: str, *, meta: Json | None = None, **fields: Any) -> None:
        info = self.bindings.registry.METHODS[method]
        params = None
        if info.params_class is not None and (fields or meta or not info.params_optional):
            params = info.params_class(**fields)
        self._send(self.bindings.registry.notification(self._message(method, params)))

    def pump(self, until: Callable[[], Any], timeout: float, what: str) -> Any:
        """Handle incoming messages until ``until()`` returns something (returned), or fail."""
        deadline = time.monotonic() + timeout
        while (got := until()) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {what} within {timeout:.1f}s\n{self.peer.describe(20)}")
            self.handle(self.peer.recv(left))
        return got

    def settle(self, seconds: float, until: Callable[[], Any] | None = None) -> None:
        """Handle whatever arrives during ``seconds``, or until ``until()`` returns something;
        never fails on silence."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0 and (until is None or until() is None):
            try:
                self.handle(self.peer.recv(left))
            except TimeoutError:
                return

    def wait_notification(self, method: str, timeout: float = TIMEOUT, since: int = 0) -> Any:
        def found() -> Any:
            return next((n for n in self.notifications[since:] if n.method == method), None)

        return self.pump(found, timeout, f"{method} notification")

    def handle(self, raw: Json) -> None:
        if "method" not in raw:
            self._responses[raw.get("id")] = raw
            return
        try:
            msg, _ = check_message(self.bindings, raw, "server_to_client", {})
        except Rejected as rejected:
            self.rejected.append(rejected)
            if "id" in raw:  # a request the client cannot read: say so, as a client would
                unknown = type(rejected.__cause__).__name__ == "UnknownMethodError"
                code = -32601 if unknown else -32602
                self.send_error(raw["id"], code, f"invalid request: {rejected.errors[0]}")
            return
        if msg.kind == "notification":
            self.notifications.append(msg)
            return
        self.server_requests.append(msg)
        result = self.answer(msg)
        if result is None:
            self.send_error(msg.id, -32601, f"the e2e client does not serve {msg.method}")
        else:
            self.send_result(msg.id, result)

    def send_result(self, msg_id: Any, result: Any) -> None:
        self._send(self.bindings.registry.result(msg_id, result))

    def send_error(self, msg_id: Any, code: int, message: str) -> None:
        self._send(self.bindings.registry.error(msg_id, code, message))

    # ------------------------------------------------------------------ being the client

    def answer(self, msg: Any) -> Any:
        """The result dataclass for a server->client request (None: not served)."""
        m = self.bindings.models
        params = msg.obj.params
        if msg.method == "roots/list":
            return m.ListRootsResult(roots=[m.Root(uri=ROOT_URI, name="e2e")])
        if msg.method == "sampling/createMessage":
            content = m.TextContent(text=SAMPLED_TEXT)
            return m.CreateMessageResult(
                role="assistant", content=content, model=SAMPLING_MODEL, stop_reason="endTurn"
            )
        if msg.method == "elicitation/create":
            schema = getattr(params, "requested_schema", None)  # a plain dict; none in url mode
            if schema is None or getattr(params, "mode", None) == "url":
                return m.ElicitResult(action="accept")
            return m.ElicitResult(action="accept", content=form_answers(schema))
        if msg.method == "ping":
            return m.Result()
        return None

    def answer_inputs(self, result: Any) -> dict[str, Any]:
        """``inputResponses`` for an input-required result: each of its ``inputRequests`` is
        read back through ``parse_message`` and answered like a JSON-RPC request."""
        reg, out = self.bindings.registry, {}
        requests = result.input_requests if result.input_requests is not self.unset else {}
        for key, request in requests.items():
            wire = reg.encode(request)
            msg = reg.parse_message(wire, direction="server_to_client")
            assert msg.kind == "request" and same_json(reg.encode(msg), wire), wire
            self.server_requests.append(msg)
            answer = self.answer(msg)
            if answer is None:
                raise AssertionError(f"input request {key}: {msg.method} is not served")
            out[key] = answer
        return out

    # ------------------------------------------------------------------ the audit

    def audit(self) -> Audit:
        """Check every transcript line with the bindings in force when it was on the wire."""
        out = Audit()
        b = self.initial
        pending: dict[Direction, dict[Any, str]] = {"client_to_server": {}, "server_to_client": {}}
        for entry in list(self.peer.transcript):
            direction: Direction = (
                "client_to_server" if entry.direction == "client->server" else "server_to_client"
            )
            other: Direction = (
                "server_to_client" if direction == "client_to_server" else "client_to_server"
            )
            value = entry.message
            out.checked[direction] += 1
            if isinstance(value, dict) and "method" in value and "id" in value:
                pending[direction][value["id"]] = str(value["method"])
            arrow = _ARROW[direction]
            try:
                msg, result = check_message(b, value, direction, pending[other])
                check_json_paths(b, entry.raw, msg, result)
            except Rejected as err:
                out.failures.append(err)
                msg = None
            if msg is not None:
                if msg.kind == "request":
                    out.requests[f"{arrow} {msg.method}"] += 1
                elif msg.kind == "notification":
                    out.notifications[f"{arrow} {msg.method}"] += 1
                else:
                    method = pending[other].get(msg.id, "?")
                    (out.results if msg.kind == "result" else out.errors)[f"{arrow} {method}"] += 1
            if (
                direction == "server_to_client"
                and isinstance(value, dict)
                and "method" not in value
            ):
                switch = self._switch_after.get(value.get("id"))
                if switch is not None:
                    b = switch
        return out


def form_answers(schema: Json) -> dict[str, Any]:
    """Answers for an elicitation form: every property, from its own schema."""
    props: dict[str, Json] = schema.get("properties", {})
    return {name: sample_value(prop, name) for name, prop in props.items()}


def sample_value(schema: Json, name: str = "value") -> Any:
    """A value that fits a (simple) JSON Schema: default, const, enum, oneOf/anyOf, by type."""
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("oneOf", "anyOf"):
        if schema.get(key):
            return sample_value(schema[key][0], name)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "string":
        fmt = str(schema.get("format", ""))
        return {"uri": "https://example.com/e2e", "email": "e2e@example.com", "date": "2026-01-02",
                "date-time": "2026-01-02T03:04:05Z"}.get(fmt, f"e2e {name}")  # fmt: skip
    if kind in ("number", "integer"):
        low = int(schema.get("minimum", schema.get("exclusiveMinimum", 0)) or 0)
        return max(1, low + (1 if "exclusiveMinimum" in schema else 0))
    if kind == "boolean":
        return True
    if kind == "array":
        items = schema.get("items", {})
        return [sample_value(items, name) for _ in range(max(1, schema.get("minItems", 1)))]
    if kind == "object":
        return arguments_for(schema)
    return None


def arguments_for(schema: Json, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Tool arguments from an ``inputSchema``: every required property, plus ``overrides``."""
    props: dict[str, Json] = schema.get("properties", {})
    args = {name: sample_value(props.get(name, {}), name) for name in schema.get("required", [])}
    return {**args, **(overrides or {})}
