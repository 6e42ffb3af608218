"""The structs of one version package: an object type as a Go struct with its decoding and
encoding function.

Member rules (docs/targets-go.md): a required member whose type is one literal (`type:
"text"`, `method: "tools/call"`) has no field: it is checked on decode and always written; an
optional member is a pointer unless its Go type is nil-able (slice, map, interface, raw JSON),
where nil is "absent" and an empty non-nil value is "present and empty"; a required member is
always written, its zero value included; members a type does not declare are kept in `Extra`.
"""

from __future__ import annotations

from ... import ir
from ...analysis.shapes import is_class_obj
from ...analysis.typeindex import ClassDef
from ...naming import pascal
from .decls import Builder, Decl, align, constrained, json_methods
from .gotypes import RAW, GoType, go_string, literal_text
from .names import exported

P = ir.PrimKind


def struct(b: Builder, c: ClassDef, go: str, doc: ir.Doc) -> Decl:
    decl = Decl(go, c.name, struct=True)
    decl.text += b.doc(doc)
    fields: list[tuple[list[str], list[str]]] = []  # (doc lines, cells)
    used: set[str] = {"MarshalJSON", "UnmarshalJSON", "MethodName"}  # its methods
    cases: list[list[str]] = []
    required: list[str] = []
    encode: list[str] = []
    for p in c.obj.properties:
        key = go_string(p.name)
        t = _without_null(p.type) if p.nullable else p.type
        target = b.index.target(t)
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
        gt = b.types.of(t, c.name + pascal(p.name))
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
        fields.append((b.doc(p.doc, "\t"), [name, ftype, tag]))
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
    decl.text += json_methods(go)
    check = _index_check(b, c.obj)
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


def _index_check(b: Builder, obj: ir.Obj) -> str:
    if obj.index is None or b.index.accepts_anything(obj.index.value):
        return "nil"
    gt = b.types.of(obj.index.value, obj.name + "Value")
    return f"wire.Is({gt.dec})"


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
