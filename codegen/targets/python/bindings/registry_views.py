"""View models of the method registries: `registry.py` in each generated package (the method table
of codegen.analysis.methods with the Python classes of each method's types, and the JSON-RPC envelope
types of the schema). The cross-version tables are `versions_views.py`'s.

Pure: resolved IR (or method models) in, plain template contexts out. Every Python expression a
template writes (literals, `_m.Class` references, hints) is computed here.
"""

from __future__ import annotations

from pathlib import PurePath

from .... import ir
from ....analysis.envelopes import envelopes
from ....analysis.methods import Method, method_model
from ....analysis.shapes import is_class_obj
from ....pynaming import PyIndex
from ....pytext import Code, code_literal, comment
from ....records import record
from .views import Context

MODELS = "_m"  # how registry.py imports the package's models module
_ARROWS = {"client_to_server": "client -> server", "server_to_client": "server -> client",
           "both": "both ways"}  # fmt: skip


# -- Python expressions for schema types ------------------------------------------------------


def class_expr(index: PyIndex, t: ir.TypeExpr) -> str:
    """What a value of `t` decodes to, as a runtime expression usable with `isinstance`: the
    class (`_m.CallToolResult`; `EmptyResult` is `_m.Result`), a union of them
    (`_m.ElicitRequestFormParams | _m.ElicitRequestURLParams`), `dict` for an object without
    declared properties, `object` for anything else."""
    return _text(_classes(index, t))


def _classes(index: PyIndex, t: ir.TypeExpr) -> tuple[Code, ...]:
    """`class_expr`'s members, each once, in order: a class of the models module (`defined`),
    `_DICT`, or `_OBJECT` alone."""
    parts: list[Code] = []
    for member in index.members(t):
        target = index.target(member)
        name = index.class_of(member)
        if name is not None:
            part = _model(index, name)
        elif isinstance(target, (ir.Obj, ir.Map)) and not is_class_obj(target):
            part = _DICT
        else:
            return (_OBJECT,)
        if part not in parts:
            parts.append(part)
    return tuple(parts) or (_OBJECT,)


def _model(index: PyIndex, name: str) -> Code:
    py = index.py_name(name)
    return Code(f"{MODELS}.{py}", defined=(py,))


def _text(parts: tuple[Code, ...]) -> str:
    return " | ".join(p.text for p in parts)


def _named(index: PyIndex, name: str | None) -> tuple[Code, ...]:
    if name is None:
        return (Code("None"),)
    if name in index.typedefs:
        return _classes(index, ir.Ref(name))
    if name in index.classes:
        return (_model(index, name),)
    return (_OBJECT,)


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


_DICT = Code("dict")  # an object without declared properties, as `isinstance` takes it
_OBJECT = Code("object")
# How a class expression is written as a type hint where it differs (mypy --strict wants the
# type arguments of a generic).
_HINTS = {_DICT: Code("dict[str, Any]", own=frozenset({"Any"}))}


def _hints(exprs: list[tuple[Code, ...]]) -> tuple[Code, ...]:
    """The members of a union hint of class expressions, each once, in order (`object` for
    none)."""
    out: list[Code] = []
    for expr in exprs:
        for part in expr:
            hint = _HINTS.get(part, part)
            if hint not in out:
                out.append(hint)
    return tuple(out) or (_OBJECT,)


def _join(exprs: list[tuple[Code, ...]]) -> str:
    """A union hint of class expressions, each member once, in order."""
    return _text(_hints(exprs))


# -- registry.py --------------------------------------------------------------------------------


@record
class MethodInfoView:
    """One `METHODS` entry; every field is a Python expression."""

    key: str
    comment: str  # "request, client -> server"
    kind: str
    direction: str
    via: str
    message_type: str
    message_class: str
    params_type: str
    params_class: str
    params_optional: str
    result_type: str
    result_class: str
    alt_result_types: str
    alt_result_classes: str
    result_hint: str  # requests: what parse_result returns for this method


@record
class RegistryView:
    typing_imports: str  # "Final, TypeAlias, ...": only the names the module uses
    imports_models: bool  # whether any class of the models module is named
    protocol_version: str  # Python literal, or "None"
    in_version: str  # Python literal: "in protocol version 2025-06-18"
    jsonrpc_version: str  # Python literal
    batches: str  # "True" when JSONRPCMessage has array members
    request_envelope: str  # Python literal of a type name, or "None"
    notification_envelope: str
    result_envelope: str
    error_envelope: str
    methods: tuple[MethodInfoView, ...]
    request_hint: str  # union of the request classes
    notification_hint: str
    response_hint: str  # union of the response envelope classes
    result_hint: str  # union of every request's result classes
    overloads: tuple[MethodInfoView, ...]  # requests, for parse_result's overloads (>= 2 or none)
    requests: tuple[MethodInfoView, ...]  # every request, for result's overloads
    method_hint: str  # `Literal[...]` of every method string ("str" without one)
    request_method_hint: str  # of the requests' method strings
    checked_method: str  # what lookup_method returns: `method` typed as a MethodName
    notes: tuple[str, ...]  # comment text from the method model


def _method_view(m: Method, index: PyIndex) -> MethodInfoView:
    td = index.typedefs[m.type_name]
    params = td.type.prop("params") if isinstance(td.type, ir.Obj) else None
    params_class = class_expr(index, params.type) if params is not None else "None"
    result_classes = [_named(index, r) for r in m.result_types]
    arrow = _ARROWS[m.direction] + (
        ", inside an input-required result" if m.via == "input_required" else ""
    )
    return MethodInfoView(
        key=code_literal(m.method),
        comment=comment(f"{m.kind}, {arrow}"),
        kind=code_literal(m.kind),
        direction=code_literal(m.direction),
        via=code_literal(m.via),
        message_type=code_literal(m.type_name),
        message_class=_text(_named(index, m.type_name)),
        params_type=code_literal(m.params_type),
        params_class=params_class,
        params_optional=code_literal(m.params_optional),
        result_type=code_literal(m.result_type),
        result_class=_text(_named(index, m.result_type)),
        alt_result_types=_tuple([code_literal(a) for a in m.alt_result_types]),
        alt_result_classes=_tuple([_text(_named(index, a)) for a in m.alt_result_types]),
        result_hint=_join(result_classes),
    )  # fmt: skip


def _literal(keys: list[str], empty: str = "NoReturn") -> str:
    """A `Literal` of method strings; `empty` for none (`NoReturn`: no value; `str` where a
    function returns one: a schema without methods has nothing to check)."""
    return f"Literal[{', '.join(keys)}]" if keys else empty


def _typing_imports(methods: list[Method], dicts: bool) -> str:
    """The names registry.py imports from typing: only those it uses (ruff flags the others).
    `dicts`: some hint is `dict[str, Any]` (`_HINTS`)."""
    requests = any(m.kind == "request" for m in methods)
    names = ["Final", "TypeAlias"] + (["overload"] if requests else [])
    names += ["Literal", "cast"] if methods else []  # `MethodName`, `lookup_method`
    names += [] if requests else ["NoReturn"]  # `RequestMethod` of no request
    return ", ".join(names + (["Any"] if dicts else []))


def registry_view(resolved: ir.Resolved, index: PyIndex | None = None) -> RegistryView:
    index = index if index is not None else PyIndex(resolved)
    model = method_model(resolved)
    env = envelopes(index)
    consts = {c.name: c.value.value for c in resolved.consts}
    version = model.protocol_version
    where = (f"in protocol version {version}" if version is not None
             else f"in the protocol of {PurePath(resolved.source).name}")  # fmt: skip
    methods = tuple(_method_view(m, index) for m in model.methods)
    requests = [v for v, m in zip(methods, model.methods) if m.kind == "request"]
    # the class expressions each hint joins, as data: what the module imports is read from them
    messages = [_named(index, m.type_name) for m in model.methods]
    results = [
        [_named(index, r) for r in m.result_types] for m in model.methods if m.kind == "request"
    ]
    responses = [_named(index, n) for n in (env.result, env.error) if n is not None]
    overloads = tuple(requests) if len(requests) >= 2 else ()
    kinds = [m.kind for m in model.methods]
    request_hint = _join([c for c, k in zip(messages, kinds) if k == "request"])
    notification_hint = _join([c for c, k in zip(messages, kinds) if k == "notification"])
    response_hint = _join(responses)
    result_hint = _join([_hints(r) for r in results])
    method_hint = _literal([v.key for v in methods], "str")
    request_method_hint = _literal([v.key for v in requests])
    hinted = [*messages, *responses, *(expr for r in results for expr in r)]
    return RegistryView(
        imports_models=any(p.defined for expr in [*messages, *responses] for p in expr),
        typing_imports=_typing_imports(
            list(model.methods), any(p in _HINTS for expr in hinted for p in expr)
        ),
        protocol_version=code_literal(version),
        in_version=code_literal(where),
        jsonrpc_version=code_literal(str(consts.get("JSONRPC_VERSION", "2.0"))),
        batches=code_literal(env.batches),
        request_envelope=code_literal(env.request),
        notification_envelope=code_literal(env.notification),
        result_envelope=code_literal(env.result),
        error_envelope=code_literal(env.error),
        methods=methods,
        request_hint=request_hint,
        notification_hint=notification_hint,
        response_hint=response_hint,
        result_hint=result_hint,
        overloads=overloads,
        requests=tuple(requests),
        method_hint=method_hint,
        request_method_hint=request_method_hint,
        checked_method="cast(MethodName, method)" if methods else "method",
        notes=tuple(comment(n) for n in model.notes),
    )


def package_view(ctx: Context) -> RegistryView:
    """The view of registry.py for `codegen.targets.python.bindings.render_package`."""
    return registry_view(ctx.resolved, ctx.index)
