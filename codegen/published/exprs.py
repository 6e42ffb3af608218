"""Type expressions, documentation and constraints of the published model, as plain JSON: the
resolved IR without its locations and Python-side details. A type expression is an object with
a `kind`: `primitive` (`name`: string, number, integer, boolean, null, unknown, any, never,
object), `literal` (`value`), `ref` (`name`: a declared type), `object` (`name`: an inline
object of `inline_types`; or, without properties, `additional`: the type of every value),
`array` (`items`), `union` (`members`), `map` (`key`, `value`: fixed keys)."""

from __future__ import annotations

from typing import Any

from .. import ir


def expr(t: ir.TypeExpr) -> dict[str, Any]:
    if isinstance(t, ir.Prim):
        return {"kind": "primitive", "name": t.kind.value}
    if isinstance(t, ir.Lit):
        return {"kind": "literal", "value": t.value}
    if isinstance(t, ir.Ref):
        return {"kind": "ref", "name": t.name}
    if isinstance(t, ir.Array):
        return {"kind": "array", "items": expr(t.item)}
    if isinstance(t, ir.Union_):
        return {"kind": "union", "members": [expr(m) for m in t.members]}
    if isinstance(t, ir.Map):
        return {"kind": "map", "key": expr(t.key), "value": expr(t.value)}
    if isinstance(t, ir.Obj):
        out: dict[str, Any] = {"kind": "object"}
        if t.properties:
            out["name"] = t.name
        if t.index is not None:
            out["additional"] = expr(t.index.value)
        return out
    ir.not_resolved(t)


def constraints(c: ir.Constraints) -> dict[str, Any]:
    """`{keyword: value}` for each constraint set (JSON Schema's keywords: `minItems`...)."""
    out = {}
    for k in ir.KEYWORDS:
        value = getattr(c, k.field)
        if value is not None:
            out[k.keyword] = value
    return out


def doc_fields(doc: ir.Doc) -> dict[str, Any]:
    """`doc` (the JSDoc prose as Markdown, `{@link X}` written as its text) and `tags` (every
    other JSDoc tag, in order), each only when there is one."""
    out: dict[str, Any] = {}
    if doc.text:
        out["doc"] = doc.text
    if doc.tags:
        out["tags"] = [{"name": t.name, "value": t.value} for t in doc.tags]
    return out
