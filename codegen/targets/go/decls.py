"""The declarations of one version package, as views for the templates: `Decl` (a declaration's
Go text and its codec functions' text) and the `Builder` of sealed interfaces (unions), string
types, raw JSON types and aliases, each with its decoding and encoding function; the pieces
structs (`structs.py`) share with them: gofmt's alignment, the JSON methods, checked constraints.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ... import ir
from ...analysis.typeindex import TypeIndex
from . import godoc
from .gotypes import EnumDecl, GoType, RawDecl, Types, UnionDecl, go_string
from .names import exported


@dataclass
class Decl:
    """One declaration: its Go text (type, methods) and its codec functions' text."""

    name: str
    neutral: str  # the schema's name (typedef or path-derived)
    text: list[str] = field(default_factory=list)  # lines of types.go
    codec: list[str] = field(default_factory=list)  # lines of codec.go
    struct: bool = False  # a Go struct (`structs.struct`)


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
        decl.text += json_methods(go)
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


def json_methods(go: str) -> list[str]:
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
