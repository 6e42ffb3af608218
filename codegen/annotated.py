"""Constraints a type carries itself: `Date`, and a primitive intersected with annotation members.

typescript-json-schema renders `Date` as `{"type": "string", "format": "date-time"}`. For
`number & { readonly minimum: 0 }` it writes `allOf` of the primitive and an object schema
requiring a `minimum` key, which no value can satisfy (checked with typescript-json-schema 0.68.0);
we keep what the author meant instead: the primitive, constrained by the member's literal value.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from . import ir

DATE_TIME = ir.Constraints(format="date-time")

# Annotation member name -> (field of `ir.Constraints`, literal kind its value must be).
MEMBERS: dict[str, tuple[str, str]] = {k.keyword: (k.field, k.kind) for k in ir.KEYWORDS}


def member_value(name: str, lit: ir.Lit | None) -> str | int | float | None:
    """The constraint value of annotation member `name` (one of `MEMBERS`), or None when its
    literal type is not of the kind the constraint takes."""
    want = MEMBERS[name][1]
    if lit is None or isinstance(lit.value, bool):
        return None
    if want == "string":
        return lit.value if isinstance(lit.value, str) else None
    if want == "count":
        ok = isinstance(lit.value, int) and lit.value >= 0
        return lit.value if ok else None
    return lit.value if isinstance(lit.value, (int, float)) else None


def with_value(c: ir.Constraints, name: str, value: str | float) -> ir.Constraints:
    changes: dict[str, Any] = {MEMBERS[name][0]: value}  # member_value checked the kind
    return dataclasses.replace(c, **changes)


def value_of(c: ir.Constraints, name: str) -> str | int | float | None:
    value: str | int | float | None = getattr(c, MEMBERS[name][0])
    return value


def overlay(under: ir.Constraints, over: ir.Constraints) -> ir.Constraints:
    """`under` with every constraint `over` sets replaced by `over`'s value.

    A JSDoc tag overrides the type's own constraint for the same key: typescript-json-schema
    renders `/** @format date */ day: Date` as format "date" (its own `dates` test program uses
    this idiom), so a tag is a deliberate refinement, not a conflict.
    """
    changes = {
        f.name: getattr(over, f.name)
        for f in dataclasses.fields(over)
        if getattr(over, f.name) is not None
    }
    return dataclasses.replace(under, **changes)


def describe(a: ir.Annotated) -> str:
    """`string with format "date-time"`: what an annotation stands for, for messages."""
    base = a.type.kind.value if isinstance(a.type, ir.Prim) else "type"
    words = [
        f"{name} {_show(value_of(a.constraints, name))}"
        for name in MEMBERS
        if value_of(a.constraints, name) is not None
    ]
    return f"{base} with {', '.join(words)}" if words else base


def _show(value: str | float | None) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)
