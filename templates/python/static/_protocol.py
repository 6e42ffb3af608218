"""JSON-RPC messages told apart, checked against the protocol and decoded by method.

Nothing here belongs to one protocol version: a `Protocol` holds a version's tables (its
methods, its JSON-RPC envelope types) and its codec, and `registry.py` builds one and exports
its bound methods. This module imports no generated module, so the classes here (`Message`,
`ProtocolError`...) can be one set of objects for several versions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import UnionType
from typing import Any, Final, Generic, Literal, TypeAlias, TypeVar

from ._runtime import JSON, UNSET, ErrorDetail, ValidationError, describe
from ._tolerance import tolerate, warn_unknown

Kind: TypeAlias = Literal["request", "notification"]
Direction: TypeAlias = Literal["client_to_server", "server_to_client", "both"]
Via: TypeAlias = Literal["jsonrpc", "input_required"]
"""How a request travels: a JSON-RPC message, or inside an input-required result."""
MessageKind: TypeAlias = Literal["request", "notification", "result", "error"]
ClassOrUnion: TypeAlias = type[Any] | UnionType
Obj_co = TypeVar("Obj_co", covariant=True)
"""What a `Message` holds: a version's `MessageObject` union (or the application types')."""

_DIRECTIONS: Final = ("client_to_server", "server_to_client")
_DIRECTION_TEXT: Final = {
    "client_to_server": "client to server",
    "server_to_client": "server to client",
    "both": "both ways",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class MethodInfo:
    """One method: its kind, direction and the types (names and classes) of its messages."""

    method: str
    kind: Kind
    direction: Direction
    """Who sends the request or notification; a request's result goes the other way."""
    via: Via
    message_type: str
    message_class: ClassOrUnion
    params_type: str | None
    """None when the message has no `params` (or they are an unnamed type)."""
    params_class: ClassOrUnion | None
    params_optional: bool
    result_type: str | None
    """Requests: the result type (`EmptyResult` decodes to `Result`); None for notifications."""
    result_class: ClassOrUnion | None
    alt_result_types: tuple[str, ...]
    """Results the responder may send instead (`CreateTaskResult`, `InputRequiredResult`)."""
    alt_result_classes: tuple[ClassOrUnion, ...]

    @property
    def result_types(self) -> tuple[str, ...]:
        """The result and its alternatives, in the order `parse_result` tries them."""
        return ((self.result_type,) if self.result_type else ()) + self.alt_result_types


# Not slotted: `Message[T](...)` sets `__orig_class__`, which a frozen slotted class refuses
# with a TypeError that typing does not expect.
@dataclass(frozen=True)
class Message(Generic[Obj_co]):
    """One JSON-RPC message, classified and decoded.

    `obj` is the whole message as a model object: the request or notification class of its
    method, or the schema's result/error response type. `parse_message` returns a
    `Message[MessageObject]` (registry.py's union of them), so `isinstance` or `match` on `obj`
    narrows it to one class. `id` is the JSON-RPC id of a request or response (None for
    notifications, requests carried inside an input-required result, and error responses
    without one); `method` is None for responses (pass the method of the request they answer to
    `parse_result`).
    """

    kind: MessageKind
    method: str | None
    id: str | int | float | None
    obj: Obj_co


class ProtocolError(ValidationError):
    """A value that does not fit the protocol as a message: `str(err)` says why in one sentence,
    `err.errors` holds it with its JSON path, `err.method` is the method concerned (if any),
    `err.protocol_version` the version of `protocol` (the `Protocol` that raised it)."""

    def __init__(
        self,
        message: str,
        path: str = "$",
        *,
        method: str | None = None,
        protocol: Protocol[Any] | None = None,
    ) -> None:
        super().__init__("JSONRPCMessage", [ErrorDetail(path, message)])
        self.args = (message,)
        self.method = method
        self.protocol_version: str | None = protocol.version if protocol is not None else None


class UnknownMethodError(ProtocolError):
    """A method string this protocol version does not define."""

    def __init__(
        self, method: str, path: str = "$.method", *, protocol: Protocol[Any] | None = None
    ) -> None:
        message = f"unknown method {_quote(method)}{_where(protocol)}"
        super().__init__(message, path, method=method, protocol=protocol)


class WrongDirectionError(ProtocolError):
    """A request or notification received from a side that never sends it."""

    def __init__(
        self,
        info: MethodInfo,
        direction: str,
        path: str = "$.method",
        *,
        protocol: Protocol[Any] | None = None,
    ) -> None:
        sent, received = _DIRECTION_TEXT[info.direction], _DIRECTION_TEXT[direction]
        where = _where(protocol)
        message = f"method {_quote(info.method)} is sent {sent}{where}, not {received}"
        super().__init__(message, path, method=info.method, protocol=protocol)


@dataclass(frozen=True, slots=True, kw_only=True)
class Protocol(Generic[Obj_co]):
    """One protocol version's tables and codec, and the message functions that read them;
    `Obj_co` is the version's union of message classes (what `parse_message` decodes into)."""

    version: str | None
    """`LATEST_PROTOCOL_VERSION` of the schema (None if it declares none)."""
    where: str
    """How messages name the protocol: "in protocol version 2025-06-18"."""
    jsonrpc_version: str
    batches: bool
    """Whether `JSONRPCMessage` has an array member (a batch)."""
    # The JSON-RPC envelope types every message is also checked against (None: not declared).
    request_envelope: str | None
    notification_envelope: str | None
    result_envelope: str | None
    error_envelope: str | None
    methods: Mapping[str, MethodInfo]
    decode: Callable[[str, object], Any]
    """The version's `codec.decode`: validate a value as the named type and build it."""
    encode_value: Callable[..., JSON]
    """The version's `codec.encode` (`encode_value(obj, validate=True)`)."""
    validate: Callable[[str, object], None]
    """The version's `validators.validate`."""
    builders: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    """The version's `codec.DECODERS` (type name -> builder of a valid value): tolerant reading
    builds with them what the validators refused only for values the version does not know."""

    def parse_message(
        self,
        value: object,
        *,
        direction: Literal["client_to_server", "server_to_client"] | None = None,
        tolerant: bool = False,
    ) -> Message[Obj_co]:
        """Classify, validate and decode one JSON-RPC message (a value from `json.loads`).

        A message with a `method` is a request (with an `id`) or a notification (without),
        decoded into its method's class; a request that travels inside an input-required result
        comes as it is there (`{"method": ..., "params": ...}`, no `jsonrpc`). A message with
        `result` or `error` is a response, decoded into the schema's response type.

        `direction` ("client_to_server" when you are the server, else "server_to_client")
        rejects requests and notifications the other side never sends; responses are accepted
        either way. Raises `ValidationError` (`ProtocolError` for an unknown method, a wrong
        direction, a request without an id...).

        `tolerant=True` keeps a union member or a string literal the version does not know (a
        newer content block, a new enum value) as an `Unknown` holding its raw JSON, with an
        `UnknownValueWarning`, where strict reading (the default) rejects the whole message;
        any other error still raises (static/_tolerance.py).
        """
        if direction is not None and direction not in _DIRECTIONS:
            choices = " or ".join(map(repr, _DIRECTIONS))
            raise ValueError(f"direction must be {choices} or None, not {direction!r}")
        if not isinstance(value, dict):
            if isinstance(value, list) and self.batches:
                raise self._error(
                    f"a JSON-RPC batch ({len(value)} messages): parse each with parse_message"
                )
            raise self._error(f"expected a JSON-RPC message (an object), got {describe(value)}")
        if "method" in value:
            return self._parse_call(value, direction, tolerant)
        if "result" in value and "error" in value:
            raise self._error('a response has "result" or "error", not both')
        if "result" in value:
            return self._parse_response("result", self.result_envelope, value)
        if "error" in value:
            return self._parse_response("error", self.error_envelope, value)
        raise self._error('not a JSON-RPC message: it has no "method", "result" or "error"')

    def parse_result(self, method: str, value: object, *, tolerant: bool = False) -> Any:
        """Validate and decode the result of a `method` request: `value` is the response's
        `result` member (or a `Message` of kind "result"). Tries the method's result type, then
        its alternatives, and returns the first that fits; raises `ValidationError` with the
        errors of the closest one if none does, `ProtocolError` if `method` is unknown or a
        notification. `tolerant`: as in `parse_message`, for the first result type whose only
        errors are values the version does not know."""
        info = self._lookup(method, None, "$")
        if info.kind != "request" or not info.result_types:
            what = f"{_quote(info.method)} is a {info.kind} {self.where}"
            raise self._error(f"{what}; it has no result", method=info.method)
        if isinstance(value, Message):
            value = self._result_member(value)
        failures: list[ValidationError] = []
        for name in info.result_types:
            try:
                return self.decode(name, value)
            except ValidationError as err:
                failures.append(err)
        for name, failure in zip(info.result_types, failures) if tolerant else ():
            built = self._tolerated(name, value, failure)
            if built is not _REFUSED:
                return built
        if len(failures) == 1:
            raise failures[0]
        closest = min(failures, key=lambda err: len(err.errors))
        raise ValidationError(" | ".join(info.result_types), list(closest.errors))

    def encode(self, obj: Message[object] | object, *, validate: bool = True) -> JSON:
        """The JSON value of a `Message` (the whole JSON-RPC message: `jsonrpc` and a request's
        `id` are added when its object lacks them; the object's own members win) or of any
        model object; model objects are checked against the schema unless `validate=False`."""
        if not isinstance(obj, Message):
            return self.encode_value(obj, validate=validate)
        out = self.encode_value(obj.obj, validate=validate)
        if not isinstance(out, dict) or obj.kind not in ("request", "notification"):
            return out
        info = self.methods.get(obj.method) if isinstance(obj.method, str) else None
        if info is not None and info.via != "jsonrpc":
            return out
        envelope = self.request_envelope if obj.kind == "request" else self.notification_envelope
        head: dict[str, JSON] = {"jsonrpc": self.jsonrpc_version} if envelope is not None else {}
        if obj.kind == "request" and obj.id is not None:
            head["id"] = obj.id
        return {**head, **out}

    # -- building messages: a typed payload in, the wire message (a JSON object) out -------------

    def request(
        self, obj: object, *, id: str | float | None = None, validate: bool = True
    ) -> dict[str, JSON]:
        """The wire message of a request object: `jsonrpc` and `id` added where the version's
        requests travel as JSON-RPC messages (`id` may instead be the object's own field; given
        both, they must agree). A request that travels inside an input-required result comes
        back as it is there (`{"method", "params"}`), and takes no `id`."""
        out = self._payload(obj, "request", validate)
        info = self.methods[str(out["method"])]
        if info.via != "jsonrpc":
            if id is not None:
                raise self._error(
                    f"{self._travels(info)}: it has no id", "$.id", method=info.method
                )
            return out
        own = out.get("id")
        if id is not None and own is not None and own != id:
            message = f"the object's id {own!r} and id={id!r} disagree"
            raise self._error(message, "$.id", method=info.method)
        msg_id = id if id is not None else own
        if msg_id is None:
            raise self._error(f"{_quote(info.method)} needs an id", "$.id", method=info.method)
        head: dict[str, JSON] = {"jsonrpc": self.jsonrpc_version} if self.request_envelope else {}
        return self._checked(self.request_envelope, {**head, "id": msg_id, **out}, validate)

    def notification(self, obj: object, *, validate: bool = True) -> dict[str, JSON]:
        """The wire message of a notification object (`jsonrpc` added)."""
        out = self._payload(obj, "notification", validate)
        envelope = self.notification_envelope
        head: dict[str, JSON] = {"jsonrpc": self.jsonrpc_version} if envelope else {}
        return self._checked(envelope, {**head, **out}, validate)

    def result(
        self, id: str | float, obj: object, *, method: str | None = None, validate: bool = True
    ) -> dict[str, JSON]:
        """The result response to request `id` carrying the result object `obj` (any result
        type, an input-required result included). With the `method` of the request it
        answers, `obj` must be one of that method's results (else `ProtocolError` naming the
        method and the class: the commonest mistake of a handler)."""
        if method is not None:
            self.check_result(method, obj)
        result = self.encode_value(obj, validate=validate)
        msg = {"jsonrpc": self.jsonrpc_version, "id": id, "result": result}
        return self._checked(self.result_envelope, msg, validate)

    def check_result(self, method: str, obj: object) -> None:
        """Raise `ProtocolError` unless `obj` is one of the results of request `method`."""
        info = self._lookup(method, None, "$")
        classes = (info.result_class, *info.alt_result_classes)
        if info.kind != "request" or info.result_class is None:
            what = f"{_quote(info.method)} is a {info.kind} {self.where}"
            raise self._error(f"{what}; it has no result", method=info.method)
        if not isinstance(obj, tuple(c for c in classes if c is not None)):
            expected = " or ".join(info.result_types)
            message = (f"{type(obj).__name__} is not a result of {_quote(info.method)}"
                       f" {self.where} (expected {expected})")  # fmt: skip
            raise self._error(message, "$.result", method=info.method)

    def error(
        self,
        id: str | float | None,
        code: int,
        message: str,
        data: object = UNSET,
        *,
        validate: bool = True,
    ) -> dict[str, JSON]:
        """The error response to request `id` (None: no id, where the version allows that)."""
        error: dict[str, JSON] = {"code": code, "message": message}
        if data is not UNSET:
            error["data"] = self.encode_value(data, validate=validate)
        head: dict[str, JSON] = {"jsonrpc": self.jsonrpc_version}
        if id is not None:
            head["id"] = id
        return self._checked(self.error_envelope, {**head, "error": error}, validate)

    def _payload(self, obj: object, kind: Kind, validate: bool) -> dict[str, JSON]:
        out = self.encode_value(obj, validate=validate)
        method = out.get("method") if isinstance(out, dict) else None
        info = self.methods.get(method) if isinstance(method, str) else None
        if not isinstance(out, dict) or info is None or info.kind != kind:
            raise self._error(f"expected a {kind} object, got {type(obj).__name__}")
        return out

    def _checked(
        self, envelope: str | None, msg: dict[str, JSON], validate: bool
    ) -> dict[str, JSON]:
        if validate and envelope is not None:
            self.validate(envelope, msg)
        return msg

    def _travels(self, info: MethodInfo) -> str:
        return f"{_quote(info.method)} travels inside an input-required result {self.where}"

    # -- helpers ---------------------------------------------------------------------------------

    def _error(self, message: str, path: str = "$", *, method: str | None = None) -> ProtocolError:
        return ProtocolError(message, path, method=method, protocol=self)

    def _lookup(self, method: object, direction: str | None, path: str) -> MethodInfo:
        if not isinstance(method, str):
            raise self._error(f'"method" must be a string, got {describe(method)}', path)
        info = self.methods.get(method)
        if info is None:
            raise UnknownMethodError(method, path, protocol=self)
        if direction is not None and info.direction not in (direction, "both"):
            raise WrongDirectionError(info, direction, path, protocol=self)
        return info

    def _request_id(self, value: dict[str, Any], path: str = "$.id") -> str | int | float:
        found = value["id"]
        if isinstance(found, (str, int, float)) and not isinstance(found, bool):
            return found
        raise self._error(f"expected a request id (string or number), got {describe(found)}", path)

    def _decode(self, name: str, value: object, tolerant: bool) -> Any:
        try:
            return self.decode(name, value)
        except ValidationError as err:
            if not tolerant:
                raise
            built = self._tolerated(name, value, err)
            if built is _REFUSED:
                raise
            return built

    def _tolerated(self, name: str, value: object, err: ValidationError) -> Any:
        """`name` built from `value` with the values the version does not know kept as
        `Unknown` (warned); `_REFUSED` when some error is of another kind."""
        found = tolerate(value, err.errors)
        build = self.builders.get(name)
        if found is None or build is None:
            return _REFUSED
        patched, kept = found
        try:
            built = build(patched)
        except Exception:  # noqa: BLE001 - a shape the builders cannot take: strict's error
            return _REFUSED
        warn_unknown(name, kept, self.where)
        return built

    def _parse_call(
        self, value: dict[str, Any], direction: str | None, tolerant: bool
    ) -> Message[Obj_co]:
        info = self._lookup(value["method"], direction, "$.method")
        msg_id: str | int | float | None = None
        if info.via == "input_required" and "jsonrpc" in value:
            message = f"{self._travels(info)}, not as a JSON-RPC message"
            raise self._error(message, "$.jsonrpc", method=info.method)
        if info.via == "jsonrpc":
            has_id = "id" in value
            if has_id != (info.kind == "request"):  # the text only when raising: a hot path
                what = f"{_quote(info.method)} is a {info.kind} {self.where}, but the message has"
                if not has_id:
                    raise self._error(f'{what} no "id"', method=info.method)
                raise self._error(f'{what} an "id"', "$.id", method=info.method)
            envelope = (
                self.request_envelope if info.kind == "request" else self.notification_envelope
            )
            if envelope is not None:
                self.validate(envelope, value)
            if has_id:
                msg_id = self._request_id(value)
        obj = self._decode(info.message_type, value, tolerant)
        return Message(info.kind, info.method, msg_id, obj)

    def _parse_response(
        self, kind: MessageKind, envelope: str | None, value: dict[str, Any]
    ) -> Message[Obj_co]:
        if envelope is None:
            raise self._error(f"no JSON-RPC {kind} response type is declared {self.where}")
        obj = self.decode(envelope, value)
        msg_id = self._request_id(value) if value.get("id") is not None else None
        return Message(kind, None, msg_id, obj)

    def _result_member(self, message: Message[object]) -> object:
        if message.kind != "result":
            raise self._error(f"a {message.kind} message has no result")
        out = self.encode_value(message.obj)
        return out.get("result") if isinstance(out, dict) else None


_REFUSED: Final = object()  # `_tolerated`: strict's error stands


def _where(protocol: Protocol[Any] | None) -> str:
    """The protocol's `where` after a space, for an error's text (nothing without one)."""
    return f" {protocol.where}" if protocol is not None else ""


def _quote(text: str) -> str:
    """A method string for a message: JSON-quoted, on one line, shortened when long."""
    quoted = json.dumps(text, ensure_ascii=False)
    quoted = "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in quoted)
    return quoted if len(quoted) <= 40 else quoted[:36] + '..."'


# -- a request's `_meta`, the same way in every version ------------------------------------------


def request_meta(params: object) -> dict[str, Any]:
    """The `_meta` member of a request's decoded `params`, as JSON (`{}` without one).

    From 2025-11-25 every params class has a `meta` field (a `RequestParamsMeta`); up to
    2025-06-18 most declare none, so a `_meta` the client sent is kept in `params.extra`. A
    server that handles several versions reads it here instead of asking which case it is in.
    """
    meta = getattr(params, "meta", UNSET)
    if meta is UNSET or meta is None:
        extra = getattr(params, "extra", None)
        meta = extra.get("_meta") if isinstance(extra, dict) else None
    to_dict = getattr(meta, "to_dict", None)
    value = to_dict() if callable(to_dict) else meta
    return dict(value) if isinstance(value, Mapping) else {}


def progress_token(params: object) -> str | int | float | None:
    """The progress token a request asked for (`params._meta.progressToken`), None without one:
    a request's progress notifications must carry it."""
    token = request_meta(params).get("progressToken")
    ok = isinstance(token, (str, int, float)) and not isinstance(token, bool)
    return token if ok else None
