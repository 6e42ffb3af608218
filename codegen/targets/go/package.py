"""One version package: the declarations in schema order, the registry, the conformance hook,
as the views the templates render."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from ... import ir
from ...analysis.envelopes import envelopes
from ...analysis.methods import Method, method_model
from ...analysis.typeindex import TypeIndex
from ...errors import Diagnostic, Location, SchemaError
from . import godoc
from .decls import Builder, Decl, align
from .gotypes import Types, go_string, go_type_names
from .names import exported
from .structs import is_struct, struct

# Identifiers every package declares besides the schema's types.
RESERVED = (
    "Unknown", "TypeNames", "Reencode", "ReencodeTolerant", "ReencodeMessage", "MethodInfo",
    "Methods", "LookupMethod", "Message", "MethodMessage", "MethodResult", "DecodeMessage",
    "DecodeResult", "EncodeResponse", "ProtocolVersion", "Directions",
)  # fmt: skip


@dataclass(frozen=True)
class MethodView:
    const: str  # Go constant name
    value: str  # Go string literal
    entry: str  # the MethodInfo literal
    type: str  # the message's Go type ("" when it is not a struct)
    method: Method


@dataclass(frozen=True)
class PackageView:
    name: str  # Go package name
    version: str  # the protocol version it declares (else its key), as a Go string literal
    label: str  # the schema's directory label (examples live under it), as a Go string literal
    source: str
    sha256: str
    import_wire: str
    types: str  # text of types.go's declarations
    codec: str  # text of codec.go's functions
    codec_json: bool  # whether they name encoding/json
    consts: list[str]
    method_consts: list[str]
    methods: list[MethodView]
    message_types: list[tuple[str, str]]  # (method constant, Go type) of each struct message
    method_names: list[tuple[str, str]]  # the first method of each message struct
    message_structs: list[str]
    result_types: list[str]  # Go structs answering a request
    result_names: list[tuple[str, str]]  # (schema name as a Go literal, Go struct) per result
    type_names: list[str]  # Go string literals
    envelopes: Envelopes
    reencoders: list[tuple[str, str]]  # (schema name as a Go literal, Go name) of every type
    doc: list[str]


def build(
    resolved: ir.Resolved, package: str, version: str, label: str, module: str
) -> PackageView:
    index = TypeIndex(resolved)
    go_names = go_type_names(index)
    _check_unique(resolved, [*go_names.items(), *((c.name, c.name) for c in resolved.consts)])
    taken = set(go_names.values()) | set(RESERVED) | {c.name for c in resolved.consts}
    types = Types(index, go_names, taken=taken)
    for td in resolved.types:
        types.kinds[td.name] = _kind(types, td)
    known = set(go_names.values()) | set(RESERVED)
    b = Builder(index, types, known)
    decls: list[Decl] = []
    made: set[str] = set()

    def flush() -> None:
        """The inline unions, string types and raw types made so far, after their owner."""
        for table, make in ((types.enums, b.enum), (types.raws, b.raw), (types.unions, b.union)):
            for name in list(table):
                if name not in made:
                    made.add(name)
                    decls.append(make(table[name]))  # type: ignore[arg-type]

    inline = {c.name: c for c in index.classes.values() if c.name not in index.typedefs}
    for td in resolved.types:
        go = go_names[td.name]
        kind = types.kinds[td.name]
        if kind == "struct":
            decls.append(struct(b, index.classes[td.name], go, td.doc))
        elif kind in ("union", "enum", "raw"):
            assert isinstance(td.type, ir.Union_)
            made.add(go)
            types.union(td.type, td.name, td.doc, go)
            table = {"union": types.unions, "enum": types.enums, "raw": types.raws}[kind]
            make = {"union": b.union, "enum": b.enum, "raw": b.raw}[kind]
            decls.append(make(table[go]))  # type: ignore[index,operator]
        else:
            decls.append(b.alias(td, go))
        for name in [n for n, c in inline.items() if c.obj.path[:1] == (td.name,)]:
            c = inline.pop(name)
            decls.append(struct(b, c, go_names[name], c.doc))
        flush()
    for name, c in inline.items():
        decls.append(struct(b, c, go_names[name], c.doc))
        flush()
    markers = _markers(b.markers)
    codec = "\n\n".join("\n".join(d.codec) for d in decls if d.codec)
    model = method_model(resolved)
    methods = _methods(model.methods, types)
    structs = {d.name for d in decls if d.struct}
    results = sorted({_struct_of(types, r) for m in model.methods for r in m.result_types
                      if r in go_names and _struct_of(types, r) in structs})  # fmt: skip
    consts = []
    for k in resolved.consts:
        consts += godoc.comment(k.doc, known)
        consts.append(f"const {k.name} = {_const_value(k.value)}")
        consts.append("")
    doc = [
        f"// Package {package} holds the types of MCP protocol version {version} ({PurePath(resolved.source).name}),",
        "// with their JSON decoding and encoding, the method registry and a conformance hook.",
    ]  # fmt: skip
    return PackageView(
        name=package,
        version=go_string(resolved.protocol_version or version),
        label=go_string(label),
        source=PurePath(resolved.source).name,
        sha256=resolved.sha256,
        import_wire=f"{module}/internal/wire",
        types="\n\n".join("\n".join(d.text) for d in decls) + "\n" + markers,
        codec=codec,
        codec_json="json." in codec,
        consts=consts,
        method_consts=["\t" + x for x in align([[m.const, "= " + m.value] for m in methods])],
        methods=methods,
        message_types=[(m.const, m.type) for m in methods if m.type],
        method_names=list(
            {m.type: (m.const, m.type) for m in reversed(methods) if m.type}.values()
        )[::-1],
        message_structs=sorted({m.type for m in methods if m.type}),
        result_types=results,
        result_names=sorted(
            (go_string(r), s) for r, s in _all_structs(types, model.methods) if s in structs
        ),
        envelopes=_envelopes(index, go_names),
        type_names=[
            go_string(n) for n in sorted({td.name for td in resolved.types} | set(index.classes))
        ],
        reencoders=[
            (go_string(n), g)
            for n, g in sorted(
                [(td.name, go_names[td.name]) for td in resolved.types]
                + [(n, go_names[n]) for n in index.classes if n not in index.typedefs]
            )
        ],
        doc=doc,
    )


@dataclass(frozen=True)
class Envelopes:
    """The Go structs of the declared JSON-RPC messages ("" when not declared) and whether
    batches are (`analysis.envelopes` decides which types they are)."""

    request: str = ""
    notification: str = ""
    result: str = ""
    error: str = ""
    batches: bool = False


def _envelopes(index: TypeIndex, go_names: dict[str, str]) -> Envelopes:
    """The neutral envelope rule (`analysis.envelopes`), spelled for Go ("" when not declared)."""
    found = envelopes(index)
    roles = ("request", "notification", "result", "error")
    spelled = {r: go_names[n] for r in roles if (n := getattr(found, r)) is not None}
    return Envelopes(batches=found.batches, **spelled)


def _all_structs(types: Types, methods: tuple[Method, ...]) -> set[tuple[str, str]]:
    return {(r, _struct_of(types, r)) for m in methods for r in m.result_types}


def _struct_of(types: Types, name: str) -> str:
    """The Go struct a typedef stands for (through aliases), else ''."""
    seen = set()
    while name in types.kinds and name not in seen:
        seen.add(name)
        kind = types.kinds[name]
        if kind == "struct":
            return types.go_names[name]
        td = types.index.typedefs[name]
        if kind == "alias" and isinstance(td.type, ir.Ref):
            name = td.type.name
            continue
        if kind == "alias" and isinstance(td.type, ir.Obj) and td.type.name in types.index.classes:
            return types.go_names[td.type.name]
        return ""
    return ""


def _kind(types: Types, td: ir.TypeDef) -> str:
    if is_struct(td):
        return "struct"
    if isinstance(td.type, ir.Union_):
        members = [
            m
            for m in td.type.members
            if not (isinstance(m, ir.Prim) and m.kind is ir.PrimKind.NEVER)
        ]
        if len(members) > 1:
            kind = types.union_kind(td.type)
            return {"interface": "union", "enum": "enum", "open-enum": "enum"}.get(kind, "raw")
    return "alias"


def _markers(markers: dict[str, list[str]]) -> str:
    lines: list[str] = []
    unions = sorted({u for us in markers.values() for u in us})
    lines += align([[f"func ({m}) is{u}()", "{}"] for m in sorted(markers) for u in markers[m]])
    if lines:
        lines.append("")
    lines.append(
        "// An Unknown is a union member this version does not know (a newer content block),"
    )
    lines.append("// kept by a tolerant read as its JSON text and written back unchanged.")
    lines += [
        "type Unknown struct {",
        "\t// Raw is the member's JSON text.",
        "\tRaw json.RawMessage",
        "\t// Expected names the union that did not know it.",
        "\tExpected string",
        "}",
        "",
        "// MarshalJSON writes the member's JSON text back.",
        "func (v Unknown) MarshalJSON() ([]byte, error) {",
        "\treturn wire.Encode(v.Raw, wire.EncodeRaw)",
        "}",
    ]
    if unions:
        lines.append("")
    lines += align([[f"func (Unknown) is{u}()", "{}"] for u in unions])
    return "\n" + "\n".join(lines)


def _methods(methods: tuple[Method, ...], types: Types) -> list[MethodView]:
    out = []
    for m in methods:
        const = types.fresh("Method" + exported(m.method))

        def s(x: str | None) -> str:
            return go_string(x or "")

        alts = "nil" if not m.alt_result_types else (
            "[]string{" + ", ".join(go_string(a) for a in m.alt_result_types) + "}")  # fmt: skip
        entry = (f"{{{const}, {s(m.kind)}, {s(m.direction)}, {s(m.via)}, {s(m.type_name)}, "
                 f"{s(m.params_type)}, {'true' if m.params_optional else 'false'}, "
                 f"{s(m.result_type)}, {alts}}}")  # fmt: skip
        out.append(MethodView(const, go_string(m.method), entry, _struct_of(types, m.type_name), m))
    return out


def _const_value(lit: ir.Lit) -> str:
    from .gotypes import literal_text

    if lit.kind == "string":
        return go_string(str(lit.value))
    return literal_text(lit)


def _check_unique(resolved: ir.Resolved, go_names: list[tuple[str, str]]) -> None:
    """Every type and constant declared once: two schema names spelled alike for Go, or one
    spelled as a name the package declares itself, is an error located at the type."""
    seen: dict[str, str] = {}
    problems = []
    for name, go in go_names:
        other = seen.get(go)
        if other is not None or go in RESERVED:
            what = f"'{other}'" if other is not None else "a name the package declares"
            td = resolved.type_map().get(name)
            loc = (
                td.loc if td is not None and td.loc is not None else Location(resolved.source, 1, 1)
            )
            problems.append(Diagnostic(loc, f"'{name}' would be the Go type {go}, as {what}"))
        seen[go] = name
    if problems:
        raise SchemaError(problems)
