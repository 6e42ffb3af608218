"""The Rust enums of unions: a string-literal union as a string enum (open when `string` is a
member too), a discriminated union as an enum dispatching on its tag, any other union as an enum
dispatching on the JSON kind (object members tried in order of their required keys).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ir
from ...analysis.shapes import describe, is_class_obj
from ...analysis.typeindex import Discriminator
from ...naming import path_name
from . import text as rs
from .structs import struct
from .views import JSON_VALUE, StrEnum, Union, Variant

if TYPE_CHECKING:
    from .items import Builder

P = ir.PrimKind
KIND_ORDER = ("null", "boolean", "number", "string", "array", "object")
RUST_KIND = {
    "null": "Null",
    "boolean": "Bool",
    "number": "Number",
    "string": "String",
    "array": "Array",
    "object": "Object",
}


def str_enum(
    b: Builder, lits: tuple[ir.Lit, ...], path: tuple[str, ...], doc: ir.Doc, open_: bool = False
) -> str:
    """The name of the string enum of `lits` standing at `path`, made on first use."""
    name = path_name(path) if len(path) > 1 else path[0]
    if b.taken(name, path):
        return name
    wires = list(dict.fromkeys(str(lit.value) for lit in lits))
    values, seen = [], {"Unknown", "Other"}
    for w in wires:
        v = rs.pascal_variant(w)
        while v in seen:
            v += "_"
        seen.add(v)
        values.append((v, w))
    expected = rs.string(rs.quoted_list(wires))
    b.claim(name, StrEnum(name, b.doc(doc, ""), values, open_, expected))
    return name


def union(b: Builder, t: ir.Union_, path: tuple[str, ...], doc: ir.Doc) -> str:
    """The name of the enum of `t` standing at `path`, made on first use."""
    name = path_name(path) if len(path) > 1 else path[0]
    if b.taken(name, path):
        return name
    members = _flat(t)
    lits = [m for m in members if isinstance(m, ir.Lit) and m.kind == "string"]
    if lits and len(lits) == len(members):
        return str_enum(b, tuple(lits), path, doc)
    strings = [m for m in members if m == ir.Prim(P.STRING)]
    if lits and len(lits) + len(strings) == len(members):
        return str_enum(b, tuple(lits), path, doc, open_=True)
    item = Union(name, b.doc(doc, ""), [], [], [])
    b.claim(name, item)
    disc = b.index.discriminator(t)
    if disc is not None:
        _tagged(b, item, disc)
    else:
        _by_kind(b, item, members, path)
    return name


def _tagged(b: Builder, item: Union, disc: Discriminator) -> None:
    for cname, _values in disc.members:
        cls = b.index.classes[cname]
        struct(b, cname, cls.obj, _class_doc(b, cname))
        item.variants.append(Variant(cname, _boxed(b, item.name, cname), ""))
    item.variants.append(Variant("Unknown", JSON_VALUE, _UNKNOWN_DOC))
    values = [v for _c, vs in disc.members for v in vs]
    item.consts = _tag_const(item.name, disc.wire, values)
    arms = [(" | ".join(rs.string(v) for v in vs), cname) for cname, vs in disc.members]
    item.body = rs.tag_match(arms)


def _class_doc(b: Builder, cname: str) -> ir.Doc:
    td = b.typedefs.get(cname)
    return td.doc if td is not None else ir.NO_DOC


def _boxed(b: Builder, owner: str, name: str) -> str:
    return f"Box<{name}>" if owner in b.cyclic and name in b.cyclic else name


def _by_kind(b: Builder, item: Union, members: list[ir.TypeExpr], path: tuple[str, ...]) -> None:
    # all members objects of classes, however nested: one set of alternatives by keys
    deep = b.index.members(ir.Union_(tuple(members)))
    if all(b.index.class_of(m) is not None for m in deep):
        members = list(deep)
    variants: list[tuple[str, ir.TypeExpr, frozenset[str]]] = []
    taken: set[str] = set()
    for m in members:
        vname = _variant_name(m)
        while vname in taken:
            vname += "_"
        taken.add(vname)
        kinds = b.index.kinds(m)
        kinds = frozenset("number" if k == "integer" else k for k in kinds)
        variants.append((vname, m, kinds))
        if m == ir.Prim(P.NULL):
            item.variants.append(Variant(vname, None, ""))
        else:
            vpath = (*path, vname) if isinstance(m, (ir.Union_, ir.Lit)) else path
            rtype = b.rtype(m, vpath, item.name)
            if b.boxed(item.name, m):
                rtype = f"Box<{rtype}>"
            item.variants.append(Variant(vname, rtype, ""))
    body = ["        match rt::kind(&v) {"]
    covered = 0
    for kind in KIND_ORDER:
        these = [(n, m) for n, m, ks in variants if kind in ks]
        if not these:
            continue
        covered += 1
        pat = f"rt::Kind::{RUST_KIND[kind]}"
        if kind == "null" and these[0][1] == ir.Prim(P.NULL):
            body.append(f"            {pat} => Ok(Self::{these[0][0]}),")
        elif len(these) == 1 or kind != "object":
            body.append(rs.arm(pat, "rt::dm", ["v", "cx", "at", f"Self::{these[0][0]}"], " " * 12))
        else:
            body.append(f"            {pat} => {{")
            body.extend(_alternatives(b, item, these, " " * 16))
            body.append("            }")
    if covered < len(KIND_ORDER):
        expected = " | ".join(describe(m) for m in members)
        body.append(rs.arm("_", "rt::mismatched", ["at", rs.string(expected), "&v"], " " * 12))
    body.append("        }")
    item.body = body


def _alternatives(
    b: Builder, item: Union, these: list[tuple[str, ir.TypeExpr]], ind: str
) -> list[str]:
    """Object members without a discriminator: tried in order of their required keys (most
    first), only those whose required keys the object has."""
    keyed: list[tuple[str, list[str]]] = []
    for vname, m in these:
        cname = b.index.class_of(m)
        obj = b.index.classes[cname].obj if cname is not None else None
        required = [p.name for p in obj.properties if not p.optional] if obj else []
        keyed.append((vname, required))
    keyed.sort(key=lambda vr: -len(vr[1]))
    table = "\n".join("\t".join(r) for _v, r in keyed)
    item.consts = [
        "    const ALTS: rt::Alts = rt::Alts {",
        f"        name: {rs.string(item.name)},",
        f"        required: {rs.string(table)},",
        "    };",
    ]
    out = [
        f"{ind}let mut t = rt::Tries::new(v, at, &Self::ALTS)?;",
        f"{ind}while let Some((i, v)) = t.next_member() {{",
        f"{ind}    let r = match i {{",
    ]
    for i, (vname, _r) in enumerate(keyed):
        pat = str(i) if i < len(keyed) - 1 else "_"
        out.append(rs.arm(pat, "rt::dm", ["v", "cx", "at", f"Self::{vname}"], ind + "        "))
    out += [
        f"{ind}    }};",
        f"{ind}    match r {{",
        f"{ind}        Ok(x) => return Ok(x),",
        f"{ind}        Err(e) => t.fail(e),",
        f"{ind}    }}",
        f"{ind}}}",
        f"{ind}Err(t.error())",
    ]
    return out


def _variant_name(m: ir.TypeExpr) -> str:
    if isinstance(m, ir.Ref):
        return m.name
    if isinstance(m, ir.Obj):
        return m.name if is_class_obj(m) else "Object"
    if isinstance(m, ir.Prim):
        return {P.BOOLEAN: "Bool", P.NULL: "Null", P.INTEGER: "Integer"}.get(
            m.kind, m.kind.value.capitalize()
        )
    if isinstance(m, ir.Array):
        return "Array"
    if isinstance(m, ir.Lit):
        return rs.pascal_variant(str(m.value))
    return "Value"


_UNKNOWN_DOC = "A member this version does not declare, kept by a tolerant decode."


def _flat(t: ir.Union_) -> list[ir.TypeExpr]:
    """The members of `t` with inline unions spread."""
    out: list[ir.TypeExpr] = []
    for m in t.members:
        out.extend(_flat(m) if isinstance(m, ir.Union_) else [m])
    return out


def _tag_const(name: str, wire: str, values: list[str]) -> list[str]:
    return [
        "    const TAG: rt::Tagged = rt::Tagged {",
        f"        name: {rs.string(name)},",
        f"        key: {rs.string(wire)},",
        f"        values: {rs.string(rs.quoted_list(values))},",
        "    };",
    ]
