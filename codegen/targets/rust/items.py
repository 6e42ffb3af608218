"""The Rust items of one schema version: a struct per object type, an enum per union (tagged by
the project's one discriminator rule, else by JSON kind and required keys), an enum per set of
string literals, a type alias for the rest. Pure: a resolved IR in, item views out, in the
schema's order (inline items right after the type that holds them).

Names: a declared type keeps its schema name; an inline object keeps the resolver's
path-derived name; an inline union or string-literal set is named by the same rule from where
it stands (`codegen.naming.path_name`: `ElicitResult.content` value -> `ElicitResultContentValue`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import ir
from ...analysis.presence import is_deprecated
from ...analysis.shapes import cyclic, describe, is_class_obj
from ...analysis.typeindex import TypeIndex
from ...errors import Diagnostic, Location, SchemaError
from ...naming import path_name
from . import text as rs

P = ir.PrimKind
JSON_VALUE = "json::Value"
JSON_MAP = "json::Map<String, json::Value>"
KIND_ORDER = ("null", "boolean", "number", "string", "array", "object")
RUST_KIND = {
    "null": "Null",
    "boolean": "Bool",
    "number": "Number",
    "string": "String",
    "array": "Array",
    "object": "Object",
}
EXTRA = "extra"  # the field keeping undeclared members (`extra_` when a property takes it)


@dataclass
class Doc:
    lines: list[str]  # `///` lines, indented
    deprecated: str | None  # the `#[deprecated]` line, indented


@dataclass
class Field:
    name: str
    rtype: str
    doc: Doc
    decode: str  # the line(s) in the struct literal
    encode: str  # the statement line(s)


@dataclass
class Struct:
    name: str
    doc: Doc
    fields: list[Field]
    checks: list[str]  # constant members: decode statements
    consts: list[str]  # constant members: encode statements
    mutable: bool  # the decoder takes members out of its object


@dataclass
class Variant:
    name: str
    rtype: str | None  # None: a unit variant (`Null`)
    doc: str


@dataclass
class Union:
    name: str
    doc: Doc
    variants: list[Variant]
    consts: list[str]  # associated const lines
    body: list[str]  # the decoder's body lines (indented 8)


@dataclass
class StrEnum:
    name: str
    doc: Doc
    values: list[tuple[str, str]]  # (variant, wire)
    open: bool  # `Other(String)` (a `string` member) instead of `Unknown(String)`
    expected: str  # the values for messages, as a Rust literal


@dataclass
class Alias:
    name: str
    doc: Doc
    target: str


Item = Struct | Union | StrEnum | Alias


@dataclass
class Items:
    items: list[Item] = field(default_factory=list)
    type_names: list[str] = field(default_factory=list)  # every named schema type


class Builder:
    def __init__(self, resolved: ir.Resolved) -> None:
        self.resolved = resolved
        self.index = TypeIndex(resolved)
        self.typedefs = resolved.type_map()
        self.items: dict[str, Item] = {}
        self.order: list[str] = []
        self.paths: dict[str, tuple[str, ...]] = {}  # an inline item's name -> where it stands
        self.problems: list[Diagnostic] = []
        self.cyclic = cyclic(self._direct_graph())

    # -- names and docs ---------------------------------------------------------------------

    def link(self, target: str) -> str | None:
        """The intra-doc path of a `{@link}` target (`X` or `X.member`), if it is generated."""
        head, _, member = target.partition(".")
        if head not in self.typedefs and head not in self.index.classes:
            return None
        if not member:
            return head
        obj = self.index.target(ir.Ref(head)) if head in self.typedefs else None
        if isinstance(obj, ir.Obj) and obj.prop(member) is not None and is_class_obj(obj):
            return f"{obj.name}::{rs.ident(self.field_names(obj)[member])}"
        return head

    def doc(self, doc: ir.Doc, indent: str, deprecated: bool | None = None) -> Doc:
        lines = rs.doc_comment(rs.doc_lines(doc.markdown or doc.text, self.link), indent)
        dep = None
        if is_deprecated(doc) if deprecated is None else deprecated:
            note = " ".join((doc.tag("deprecated") or "").split())
            dep = (
                rs.attribute(indent, "deprecated", f"note = {rs.string(note)}")
                if note
                else f"{indent}#[deprecated]"
            )
        return Doc(lines, dep)

    def field_names(self, obj: ir.Obj) -> dict[str, str]:
        """Wire name -> snake_case field name, unique within the struct."""
        out: dict[str, str] = {}
        taken: set[str] = set()
        for p in obj.properties:
            name = rs.snake(p.name)
            while name in taken:
                name += "_"
            taken.add(name)
            out[p.name] = name
        return out

    def taken(self, name: str, path: tuple[str, ...]) -> bool:
        """Whether the inline item `name` (at `path`) is made already; a name another path or a
        declared type took is an error naming both."""
        other = self.paths.setdefault(name, path)
        declared = name in self.typedefs or name in self.index.classes
        if other != path or (len(path) > 1 and declared):
            where = ".".join(other) if other != path else name
            message = (f"the Rust name '{name}' of {'.'.join(path)} is taken by {where}; "
                       "rename one of them in a name overrides file")  # fmt: skip
            self.problems.append(Diagnostic(Location(self.resolved.source, 1, 1), message))
        return name in self.items

    def claim(self, name: str, item: Item) -> None:
        if name in self.items:
            return
        self.items[name] = item
        self.order.append(name)

    # -- recursion --------------------------------------------------------------------------

    def _direct_graph(self) -> dict[str, tuple[str, ...]]:
        """Named type -> the named types its value holds in place (not behind a Vec or map)."""

        def walk(t: ir.TypeExpr, out: list[str], top: bool) -> None:
            if isinstance(t, ir.Ref):
                out.append(t.name)
            elif isinstance(t, ir.Obj) and is_class_obj(t):
                if not top:
                    out.append(t.name)
                    return
                for p in t.properties:
                    walk(p.type, out, False)
            elif isinstance(t, ir.Union_):
                for m in t.members:
                    walk(m, out, False)

        graph: dict[str, tuple[str, ...]] = {}
        for td in self.resolved.types:
            found: list[str] = []
            walk(td.type, found, True)
            graph[td.name] = tuple(found)
        for c in self.index.classes.values():
            if c.name not in graph:
                found = []
                walk(c.obj, found, True)
                graph[c.name] = tuple(found)
        return graph

    def boxed(self, owner: str, t: ir.TypeExpr) -> bool:
        if owner not in self.cyclic:
            return False
        name = t.name if isinstance(t, (ir.Ref, ir.Obj)) else None
        return name is not None and name in self.cyclic

    # -- types ------------------------------------------------------------------------------

    def rtype(self, t: ir.TypeExpr, path: tuple[str, ...], owner: str) -> str:
        """The Rust type of `t` standing at `path`; inline items are generated on the way."""
        if isinstance(t, ir.Prim):
            return {
                P.STRING: "String",
                P.NUMBER: "json::Number",
                P.INTEGER: "i64",
                P.BOOLEAN: "bool",
                P.OBJECT: JSON_MAP,
            }.get(t.kind, JSON_VALUE)
        if isinstance(t, ir.Lit):
            return self.str_enum((t,), path, ir.NO_DOC) if t.kind == "string" else JSON_VALUE
        if isinstance(t, ir.Ref):
            return t.name
        if isinstance(t, ir.Array):
            return f"Vec<{self.rtype(t.item, (*path, 'item'), owner)}>"
        if isinstance(t, ir.Obj):
            if is_class_obj(t):
                self.struct(t.name, t, ir.NO_DOC)
                return t.name
            return self.map_type(t, path, owner)
        if isinstance(t, ir.Union_):
            return self.union(t, path, ir.NO_DOC)
        return JSON_VALUE  # Map and Intersection do not survive resolve in any official schema

    def map_type(self, t: ir.Obj, path: tuple[str, ...], owner: str) -> str:
        value = t.index.value if t.index is not None else None
        if value is None or self.index.accepts_anything(value):
            return JSON_MAP
        return f"BTreeMap<String, {self.rtype(value, (*path, 'value'), owner)}>"

    # -- structs ----------------------------------------------------------------------------

    def struct(self, name: str, obj: ir.Obj, doc: ir.Doc) -> None:
        if name in self.items:
            return
        item = Struct(name, self.doc(doc, ""), [], [], [], False)
        self.claim(name, item)
        names = self.field_names(obj)
        taken = set(names.values())
        for p in obj.properties:
            self.member(item, p, obj, rs.ident(names[p.name]))
        extra = EXTRA
        while extra in taken:
            extra += "_"
        value = obj.index.value if obj.index is not None else None
        ind = " " * 12
        if value is None or self.index.accepts_anything(value):
            rtype, decode = JSON_MAP, f"{ind}{extra}: o.rest(),"
            encode = rs.call("rt::put_rest", ["&mut m", f"&self.{extra}"], " " * 8, "?;")
        else:
            inner = self.rtype(value, (*obj.path, "value"), name)
            rtype, decode = f"BTreeMap<String, {inner}>", f"{ind}{extra}: o.rest_as()?,"
            encode = rs.call("rt::put_all", ["&mut m", f"&self.{extra}"], " " * 8, "?;")
        what = "The members this type does not declare, kept as they came (written back)."
        item.fields.append(Field(extra, rtype, Doc([f"    /// {what}"], None), decode, encode))

    def member(self, item: Struct, p: ir.Property, obj: ir.Obj, fname: str) -> None:
        wire = rs.string(p.name)
        t = p.type
        members = (
            [m for m in t.members if m != ir.Prim(P.NULL)] if isinstance(t, ir.Union_) else [t]
        )
        nullable = p.nullable or (isinstance(t, ir.Union_) and len(members) < len(t.members))
        if len(members) == 1:
            t = members[0]
        elif len(members) < len(t.members if isinstance(t, ir.Union_) else ()):
            t = ir.Union_(tuple(members))
        doc = self.doc(p.doc, "    ")
        lit = t if isinstance(t, ir.Lit) else None
        if lit is not None and not nullable:
            lit_text = _lit(lit)
            if not p.optional:
                item.checks.append(rs.call("o.lit", [wire, lit_text], " " * 8, "?;"))
                item.consts.append(
                    rs.call("m.serialize_entry", [wire, f"&{lit_text}"], " " * 8, "?;")
                )
                item.mutable = True
                return
            item.mutable = True
            decode = f"            {fname}: o.opt_lit({wire}, {lit_text})?,"
            encode_lines = [
                f"        if self.{fname} {{",
                f"            m.serialize_entry({wire}, &{lit_text})?;",
                "        }",
            ]
            doc.lines.append(
                f"    /// Whether the constant `{p.name}` ({_lit_json(lit)}) is present."
            )
            item.fields.append(Field(fname, "bool", doc, decode, "\n".join(encode_lines)))
            return
        path = (*obj.path, p.name)
        rtype = self.rtype(t, path, item.name)
        if self.boxed(item.name, t):
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

    # -- string enums -----------------------------------------------------------------------

    def str_enum(
        self, lits: tuple[ir.Lit, ...], path: tuple[str, ...], doc: ir.Doc, open_: bool = False
    ) -> str:
        name = path_name(path) if len(path) > 1 else path[0]
        if self.taken(name, path):
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
        self.claim(name, StrEnum(name, self.doc(doc, ""), values, open_, expected))
        return name

    # -- unions -----------------------------------------------------------------------------

    def union(self, t: ir.Union_, path: tuple[str, ...], doc: ir.Doc) -> str:
        name = path_name(path) if len(path) > 1 else path[0]
        if self.taken(name, path):
            return name
        members = _flat(t)
        lits = [m for m in members if isinstance(m, ir.Lit) and m.kind == "string"]
        if lits and len(lits) == len(members):
            return self.str_enum(tuple(lits), path, doc)
        strings = [m for m in members if m == ir.Prim(P.STRING)]
        if lits and len(lits) + len(strings) == len(members):
            return self.str_enum(tuple(lits), path, doc, open_=True)
        item = Union(name, self.doc(doc, ""), [], [], [])
        self.claim(name, item)
        disc = self.index.discriminator(t)
        if disc is not None:
            self.tagged(item, disc)
        else:
            self.by_kind(item, members, path)
        return name

    def tagged(self, item: Union, disc: object) -> None:
        from ...analysis.typeindex import Discriminator

        assert isinstance(disc, Discriminator)
        for cname, _values in disc.members:
            cls = self.index.classes[cname]
            self.struct(cname, cls.obj, self._class_doc(cname))
            item.variants.append(Variant(cname, self._boxed(item.name, cname), ""))
        item.variants.append(Variant("Unknown", JSON_VALUE, _UNKNOWN_DOC))
        values = [v for _c, vs in disc.members for v in vs]
        item.consts = _tag_const(item.name, disc.wire, values)
        arms = [(" | ".join(rs.string(v) for v in vs), cname) for cname, vs in disc.members]
        item.body = rs.tag_match(arms)

    def _class_doc(self, cname: str) -> ir.Doc:
        td = self.typedefs.get(cname)
        return td.doc if td is not None else ir.NO_DOC

    def _boxed(self, owner: str, name: str) -> str:
        return f"Box<{name}>" if owner in self.cyclic and name in self.cyclic else name

    def by_kind(self, item: Union, members: list[ir.TypeExpr], path: tuple[str, ...]) -> None:
        # all members objects of classes, however nested: one set of alternatives by keys
        deep = self.index.members(ir.Union_(tuple(members)))
        if all(self.index.class_of(m) is not None for m in deep):
            members = list(deep)
        variants: list[tuple[str, ir.TypeExpr, frozenset[str]]] = []
        taken: set[str] = set()
        for m in members:
            vname = self.variant_name(m)
            while vname in taken:
                vname += "_"
            taken.add(vname)
            kinds = self.index.kinds(m)
            kinds = frozenset("number" if k == "integer" else k for k in kinds)
            variants.append((vname, m, kinds))
            if m == ir.Prim(P.NULL):
                item.variants.append(Variant(vname, None, ""))
            else:
                vpath = (*path, vname) if isinstance(m, (ir.Union_, ir.Lit)) else path
                rtype = self.rtype(m, vpath, item.name)
                if self.boxed(item.name, m):
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
                body.append(
                    rs.arm(pat, "rt::dm", ["v", "cx", "at", f"Self::{these[0][0]}"], " " * 12)
                )
            else:
                body.append(f"            {pat} => {{")
                body.extend(self.alternatives(item, these, " " * 16))
                body.append("            }")
        if covered < len(KIND_ORDER):
            expected = " | ".join(describe(m) for m in members)
            body.append(rs.arm("_", "rt::mismatched", ["at", rs.string(expected), "&v"], " " * 12))
        body.append("        }")
        item.body = body

    def alternatives(
        self, item: Union, these: list[tuple[str, ir.TypeExpr]], ind: str
    ) -> list[str]:
        """Object members without a discriminator: tried in order of their required keys (most
        first), only those whose required keys the object has."""
        keyed: list[tuple[str, list[str]]] = []
        for vname, m in these:
            cname = self.index.class_of(m)
            obj = self.index.classes[cname].obj if cname is not None else None
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

    def variant_name(self, m: ir.TypeExpr) -> str:
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

    # -- declared types ---------------------------------------------------------------------

    def typedef(self, td: ir.TypeDef) -> None:
        t = td.type
        if isinstance(t, ir.Obj) and is_class_obj(t):
            self.struct(t.name, t, td.doc)
        elif isinstance(t, ir.Union_):
            self.union(t, (td.name,), td.doc)
        elif isinstance(t, ir.Lit) and t.kind == "string":
            self.str_enum((t,), (td.name,), td.doc)
        else:
            target = self.rtype(t, (td.name,), td.name)
            self.claim(td.name, Alias(td.name, self.doc(td.doc, ""), target))

    def build(self) -> Items:
        for td in self.resolved.types:
            self.typedef(td)
        if self.problems:
            raise SchemaError(self.problems)
        return Items([self.items[n] for n in self.order], [td.name for td in self.resolved.types])


_UNKNOWN_DOC = "A member this version does not declare, kept by a tolerant decode."


def _flat(t: ir.Union_) -> list[ir.TypeExpr]:
    """The members of `t` with inline unions spread."""
    out: list[ir.TypeExpr] = []
    for m in t.members:
        out.extend(_flat(m) if isinstance(m, ir.Union_) else [m])
    return out


def _lit(lit: ir.Lit) -> str:
    if lit.kind == "string":
        return f"rt::Lit::Str({rs.string(str(lit.value))})"
    if lit.kind == "boolean":
        return f"rt::Lit::Bool({'true' if lit.value else 'false'})"
    return f"rt::Lit::Int({int(lit.value)})"


def _lit_json(lit: ir.Lit) -> str:
    import json

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


def _tag_const(name: str, wire: str, values: list[str]) -> list[str]:
    return [
        "    const TAG: rt::Tagged = rt::Tagged {",
        f"        name: {rs.string(name)},",
        f"        key: {rs.string(wire)},",
        f"        values: {rs.string(rs.quoted_list(values))},",
        "    };",
    ]


def build(resolved: ir.Resolved) -> Items:
    return Builder(resolved).build()
