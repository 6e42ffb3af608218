"""TypeScript type text for the types on a reference cycle, which `z.infer` cannot name (a
lazy schema needs its type written out). Mirrors what zod infers for the same schema."""

from __future__ import annotations

from ... import ir
from ...analysis.shapes import is_class_obj
from ...analysis.typeindex import TypeIndex
from .tstext import ts_key, ts_number, ts_string

P = ir.PrimKind
_PRIMS = {
    P.STRING: "string",
    P.NUMBER: "number",
    P.INTEGER: "number",
    P.BOOLEAN: "boolean",
    P.NULL: "null",
    P.UNKNOWN: "unknown",
    P.ANY: "any",
    P.NEVER: "never",
    P.OBJECT: "Record<string, unknown>",
}


def ts_members(t: ir.TypeExpr, index: TypeIndex, top: str = "") -> tuple[str, ...]:
    """The members of `t` as a union type (one member when it is not a union)."""
    if isinstance(t, ir.Union_):
        return tuple(ts_type(m, index, top) for m in t.members)
    return (ts_type(t, index, top),)


def ts_type(t: ir.TypeExpr, index: TypeIndex, top: str = "") -> str:
    if isinstance(t, ir.Prim):
        return _PRIMS[t.kind]
    if isinstance(t, ir.Lit):
        if isinstance(t.value, str):
            return ts_string(t.value)
        if isinstance(t.value, bool):
            return "true" if t.value else "false"
        return ts_number(t.value)
    if isinstance(t, ir.Ref):
        return t.name
    if isinstance(t, ir.Array):
        item = ts_type(t.item, index, top)
        simple = isinstance(t.item, (ir.Prim, ir.Ref, ir.Lit)) or (
            isinstance(t.item, ir.Obj) and is_class_obj(t.item)
        )
        return f"{item}[]" if simple else f"({item})[]"
    if isinstance(t, ir.Union_):
        return " | ".join(ts_type(m, index, top) for m in t.members)
    if isinstance(t, ir.Intersection):
        return " & ".join(f"({ts_type(m, index, top)})" for m in t.members)
    if isinstance(t, ir.Map):
        value = ts_type(t.value, index, top)
        return "{ " + "; ".join(f"{ts_key(k)}: {value}" for k in ir.record_keys(t)) + " }"
    if isinstance(t, ir.Obj):
        if is_class_obj(t) and t.name != top:
            return t.name
        parts = []
        for p in t.properties:
            value = ts_type(p.type, index, top)
            if p.nullable and not ir.has_null(p.type):
                value += " | null"
            opt = "?" if p.optional else ""
            parts.append(f"{ts_key(p.name)}{opt}: {value}" + (" | undefined" if opt else ""))
        value = "unknown" if t.index is None else ts_type(t.index.value, index, top)
        parts.append(f"[key: string]: {value}")
        return "{ " + "; ".join(parts) + " }"
    ir.not_resolved(t)
