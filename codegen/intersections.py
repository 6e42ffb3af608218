"""Intersections of object types (`A & { ... }`): the members' properties merged into one list.

Each member's properties in order, a property on several sides met into one: required if either
side requires it, nullable only if both are, the narrower type (a loose primitive such as `string`
gives way to the other side, else both stay, intersected), the later side's documentation and
constraints where it has them. Two types no JSON value has both of (`string` and `number`, two
different literals) make an optional property `never`, so the key must be absent, as in
TypeScript; on a required one they are a located error, since no value could be written.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence

from . import ir
from .discriminators import kind_word
from .errors import Collector, Location

_NEVER = ir.Prim(ir.PrimKind.NEVER)
# A property type this loose gives way to the other side when two objects are intersected.
_LOOSE = {ir.PrimKind.UNKNOWN, ir.PrimKind.ANY, ir.PrimKind.STRING, ir.PrimKind.NUMBER,
          ir.PrimKind.BOOLEAN, ir.PrimKind.OBJECT}  # fmt: skip


def merge(
    objs: Sequence[ir.Obj], errors: Collector, loc: Callable[[object], Location]
) -> tuple[tuple[ir.Property, ...], ir.Index | None]:
    """The properties of `objs` intersected, in first-seen order, and the last index signature."""
    merged: dict[str, ir.Property] = {}
    index: ir.Index | None = None
    for obj in objs:
        for p in obj.properties:
            merged[p.name] = meet(merged[p.name], p, errors, loc) if p.name in merged else p
        index = obj.index or index
    return tuple(merged.values()), index


def meet(
    a: ir.Property, b: ir.Property, errors: Collector, loc: Callable[[object], Location]
) -> ir.Property:
    """`_meet`, where two types no value has both of make the property `never`: a located
    error when the property is required (no value could be written), else the key must
    be absent, as in TypeScript."""
    if not _disjoint(a.type, b.type):
        return _meet(a, b)
    if a.optional and b.optional:
        return dataclasses.replace(_meet(a, b), type=_NEVER)
    errors.add(
        loc(b),
        f"property '{b.name}' is {_shown(a.type)} on one side of '&' and {_shown(b.type)}"
        " on the other: no value is both (TypeScript makes it never)",
    )
    return b


def _shown(t: ir.TypeExpr) -> str:
    return json.dumps(t.value) if isinstance(t, ir.Lit) else kind_word(t)


def _meet(a: ir.Property, b: ir.Property) -> ir.Property:
    """The same property on both sides of `&`: required if either requires it; the narrower type."""
    if a.type == b.type:
        t = a.type
    elif isinstance(a.type, ir.Prim) and a.type.kind in _LOOSE:
        t = b.type
    elif isinstance(b.type, ir.Prim) and b.type.kind in _LOOSE:
        t = a.type
    else:
        t = ir.Intersection((a.type, b.type))
    return dataclasses.replace(
        b,
        type=t,
        optional=a.optional and b.optional,
        nullable=a.nullable and b.nullable,
        doc=b.doc if b.doc.text else a.doc,
        constraints=b.constraints if not b.constraints.is_empty() else a.constraints,
    )


def _disjoint(a: ir.TypeExpr, b: ir.TypeExpr) -> bool:
    """Two property types no JSON value has both of: different primitive kinds (`string` and
    `number`), or two different literals. Anything else (references, unions, objects) is left
    to `_meet`."""
    ka, kb = _json_kind(a), _json_kind(b)
    if ka is None or kb is None:
        return False
    if ka != kb:
        return True
    return isinstance(a, ir.Lit) and isinstance(b, ir.Lit) and a != b


def _json_kind(t: ir.TypeExpr) -> str | None:
    if isinstance(t, ir.Lit):
        return t.kind
    if isinstance(t, ir.Prim) and t.kind in _KINDS:
        return _KINDS[t.kind]
    return None


_KINDS = {ir.PrimKind.STRING: "string", ir.PrimKind.NUMBER: "number",
          ir.PrimKind.INTEGER: "number", ir.PrimKind.BOOLEAN: "boolean",
          ir.PrimKind.NULL: "null"}  # fmt: skip
