"""The declarations of one version package: structs, sealed interfaces, string types, raw JSON
types and aliases, each with its decoding and encoding function, as views for the templates.

Member rules (docs/targets-go.md): a required member whose type is one literal (`type:
"text"`, `method: "tools/call"`) has no field: it is checked on decode and always written; an
optional member is a pointer unless its Go type is nil-able (slice, map, interface, raw JSON),
where nil is "absent" and an empty non-nil value is "present and empty"; a required member is
always written, its zero value included; members a type does not declare are kept in `Extra`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ... import ir
from ...analysis.shapes import is_class_obj
from ...analysis.typeindex import ClassDef, TypeIndex
from ...naming import pascal
from . import godoc
from .gotypes import RAW, EnumDecl, GoType, RawDecl, Types, UnionDecl, go_string, literal_text
from .names import exported

P = ir.PrimKind


@dataclass
class FieldView:
    name: str
    type: str
    tag: str
    doc: list[str]


@dataclass
class Decl:
    """One declaration: its Go text (type, methods) and its codec functions' text."""

    name: str
    neutral: str  # the schema's name (typedef or path-derived)
    text: list[str] = field(default_factory=list)  # lines of types.go
    codec: list[str] = field(default_factory=list)  # lines of codec.go


def align(rows: list[list[str]]) -> list[str]:
    """Cells padded as gofmt's tabwriter pads a run of lines (every cell but the last)."""
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return [" ".join(c.ljust(w) for c, w in zip(r, widths)) + " " + r[-1] for r in rows]


class Builder:
    def __init__(self, index: TypeIndex, types: Types, known: set[str]) -> None:
        self.index = index
        self.types = types
        self.known = known  # Go identifiers doc links may point at
        self.markers: dict[str, list[str]] = {}  # Go struct -> unions it is a member of

    def doc(self, d: ir.Doc, indent: str = "") -> list[str]:
        return godoc.comment(d, self.known, indent)

    # -- structs ---------------------------------------------------------------------------------

    def struct(self, c: ClassDef, go: str, doc: ir.Doc) -> Decl:
        decl = Decl(go, c.name)
        decl.text += self.doc(doc)
        fields: list[tuple[list[str], list[str]]] = []  # (doc lines, cells)
        used: set[str] = {"MarshalJSON", "UnmarshalJSON", "MethodName"}  # its methods
        cases: list[list[str]] = []
        required: list[str] = []
        encode: list[str] = []
        for p in c.obj.properties:
            key = go_string(p.name)
            t = _without_null(p.type) if p.nullable else p.type
            target = self.index.target(t)
            case = [f"\tcase {key}:"]
            if (
                isinstance(target, ir.Lit)
                and not p.optional
                and not p.nullable
                and p.constraints.is_empty()
            ):
                required.append(p.name)
                case.append(f"\t\tseen[{len(required) - 1}] = true")
                case.append(f"\t\terr = {_const_check(target)}")
                cases.append(case)
                encode += [f"\te.Key({key})", f"\te.Text({_raw_string(literal_text(target))})"]
                continue
            name = _unique(exported(p.name), used)
            gt = self.types.of(t, c.name + pascal(p.name))
            gt = constrained(gt, p.constraints)
            ftype, dec, enc = gt.text, gt.dec, gt.enc
            fld = f"v.{name}"
            if p.nullable and (p.optional or gt.nilable):
                ftype, dec, enc = RAW, f"wire.NullOr({gt.dec})", "wire.EncodeRaw"
                gt = GoType(RAW, dec, enc, nilable=True)
            if not p.optional:
                required.append(p.name)
                case.append(f"\t\tseen[{len(required) - 1}] = true")
            if p.nullable and not p.optional and not gt.nilable:
                ftype = "*" + ftype
                case.append(f"\t\terr = wire.Nullable(d, m.Value, p, &{fld}, {dec})")
                encode += [f"\te.Key({key})", f"\twire.EncodeNullable(e, {fld}, {enc})"]
            elif p.optional and not gt.nilable:
                ftype = "*" + ftype
                case.append(f"\t\terr = wire.Ptr(d, m.Value, p, &{fld}, {dec})")
                encode += [f"\tif {fld} != nil {{", f"\t\te.Key({key})",
                           f"\t\t{enc}(e, *{fld})", "\t}"]  # fmt: skip
            elif p.optional:
                case.append(f"\t\terr = {dec}(d, m.Value, p, &{fld})")
                encode += [f"\tif {fld} != nil {{", f"\t\te.Key({key})",
                           f"\t\t{enc}(e, {fld})", "\t}"]  # fmt: skip
            else:
                case.append(f"\t\terr = {dec}(d, m.Value, p, &{fld})")
                encode += [f"\te.Key({key})", f"\t{enc}(e, {fld})"]
            cases.append(case)
            tag = _tag(p.name + (",omitempty" if p.optional else ""))
            fields.append((self.doc(p.doc, "\t"), [name, ftype, tag]))
        extra = _unique("Extra", used)
        fields.append(
            (
                ["\t// " + extra + " holds the members the schema does not declare, kept as "
                 "they came", "\t// and written back after the declared ones."],
                [extra, "map[string]json.RawMessage", '`json:"-"`'],
            )
        )  # fmt: skip
        decl.text.append(f"type {go} struct {{")
        run: list[list[str]] = []
        for doc_lines, cells in fields:
            if doc_lines:
                decl.text += ["\t" + x for x in align(run)]
                run = []
                decl.text += doc_lines
            run.append(cells)
        decl.text += ["\t" + x for x in align(run)]
        decl.text.append("}")
        decl.text += _methods(go)
        check = self._index_check(c.obj)
        keys = ", ".join(go_string(p.name) for p in c.obj.properties)
        decl.codec += [
            f"func decode{go}(d *wire.Decoder, data []byte, path string, out *{go}) error {{",
            "\tmembers, err := wire.Object(data, path)",
            "\tif err != nil {",
            "\t\treturn err",
            "\t}",
            f"\tvar v {go}",
        ]
        if required:
            decl.codec.append(f"\tvar seen [{len(required)}]bool")
        decl.codec += [
            "\tfor _, m := range members {",
            "\t\tp := wire.Key(path, m.Key)",
            "\t\tswitch m.Key {",
        ]
        for case in cases:
            decl.codec += ["\t" + x for x in case]
        decl.codec += [
            "\t\tdefault:",
            f"\t\t\terr = wire.Keep(d, m.Value, p, m.Key, &v.{extra}, {check})",
            "\t\t}",
            "\t\tif err != nil {",
            "\t\t\treturn err",
            "\t\t}",
            "\t}",
        ]
        for i, r in enumerate(required):
            decl.codec += [
                f"\tif !seen[{i}] {{",
                f"\t\treturn wire.Missing(path, {go_string(r)})",
                "\t}",
            ]
        decl.codec += ["\t*out = v", "\treturn nil", "}", ""]
        decl.codec += [
            f"func encode{go}(e *wire.Encoder, v {go}) {{",
            "\te.Open()",
            *encode,
            f"\twire.Extra(e, v.{extra}, {keys})",
            "\te.Close()",
            "}",
        ]
        return decl

    def _index_check(self, obj: ir.Obj) -> str:
        if obj.index is None or self.index.accepts_anything(obj.index.value):
            return "nil"
        gt = self.types.of(obj.index.value, obj.name + "Value")
        return f"wire.Is({gt.dec})"

    # -- unions ----------------------------------------------------------------------------------

    def union(self, u: UnionDecl) -> Decl:
        go = u.name
        decl = Decl(go, go)
        decl.text += self.doc(u.doc)
        if decl.text:
            decl.text.append("//")
        names = ", ".join(m[0] for m in u.members) + (f", {u.array_name}" if u.array else "")
        decl.text += [
            f"// A {go} is one of: {names}; or, read tolerantly, an [Unknown] member.",
            f"type {go} interface {{",
            f"\tis{go}()",
            "}",
        ]
        for member, _, _ in u.members:
            self.markers.setdefault(member, []).append(go)
        body: list[str] = []
        if u.array is not None:
            a = u.array_name
            decl.text += [
                "",
                f"// {a} is the array member of [{go}].",
                f"type {a} {u.array.text}",
                "",
                f"func ({a}) is{go}() {{}}",
            ]
            decl.codec += [
                f"func decode{a}(d *wire.Decoder, data []byte, path string, out *{a}) error {{",
                f"\tvar v {u.array.text}",
                f"\terr := {u.array.dec}(d, data, path, &v)",
                "\t*out = v",
                "\treturn err",
                "}",
                "",
                f"func encode{a}(e *wire.Encoder, v {a}) {{",
                f"\t{u.array.enc}(e, v)",
                "}",
                "",
            ]
            body += [
                "\tif wire.IsArray(data) {",
                f"\t\tvar v {a}",
                f"\t\terr := decode{a}(d, data, path, &v)",
                "\t\t*out = v",
                "\t\treturn err",
                "\t}",
            ]
        if u.disc is not None:
            body += [
                f"\treturn wire.Tagged(d, data, path, out, {go_string(go)}, {go_string(u.disc)},",
                f"\t\tfunc(raw json.RawMessage) {go} {{",
                f"\t\t\treturn Unknown{{Raw: raw, Expected: {go_string(go)}}}",
                "\t\t},",
            ]
            body += [f"\t\twire.On[{go}]({go_string(tag)}, decode{m}),"
                     for tag, m in u.tags]  # fmt: skip
            body.append("\t)")
        elif len(u.members) == 1:
            body.append(f"\treturn wire.As[{go}](decode{u.members[0][0]})(d, data, path, out)")
        else:
            body.append(f"\treturn wire.ByShape(d, data, path, out, {go_string(go)},")
            for member, neutral, keys in u.members:
                args = ", ".join([go_string(neutral), f"decode{member}"] +
                                 [go_string(k) for k in keys])  # fmt: skip
                body.append(f"\t\twire.Shaped[{go}]({args}),")
            body.append("\t)")
        decl.codec += [
            f"func decode{go}(d *wire.Decoder, data []byte, path string, out *{go}) error {{",
            *body,
            "}",
            "",
            f"func encode{go}(e *wire.Encoder, v {go}) {{",
            "\tswitch v := v.(type) {",
        ]
        members = [m[0] for m in u.members] + ([u.array_name] if u.array else [])
        for m in members:
            decl.codec += [
                f"\tcase {m}:",
                f"\t\tencode{m}(e, v)",
                f"\tcase *{m}:",
                f"\t\twire.EncodePtr(e, v, encode{m})",
            ]
        decl.codec += [
            "\tcase Unknown:",
            "\t\twire.EncodeRaw(e, v.Raw)",
            "\tdefault:",
            f'\t\te.Fail("{go}: no member (%T)", v)',
            "\t}",
            "}",
        ]
        return decl

    # -- string types and raw JSON -----------------------------------------------------------------

    def enum(self, en: EnumDecl) -> Decl:
        go = en.name
        decl = Decl(go, go)
        decl.text += self.doc(en.doc)
        if decl.text:
            decl.text.append("//")
        if en.open:
            decl.text.append(
                f"// A {go} is any string; the constants below are the ones the schema names."
            )
        else:
            decl.text.append(
                f"// A {go} is one of the constants below (any string when read tolerantly)."
            )
        decl.text.append(f"type {go} string")
        rows = [[self.types.fresh(go + exported(v)), go, "= " + go_string(v)] for v in en.values]
        decl.text += ["", "// The values of " + go + ".", "const ("]
        decl.text += ["\t" + x for x in align(rows)]
        decl.text.append(")")
        values = ", ".join(go_string(v) for v in en.values)
        check = "wire.DecodeString" if en.open else f"wire.Enum({go_string(go)}, {values})"
        decl.codec += [
            f"func decode{go}(d *wire.Decoder, data []byte, path string, out *{go}) error {{",
            "\tvar s string",
            f"\terr := {check}(d, data, path, &s)",
            f"\t*out = {go}(s)",
            "\treturn err",
            "}",
            "",
            f"func encode{go}(e *wire.Encoder, v {go}) {{",
            "\twire.EncodeString(e, string(v))",
            "}",
        ]
        return decl

    def raw(self, r: RawDecl) -> Decl:
        go = r.name
        decl = Decl(go, go)
        decl.text += self.doc(r.doc)
        if decl.text:
            decl.text.append("//")
        decl.text += [
            f"// A {go} is kept as its JSON text, checked on decode against the members of its union.",
            f"type {go} json.RawMessage",
        ]
        decl.text += _methods(go)
        decl.codec += [
            f"func decode{go}(d *wire.Decoder, data []byte, path string, out *{go}) error {{",
            "\tvar raw json.RawMessage",
            f"\terr := {r.dec}(d, data, path, &raw)",
            f"\t*out = {go}(raw)",
            "\treturn err",
            "}",
            "",
            f"func encode{go}(e *wire.Encoder, v {go}) {{",
            "\twire.EncodeRaw(e, json.RawMessage(v))",
            "}",
        ]
        return decl

    def alias(self, td: ir.TypeDef, go: str) -> Decl:
        decl = Decl(go, td.name)
        gt = constrained(self.types.of(td.type, td.name), td.constraints)
        decl.text += self.doc(td.doc)
        decl.text.append(f"type {go} = {gt.text}")
        decl.codec += [
            f"func decode{go}(d *wire.Decoder, data []byte, path string, out *{go}) error {{",
            f"\treturn {gt.dec}(d, data, path, out)",
            "}",
            "",
            f"func encode{go}(e *wire.Encoder, v {go}) {{",
            f"\t{gt.enc}(e, v)",
            "}",
        ]
        return decl


def _methods(go: str) -> list[str]:
    return [
        "",
        f"// MarshalJSON writes v as compact JSON (for [{go}], through its generated encoder).",
        f"func (v {go}) MarshalJSON() ([]byte, error) {{",
        f"\treturn wire.Encode(v, encode{go})",
        "}",
        "",
        "// UnmarshalJSON decodes strictly: every declared member and constraint is checked.",
        f"func (v *{go}) UnmarshalJSON(data []byte) error {{",
        f"\treturn wire.Decode(data, false, decode{go}, v)",
        "}",
    ]


def constrained(gt: GoType, c: ir.Constraints) -> GoType:
    """`gt` with the constraints Go checks on decode (`@format` is an annotation, unchecked)."""
    dec = gt.dec
    if gt.number and (c.minimum is not None or c.maximum is not None):
        lo = "" if c.minimum is None else _number(c.minimum)
        hi = "" if c.maximum is None else _number(c.maximum)
        dec = f"wire.Bounds({dec}, {go_string(lo)}, {go_string(hi)})"
    if gt.array and (c.min_items is not None or c.max_items is not None):
        lo_n = -1 if c.min_items is None else c.min_items
        hi_n = -1 if c.max_items is None else c.max_items
        dec = f"wire.Items({dec}, {lo_n}, {hi_n})"
    if gt.string and c.pattern is not None:
        dec = f"wire.Pattern({dec}, {go_string(c.pattern)})"
    if dec == gt.dec:
        return gt
    return replace(gt, dec=dec)


def _number(v: float) -> str:
    return str(int(v)) if isinstance(v, float) and v.is_integer() else repr(v)


def _const_check(t: ir.Lit) -> str:
    if t.kind == "string":
        return f"wire.ConstString(d, m.Value, p, {go_string(str(t.value))})"
    if t.kind == "boolean":
        return f"wire.ConstBool(d, m.Value, p, {'true' if t.value is True else 'false'})"
    return f"wire.ConstNumber(d, m.Value, p, {go_string(literal_text(t))})"


def _tag(value: str) -> str:
    """The field's `json:"..."` tag (documentation: the codecs do not read tags)."""
    tag = "json:" + go_string(value)
    return "`" + tag + "`" if "`" not in tag else go_string(tag)


def _raw_string(text: str) -> str:
    return "`" + text + "`" if "`" not in text else go_string(text)


def _without_null(t: ir.TypeExpr) -> ir.TypeExpr:
    if isinstance(t, ir.Union_):
        rest = tuple(m for m in t.members if not (isinstance(m, ir.Prim) and m.kind is P.NULL))
        return rest[0] if len(rest) == 1 else ir.Union_(rest)
    return t


def _unique(name: str, used: set[str]) -> str:
    out, n = name, 2
    while out in used:
        out, n = f"{name}{n}", n + 1
    used.add(out)
    return out


def is_struct(td: ir.TypeDef) -> bool:
    return isinstance(td.type, ir.Obj) and is_class_obj(td.type) and td.type.name == td.name
