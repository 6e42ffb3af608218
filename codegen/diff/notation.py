"""Names and structure as text: TS-like type expressions and subject paths. No prose, ever.

Subjects are dotted paths from a declared name: `CallToolResult.content[]` (array items),
`Widget.labels[*]` (map / index-signature values), `SamplingContent[type=text].text` (the union
member whose `type` is `"text"`), `Widget["io.example/related"]` (a non-identifier property).
"""

from __future__ import annotations

import json
import re

from .. import ir
from ..analysis.users import ITEM, VALUE

__all__ = ["ITEM", "VALUE", "literal", "obj", "prop", "subject", "ts"]
_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_MAX_DEPTH = 2  # nested inline objects deeper than this render as `{ … }`


def subject(path: tuple[str, ...]) -> str:
    out = path[0]
    for seg in path[1:]:
        if seg.startswith("["):
            out += seg
        elif _IDENT.match(seg):
            out += "." + seg
        else:
            out += "[" + json.dumps(seg) + "]"
    return out


def literal(value: str | float | bool) -> str:
    return json.dumps(value)


def ts(t: ir.TypeExpr, depth: int = 0) -> str:
    """A TS-like rendering of a type expression (names and structure, never docs)."""
    if isinstance(t, ir.Prim):
        return t.kind.value
    if isinstance(t, ir.Lit):
        return literal(t.value)
    if isinstance(t, ir.Ref):
        return t.name
    if isinstance(t, ir.Array):
        inner = ts(t.item, depth)
        return f"({inner})[]" if isinstance(t.item, (ir.Union_, ir.Intersection)) else inner + "[]"
    if isinstance(t, ir.Union_):
        return " | ".join(ts(m, depth) for m in t.members)
    if isinstance(t, ir.Intersection):
        return " & ".join(ts(m, depth) for m in t.members)
    if isinstance(t, ir.Map):
        return f"Record<{ts(t.key, depth)}, {ts(t.value, depth)}>"
    if not isinstance(t, ir.Obj):
        ir.not_resolved(t)
    return obj(t, depth)


def obj(o: ir.Obj, depth: int = 0) -> str:
    if depth >= _MAX_DEPTH:
        return "{ … }"
    parts = [prop(p, depth + 1) for p in o.properties]
    if o.index is not None:
        parts.append(f"[{o.index.key_name}: string]: {ts(o.index.value, depth + 1)}")
    return "{ " + "; ".join(parts) + " }" if parts else "{}"


def prop(p: ir.Property, depth: int = 0) -> str:
    name = p.name if _IDENT.match(p.name) else json.dumps(p.name)
    ro = "readonly " if p.readonly else ""
    return f"{ro}{name}{'?' if p.optional else ''}: {ts(p.type, depth)}"
