"""The server side of an MCP session over the application types: one JSON-RPC message in, the
messages to send out.

Nothing here belongs to one protocol version or one schema: the generated `server.py` builds a
`ServerSession` from its handler table and the distribution's `app` and `versions` modules. The
session negotiates (`initialize` up to 2025-11-25; `server/discover` and the per-request `_meta`
version from 2026-07-28), answers `ping`, keeps the client's log level, turns a handler's return
value into the negotiated version's result and every failure into the JSON-RPC error with the
right code. It never raises on bad input: `handle` always returns messages to send.
"""

from __future__ import annotations

import asyncio
import dataclasses
import difflib
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final, Literal, TypeAlias

from ._protocol import ProtocolError, UnknownMethodError
from ._runtime import JSON, UNSET, Model, ValidationError, dumps, not_json

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603

LogLevel: TypeAlias = Literal[
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]
"""`LoggingLevel` of every MCP version (the generated `app.LoggingLevel` is the same type)."""

LOG_LEVELS: Final[tuple[LogLevel, ...]] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
"""The syslog severities of `LoggingLevel`, least severe first."""

META_PROGRESS_TOKEN: Final = "progressToken"
META_LOG_LEVEL: Final = "io.modelcontextprotocol/logLevel"
META_SERVER_INFO: Final = "io.modelcontextprotocol/serverInfo"

Send = Callable[[dict[str, JSON]], Awaitable[None]]

_log = logging.getLogger(__name__)


class McpError(Exception):
    """Raise from a handler to answer its request with this JSON-RPC error: `code` an integer
    (JSON-RPC's -32768..-32000 are reserved for the protocol; your own codes go elsewhere),
    `message` one sentence, `data` any JSON value."""

    def __init__(self, code: int, message: str, data: JSON | None = None) -> None:
        if not isinstance(code, int) or isinstance(code, bool):
            swapped = " (the arguments are code, message)" if isinstance(message, int) else ""
            raise TypeError(f"McpError code must be an int, got {code!r}{swapped}")
        if not isinstance(message, str):
            raise TypeError(f"McpError message must be a str, got {type(message).__name__}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class PeerError(McpError):
    """The other side answered a request of this side with an error (its `code`, `message`
    and `data`), or with an answer that is not one (-32603). A handler that does not catch it
    fails with -32603 Internal error: the peer's error is never relayed as this side's own."""


class UnsupportedMethod(McpError):
    """A request this side was asked to send that the negotiated protocol version does not
    have (-32601, raised before anything is sent); `session.supports(method)` tells first."""

    def __init__(self, method: str, version: str, inside: bool = False) -> None:
        if inside:  # 2026-07-28 on: sampling, elicitation and roots go in a result
            why = f"travels inside an input-required result in protocol version {version}"
        else:
            why = f"is not a method of protocol version {version}, the one agreed with the peer"
        super().__init__(METHOD_NOT_FOUND, f"{method!r} {why}")
        self.method = method
        self.version = version


class MethodNotFound(McpError):
    """What a handler the server does not override raises (-32601)."""

    def __init__(self, method: str) -> None:
        super().__init__(METHOD_NOT_FOUND, f"Method not found: {method}")


@dataclass(frozen=True, slots=True)
class Handler:
    """One row of the generated handler table: a method the client sends and who answers it."""

    method: str
    attr: str
    """The handler method's name on `ServerHandlers` (`tools/call` -> `tools_call`)."""
    kind: Literal["request", "notification"]
    capability: str | None
    """The server capability that overriding this handler declares (`tools`, `logging`...)."""


class Context:
    """What a handler knows of the request it answers, and how it talks back while it runs.

    `progress`, `log` and `notify` queue notifications; the session sends them before the
    response (`handle`), or as they come (`async_handle`)."""

    # One per request: slots make it cheaper to build (the dispatch overhead benchmark).
    __slots__ = ("_outbox", "_wake", "cancelled", "log_level", "meta", "request_id", "session",
                 "version")  # fmt: skip

    def __init__(
        self,
        session: Peer,
        *,
        version: str,
        request_id: str | float | None,
        meta: Mapping[str, JSON],
        log_level: str | None,
    ) -> None:
        self.session = session
        self.version = version
        """The protocol version this request is answered in."""
        self.request_id = request_id
        self.meta = meta
        """The request's raw `params._meta` (empty when it has none)."""
        self.log_level = log_level
        """The least severe level the client wants (None: it asked for none)."""
        self.cancelled = False
        """Set when the client cancels this request (seen by `async_handle` handlers)."""
        self._outbox: list[dict[str, JSON]] = []
        self._wake: asyncio.Event | None = None

    @property
    def progress_token(self) -> str | int | None:
        token = self.meta.get(META_PROGRESS_TOKEN)
        return token if isinstance(token, (str, int)) and not isinstance(token, bool) else None

    def progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """A `notifications/progress` for this request, if the client asked for progress."""
        token = self.progress_token
        if token is None:
            return
        params: dict[str, JSON] = {"progressToken": token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        self._queue({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})

    def log(self, level: LogLevel, data: JSON, logger: str | None = None) -> None:
        """A `notifications/message`, if `level` is at or above the client's level."""
        if level not in LOG_LEVELS:
            raise ValueError(f"unknown log level {level!r}; expected one of {LOG_LEVELS}")
        wanted = self.log_level
        if wanted is None or LOG_LEVELS.index(level) < LOG_LEVELS.index(wanted):
            return
        params: dict[str, JSON] = {"level": level, "data": data}
        if logger is not None:
            params["logger"] = logger
        self._queue({"jsonrpc": "2.0", "method": "notifications/message", "params": params})

    def notify(self, notification: Any) -> None:
        """Any server notification, an application object (`app.ResourceUpdatedNotification`),
        sent in this request's protocol version."""
        self._queue(self.session.serialize(notification, self.version))

    def supports(self, method: str) -> bool:
        """Whether `ctx.request` may send `method` in this request's protocol version (a
        JSON-RPC request of that version: from 2026-07-28 the server's requests travel inside
        an input-required result instead)."""
        return _sendable(self.session._versions, method, self.version)

    async def _request(self, request: Any) -> Any:
        """Ask the peer and await its result, as application types (the generated `Context`'s
        `request`, typed per request class). Only for handlers run by `async_handle`."""
        return await self.session._ask(self, request)

    def _queue(self, message: dict[str, JSON]) -> None:
        self._outbox.append(message)
        if self._wake is not None:
            self._wake.set()

    def _drain(self) -> list[dict[str, JSON]]:
        out, self._outbox = self._outbox, []
        return out


class Peer:
    """What both sides of a session do with a message the other side sends: validate it with
    the negotiated version's types, find its handler, answer with the result in that version
    or with the JSON-RPC error. `ServerSession` and the client's `ClientSession` say which
    direction they receive and which results they send."""

    DIRECTION: str = "client_to_server"
    """The direction of the requests and notifications this side receives."""
    context_type: type[Context] = Context
    """The class of the `ctx` handlers get (the generated module's, typed per version)."""

    def __init__(
        self,
        handlers: object,
        *,
        base: type,
        table: Sequence[Handler],
        app: ModuleType,
        versions: ModuleType,
        supported: Sequence[str] | None = None,
        strict: bool = False,
        tolerant: bool = False,
    ) -> None:
        self.handlers = handlers
        self.strict = strict
        """Whether what this side sends must fit the negotiated version whole: by default a
        member the version lacks (a newer tool's `icons`) is left out, with a debug log line;
        strict, it is an error naming the member and the version (-32603 for a result)."""
        self.tolerant = tolerant
        """Whether an answer of the peer keeps what the version's unions and enums do not know
        (`parse_result(..., tolerant=True)`) instead of raising `ValidationError`."""
        self._base = base
        self._table = {row.method: row for row in table}
        self._app = app
        self._versions = versions
        self.supported = tuple(supported if supported is not None else versions.PROTOCOL_VERSIONS)
        self.version: str | None = None
        """The version the handshake agreed on (None before, and in stateless versions)."""
        self.log_level: str | None = "debug"
        """Up to 2025-11-25: the client's `logging/setLevel` (every level until it sets one)."""
        self._stateless_versions = [
            v for v in self.supported if versions.HANDSHAKES.get(v) == "server/discover"
        ]
        self._handshake = [v for v in self.supported if versions.HANDSHAKES.get(v) == "initialize"]
        self._per_request = frozenset(self._stateless_versions)  # versions named per request
        self._meta_key: str | None = versions.META_PROTOCOL_VERSION
        self._calls: dict[str, Callable[[Any, Context], Any]] = {}  # method -> what answers it
        self._ids = 0
        self._pending: dict[str | int | float, asyncio.Future[Any]] = {}
        self._running: dict[str | int | float, tuple[Context, asyncio.Task[Any]]] = {}

    def supports(self, method: str) -> bool:
        """Whether the agreed protocol version has `method` (False before a version is agreed),
        so that this side may send it; what the peer declared it handles is in its
        capabilities."""
        return self.version is not None and _sendable(self._versions, method, self.version)

    def overrides(self, attr: str) -> bool:
        """Whether the handlers' class answers `attr` itself."""
        own = getattr(type(self.handlers), attr, None)
        return own is not None and own is not getattr(self._base, attr, None)

    def _builtin(self, method: str) -> Callable[[Any, Context], Any] | None:
        """What this side answers itself when the handlers do not override it."""
        return None

    def _version_for(
        self, message: dict[str, Any], method: str, meta: Mapping[str, JSON]
    ) -> str | dict[str, JSON]:
        """The version to answer `message` (whose `params._meta` is `meta`) in, or the error
        response (without its id)."""
        if self.version is not None:
            return self.version
        return _error(None, INVALID_REQUEST, "Invalid Request: no protocol version agreed yet")

    def _log_level(self, version: str, meta: Mapping[str, JSON]) -> str | None:
        return self.log_level

    # -- one message in, messages out --------------------------------------------------------

    def handle(self, message: object) -> list[dict[str, JSON]]:
        """Answer one decoded JSON-RPC message: the notifications its handler emitted, then
        its response (nothing for a notification or a response). Never raises."""
        prepared = self._prepare(message)
        if isinstance(prepared, list):
            return prepared
        ctx, row, params = prepared
        try:
            call = self._calls.get(row.method)  # `_call`, inlined: the hot path
            value = call(params, ctx) if call is not None else self._call(row, params, ctx)
            # a result (a model object) is no coroutine: skip the slower check for it
            if not isinstance(value, Model) and inspect.isawaitable(value):
                close = getattr(value, "close", None)
                if close is not None:
                    close()
                raise TypeError(f"{row.attr} is a coroutine: use async_handle")
            return ctx._drain() + self._respond(ctx, row, value)
        except Exception as exc:  # noqa: BLE001 - a handler's failure is answered, not raised
            return ctx._drain() + self._failure(ctx, row, exc)

    async def async_handle(self, message: object, send: Send) -> None:
        """Answer one message, sending each message as it is ready: a handler may be `async`,
        stream progress and logs while it runs, await `ctx.request(...)` to the client and see
        `ctx.cancelled`. Run one call per incoming message (`asyncio.create_task`) so that the
        client's responses and cancellations reach the handlers that wait for them."""
        if _is_response(message):
            assert isinstance(message, dict)
            if _request_id(message.get("id")) is not None:
                self._resolve(message)
            return  # a response: nothing to answer
        if isinstance(message, dict) and message.get("method") == "notifications/cancelled":
            self._cancel(message)
        prepared = self._prepare(message)
        if isinstance(prepared, list):
            for out in prepared:
                await send(out)
            return
        ctx, row, params = prepared
        ctx._wake = asyncio.Event()
        task = asyncio.ensure_future(self._acall(row, params, ctx))
        if ctx.request_id is not None:
            self._running[ctx.request_id] = (ctx, task)
        try:
            while not task.done() or ctx._outbox:
                for out in ctx._drain():
                    await send(out)
                if task.done():
                    break
                ctx._wake.clear()
                waker = asyncio.ensure_future(ctx._wake.wait())
                await asyncio.wait({task, waker}, return_when=asyncio.FIRST_COMPLETED)
                waker.cancel()
            for out in ctx._drain():
                await send(out)
            if ctx.cancelled or task.cancelled():
                return  # a cancelled request gets no response
            exc = task.exception()
            replies = (
                self._failure(ctx, row, exc) if exc else self._respond(ctx, row, task.result())
            )
            for out in replies:
                await send(out)
        finally:
            if ctx.request_id is not None:
                self._running.pop(ctx.request_id, None)

    # -- the steps -----------------------------------------------------------------------------

    def _prepare(self, message: object) -> list[dict[str, JSON]] | tuple[Context, Handler, Any]:
        """Negotiate, validate and find the handler; a list is the answer already.

        JSON-RPC 2.0 to the letter: what is no Request object (not an object, no string
        `method`, `jsonrpc` other than "2.0", an id that is no string or number, `params` that
        are neither object nor array) is -32600 Invalid Request, with the id when it is one
        and null otherwise; a notification (no `id`) is never answered; a response (no
        `method`, a `result` or an `error`) is not answered either."""
        if not isinstance(message, dict):
            what = "a batch (MCP has none)" if isinstance(message, list) else "not an object"
            return [_error(None, INVALID_REQUEST, f"Invalid Request: {what}")]
        method = message.get("method")
        if _is_response(message):
            return []  # a response to a request this side sent: nothing to answer
        msg_id = _request_id(message.get("id"))
        problem = _not_a_request(message, method, msg_id)
        if problem is not None:
            return [_error(msg_id, INVALID_REQUEST, f"Invalid Request: {problem}")]
        assert isinstance(method, str)
        notification = "id" not in message
        raw_params = message.get("params")  # its `_meta`, read once for every step below
        meta = raw_params.get("_meta") if isinstance(raw_params, dict) else None
        meta = meta if isinstance(meta, dict) else {}
        version = self._version_for(message, method, meta)
        if isinstance(version, dict):
            return [] if notification else [{**version, "id": msg_id}]
        try:
            msg = self._app.parse_message(message, version=version, direction=self.DIRECTION)
        except UnknownMethodError as exc:
            return [] if notification else [_error(msg_id, METHOD_NOT_FOUND, str(exc))]
        except ProtocolError as exc:
            return [] if notification else [_error(msg_id, INVALID_REQUEST, str(exc))]
        except ValidationError as exc:
            data: JSON = {"errors": [{"path": e.path, "message": e.message} for e in exc.errors]}
            return (
                []
                if notification
                else [_error(msg_id, INVALID_PARAMS, f"Invalid params: {exc}", data)]
            )
        level = self._log_level(version, meta)
        ctx = self.context_type(self, version=version, request_id=msg_id, meta=meta,
                                log_level=level)  # fmt: skip
        params = getattr(msg.obj, "params", None)
        params = None if params is UNSET else params
        row = self._table.get(method)
        if row is None:  # a method of the schema that no handler row names (server-sent ones)
            return (
                []
                if notification
                else [_error(msg_id, METHOD_NOT_FOUND, f"Method not found: {method}")]
            )
        return ctx, row, params

    def _call(self, row: Handler, params: Any, ctx: Context) -> Any:
        call = self._calls.get(row.method)
        if call is None:  # decided once per method: the handlers' class does not change
            call = self._calls[row.method] = self._answerer(row)
        return call(params, ctx)

    def _answerer(self, row: Handler) -> Callable[[Any, Context], Any]:
        builtin = self._builtin(row.method)
        if not self.overrides(row.attr):
            return builtin if builtin is not None else functools.partial(_not_found, row.method)
        found: Callable[[Any, Context], Any] = getattr(self.handlers, row.attr)
        return found

    async def _acall(self, row: Handler, params: Any, ctx: Context) -> Any:
        value = self._call(row, params, ctx)
        return await value if inspect.isawaitable(value) else value

    def _respond(self, ctx: Context, row: Handler, value: Any) -> list[dict[str, JSON]]:
        if row.kind == "notification":
            return []
        try:
            # app.serialize checks that the class is one of the method's results in the version
            payload = self._app.serialize(
                value if value is not None else self._app.Result(),
                version=ctx.version,
                method=row.method,
                strict=self.strict,
            )
        except ProtocolError as exc:  # the handler answered with the wrong class
            said = f"{row.attr} returned None; " if value is None else ""
            _log.error("%s handler: %s%s", row.method, said, exc)
            return [_error(ctx.request_id, INTERNAL_ERROR, f"Internal error: {said}{exc}")]
        except ValidationError as exc:
            _log.error("%s handler returned an invalid result: %s", row.method, exc)
            return [
                _error(ctx.request_id, INTERNAL_ERROR, f"Internal error: invalid result: {exc}")
            ]
        except Exception as exc:  # noqa: BLE001 - not a model object at all: answered, logged
            _log.error("%s handler returned %s", row.method, type(value).__name__, exc_info=exc)
            return [_error(ctx.request_id, INTERNAL_ERROR, "Internal error")]
        return [{"jsonrpc": "2.0", "id": ctx.request_id, "result": payload}]

    def _failure(self, ctx: Context, row: Handler, exc: BaseException) -> list[dict[str, JSON]]:
        if row.kind == "notification":
            return []
        if isinstance(exc, PeerError):  # the peer's error is about its request, not this one
            _log.error("%s handler: the peer answered %s", row.method, exc)
            return [_error(ctx.request_id, INTERNAL_ERROR, "Internal error")]
        if isinstance(exc, McpError):
            if not_json(exc.data) is None and not isinstance(exc.code, bool):
                return [_error(ctx.request_id, exc.code, exc.message, exc.data)]
            _log.error("%s handler raised McpError with data that is not JSON", row.method)
            return [_error(ctx.request_id, INTERNAL_ERROR, "Internal error")]
        if isinstance(exc, ValidationError):
            data: JSON = {"errors": [{"path": e.path, "message": e.message} for e in exc.errors]}
            return [_error(ctx.request_id, INVALID_PARAMS, f"Invalid params: {exc}", data)]
        # Never the traceback: the client learns that it failed, the server's log learns why.
        _log.error("%s handler failed", row.method, exc_info=exc)
        return [_error(ctx.request_id, INTERNAL_ERROR, "Internal error")]

    # -- results in the negotiated version ---------------------------------------------------

    def serialize(self, obj: Any, version: str) -> dict[str, JSON]:
        out: dict[str, JSON] = self._app.serialize(obj, version=version, strict=self.strict)
        return out

    # -- requests to the client (async only) -------------------------------------------------

    async def _ask(self, ctx: Context, request: Any) -> Any:
        if ctx._wake is None:
            raise RuntimeError("ctx.request needs a handler run by async_handle")
        method = getattr(request, "method", None)
        if not isinstance(method, str) or not _sendable(self._versions, method, ctx.version):
            inside = (
                isinstance(method, str)
                and method in self._versions.METHOD_VERSIONS
                and (ctx.version in self._versions.METHOD_VERSIONS[method])
            )
            raise UnsupportedMethod(str(method), ctx.version, inside=inside)
        self._ids += 1
        rid = f"s{self._ids}"
        request = dataclasses.replace(request, id=rid) if hasattr(request, "id") else request
        message = self._app.serialize(request, version=ctx.version, strict=self.strict)
        if isinstance(message, dict):
            message["id"] = rid
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        ctx._queue(message)
        response = await future
        return answer_of(self._app, method, response, ctx.version, self.tolerant)

    def _resolve(self, response: dict[str, Any]) -> None:
        rid = _request_id(response.get("id"))
        future = self._pending.pop(rid, None) if rid is not None else None
        if future is not None and not future.done():
            future.set_result(response)

    def _cancel(self, message: dict[str, Any]) -> None:
        params = message.get("params")
        rid = params.get("requestId") if isinstance(params, dict) else None
        running = self._running.get(rid) if isinstance(rid, (str, int)) else None
        if running is not None:
            ctx, task = running
            ctx.cancelled = True
            task.cancel()


class ServerSession(Peer):
    """One server's side of a session, whatever the transport.

    `handlers` is a `ServerHandlers` subclass instance; `table` the generated handler rows;
    `app` and `versions` the distribution's modules. `supported` restricts the versions this
    server negotiates (default: all of the distribution's)."""

    def __init__(
        self,
        handlers: object,
        *,
        base: type,
        table: Sequence[Handler],
        app: ModuleType,
        versions: ModuleType,
        server_info: Any,
        capabilities: Any = None,
        supported: Sequence[str] | None = None,
        instructions: str | None = None,
        strict: bool = False,
    ) -> None:
        super().__init__(handlers, base=base, table=table, app=app, versions=versions,
                         supported=supported, strict=strict)  # fmt: skip
        self.server_info = server_info
        self.instructions = instructions
        self.capabilities = capabilities if capabilities is not None else self._derived()

    def _derived(self) -> Any:
        caps: dict[str, JSON] = {}
        caps["logging"] = {}  # ctx.log in every version (and logging/setLevel where it exists)
        for row in self._table.values():
            if row.capability is not None and self.overrides(row.attr):
                caps.setdefault(row.capability, {})
        resources = caps.get("resources")
        if isinstance(resources, dict) and self.overrides("resources_subscribe"):
            resources["subscribe"] = True
        return self._app.ServerCapabilities.from_dict(caps)

    def _builtin(self, method: str) -> Callable[[Any, Context], Any] | None:
        found = _BUILTINS.get(method)
        return None if found is None else functools.partial(found, self)

    def _version_for(
        self, message: dict[str, Any], method: str, meta: Mapping[str, JSON]
    ) -> str | dict[str, JSON]:
        """The version to answer `message` in, or the error response (without its id)."""
        versions = self._versions
        found = meta.get(self._meta_key) if self._meta_key is not None else None
        named = found if isinstance(found, str) else None  # what request_version reads
        if named in self._per_request and named is not None and method != "initialize":
            return named  # what check_request_version would answer, without its second look
        if method == "initialize":
            params = message.get("params")
            requested = params.get("protocolVersion") if isinstance(params, dict) else None
            usable = [v for v in self.supported if versions.HANDSHAKES.get(v) == "initialize"]
            if not usable:
                return _error(None, METHOD_NOT_FOUND, "Method not found: initialize")
            agreed: str = versions.answer_initialize(
                requested if isinstance(requested, str) else "", usable
            )
            return agreed
        if named is not None or method == "server/discover":
            try:
                checked: str = versions.check_request_version(message, self._stateless())
                return checked
            except ProtocolError as exc:
                data = exc.data() if hasattr(exc, "data") else None
                code = versions.UNSUPPORTED_PROTOCOL_VERSION
                return _error(None, code, str(exc), data)
        if self.version is not None:
            return self.version
        if method == "ping" and self._handshake_versions():
            return self._handshake_versions()[-1]
        return _error(None, INVALID_REQUEST, "Invalid Request: send initialize first, or name the "
                      "protocol version in params._meta")  # fmt: skip

    def _stateless(self) -> list[str]:
        return self._stateless_versions

    def _handshake_versions(self) -> list[str]:
        return self._handshake

    def _log_level(self, version: str, meta: Mapping[str, JSON]) -> str | None:
        if version in self._per_request:
            level = meta.get(META_LOG_LEVEL)  # the client opts in per request
            return level if isinstance(level, str) and level in LOG_LEVELS else None
        return self.log_level


def _sendable(versions: ModuleType, method: str, version: str) -> bool:
    """Whether `version` has `method` as a JSON-RPC request or notification."""
    if version not in versions.METHOD_VERSIONS.get(method, ()):
        return False
    return bool(versions.method_info(method, version).via == "jsonrpc")


def _is_response(message: object) -> bool:
    """A response (to a request this side sent): an object with `result` or `error` and no
    `method`, well-formed or not; never answered."""
    return (
        isinstance(message, dict)
        and message.get("method") is None
        and ("result" in message or "error" in message)
    )


def _request_id(value: object) -> str | int | float | None:
    """`value` if it is a request id MCP allows (a string or a finite number), else None."""
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value - value == 0.0:
        return value
    return None


def _not_a_request(
    message: dict[str, Any], method: object, msg_id: str | float | None
) -> str | None:
    """Why `message` is no JSON-RPC 2.0 Request object (or notification), None if it is one."""
    if message.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if not isinstance(method, str):
        return "method must be a string"
    if "id" in message and msg_id is None:
        return "id must be a string or a number"  # MCP: not null either
    if "params" in message and not isinstance(message["params"], (dict, list)):
        return "params must be an object or an array"
    return None


def answer_of(
    app: ModuleType,
    method: object,
    response: Mapping[str, Any],
    version: str,
    tolerant: bool = False,
) -> Any:
    """The result of a response to a request of `method` this side sent, as application types;
    an error answer raises `PeerError`, an answer that is neither (a malformed error object, a
    result that is no result of `method`) `PeerError` (-32603) or `ValidationError`."""
    if "error" in response:
        err = response["error"]
        code = err.get("code") if isinstance(err, dict) else None
        text = err.get("message") if isinstance(err, dict) else None
        if "result" in response or type(code) is not int or not isinstance(text, str):
            raise PeerError(INTERNAL_ERROR, f"malformed error answer to {method}: {_short(err)}")
        raise PeerError(code, text, err.get("data"))
    if "result" not in response:
        raise PeerError(INTERNAL_ERROR, f"answer to {method} without result or error")
    return app.parse_result(method, response["result"], version=version, tolerant=tolerant)


def _short(value: object) -> str:
    """A peer's value for an error message: one line, at most 80 characters."""
    try:
        text = dumps(value)
    except ValidationError:
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _error(
    msg_id: str | float | None, code: int, message: str, data: JSON | None = None
) -> dict[str, JSON]:
    error: dict[str, JSON] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": msg_id, "error": error}


# -- what the session answers itself unless the handlers override it -------------------------


def _initialize(session: ServerSession, params: Any, ctx: Context) -> Any:
    session.version = ctx.version
    app = session._app
    return app.InitializeResult(protocol_version=ctx.version, capabilities=session.capabilities,
                                server_info=session.server_info,
                                instructions=session.instructions or UNSET)  # fmt: skip


def _discover(session: ServerSession, params: Any, ctx: Context) -> Any:
    app = session._app
    meta = app.ResultMetaObject(io_modelcontextprotocol_server_info=session.server_info)
    return app.DiscoverResult(supported_versions=session._stateless(), meta=meta,
                              capabilities=session.capabilities, result_type=UNSET,
                              ttl_ms=UNSET, cache_scope=UNSET,
                              instructions=session.instructions or UNSET)  # fmt: skip


def _ping(session: ServerSession, params: Any, ctx: Context) -> Any:
    return None


def _set_level(session: ServerSession, params: Any, ctx: Context) -> Any:
    session.log_level = params.level
    return None


def _ignore(session: ServerSession, params: Any, ctx: Context) -> Any:
    return None


_BUILTINS: Final[Mapping[str, Callable[[ServerSession, Any, Context], Any]]] = {
    "initialize": _initialize,
    "server/discover": _discover,
    "ping": _ping,
    "logging/setLevel": _set_level,
    "notifications/initialized": _ignore,
    "notifications/cancelled": _ignore,
    "notifications/roots/list_changed": _ignore,
}


def check_handlers(cls: type, table: Sequence[Handler]) -> None:
    """Raise `TypeError` for a public method of the handlers class `cls` that answers no method
    of any version (`tool_call` for `tools_call`), with the closest names: it would never be
    called, and the capability it was meant to declare would be missing. Helpers start with
    `_`."""
    known = [row.attr for row in table]
    for name, value in vars(cls).items():
        method = inspect.isfunction(value) or isinstance(value, (staticmethod, classmethod))
        if name.startswith("_") or not method or name in known:
            continue
        close = difflib.get_close_matches(name, known, n=2)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise TypeError(f"{cls.__name__}.{name} answers no method of any protocol version of "
                        f"this distribution: {hint}(a helper's name starts with _)")  # fmt: skip


def _not_found(method: str, params: Any, ctx: Context) -> Any:
    raise MethodNotFound(method)
