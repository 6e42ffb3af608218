"""The client side of an MCP session over the application types, on a transport of the user's
(two callables: send one message, receive the next).

Nothing here belongs to one protocol version or one schema: the generated `client.py` builds a
`ClientSession` from its handler table and the distribution's `app` and `versions` modules.
`connect` negotiates (`server/discover` from 2026-07-28, falling back to `initialize` for an
older server), `request` sends a request with a fresh id, stamps the per-request `_meta` of a
stateless version, answers what the server sends meanwhile (sampling, elicitation, roots, ping,
notifications) with the handlers, retries an input-required result with the handlers' answers,
and returns the result of the request as application types.
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Final

from ._runtime import JSON, UNSET, ValidationError, encode_value
from ._session import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    Context,
    Handler,
    McpError,
    Peer,
    PeerError,
    UnsupportedMethod,
    _request_id,
    answer_of,
)
from ._stdio import answer

META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"
INPUT_REQUIRED = "InputRequiredResult"

REQUEST_TIMEOUT: Final = -32001
"""The code of `RequestTimeout` (the official SDKs' request-timeout code)."""
MAX_INPUT_ROUNDS: Final = 8
"""How many input-required results `request` answers for one request by default: a server that
asks again and again is a `PeerError` after that many rounds."""

Progress = Callable[[float, "float | None", "str | None"], None]

_log = logging.getLogger(__name__)


class RequestTimeout(McpError):
    """No answer came within the request's timeout (the request was cancelled at the server)."""

    def __init__(self, method: str, timeout: float) -> None:
        super().__init__(REQUEST_TIMEOUT, f"{method}: no answer within {timeout} s")


class ClientSession(Peer):
    """One client's side of a session with one server.

    `handlers` is a `ClientHandlers` subclass instance (what the client answers: sampling,
    elicitation, roots, and the server's notifications); `send(message)` writes one JSON-RPC
    message, `receive()` returns the next one the server sent (a decoded JSON value).

    `timeout` (seconds, None: none) bounds each request unless `request` gives its own: when it
    passes, the request is cancelled at the server and `RequestTimeout` raised. It is exact when
    `receive` takes a `timeout` keyword (and raises `TimeoutError`), as `StdioProcess.receive`
    does; otherwise it is checked as each message arrives. `max_input_rounds` bounds the
    input-required rounds of one request."""

    DIRECTION = "server_to_client"

    def __init__(
        self,
        handlers: object,
        *,
        base: type,
        table: Sequence[Handler],
        app: ModuleType,
        versions: ModuleType,
        client_info: Any,
        send: Callable[[dict[str, JSON]], None],
        receive: Callable[[], object],
        capabilities: Any = None,
        supported: Sequence[str] | None = None,
        log_level: str | None = None,
        timeout: float | None = None,
        max_input_rounds: int = MAX_INPUT_ROUNDS,
        strict: bool = False,
        tolerant: bool = False,
    ) -> None:
        super().__init__(handlers, base=base, table=table, app=app, versions=versions,
                         supported=supported, strict=strict, tolerant=tolerant)  # fmt: skip
        self.log_level = log_level
        """The least severe log message the client asks for (None: the server's default; from
        2026-07-28, none at all)."""
        self.client_info = client_info
        self.capabilities = capabilities if capabilities is not None else self._derived()
        self.server_info: Any = None
        self.server_capabilities: Any = None
        self._send, self._receive = send, receive
        self._timed = _takes_timeout(receive)
        self.timeout = timeout
        self.max_input_rounds = max_input_rounds
        self._next_id = 0

    def _builtin(self, method: str) -> Callable[[Any, Context], Any] | None:
        if method == "ping":
            return _ping
        return _ignore if method.startswith("notifications/") else None

    def _derived(self) -> Any:
        caps: dict[str, JSON] = {}
        for row in self._table.values():
            if row.capability is not None and self.overrides(row.attr):
                caps.setdefault(row.capability, {})
        return self._app.ClientCapabilities.from_dict(caps)

    # -- negotiation ---------------------------------------------------------------------------

    def connect(self, version: str | None = None) -> str:
        """Agree on a version with the server, offering `version` (default: the latest this
        client supports), and return it."""
        offer = version if version is not None else self.supported[-1]
        if self._versions.HANDSHAKES.get(offer) == "server/discover":
            agreed = self._discover(offer)
            if agreed is not None:
                return agreed
            offer = self._handshake[-1] if self._handshake else offer
        if offer not in self._handshake:
            raise McpError(INVALID_REQUEST, f"no version of this client can start with {offer!r}")
        self.version = offer
        app = self._app
        params = app.InitializeRequestParams(protocol_version=offer, client_info=self.client_info,
                                             capabilities=self.capabilities)  # fmt: skip
        result = self.request(app.InitializeRequest(params=params))
        self.version = self._versions.accept_initialize(result.protocol_version, self._handshake)
        self.server_info, self.server_capabilities = result.server_info, result.capabilities
        self.notify(app.InitializedNotification())
        if (
            self.log_level is not None
            and getattr(result.capabilities, "logging", UNSET) is not UNSET
        ):
            level = app.SetLevelRequestParams(level=self.log_level)
            self.request(app.SetLevelRequest(params=level))
        return self.version

    def _discover(self, offer: str) -> str | None:
        """`server/discover` at `offer` (then at each version the server says it supports, each
        tried once): the version agreed, or None for a server that has no such method (an
        older server: the caller falls back to `initialize`)."""
        tried = {offer}
        while True:
            self.version = offer
            try:
                found = self.request(
                    self._app.DiscoverRequest(id=0, params=self._app.RequestParams())
                )
                break
            except McpError as exc:
                data = exc.data if isinstance(exc.data, dict) else {}
                offered = data.get("supported")
                if exc.code == self._versions.UNSUPPORTED_PROTOCOL_VERSION and isinstance(
                    offered, list
                ):
                    mutual = [v for v in self._stateless_versions
                              if v in offered and v not in tried]  # fmt: skip
                    if mutual:
                        offer = mutual[-1]
                        tried.add(offer)
                        continue
                if exc.code in (METHOD_NOT_FOUND, INVALID_REQUEST) or exc.code < -32000:
                    self.version = None
                    return None
                raise
        self.version = self._versions.choose_version(
            list(found.supported_versions), self._stateless_versions
        )
        self.server_capabilities = found.capabilities
        meta = found.meta
        self.server_info = getattr(meta, "io_modelcontextprotocol_server_info", None)
        return self.version

    # -- requests and notifications to the server --------------------------------------------

    def request(
        self, request: Any, *, progress: Progress | None = None, timeout: float | None = None
    ) -> Any:
        """Send `request` (an application request object, its id left unset) and return its
        result as application types. A JSON-RPC error answer raises `PeerError` (an
        `McpError`), a result that does not fit the version's types `ValidationError`, no
        answer within `timeout` seconds (default: the session's) `RequestTimeout`; what the
        server sends meanwhile is answered by the handlers; `progress(done, total, message)`
        is called for each progress notification of this request."""
        if self.version is None:
            raise McpError(INVALID_REQUEST, "connect() first: no protocol version agreed")
        if not self.supports(request.method):
            raise UnsupportedMethod(request.method, self.version)
        limit = timeout if timeout is not None else self.timeout
        deadline = time.monotonic() + limit if limit is not None else None
        for _ in range(self.max_input_rounds + 1):
            self._next_id += 1
            rid = self._next_id
            token = f"p{rid}" if progress is not None else None
            self._send(self._message(request, rid, token))
            result = self._await(request.method, rid, token, progress, deadline, limit)
            if type(result).__name__ != INPUT_REQUIRED:
                return result
            request = self._with_inputs(request, result)
        raise PeerError(INTERNAL_ERROR, f"{request.method}: the server asked for input more "
                        f"than max_input_rounds={self.max_input_rounds} times")  # fmt: skip

    def notify(self, notification: Any) -> None:
        """Send a notification (an application object) in the agreed version."""
        if self.version is None:
            raise McpError(INVALID_REQUEST, "connect() first: no protocol version agreed")
        self._send(self.serialize(notification, self.version))

    def _message(self, request: Any, rid: int, token: str | None) -> dict[str, JSON]:
        version = self.version
        assert version is not None
        members: dict[str, Any] = {}
        if self._versions.HANDSHAKES.get(version) == "server/discover":
            members[META_VERSION] = version  # every request names its version (2026-07-28 on)
            members[META_CAPABILITIES] = self.capabilities
            members[META_CLIENT_INFO] = self.client_info
            if self.log_level is not None:
                members[META_LOG_LEVEL] = self.log_level
        if token is not None:
            members["progressToken"] = token
        if members:
            request = self._with_meta(request, members)
        if hasattr(request, "id"):
            request = dataclasses.replace(request, id=rid)
        message: dict[str, JSON] = self._app.serialize(request, version=version, strict=self.strict)
        message["id"] = rid
        return message

    def _with_meta(self, request: Any, members: Mapping[str, Any]) -> Any:
        """`request` with these `_meta` members (by wire name) set on its params."""
        app = self._app
        params = request.params
        if params is UNSET or params is None:
            params = getattr(app, _field_class(app, type(request).__name__, "params"))()
        meta_class = _field_class(app, type(params).__name__, "_meta")
        declared = {f.wire for f in app.FIELDS[meta_class]}
        data: dict[str, Any] = {} if params.meta is UNSET else params.meta.to_dict()
        for wire, value in members.items():
            if wire in declared:
                data[wire] = encode_value(value)
        # Decoded, not constructed: a member deprecated in every version (the log level) set
        # here is the library's own use, and decoding never warns.
        meta = getattr(app, meta_class).from_dict(data)
        return dataclasses.replace(request, params=dataclasses.replace(params, meta=meta))

    def _await(
        self,
        method: str,
        rid: int,
        token: str | None,
        progress: Progress | None,
        deadline: float | None,
        limit: float | None,
    ) -> Any:
        while True:
            incoming = self._next(deadline)
            if incoming is None:
                assert limit is not None
                self._cancel_at_server(rid, f"no answer within {limit} s")
                raise RequestTimeout(method, limit)
            if (
                isinstance(incoming, dict)
                and "method" not in incoming
                and _request_id(incoming.get("id")) == rid
                and not isinstance(incoming.get("id"), str)
            ):
                version = self.version
                assert version is not None
                return answer_of(self._app, method, incoming, version, self.tolerant)
            if progress is not None and _is_progress(incoming, token):
                self._progress(incoming, progress)
                continue
            for out in answer(self, incoming):
                self._send(out)

    def _next(self, deadline: float | None) -> object | None:
        """The next message, None once `deadline` (monotonic) has passed."""
        if deadline is None:
            return self._receive()
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        if not self._timed:
            return self._receive()
        try:
            return self._receive(timeout=left)  # type: ignore[call-arg]
        except TimeoutError:
            return None

    def _cancel_at_server(self, rid: int, reason: str) -> None:
        params: dict[str, JSON] = {"requestId": rid, "reason": reason}
        self._send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})

    def _progress(self, incoming: object, progress: Progress) -> None:
        """Call `progress` for a progress notification that fits the version's types; one that
        does not (no `progress`, a string for a number) is dropped, and logged."""
        try:
            msg = self._app.parse_message(incoming, version=self.version, direction=self.DIRECTION)
        except ValidationError as exc:
            _log.warning("a malformed progress notification was dropped: %s", exc)
            return
        p = msg.obj.params
        total = None if p.total is UNSET else p.total
        message = None if getattr(p, "message", UNSET) is UNSET else p.message
        progress(p.progress, total, message)

    def _with_inputs(self, request: Any, result: Any) -> Any:
        """`request` again, with the handlers' answers to the server's input requests."""
        answers: dict[str, Any] = {}
        requests: Mapping[str, Any] = result.input_requests or {}
        for key, asked in requests.items():
            row = self._table.get(asked.method)
            if row is None:
                raise McpError(METHOD_NOT_FOUND, f"the server asked for {asked.method!r}")
            ctx = self.context_type(self, version=self.version or "", request_id=None, meta={},
                          log_level=None)  # fmt: skip
            params = None if asked.params is UNSET else asked.params
            answers[key] = self._call(row, params, ctx)
        params = request.params if request.params is not UNSET else self._app.RequestParams()
        changes: dict[str, Any] = {"input_responses": answers}
        if result.request_state:
            changes["request_state"] = result.request_state
        return dataclasses.replace(request, params=dataclasses.replace(params, **changes))


def _field_class(app: ModuleType, cls: str, wire: str) -> str:
    """The application class of member `wire` of class `cls` (by the conversion tables)."""
    for f in app.FIELDS[cls]:
        if f.wire == wire and f.cls is not None:
            return str(f.cls)
    raise LookupError(f"{cls} has no object member {wire!r}")


def _takes_timeout(receive: Callable[..., object]) -> bool:
    try:
        return "timeout" in inspect.signature(receive).parameters
    except (TypeError, ValueError):  # a callable without a signature
        return False


def _is_progress(message: object, token: str | None) -> bool:
    if not isinstance(message, dict) or message.get("method") != "notifications/progress":
        return False
    params = message.get("params")
    return isinstance(params, dict) and params.get("progressToken") == token


def _ping(params: Any, ctx: Context) -> Any:
    return None


def _ignore(params: Any, ctx: Context) -> Any:
    return None
