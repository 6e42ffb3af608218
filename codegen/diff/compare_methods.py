"""Neutral comparison of two method models: methods added or removed, kind, direction, carrier,
message type, params, result and alternative results. Names are compared through the renames
found among the types, shapes through `algebra.shape`."""

from __future__ import annotations

from collections.abc import Mapping

from .. import ir
from ..analysis.methods import CREATE_TASK_RESULT, Method, MethodModel
from . import notation
from .algebra import shape
from .change import NO_FACTS, Change, Facts, What

Types = Mapping[str, ir.TypeDef]
_NEVER = ir.Prim(ir.PrimKind.NEVER)


def _decl(types: Types, name: str | None) -> ir.TypeExpr:
    td = types.get(name or "")
    return td.type if td else _NEVER


def _params(types: Types, m: Method) -> ir.TypeExpr:
    td = types[m.type_name]
    p = td.type.prop("params") if isinstance(td.type, ir.Obj) else None
    if p is None:
        return _NEVER
    return _decl(types, p.type.name) if isinstance(p.type, ir.Ref) else p.type


def _opt(name: str | None) -> str:
    return name or "(none)"


def _params_text(types: Types, m: Method) -> str:
    """The params as written: a declared name, or the inline object itself (its generated
    class name is not in the schema; `generated-name-changed` reports that name)."""
    td = types[m.type_name]
    p = td.type.prop("params") if isinstance(td.type, ir.Obj) else None
    if p is None or isinstance(p.type, ir.Ref):
        return _opt(m.params_type)
    return notation.ts(p.type, depth=1)


def compare_methods(
    old: MethodModel,
    new: MethodModel,
    old_types: Types,
    new_types: Types,
    renames: Mapping[str, str],
) -> list[Change]:
    out: list[Change] = []

    def add(
        path: tuple[str, ...],
        what: What,
        before: str | None,
        after: str | None,
        facts: Facts = NO_FACTS,
    ) -> None:
        out.append(Change("method", path, what, before, after, facts))

    def same(a: ir.TypeExpr, b: ir.TypeExpr) -> bool:
        return shape(a, renames) == shape(b, {})

    def renamed(name: str | None) -> str | None:
        return renames.get(name, name) if name else None

    for name in sorted({m.method for m in old.methods} | {m.method for m in new.methods}):
        a, b = old.get(name), new.get(name)
        path = (name,)
        if a is None or b is None:
            m = b if a is None else a
            assert m is not None
            what = What.METHOD_ADDED if a is None else What.METHOD_REMOVED
            before, after = (None, m.type_name) if a is None else (m.type_name, None)
            add(path, what, before, after, Facts(kind=m.kind, direction=m.direction))
            continue
        if a.kind != b.kind:
            add(path, What.METHOD_KIND, a.kind, b.kind)
        if a.direction != b.direction:
            add(path, What.METHOD_DIRECTION, a.direction, b.direction)
        if a.via != b.via:
            add(path, What.METHOD_VIA, a.via, b.via)
        if renamed(a.type_name) != b.type_name:
            add(path, What.METHOD_TYPE, a.type_name, b.type_name)
        if renamed(a.params_type) != b.params_type:
            shaped = same(_params(old_types, a), _params(new_types, b))
            add(
                path,
                What.METHOD_PARAMS,
                _params_text(old_types, a),
                _params_text(new_types, b),
                Facts(same_shape=shaped),
            )
        if a.kind != b.kind:
            continue  # a request became a notification or back: results no longer compare
        if renamed(a.result_type) != b.result_type:
            shaped = same(_decl(old_types, a.result_type), _decl(new_types, b.result_type))
            add(
                path,
                What.METHOD_RESULT,
                _opt(a.result_type),
                _opt(b.result_type),
                Facts(same_shape=shaped),
            )
        alts_a = {renames.get(x, x) for x in a.alt_result_types}
        for x in sorted(alts_a - set(b.alt_result_types)):
            add(path, What.METHOD_ALT_REMOVED, x, None, _on_request(x))
        for x in sorted(set(b.alt_result_types) - alts_a):
            add(path, What.METHOD_ALT_ADDED, None, x, _on_request(x))
    return out


def _on_request(alternative: str) -> Facts:
    """`CreateTaskResult` answers only a request that asked for a task (`params.task`)."""
    return Facts(on_request=True) if alternative == CREATE_TASK_RESULT else NO_FACTS
