"""Type expressions that accept every version's values, the IR -> IR half of the application
model: references renamed to the application names, two versions' types merged into one
(`merge_type`, `merge_objs`: the union of the fields, optional where a version lacks one), inline
objects hoisted to named types (a construct inline in one version and declared in another is one
type), and union members another member already stands for folded away. Pure and language-neutral.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ... import ir
from ...analysis.payloads import is_schema_payload

# ---------------------------------------------------------------------------------------------
# Types that accept every version's values


def rename(t: ir.TypeExpr, names: Callable[[str], str]) -> ir.TypeExpr:
    """`t` with every referenced name mapped to its application name."""
    if isinstance(t, ir.Ref):
        return ir.Ref(names(t.name))
    if isinstance(t, ir.Array):
        return ir.Array(rename(t.item, names))
    if isinstance(t, ir.Union_):
        return ir.Union_(tuple(rename(m, names) for m in t.members))
    if isinstance(t, ir.Map):
        return ir.Map(rename(t.key, names), rename(t.value, names))
    if isinstance(t, ir.Obj):
        props = tuple(replace(p, type=rename(p.type, names)) for p in t.properties)
        index = replace(t.index, value=rename(t.index.value, names)) if t.index else None
        return replace(t, properties=props, index=index)
    return t


def union_members(t: ir.TypeExpr) -> tuple[ir.TypeExpr, ...]:
    return t.members if isinstance(t, ir.Union_) else (t,)


def _absorbed(m: ir.TypeExpr, by: ir.TypeExpr) -> bool:
    """Whether every value of `m` is one of `by` (primitives and literals only)."""
    if not isinstance(by, ir.Prim) or m == by:
        return False
    if by.kind in (ir.PrimKind.ANY, ir.PrimKind.UNKNOWN):
        return True
    if isinstance(m, ir.Lit):
        return m.kind == by.kind.value or (m.kind == "number" and by.kind is ir.PrimKind.NUMBER)
    return (
        isinstance(m, ir.Prim) and m.kind is ir.PrimKind.INTEGER and by.kind is ir.PrimKind.NUMBER
    )


def merge_type(a: ir.TypeExpr, b: ir.TypeExpr) -> ir.TypeExpr:
    """A type accepting the values of `a` and of `b` (`b` the newer: its spelling wins)."""
    if a == b:
        return b
    if isinstance(a, ir.Obj) and isinstance(b, ir.Obj):
        return merge_objs([a, b])
    if isinstance(a, ir.Array) and isinstance(b, ir.Array):
        return ir.Array(merge_type(a.item, b.item))
    if isinstance(a, ir.Map) and isinstance(b, ir.Map):
        return ir.Map(merge_type(a.key, b.key), merge_type(a.value, b.value))
    out: list[ir.TypeExpr] = []
    for m in (*union_members(b), *union_members(a)):
        if m not in out:
            out.append(m)
    kept = [m for m in out if not any(_absorbed(m, o) for o in out)]
    return kept[0] if len(kept) == 1 else ir.Union_(tuple(kept))


def _merge_props(props: list[ir.Property], among: int) -> ir.Property:
    """One property from its versions (oldest first); `among`: how many versions had the type."""
    newest = props[-1]
    t = props[0].type
    for p in props[1:]:
        t = merge_type(t, p.type)
    same = all(p.constraints == newest.constraints for p in props)
    return replace(
        newest,
        type=t,
        optional=len(props) < among or any(p.optional for p in props),
        nullable=any(p.nullable for p in props),
        readonly=any(p.readonly for p in props),
        keeps_number=any(p.keeps_number for p in props),
        constraints=newest.constraints if same else ir.NO_CONSTRAINTS,
    )


def member(o: ir.Obj, name: str) -> ir.Property | None:
    """Property `name` of `o`; where `o` lacks it but has an index signature, an optional
    property of the index's type (the version accepts the member as one of its keys)."""
    p = o.prop(name)
    if p is None and o.index is not None:
        return ir.Property(name, o.index.value, optional=True)
    return p


def merge_objs(objs: Sequence[ir.Obj]) -> ir.Obj:
    """The object of every field of `objs` (oldest first): the newest order, then the fields
    only older versions have."""
    order: list[str] = []
    for o in reversed(objs):
        order += [p.name for p in o.properties if p.name not in order]
    props = tuple(
        _merge_props([p for o in objs if (p := member(o, name)) is not None], len(objs))
        for name in order
    )
    indexes = [o.index for o in objs if o.index is not None]
    index = indexes[-1] if indexes else None
    for i in indexes[:-1]:
        assert index is not None
        index = replace(index, value=merge_type(i.value, index.value))
    return replace(objs[-1], properties=props, index=index)


# ---------------------------------------------------------------------------------------------
# Inline objects as named types


def hoist(resolved: ir.Resolved) -> tuple[ir.TypeDef, ...]:
    """The types of `resolved` with every inline object replaced by a reference to a type of its
    own (named as the resolver named it), right after the type it stands in: a construct that is
    inline in one version and declared in another is then one type."""
    out: list[ir.TypeDef] = []
    for td in resolved.types:
        found: list[ir.TypeDef] = []
        top = td.type
        if isinstance(top, ir.Obj):
            t: ir.TypeExpr = _hoist_props(top, found)
        else:
            t = _hoist(top, found)
        out.append(replace(td, type=t))
        out += found
    seen: set[str] = set()
    unique = []
    for td in out:  # an inherited inline object stands in every heir: one type
        if td.name not in seen:
            seen.add(td.name)
            unique.append(td)
    return tuple(unique)


def _hoist_props(o: ir.Obj, found: list[ir.TypeDef]) -> ir.Obj:
    # A JSON Schema payload stays inline, so the application types hand it over as the plain
    # dict the wire types do (analysis/payloads.py's rule; a named type would be a class).
    props = tuple(p if is_schema_payload(p) else replace(p, type=_hoist(p.type, found))
                  for p in o.properties)  # fmt: skip
    index = replace(o.index, value=_hoist(o.index.value, found)) if o.index else None
    return replace(o, properties=props, index=index)


def _hoist(t: ir.TypeExpr, found: list[ir.TypeDef]) -> ir.TypeExpr:
    if isinstance(t, ir.Obj) and t.name:
        # its own path: emitters then treat it as the declared type it now is
        obj = replace(_hoist_props(t, found), path=(t.name,))
        found.append(ir.TypeDef(t.name, obj, "interface", loc=t.loc))
        return ir.Ref(t.name)
    if isinstance(t, ir.Obj):
        return _hoist_props(t, found)
    if isinstance(t, ir.Array):
        return ir.Array(_hoist(t.item, found))
    if isinstance(t, ir.Union_):
        return ir.Union_(tuple(_hoist(m, found) for m in t.members))
    if isinstance(t, ir.Map):
        return ir.Map(t.key, _hoist(t.value, found))
    return t


# ---------------------------------------------------------------------------------------------
# Unions


def _expand(
    t: ir.TypeExpr, types: Mapping[str, ir.TypeDef], seen: frozenset[str]
) -> set[ir.TypeExpr]:
    """The members a union alias stands for, through nested union aliases."""
    if isinstance(t, ir.Ref) and t.name not in seen and t.name in types:
        target = types[t.name].type
        if isinstance(target, ir.Union_):
            out: set[ir.TypeExpr] = set()
            for m in target.members:
                out |= {m} | _expand(m, types, seen | {t.name})
            return out
    return set()


def _fold(t: ir.TypeExpr, types: Mapping[str, ir.TypeDef]) -> ir.TypeExpr:
    if isinstance(t, ir.Union_):
        members = [_fold(m, types) for m in t.members]
        covered: set[ir.TypeExpr] = set()
        for m in members:
            covered |= _expand(m, types, frozenset())
        kept = tuple(m for m in members if m not in covered)
        return kept[0] if len(kept) == 1 else ir.Union_(kept)
    if isinstance(t, ir.Array):
        return ir.Array(_fold(t.item, types))
    if isinstance(t, ir.Map):
        return ir.Map(t.key, _fold(t.value, types))
    if isinstance(t, ir.Obj):
        props = tuple(replace(p, type=_fold(p.type, types)) for p in t.properties)
        index = replace(t.index, value=_fold(t.index.value, types)) if t.index else None
        return replace(t, properties=props, index=index)
    return t


def fold_unions(types: Sequence[ir.TypeDef]) -> list[ir.TypeDef]:
    """Union members another member already stands for (`TextContent` next to `ContentBlock`,
    from a version that listed the blocks inline) are left out: one spelling per value."""
    by_name = {t.name: t for t in types}
    return [replace(t, type=_fold(t.type, by_name)) for t in types]
