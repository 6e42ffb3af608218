"""View models of the package's modules other than validators.py: plain data for the templates,
with names, hints, imports, escaped docstrings and codec expressions computed here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import PurePath

from .. import ir
from ..errors import SchemaError
from .analysis import ClassDef, TypeIndex
from .builds import Builds, SelectorView
from .hints import Hints
from .pyimports import all_strings, import_lines, uses
from .shapes import cyclic, is_class_obj
from .text import code_literal, comment, doc_text, docstring, sort_all, sort_imports


@dataclass(frozen=True)
class Context:
    resolved: ir.Resolved
    index: TypeIndex
    runtime: str = "."  # the relative import prefix of the package holding _runtime.py

    @cached_property
    def hints(self) -> Hints:
        return Hints(self.index)


@dataclass(frozen=True)
class HeaderView:
    source: str  # file name only: the output must not depend on where the schema was read
    sha256: str
    title: str
    regenerate: str  # the command that writes this file again (in the header's "Do not edit")


def header_view(resolved: ir.Resolved, regenerate: str | None = None) -> HeaderView:
    """`regenerate`: the command for the header; default, the one-schema package's command."""
    name = PurePath(resolved.source).name
    command = regenerate if regenerate is not None else f"mcp-codegen {name} -o <this directory>"
    return HeaderView(
        comment(name), resolved.sha256, comment(f"the protocol schema in {name}"), comment(command)
    )


@dataclass(frozen=True)
class ConstView:
    name: str
    value: str  # Python literal
    doc: str  # docstring literal ("" if none)


@dataclass(frozen=True)
class AliasView:
    name: str
    value: str  # the hint, quoted when it names module classes or aliases
    doc: str
    noqa: str = (
        ""  # a schema alias named in lower case keeps its name (ruff's PYI042 wants CamelCase)
    )


@dataclass(frozen=True)
class FieldView:
    attr: str
    hint: str
    default: str  # " = UNSET" or ""
    doc: str
    build: str  # keyword argument value in _from_valid (reads `v`)
    wire: str  # Python literal of the wire name
    optional: bool
    encode: str  # expression of the JSON value of `self.<attr>`


_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")  # literals in hints
_NAME = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class ClassView:
    name: str
    name_literal: str
    doc: str
    keys: str  # name of the frozenset of declared wire names
    key_set: str  # its value
    fields: tuple[FieldView, ...]
    extra_hint: str
    extra_build: str
    extra_encode: str  # "" when the extras are plain JSON (then `out.update`)

    @property
    def writes_init(self) -> bool:
        """Whether `__init__` is written out (else `@dataclass` makes it): not when a field's
        name is also a name in a hint (`list_: list_`), which inside a method's signature would
        mean the attribute, not the type."""
        names = {f.attr for f in self.fields}
        hints = [f.hint for f in self.fields] + [self.extra_hint]
        return not any(names & set(_NAME.findall(_STRING.sub("", h))) for h in hints)

    @property
    def self_name(self) -> str:
        """`__init__`'s first parameter: `self`, unless a field has that name (as dataclasses do)."""
        return "__dataclass_self__" if any(f.attr == "self" for f in self.fields) else "self"

    @property
    def head(self) -> tuple[FieldView, ...]:
        """The leading required fields: encoded in the dict display that starts `_to_dict`."""
        n = next((i for i, f in enumerate(self.fields) if f.optional), len(self.fields))
        return self.fields[:n]

    @property
    def tail(self) -> tuple[FieldView, ...]:
        return self.fields[len(self.head) :]


@dataclass(frozen=True)
class ModelsView:
    abc_imports: tuple[str, ...]  # names from collections.abc
    imports: tuple[str, ...]  # names from typing
    runtime_imports: tuple[str, ...]  # lines `name as _alias` / `name`
    consts: tuple[ConstView, ...]
    aliases: tuple[AliasView, ...]
    classes: tuple[ClassView, ...]
    selectors: tuple[SelectorView, ...]
    exports: tuple[str, ...]  # Python literals


def _field(c: ClassDef, f: ir.Property, attr: str, ctx: Context, b: Builds) -> FieldView:
    hint = ctx.hints.field(f)
    wire = code_literal(f.name)
    built = b.build(f.type, f"v[{wire}]")
    if f.nullable and built != f"v[{wire}]":
        built = f"(None if v[{wire}] is None else {built})"
    if f.optional:
        if built == f"v[{wire}]":
            build = f"v.get({wire}, UNSET)"
        else:
            build = f"({built} if {wire} in v else UNSET)"
    else:
        build = built
    encode = b.encode(f.type, f"self.{attr}", f.nullable)
    const = constant(f, ctx.index)
    default = " = UNSET" if f.optional else "" if const is None else f" = {code_literal(const)}"
    return FieldView(attr, hint, default, docstring(doc_text(f.doc), "    ", attribute=True), build, wire, f.optional,
                     encode)  # fmt: skip


def constant(f: ir.Property, index: TypeIndex) -> str | int | bool | None:
    """The value of a required field whose type is one literal (`method`, `jsonrpc`, `type`):
    its default, so nobody spells it out. It is still written on the wire and decoded strictly
    (the validators are unchanged). Optional fields keep `UNSET`: absent stays absent."""
    t = index.target(f.type)
    if f.optional or f.nullable or not isinstance(t, ir.Lit) or isinstance(t.value, float):
        return None
    return t.value


def _class(c: ClassDef, ctx: Context, b: Builds) -> ClassView:
    fields = tuple(_field(c, fl.prop, fl.attr, ctx, b) for fl in c.fields)
    index = c.obj.index
    value = index.value if index is not None else ir.Prim(ir.PrimKind.UNKNOWN)
    extra_hint = f"dict[str, {ctx.hints.hint(value)}]"
    py = ctx.index.py_name(c.name)
    keys = f"_KEYS_{py}"
    # The common case, no undeclared keys, tested cheaply: a valid value has every required
    # key, so when all fields are required its length says it; else one pass over its keys.
    if all(not f.optional for f in fields):
        extra_build = f"{{}} if len(v) == {len(fields)} else _extras(v, {keys})"
    else:
        extra_build = f"{{}} if {keys}.issuperset(v) else _extras(v, {keys})"
    extra_encode = ""
    if not ctx.index.is_raw(value):
        extra_build = f"{{k: {b.build(value, 'i')} for k, i in _extras(v, {keys}).items()}}"
        extra_encode = b.encode(value, "i")
    key_set = "frozenset({" + ", ".join(f.wire for f in fields) + "})"
    return ClassView(py, code_literal(c.name), docstring(doc_text(c.doc), "    "), keys, key_set, fields, extra_hint,
                     extra_build, extra_encode)  # fmt: skip


def alias_order(ctx: Context) -> list[tuple[ir.TypeDef, bool]]:
    """Type aliases in an order where each follows the aliases it names (they are written after
    the classes, so classes need no quotes), source order otherwise; an alias on a cycle
    (JSONValue -> JSONObject -> JSONValue) is written as a string. (alias, quoted) pairs.
    """
    index = ctx.index
    aliases = {td.name: td for td in ctx.resolved.types if not is_class_obj(td.type)}
    graph = {n: tuple(m for m in index.named_graph[n] if m in aliases) for n in aliases}
    on_cycle = cyclic(graph)
    out: list[tuple[ir.TypeDef, bool]] = []
    done: set[str] = set()
    quoted: set[str] = set()  # a string at run time: whatever names it must be a string too

    def visit(name: str) -> None:
        if name in done:
            return
        done.add(name)
        for dep in graph[name]:
            if dep not in on_cycle or name not in on_cycle:
                visit(dep)
        if name in on_cycle or any(dep in quoted for dep in graph[name]):
            quoted.add(name)
        out.append((aliases[name], name in quoted))

    for name in aliases:
        visit(name)
    return out


def models_view(ctx: Context) -> ModelsView:
    index, hints = ctx.index, ctx.hints
    b = Builds(index, hints)
    consts = tuple(
        ConstView(
            c.name, code_literal(c.value.value), docstring(doc_text(c.doc), "", attribute=True)
        )
        for c in ctx.resolved.consts
    )
    aliases = []
    for td, quoted in alias_order(ctx):
        value = hints.hint(td.type, inputs=True)
        aliases.append(
            AliasView(
                index.py_name(td.name),
                code_literal(value) if quoted else value,
                docstring(doc_text(td.doc), "", attribute=True),
                "  # noqa: PYI042" if td.name.lstrip("_")[:1].islower() else "",
            )
        )
    classes = tuple(_class(c, ctx, b) for c in index.dataclasses())
    for td in ctx.resolved.types:  # every alias that builds something gets a `_build_` function
        if not is_class_obj(td.type) and not index.is_raw(td.type):
            b.alias_builder(td.name)
    if b.diagnostics:
        raise SchemaError(b.diagnostics)
    selectors = tuple(b.selectors[k] for k in sorted(b.selectors))
    hint_text = all_strings([[a.value for a in aliases], [(f.hint for f in c.fields) for c in classes],
                             [c.extra_hint for c in classes], [s.hint for s in selectors]])  # fmt: skip
    code_text = all_strings([classes, selectors]) + "\nextra Any"
    typing = ["Any", "Final", "Literal", "NoReturn", "TypeAlias", "cast"]
    used = set(uses(typing, hint_text + "\n" + code_text))
    if consts:
        used.add("Final")
    if aliases:
        used.add("TypeAlias")
    typing_imports = sort_imports([n for n in typing if n in used])
    runtime = ["JSON", "JSONInput", "UNSET", "UnsetType", "by_shape as _by_shape", "encode_value as _encode", "extras as _extras", "plain as _plain",
               "same as _same"]  # fmt: skip
    runtime_used = [r for r in runtime if uses([r.split(" as ")[-1]], hint_text + "\n" + code_text)]
    if any(f.optional for c in classes for f in c.fields):
        runtime_used += [n for n in ("UNSET", "UnsetType") if n not in runtime_used]
    if classes:  # every class's base and to_json
        runtime_used += ["Model as _Model", "NotJSON as _NotJSON", "dumps as _dumps", "loads as _loads",
                         "not_decodable as _not_decodable", "not_encodable as _not_encodable"]  # fmt: skip
    exports = tuple(
        sort_all([c.name for c in consts] + [a.name for a in aliases] + [c.name for c in classes])
    )
    return ModelsView(
        abc_imports=tuple(
            n
            for n in ("Callable", "Mapping", "Sequence")
            if (n == "Callable" and any(s.table for s in selectors)) or uses([n], hint_text)
        ),
        imports=tuple(typing_imports),
        runtime_imports=import_lines(f"{ctx.runtime}_runtime", runtime_used),
        consts=consts,
        aliases=tuple(aliases),
        classes=classes,
        selectors=selectors,
        exports=tuple(code_literal(n) for n in exports),
    )


@dataclass(frozen=True)
class DecoderView:
    name: str  # Python literal of the type name
    build: str  # callable building a validated value


@dataclass(frozen=True)
class CodecView:
    decoders: tuple[DecoderView, ...]
    uses_same: bool  # whether some type decodes as the JSON value itself
    encoders: tuple[tuple[str, str], ...]  # (class, Python literal of its type name)


def codec_view(ctx: Context) -> CodecView:
    """Decoders by schema name (and by Python name too where a class had to be renamed)."""
    index = ctx.index
    builders: list[tuple[str, str]] = []
    for td in ctx.resolved.types:
        py = index.py_name(td.name)
        if is_class_obj(td.type):
            builders.append((td.name, f"_m.{py}._from_valid"))
        elif index.is_raw(td.type):
            builders.append((td.name, "_same"))
        else:
            builders.append((td.name, f"_m._build_{py}"))
    for c in index.classes.values():
        if c.name not in index.typedefs:
            raw = c.name in index.plain_json
            builders.append((c.name, "_same" if raw else f"_m.{index.py_name(c.name)}._from_valid"))
    builders += [(index.py[n], b) for n, b in builders if n in index.py]
    decoders = tuple(DecoderView(code_literal(n), b) for n, b in builders)
    encoders = tuple(
        (f"_m.{index.py_name(c.name)}", code_literal(c.name)) for c in index.dataclasses()
    )
    return CodecView(decoders, any(d.build == "_same" for d in decoders), encoders)


@dataclass(frozen=True)
class InitView:
    doc: str
    models: tuple[str, ...]
    exports: tuple[str, ...]


def init_view(ctx: Context) -> InitView:
    names = models_exports(ctx)
    runtime = ["JSON", "UNSET", "ErrorDetail", "UnsetType", "ValidationError"]
    api = ["decode", "encode", "errors", "is_valid", "validate"]
    name = PurePath(ctx.resolved.source).name
    doc = (
        f"Python bindings for the protocol schema in {name}: dataclasses (`models`), a codec "
        "(`decode`, `encode`, `Type.from_dict`/`from_json`, `obj.to_dict()`/`to_json()`) and "
        "validators (`validate`, "
        "`is_valid`, `errors`, per-type `validators.is_<Type>`)."
    )
    exports = sort_all(sorted(set(names) | set(runtime) | set(api) | {"validators"}))
    return InitView(
        docstring(doc, ""),
        tuple(sort_imports(list(names))),
        tuple(code_literal(n) for n in exports),
    )


def models_exports(ctx: Context) -> tuple[str, ...]:
    index = ctx.index
    names = [c.name for c in ctx.resolved.consts]
    names += [index.py_name(td.name) for td in ctx.resolved.types if not is_class_obj(td.type)]
    names += [index.py_name(c.name) for c in index.dataclasses()]
    return tuple(names)
