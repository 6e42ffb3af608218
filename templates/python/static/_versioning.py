"""The version machinery of a distribution, the same for every distribution: `Versions` holds the
generated tables of `versions.py` (which versions exist, how each starts a session, which
define each method) and does the work; `versions.py` binds its methods as module functions.

Negotiation follows each era of the specification. Up to 2025-11-25 a session starts with
`initialize` (`initialize_version`, `answer_initialize`, `accept_initialize`); from 2026-07-28
every request names its version in `params._meta` (`with_version`, `request_version`,
`check_request_version`, `choose_version`).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, Literal, TypeAlias

from ._protocol import Message, MethodInfo, ProtocolError, UnknownMethodError
from ._runtime import JSON

Handshake: TypeAlias = Literal["initialize", "server/discover"]


class UnsupportedVersionError(ProtocolError):
    """A protocol version this side does not support (or that this distribution does not know).
    `requested` is the version asked for, `supported` the ones that would do; `data()` is the
    `data` member of the protocol's `UnsupportedProtocolVersionError`."""

    def __init__(self, requested: object, supported: Sequence[str], path: str = "$") -> None:
        known = ", ".join(supported) or "none"
        super().__init__(f"unsupported protocol version {requested!r}; supported: {known}", path)
        self.requested = requested
        self.supported: tuple[str, ...] = tuple(supported)

    def data(self) -> dict[str, JSON]:
        requested: JSON = self.requested if isinstance(self.requested, str) else None
        return {"supported": list(self.supported), "requested": requested}


@dataclasses.dataclass(frozen=True)
class Versions:
    """The versions of one distribution (`package`) and what is done with them."""

    package: str
    protocol_versions: tuple[str, ...]  # negotiable, oldest first
    subpackages: Mapping[str, str]  # every key `bindings()` takes -> its subpackage
    handshakes: Mapping[str, Handshake | None]
    method_versions: Mapping[str, tuple[str, ...]]
    meta_key: str | None  # the `_meta` member naming a request's version (2026-07-28 on)

    def bindings(self, version: str) -> ModuleType:
        """The subpackage of `version` (a key of `SUBPACKAGES`: a protocol version or a draft's
        label), imported on first use; an unknown version raises `UnsupportedVersionError`."""
        sub = self.subpackages.get(version) if isinstance(version, str) else None
        if sub is None:
            raise UnsupportedVersionError(version, list(self.subpackages))
        return importlib.import_module(f"{self.package}.{sub}")

    def module(self, version: str, name: str) -> ModuleType:
        """One module (`models`, `registry`...) of `version`'s subpackage."""
        self.bindings(version)
        return importlib.import_module(f"{self.package}.{self.subpackages[version]}.{name}")

    def registry(self, version: str) -> ModuleType:
        """The method registry (`registry.py`) of `version`."""
        return self.module(version, "registry")

    def versions_of(self, method: str) -> tuple[str, ...]:
        """The versions that define `method`, in version order; empty when none does."""
        return self.method_versions.get(method, ())

    def lookup_method(self, method: str) -> str:
        """`method` when some version defines it, else `UnknownMethodError`."""
        if method not in self.method_versions:
            raise UnknownMethodError(method, "$")
        return method

    def check_result(
        self,
        results: Mapping[tuple[str, str], tuple[str, ...]],
        method: str,
        version: str,
        obj: object,
    ) -> None:
        """Raise `ProtocolError` unless `obj`'s class (an application class) is one of those
        `results` lists for `(method, version)`; a method `version` lacks, or a notification,
        raises it too (`UnknownMethodError` for one no version defines)."""
        allowed = results.get((method, version))
        if allowed is not None and type(obj).__name__ in allowed:
            return
        if allowed is None:
            if version not in self.versions_of(self.lookup_method(method)):
                message = f"method {method!r} is not defined in protocol version {version}"
            else:
                message = f"{method!r} is a notification in {version}; it has no result"
            raise _error(message, method=method, version=version)
        message = (f"{type(obj).__name__} is not a result of {method!r} in {version} "
                   f"(expected {' or '.join(allowed)})")  # fmt: skip
        err = ProtocolError(message, "$.result", method=method)
        err.protocol_version = version
        raise err

    def method_info(self, method: str, version: str) -> MethodInfo:
        """What `version`'s registry knows of `method` (its kind, direction and classes); a
        method the version lacks raises `ProtocolError` naming both."""
        info: MethodInfo | None = self.registry(version).METHODS.get(method)
        if info is None:
            message = f"method {method!r} is not defined in protocol version {version}"
            raise _error(message, method=method, version=version)
        return info

    def parse_message(
        self,
        value: object,
        *,
        version: str,
        direction: Literal["client_to_server", "server_to_client"] | None = None,
        tolerant: bool = False,
    ) -> Message[object]:
        """Classify, validate and decode one JSON-RPC message with the types of `version` (see
        the version's `registry.parse_message`, and `tolerant` there); a method it lacks raises
        `ProtocolError`. The version is known only at run time, so `obj` is narrowed with
        `isinstance` against that version's classes (or use the version's registry, typed per
        method)."""
        registry = self.registry(version)
        message: Message[object] = registry.parse_message(
            value, direction=direction, tolerant=tolerant
        )
        return message

    def parse_result(
        self, method: str, value: object, *, version: str, tolerant: bool = False
    ) -> object:
        """Decode the result of a `method` request with the types of `version` (`object` for
        the same reason: the version's `registry.parse_result` is typed per method)."""
        result: object = self.registry(version).parse_result(method, value, tolerant=tolerant)
        return result

    def encode(self, obj: object, *, version: str) -> JSON:
        """The JSON of a `Message` or a model object of `version`."""
        out: JSON = self.registry(version).encode(obj)
        return out

    def request_message(
        self, method: str, params: object = None, *, id: str | int | None, version: str
    ) -> dict[str, JSON]:
        """The wire message of a `method` request of `version`: its request class built with
        `params` (the params object, or None for none) and sent with JSON-RPC `id`, in every
        era: up to 2025-06-18 request classes have no `id` (the message gets it), from
        2025-11-25 they require one. Code that sends requests in several versions need not
        tell them apart."""
        info = self.method_info(method, version)
        cls = info.message_class
        if info.kind != "request" or not dataclasses.is_dataclass(cls):
            message = f"{method!r} is not a request in protocol version {version}"
            raise _error(message, method=method, version=version)
        fields = {f.name for f in dataclasses.fields(cls)}
        body: dict[str, Any] = {} if params is None else {"params": params}
        if "id" in fields and id is not None:
            body["id"] = id
        wire_id = id if info.via == "jsonrpc" else None
        out: dict[str, JSON] = self.registry(version).request(cls(**body), id=wire_id)
        return out

    # -- negotiation ------------------------------------------------------------------------------

    def _with_handshake(self, method: str, supported: Sequence[str] | None) -> list[str]:
        versions = self.protocol_versions if supported is None else supported
        return [v for v in versions if self.handshakes.get(v) == method]

    def initialize_version(self, supported: Sequence[str] | None = None) -> str:
        """Client: the `protocolVersion` of an `initialize` request: its latest version (of
        `supported`, default `PROTOCOL_VERSIONS`) that starts with `initialize`."""
        usable = self._with_handshake("initialize", supported)
        if not usable:
            raise UnsupportedVersionError("initialize", self._with_handshake("initialize", None))
        return usable[-1]

    def answer_initialize(self, requested: str, supported: Sequence[str] | None = None) -> str:
        """Server: the `protocolVersion` of the `initialize` result: the requested version if
        it is supported, else the server's latest version that starts with `initialize`."""
        usable = self._with_handshake("initialize", supported)
        if requested in usable:
            return requested
        if not usable:
            raise UnsupportedVersionError(requested, usable, "$.params.protocolVersion")
        return usable[-1]

    def accept_initialize(self, answered: str, supported: Sequence[str] | None = None) -> str:
        """Client: the version of the session from the server's `initialize` result; one the
        client does not support raises `UnsupportedVersionError` (it must then disconnect)."""
        usable = self._with_handshake("initialize", supported)
        if answered not in usable:
            raise UnsupportedVersionError(answered, usable, "$.result.protocolVersion")
        return answered

    def choose_version(self, offered: Sequence[str], supported: Sequence[str] | None = None) -> str:
        """Client: the latest of its versions that the server offers (`supportedVersions` of a
        `server/discover` result, or `supported` of an `UnsupportedProtocolVersionError`)."""
        mine = self.protocol_versions if supported is None else supported
        for version in reversed(mine):
            if version in offered:
                return version
        raise UnsupportedVersionError(list(offered), mine)

    def request_version(self, value: object) -> str | None:
        """The protocol version a request names in `params._meta` (None when it names none)."""
        if self.meta_key is None or not isinstance(value, dict):
            return None
        params = value.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        found = meta.get(self.meta_key) if isinstance(meta, dict) else None
        return found if isinstance(found, str) else None

    def check_request_version(self, value: object, supported: Sequence[str] | None = None) -> str:
        """Server: the version a request names, when supported; else `UnsupportedVersionError`
        (answer with an `UnsupportedProtocolVersionError`: code `UNSUPPORTED_PROTOCOL_VERSION`,
        data `err.data()`)."""
        found = self.request_version(value)
        usable = self._with_handshake("server/discover", supported)
        if found is None or found not in usable:
            raise UnsupportedVersionError(found, usable, f"$.params._meta[{self.meta_key!r}]")
        return found

    def with_version(self, value: dict[str, Any], version: str) -> dict[str, Any]:
        """Client: a copy of a request (JSON) whose `params._meta` names `version`."""
        if self.meta_key is None:
            message = "no version of this distribution names the version in _meta"
            raise _error(message, version=version)
        params = dict(value.get("params") or {})
        params["_meta"] = {**(params.get("_meta") or {}), self.meta_key: version}
        return {**value, "params": params}


def _error(message: str, *, method: str | None = None, version: str) -> ProtocolError:
    err = ProtocolError(message, "$.method" if method is not None else "$", method=method)
    err.protocol_version = version
    return err
