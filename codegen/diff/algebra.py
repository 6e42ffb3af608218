"""Type algebra for the diff: canonical shapes, union member identity, acceptance, renames.

Pure functions over resolved IR type expressions. A *shape* ignores what is not structure: the
names and paths of inline objects, documentation, source locations, property and member order.
`{ [key: string]: T }` and `Record<string, T>` have the same shape.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable, Mapping
from typing import Literal

from .. import ir
from ..discriminators import discriminator, resolved_member
from . import notation

NULL = ir.Prim(ir.PrimKind.NULL)
STRING = ir.Prim(ir.PrimKind.STRING)
Types = Mapping[str, ir.TypeDef]
Relation = Literal["wider", "narrower", "equivalent", "unrelated"]


def shape(t: ir.TypeExpr, renames: Mapping[str, str]) -> Hashable:
    """A canonical, hashable form of a type; referenced names are mapped through `renames`."""
    if isinstance(t, ir.Prim):
        return ("prim", t.kind.value)
    if isinstance(t, ir.Lit):
        return ("lit", t.kind, t.value)
    if isinstance(t, ir.Ref):
        return ("ref", renames.get(t.name, t.name))
    if isinstance(t, ir.Array):
        return ("array", shape(t.item, renames))
    if isinstance(t, ir.Union_):
        return ("union", frozenset(shape(m, renames) for m in t.members))
    if isinstance(t, ir.Intersection):
        return ("inter", frozenset(shape(m, renames) for m in t.members))
    if isinstance(t, ir.Map):
        return ("map", shape(t.key, renames), shape(t.value, renames))
    if not isinstance(t, ir.Obj):
        ir.not_resolved(t)
    props = frozenset(
        (p.name, p.optional, p.nullable, p.readonly, p.constraints, shape(p.type, renames))
        for p in t.properties
    )
    return ("obj", props, shape(t.index.value, renames) if t.index else None)


def members(t: ir.TypeExpr) -> tuple[ir.TypeExpr, ...]:
    return t.members if isinstance(t, ir.Union_) else (t,)


def strip_null(t: ir.TypeExpr) -> ir.TypeExpr:
    """The type without its `null` member (nullability is compared as a property fact)."""
    if not isinstance(t, ir.Union_) or NULL not in t.members:
        return t
    rest = tuple(m for m in t.members if m != NULL)
    return rest[0] if len(rest) == 1 else ir.Union_(rest)


def member_key(
    t: ir.TypeExpr, renames: Mapping[str, str], wire: str | None, types: Types
) -> tuple[str, ...]:
    """What identifies a union member across versions; an inline object by its value of the
    union's discriminator `wire` (the one rule, `codegen/discriminators.py`)."""
    if isinstance(t, ir.Ref):
        return ("ref", renames.get(t.name, t.name))
    if isinstance(t, ir.Lit):
        return ("lit", t.kind, notation.literal(t.value))
    if isinstance(t, ir.Prim):
        return ("prim", t.kind.value)
    if isinstance(t, ir.Obj):
        values = resolved_member(t, types).values(wire) if wire is not None else ()
        return ("obj", wire, "|".join(values)) if wire is not None and values else ("obj",)
    return (type(t).__name__.rstrip("_").lower(),)


def union_discriminator(ms: Iterable[ir.TypeExpr], types: Types) -> str | None:
    """The discriminator of a union's inline object members, by the one rule."""
    objs = [m for m in ms if isinstance(m, ir.Obj)]
    return discriminator([resolved_member(o, types) for o in objs])


def member_label(key: tuple[str, ...]) -> str:
    """The path segment of a matched inline-object member: `[type=text]`, else `[object]`."""
    return f"[{key[1]}={key[2]}]" if len(key) == 3 and key[0] == "obj" else "[object]"


def is_open(ms: Iterable[ir.TypeExpr]) -> bool:
    """`"a" | "b" | string`: string literals alongside plain `string` (any string is accepted)."""
    ms = tuple(ms)
    return STRING in ms and any(isinstance(m, ir.Lit) for m in ms)


# ---------------------------------------------------------------------------------------------
# Acceptance: does every value of `small` also satisfy `big`?

_NUMBERS = {ir.PrimKind.NUMBER, ir.PrimKind.INTEGER}
_TOP = {ir.PrimKind.ANY, ir.PrimKind.UNKNOWN}
_MAX_DEPTH = 6
_OBJECT = ir.Prim(ir.PrimKind.OBJECT)
_JSON_KINDS = frozenset({"string", "number", "boolean", "null", "array", "object"})


class Acceptance:
    """Structural acceptance between a type of one schema (`small`, names resolved in
    `small_types`) and a type of another (`big`, in `big_types`). Conservative: False when
    unsure. References are followed a few levels deep; object types follow TS rules (a property
    unknown to `big` is accepted only through an index signature)."""

    def __init__(self, small_types: Types, big_types: Types, renames: Mapping[str, str]) -> None:
        self.small_types, self.big_types, self.renames = small_types, big_types, renames

    def json_top(self, t: ir.TypeExpr, types: Types, seen: frozenset[str] = frozenset()) -> bool:
        """Does `t` accept every JSON value? (`unknown`, or a union like `JSONValue` covering
        string, number, boolean, null, arrays and objects of JSON values.) Coinductive: a
        reference already being checked counts as yes."""
        if isinstance(t, ir.Ref):
            if t.name in seen:
                return True
            td = types.get(t.name)
            return td is not None and self.json_top(td.type, types, seen | {t.name})
        if isinstance(t, ir.Prim):
            return t.kind in _TOP
        if not isinstance(t, ir.Union_):
            return False
        kinds: set[str] = set()
        for member in t.members:
            m, inner = member, seen
            if isinstance(member, ir.Ref):
                td = types.get(member.name)
                if member.name in seen or td is None:
                    continue
                m, inner = td.type, seen | {member.name}
            if isinstance(m, ir.Prim):
                kinds.update(_JSON_KINDS if m.kind in _TOP else {_json_kind(m.kind)})
            elif isinstance(m, ir.Union_) and self.json_top(m, types, inner):
                return True
            elif isinstance(m, ir.Array) and self.json_top(m.item, types, inner):
                kinds.add("array")
            elif (
                isinstance(m, ir.Obj)
                and not m.properties
                and m.index is not None
                and self.json_top(m.index.value, types, inner)
            ):
                kinds.add("object")
        return _JSON_KINDS <= kinds

    def deref(self, t: ir.TypeExpr, types: Types) -> ir.TypeExpr:
        if isinstance(t, ir.Ref) and t.name in types:
            return types[t.name].type
        return t

    def accepts(self, big: ir.TypeExpr, small: ir.TypeExpr, depth: int = 0) -> bool:
        if shape(small, self.renames) == shape(big, {}):
            return True
        if depth > _MAX_DEPTH:
            return False
        if self.json_top(big, self.big_types):
            return True
        small, big = self.deref(small, self.small_types), self.deref(big, self.big_types)
        if small == _OBJECT:  # any JSON object
            small = ir.Obj((), (), ir.Index(ir.Prim(ir.PrimKind.UNKNOWN)))
        if isinstance(small, ir.Prim) and small.kind is ir.PrimKind.NEVER:
            return True
        if isinstance(small, ir.Union_):
            return all(self.accepts(big, m, depth + 1) for m in small.members)
        if isinstance(big, ir.Union_):
            return any(self.accepts(m, small, depth + 1) for m in big.members)
        if isinstance(big, ir.Prim):
            return _prim_accepts(big.kind, small)
        if isinstance(big, ir.Array) and isinstance(small, ir.Array):
            return self.accepts(big.item, small.item, depth + 1)
        if isinstance(big, ir.Map) and isinstance(small, ir.Map):
            return shape(small.key, self.renames) == shape(big.key, {}) and self.accepts(
                big.value, small.value, depth + 1
            )
        if isinstance(big, ir.Obj) and isinstance(small, ir.Obj):
            return self.obj_accepts(big, small, depth)
        return False

    def obj_accepts(self, big: ir.Obj, small: ir.Obj, depth: int) -> bool:
        for q in big.properties:
            p = small.prop(q.name)
            if p is None:
                if not q.optional:
                    return False
                continue
            if (p.optional and not q.optional) or (p.nullable and not q.nullable):
                return False
            if not self.accepts(strip_null(q.type), strip_null(p.type), depth + 1):
                return False
        for p in small.properties:
            if big.prop(p.name) is None and (
                big.index is None or not self.accepts(big.index.value, p.type, depth + 1)
            ):
                return False
        if small.index is not None:
            return big.index is not None and self.accepts(
                big.index.value, small.index.value, depth + 1
            )
        return True


def _json_kind(k: ir.PrimKind) -> str:
    return "number" if k in _NUMBERS else "object" if k is ir.PrimKind.OBJECT else k.value


def _prim_accepts(k: ir.PrimKind, small: ir.TypeExpr) -> bool:
    if isinstance(small, ir.Prim):
        return small.kind is k or (k is ir.PrimKind.NUMBER and small.kind in _NUMBERS)
    if isinstance(small, ir.Lit):
        if k is ir.PrimKind.NUMBER:
            return small.kind == "number"
        if k is ir.PrimKind.INTEGER:
            return small.kind == "number" and isinstance(small.value, int)
        return bool(small.kind == k.value)
    return k is ir.PrimKind.OBJECT and isinstance(small, (ir.Obj, ir.Map))


def relation(
    old: ir.TypeExpr,
    new: ir.TypeExpr,
    old_types: Types,
    new_types: Types,
    renames: Mapping[str, str],
) -> Relation:
    """ "wider" (new accepts every old value), "narrower", "equivalent" (both), or "unrelated"."""
    wider = Acceptance(old_types, new_types, renames).accepts(new, old)
    inverse = {v: k for k, v in renames.items()}
    narrower = Acceptance(new_types, old_types, inverse).accepts(old, new)
    if wider and narrower:
        return "equivalent"
    return "wider" if wider else "narrower" if narrower else "unrelated"


# ---------------------------------------------------------------------------------------------
# Renames


def detect_renames(
    old: ir.Resolved, new: ir.Resolved
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """One-to-one same-shape matches of removed -> added types, and the ambiguous candidates."""
    o, n = old.type_map(), new.type_map()
    removed = [t for t in o if t not in n]
    added = [t for t in n if t not in o]
    renames: dict[str, str] = {}
    new_shapes = {a: shape(n[a].type, {}) for a in added}
    for _ in range(8):  # renamed types may refer to each other: iterate to a fixpoint
        matches = {
            r: [a for a in added if new_shapes[a] == shape(o[r].type, renames)] for r in removed
        }
        back = {a: [r for r in removed if a in matches[r]] for a in added}
        found = {r: ms[0] for r, ms in matches.items() if len(ms) == 1 and len(back[ms[0]]) == 1}
        if found == renames:
            break
        renames = found
    candidates = {r: ms for r, ms in matches.items() if ms and r not in renames}
    candidates.update((a, rs) for a, rs in back.items() if rs and a not in renames.values())
    return renames, candidates


def _name_likeness(a: str, b: str) -> float:
    """Symmetric: the shared prefix and suffix against the mean length (`JSONRPCError` ~
    `JSONRPCErrorResponse` 0.75)."""
    prefix = len(os.path.commonprefix([a, b]))
    suffix = len(os.path.commonprefix([a[prefix:][::-1], b[prefix:][::-1]]))
    return 2 * (prefix + suffix) / (len(a) + len(b))


def _method(t: ir.TypeExpr) -> object:
    p = t.prop("method") if isinstance(t, ir.Obj) else None
    return p.type.value if p is not None and isinstance(p.type, ir.Lit) else None


def _props(t: ir.TypeExpr) -> frozenset[str]:
    return frozenset(p.name for p in t.properties) if isinstance(t, ir.Obj) else frozenset()


def detect_retyped(old: ir.Resolved, new: ir.Resolved, taken: Mapping[str, str]) -> dict[str, str]:
    """Renames that also change the type: a removed and an added object type with alike names
    (`_name_likeness` >= 0.6) sharing most property names (Jaccard >= 0.5, at least two), each
    the other's only such match. Types already matched by shape (`taken`) are left out."""
    o, n = old.type_map(), new.type_map()
    removed = [t for t in o if t not in n and t not in taken]
    added = [t for t in n if t not in o and t not in set(taken.values())]

    def alike(r: str, a: str) -> bool:
        pr, pa = _props(o[r].type), _props(n[a].type)
        common = len(pr & pa)
        return (
            common >= 2
            and common / len(pr | pa) >= 0.5
            and _name_likeness(r, a) >= 0.6
            and _method(o[r].type) == _method(n[a].type)  # another method is never a rename
        )

    matches = {r: [a for a in added if alike(r, a)] for r in removed}
    back: dict[str, list[str]] = {}
    for r, ms in matches.items():
        for a in ms:
            back.setdefault(a, []).append(r)
    return {r: ms[0] for r, ms in sorted(matches.items()) if len(ms) == 1 and back[ms[0]] == [r]}
