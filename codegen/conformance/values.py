"""Valid instances of a resolved type, built from the model: minimal (required members only) or
full (every optional member too), the first buildable member of each union, values that respect
the constraints. Numbers are whole (the fractional ones are vectors of their own: the official
generator renders `number` as `integer`). A recursive reference is left out where the schema
allows (an optional member, an empty array, another union member)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import ir

# Strings that pass any format the schemas name (no target checks `format`, but the values stay
# plausible for readers and for validators that do).
_FORMATTED = {
    "uri": "https://example.com/a",
    "uri-template": "https://example.com/{a}",
    "date-time": "2025-01-01T00:00:00Z",
    "byte": "aGk=",
    "email": "a@example.com",
}


class Unbuildable(Exception):
    """No finite valid value (a required recursive member, `never`)."""


class Builder:
    def __init__(self, resolved: ir.Resolved) -> None:
        self.types: Mapping[str, ir.TypeDef] = resolved.type_map()

    def of_type(self, name: str, full: bool) -> Any:
        td = self.types[name]
        return self.value(td.type, full, (name,), td.constraints)

    def value(
        self,
        t: ir.TypeExpr,
        full: bool,
        stack: tuple[str, ...],
        c: ir.Constraints = ir.NO_CONSTRAINTS,
    ) -> Any:
        if isinstance(t, ir.Prim):
            return self.prim(t.kind, c)
        if isinstance(t, ir.Lit):
            return t.value
        if isinstance(t, ir.Ref):
            if t.name in stack:
                raise Unbuildable(t.name)
            td = self.types[t.name]
            own = c if td.constraints.is_empty() else td.constraints
            return self.value(td.type, full, (*stack, t.name), own)
        if isinstance(t, ir.Array):
            return self.array(t, full, stack, c)
        if isinstance(t, ir.Union_):
            return self.union(t.members, full, stack, c)
        if isinstance(t, ir.Intersection):
            out: dict[str, Any] = {}
            for m in t.members:
                part = self.value(m, full, stack)
                if isinstance(part, dict):
                    out.update(part)
            return out
        if isinstance(t, ir.Map):
            return {k: self.value(t.value, full, stack) for k in ir.record_keys(t)}
        if isinstance(t, ir.Obj):
            return self.obj(t, full, stack)
        ir.not_resolved(t)

    def prim(self, kind: ir.PrimKind, c: ir.Constraints) -> Any:
        if kind is ir.PrimKind.STRING:
            return _FORMATTED.get(c.format or "", "x")
        if kind in (ir.PrimKind.NUMBER, ir.PrimKind.INTEGER):
            if c.minimum is not None:
                return c.minimum
            if c.maximum is not None and c.maximum < 1:
                return c.maximum
            return 1
        if kind is ir.PrimKind.BOOLEAN:
            return True
        if kind is ir.PrimKind.NULL:
            return None
        if kind is ir.PrimKind.OBJECT:
            return {}
        if kind is ir.PrimKind.NEVER:
            raise Unbuildable("never")
        return "x"  # unknown, any

    def array(self, t: ir.Array, full: bool, stack: tuple[str, ...], c: ir.Constraints) -> Any:
        want = max(c.min_items or 0, 1 if full else 0)
        if c.max_items is not None:
            want = min(want, c.max_items)
        if want == 0:
            return []
        try:
            item = self.value(t.item, full, stack)
        except Unbuildable:
            if c.min_items:
                raise
            return []
        return [item] * want

    def union(
        self,
        members: tuple[ir.TypeExpr, ...],
        full: bool,
        stack: tuple[str, ...],
        c: ir.Constraints,
    ) -> Any:
        ordered = [m for m in members if not _is_null(m)] + [m for m in members if _is_null(m)]
        for m in ordered:
            try:
                return self.value(m, full, stack, c)
            except Unbuildable:
                continue
        raise Unbuildable("union")

    def obj(self, t: ir.Obj, full: bool, stack: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in t.properties:
            if p.optional and not full:
                continue
            try:
                out[p.name] = self.value(p.type, full, stack, p.constraints)
            except Unbuildable:
                if not p.optional:
                    raise
        return out


def _is_null(t: ir.TypeExpr) -> bool:
    return isinstance(t, ir.Prim) and t.kind is ir.PrimKind.NULL
