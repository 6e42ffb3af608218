"""The Rust struct of an object type: a field per property (constant members checked and written
instead), the undeclared members kept in a last field, each field's decode and encode lines.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ... import ir
from . import text as rs
from .views import JSON_MAP, Doc, Field, Struct

if TYPE_CHECKING:
    from .items import Builder

P = ir.PrimKind
EXTRA = "extra"  # the field keeping undeclared members (`extra_` when a property takes it)


def struct(b: Builder, name: str, obj: ir.Obj, doc: ir.Doc) -> None:
    """The struct `name` of `obj`, made on first use (the items its fields need on the way)."""
    if name in b.items:
        return
    item = Struct(name, b.doc(doc, ""), [], [], [], False)
    b.claim(name, item)
    names = b.field_names(obj)
    taken = set(names.values())
    for p in obj.properties:
        _member(b, item, p, obj, rs.ident(names[p.name]))
    extra = EXTRA
    while extra in taken:
        extra += "_"
    value = obj.index.value if obj.index is not None else None
    ind = " " * 12
    if value is None or b.index.accepts_anything(value):
        rtype, decode = JSON_MAP, f"{ind}{extra}: o.rest(),"
        encode = rs.call("rt::put_rest", ["&mut m", f"&self.{extra}"], " " * 8, "?;")
    else:
        inner = b.rtype(value, (*obj.path, "value"), name)
        rtype, decode = f"BTreeMap<String, {inner}>", f"{ind}{extra}: o.rest_as()?,"
        encode = rs.call("rt::put_all", ["&mut m", f"&self.{extra}"], " " * 8, "?;")
    what = "The members this type does not declare, kept as they came (written back)."
    item.fields.append(Field(extra, rtype, Doc([f"    /// {what}"], None), decode, encode))


def _member(b: Builder, item: Struct, p: ir.Property, obj: ir.Obj, fname: str) -> None:
    wire = rs.string(p.name)
    t = p.type
    members = [m for m in t.members if m != ir.Prim(P.NULL)] if isinstance(t, ir.Union_) else [t]
    nullable = p.nullable or (isinstance(t, ir.Union_) and len(members) < len(t.members))
    if len(members) == 1:
        t = members[0]
    elif len(members) < len(t.members if isinstance(t, ir.Union_) else ()):
        t = ir.Union_(tuple(members))
    doc = b.doc(p.doc, "    ")
    lit = t if isinstance(t, ir.Lit) else None
    if lit is not None and not nullable:
        lit_text = _lit(lit)
        if not p.optional:
            item.checks.append(rs.call("o.lit", [wire, lit_text], " " * 8, "?;"))
            item.consts.append(rs.call("m.serialize_entry", [wire, f"&{lit_text}"], " " * 8, "?;"))
            item.mutable = True
            return
        item.mutable = True
        decode = f"            {fname}: o.opt_lit({wire}, {lit_text})?,"
        encode_lines = [
            f"        if self.{fname} {{",
            f"            m.serialize_entry({wire}, &{lit_text})?;",
            "        }",
        ]
        doc.lines.append(f"    /// Whether the constant `{p.name}` ({_lit_json(lit)}) is present.")
        item.fields.append(Field(fname, "bool", doc, decode, "\n".join(encode_lines)))
        return
    path = (*obj.path, p.name)
    rtype = b.rtype(t, path, item.name)
    if b.boxed(item.name, t):
        rtype = f"Box<{rtype}>"
    bounds = _bounds(p.constraints)
    if nullable and p.optional:
        method, rtype = "opt_null", f"Option<Option<{rtype}>>"
    elif nullable:
        method, rtype = "req_null", f"Option<{rtype}>"
    elif p.optional:
        method, rtype = ("opt_in" if bounds else "opt"), f"Option<{rtype}>"
    else:
        method = "req_in" if bounds else "req"
    args = [wire] + ([bounds] if bounds and not nullable else [])
    item.mutable = True
    decode = rs.field_call(fname, "o", method, args, " " * 12, "?,")
    if p.optional:
        encode = rs.call("rt::put", ["&mut m", wire, f"&self.{fname}"], " " * 8, "?;")
    else:
        encode = rs.call("m.serialize_entry", [wire, f"&self.{fname}"], " " * 8, "?;")
    item.fields.append(Field(fname, rtype, doc, decode, encode))


def _lit(lit: ir.Lit) -> str:
    if lit.kind == "string":
        return f"rt::Lit::Str({rs.string(str(lit.value))})"
    if lit.kind == "boolean":
        return f"rt::Lit::Bool({'true' if lit.value else 'false'})"
    if float(lit.value).is_integer():
        return f"rt::Lit::Int({int(lit.value)})"
    return f"rt::Lit::Num({float(lit.value)!r})"  # never truncated to an integer


def _lit_json(lit: ir.Lit) -> str:
    return json.dumps(lit.value)


def _num(x: float) -> str:
    return f"Some({float(x)!r})"


def _bounds(c: ir.Constraints) -> str | None:
    if c.minimum is not None or c.maximum is not None:
        lo = _num(c.minimum) if c.minimum is not None else "None"
        hi = _num(c.maximum) if c.maximum is not None else "None"
        return f"rt::Bounds::range({lo}, {hi})"
    if c.min_items is not None or c.max_items is not None:
        lo = f"Some({c.min_items})" if c.min_items is not None else "None"
        hi = f"Some({c.max_items})" if c.max_items is not None else "None"
        return f"rt::Bounds::items({lo}, {hi})"
    return None
