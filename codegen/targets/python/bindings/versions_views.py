"""View models of a distribution's top level (`distribution.py`): `versions.py` (the
versions, their negotiation facts and the `(method, version) -> types` tables of every direction,
read from codegen.analysis.methods), the top `__init__.py` and `pyproject.toml`.

Pure: versions and their method models in, plain template contexts out; every Python expression
a template writes is computed here. This is the one owner of the cross-version method tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .... import ir
from ....analysis.methods import Method, MethodModel, method_model
from ....pytext import code_literal, comment
from ..subpackages import PyVersion

HANDSHAKE_METHODS = ("initialize", "server/discover")  # the first method of each era
META_OBJECT = "RequestMetaObject"  # holds the per-request protocol version (2026-07-28 on)
META_SUFFIX = "/protocolVersion"
UNSUPPORTED_CONST = "UNSUPPORTED_PROTOCOL_VERSION"


@dataclass(frozen=True)
class Table:
    """One `(method, version) -> types` mapping of versions.py."""

    name: str  # CLIENT_REQUESTS
    doc: str  # its docstring's text (one line)
    hint: str  # the value type: "str" or "tuple[str, ...]"
    rows: tuple[tuple[str, str], ...]  # ("('initialize', '2024-11-05')", "'InitializeRequest'")


@dataclass(frozen=True)
class VersionsView:
    sources: tuple[str, ...]  # comment lines: "2025-06-18 (v2025_06_18): schema.ts sha256 ..."
    protocol_versions: tuple[str, ...]  # literals of the negotiable versions, oldest first
    latest: str  # literal
    keys: tuple[tuple[str, str, str], ...]  # (key, subpackage, label) literals, every version
    handshakes: tuple[tuple[str, str], ...]  # (key literal, handshake method literal or None)
    meta_key: str  # literal of the `_meta` protocol version key, or "None"
    unsupported_code: str  # literal of UNSUPPORTED_PROTOCOL_VERSION, or "None"
    tables: tuple[Table, ...]
    method_versions: tuple[tuple[str, str], ...]  # (method literal, tuple of key literals)
    method_hint: str  # `Literal[...]` of every method of every version ("str" for none)
    request_method_hint: str  # of those that are requests in some version ("NoReturn" for none)
    checked_method: str  # what lookup_method returns: its argument typed as a MethodName
    typing_imports: str  # what versions.py imports from typing


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def handshake(model: MethodModel) -> str | None:
    """The method a session of this version starts with: `initialize` (the handshake eras) or
    `server/discover` (2026-07-28 on, where each request carries its version); None if neither."""
    for name in HANDSHAKE_METHODS:
        m = model.get(name)
        if m is not None and m.kind == "request" and m.direction != "server_to_client":
            return name
    return None


def meta_key(resolved: ir.Resolved) -> str | None:
    """The `_meta` member that names a request's protocol version, as the schema spells it."""
    for td in resolved.types:
        if td.name == META_OBJECT and isinstance(td.type, ir.Obj):
            for p in td.type.properties:
                if p.name.endswith(META_SUFFIX):
                    return p.name
    return None


def _const(resolved: ir.Resolved, name: str) -> str | int | float | bool | None:
    for c in resolved.consts:
        if c.name == name and isinstance(c.value.value, (str, int, float, bool)):
            return c.value.value
    return None


def _sends(side: str) -> Callable[[Method], bool]:
    return lambda m: m.via == "jsonrpc" and m.direction in (side, "both")


# (table, docstring, which methods, what of them): the tables of versions.py, by direction.
_TABLES: tuple[tuple[str, str, str, Callable[[Method], bool], bool], ...] = (
    ("CLIENT_REQUESTS", "Requests a client sends: (method, version) -> request type.", "request",
     _sends("client_to_server"), False),
    ("SERVER_REQUESTS", "JSON-RPC requests a server sends: (method, version) -> request type.",
     "request", _sends("server_to_client"), False),
    ("INPUT_REQUESTS", "Requests inside an input-required result: (method, version) -> request type.",
     "request", lambda m: m.via == "input_required", False),
    ("CLIENT_NOTIFICATIONS", "Notifications a client sends: (method, version) -> notification type.",
     "notification", _sends("client_to_server"), False),
    ("SERVER_NOTIFICATIONS", "Notifications a server sends: (method, version) -> notification type.",
     "notification", _sends("server_to_client"), False),
    ("SERVER_RESULTS", "Server results: (method, version) -> result type, then alternatives.",
     "request", _sends("client_to_server"), True),
    ("CLIENT_RESULTS", "Client results: (method, version) -> result type, then alternatives.",
     "request", _sends("server_to_client"), True),
    ("INPUT_RESPONSES", "Input responses (in the retried request): (method, version) -> types.",
     "request", lambda m: m.via == "input_required", True),
)  # fmt: skip


def _table(
    entry: tuple[str, str, str, Callable[[Method], bool], bool],
    models: list[tuple[PyVersion, MethodModel]],
) -> Table:
    name, doc, kind, keep, results = entry
    rows = []
    for v, model in models:
        for m in model.methods:
            if m.kind != kind or not keep(m):
                continue
            value = (
                _tuple([code_literal(t) for t in m.result_types])
                if results
                else code_literal(m.type_name)
            )
            rows.append((m.method, v.key, value))
    rows.sort(key=lambda row: row[0])  # by method, then in version order (a stable sort)
    hint = "tuple[str, ...]" if results else "str"
    return Table(
        name,
        doc,
        hint,
        tuple((_tuple([code_literal(m), code_literal(k)]), val) for m, k, val in rows),
    )


def versions_view(versions: tuple[PyVersion, ...]) -> VersionsView:
    models = [(v, method_model(v.resolved)) for v in versions]
    negotiable = [v.key for v in versions if v.negotiable]
    names = sorted({m.method for _, model in models for m in model.methods})
    requests = sorted({m.method for _, model in models for m in model.methods
                       if m.kind == "request"})  # fmt: skip
    typing = ["Final", "TypeAlias"] + (["Literal", "cast"] if names else [])
    typing += [] if requests else ["NoReturn"]
    meta = next((k for v in versions if (k := meta_key(v.resolved)) is not None), None)
    code = next((c for v in versions if (c := _const(v.resolved, UNSUPPORTED_CONST)) is not None),
                None)  # fmt: skip
    return VersionsView(
        sources=tuple(
            comment(f"{v.key} ({v.subpackage}): {v.label}, sha256 {v.resolved.sha256}")
            for v in versions
        ),
        protocol_versions=tuple(code_literal(k) for k in negotiable),
        latest=code_literal(negotiable[-1] if negotiable else None),
        keys=tuple(
            (code_literal(v.key), code_literal(v.subpackage), code_literal(v.label))
            for v in versions
        ),
        handshakes=tuple(
            (code_literal(v.key), code_literal(handshake(model))) for v, model in models
        ),
        meta_key=code_literal(meta),
        unsupported_code=code_literal(code),
        tables=tuple(_table(entry, models) for entry in _TABLES),
        method_versions=tuple(
            (code_literal(n), _tuple([code_literal(v.key) for v, model in models if model.get(n)]))
            for n in names
        ),
        method_hint=_literal(names, "str"),
        request_method_hint=_literal(requests, "NoReturn"),
        checked_method="cast(MethodName, method)" if names else "method",
        typing_imports=", ".join(typing),
    )


def _literal(methods: list[str], empty: str) -> str:
    """A `Literal` of method strings; `empty` for none (`NoReturn`: no value; `str` where a
    function returns one: a schema without methods has nothing to check)."""
    return f"Literal[{', '.join(code_literal(m) for m in methods)}]" if methods else empty


@dataclass(frozen=True)
class ProjectView:
    name: str  # the distribution and import name
    version: str  # the distribution's version
    description: str  # TOML basic string content (escaped)
    sources: tuple[str, ...]


def _toml_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def project_view(name: str, versions: tuple[PyVersion, ...], dist_version: str) -> ProjectView:
    keys = ", ".join(v.key for v in versions)
    return ProjectView(
        name=name,
        version=dist_version,
        description=_toml_string(f"Model Context Protocol bindings (protocol versions {keys})"),
        sources=tuple(comment(f"{v.key}: {v.label}, sha256 {v.resolved.sha256}") for v in versions),
    )
