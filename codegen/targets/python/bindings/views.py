"""View models of the package's modules other than validators.py: plain data for the templates,
with names, hints, imports, escaped docstrings and codec expressions computed here."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property
from pathlib import PurePath

from .... import ir
from ....analysis.shapes import cyclic, is_class_obj
from ....analysis.typeindex import ClassDef
from ....errors import SchemaError
from ....graphs import dependency_order
from ....naming import former_names
from ....pyformat import LINE_LENGTH
from ....pynaming import PyIndex
from ....pytext import (
    code_literal,
    comment,
    deprecation,
    doc_text,
    docstring,
    literal_text,
)
from ....records import record
from .builds import Builds, SelectorView
from .hints import Hints


def _from(module: str, names: list[str]) -> tuple[str, ...]:
    """`from module import ...` of `names` (none: no line); their order is ruff's (isort)."""
    return (f"from {module} import {', '.join(names)}",) if names else ()


@record
class Context:
    resolved: ir.Resolved
    index: PyIndex
    runtime: str = "."  # the relative import prefix of the package holding _runtime.py

    @cached_property
    def hints(self) -> Hints:
        return Hints(self.index)


@record
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


@record
class ConstView:
    name: str
    value: str  # Python literal
    doc: str  # docstring literal ("" if none)


@record
class AliasView:
    name: str
    value: str  # the hint, quoted when it names module classes or aliases
    doc: str
    noqa: str = (
        ""  # a schema alias named in lower case keeps its name (ruff's PYI042 wants CamelCase)
    )


@record
class FieldView:
    attr: str
    hint: str
    default: str  # " = UNSET" or ""
    doc: str
    build: str  # keyword argument value in _from_valid (reads `v`)
    wire: str  # Python literal of the wire name
    optional: bool
    encode: str  # expression of the JSON value of `self.<attr>`
    deprecated: str = ""  # Python literal of the `@deprecated` tag's message ("" if none)

    @property
    def parameter(self) -> str:
        """The field as an `__init__` parameter. The one layout choice a view makes: black wraps
        a union hint too long for its line in parentheses, ruff keeps such parentheses but does
        not add them (a deviation ruff documents), and black drops them where the line fits, so
        they are written exactly where black would add them (docs/formatting.md)."""
        text = f"{self.attr}: {self.hint}{self.default}"
        if 8 + len(text) + 1 > LINE_LENGTH and _top_level_union(self.hint):
            return f"{self.attr}: ({self.hint}){self.default}"
        return text


_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")  # literals in hints


def _top_level_union(hint: str) -> bool:
    depth = 0
    for ch in _STRING.sub('""', hint):
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "|" and depth == 0:
            return True
    return False


_NAME = re.compile(r"[A-Za-z_]\w*")


@record
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
    deprecated: str = ""  # Python literal of the class's `@deprecated` message ("" if none)
    # The class it extends in Python (`ir.Obj.inherits`, written before it): then `fields` are
    # only the ones it adds and `key_set` adds them to the base's; "" for `_Model`.
    base: str = ""
    # Whether it sets and encodes its own fields in `_set_own`/`_put_own`, which `_Model`'s
    # `_set_fields`/`_put_fields` call along the class chain: a class extending or extended.
    chained: bool = False

    @cached_property  # read once per field by the template
    def writes_init(self) -> bool:
        """Whether `__init__` is written out (else `@dataclass` makes it): not when a field's
        name is also a name in a hint (`list_: list_`), which inside a method's signature would
        mean the attribute, not the type."""
        if self.base:  # `@dataclass` writes it from the fields of every class along the chain
            return False
        names = {f.attr for f in self.fields}
        hints = [f.hint for f in self.fields] + [self.extra_hint]
        return not any(names & set(_NAME.findall(_STRING.sub("", h))) for h in hints)

    @cached_property  # read once per field by the template
    def self_name(self) -> str:
        """`__init__`'s first parameter: `self`, unless a field has that name (as dataclasses do)."""
        return "__dataclass_self__" if any(f.attr == "self" for f in self.fields) else "self"

    @cached_property  # read once per field by the template
    def head(self) -> tuple[FieldView, ...]:
        """The leading required fields: encoded in the dict display that starts `_to_dict`."""
        n = next((i for i, f in enumerate(self.fields) if f.optional), len(self.fields))
        return self.fields[:n]

    @property
    def tail(self) -> tuple[FieldView, ...]:
        return self.fields[len(self.head) :]

    @cached_property
    def deprecated_fields(self) -> tuple[FieldView, ...]:
        """Fields tagged `@deprecated`: a `DeprecationWarning` when set."""
        return tuple(f for f in self.fields if f.deprecated)

    @cached_property
    def current_fields(self) -> tuple[FieldView, ...]:
        """`__init__`'s first overload: without the optional deprecated fields, so a checker
        reports a call that sets one (it matches only the second, deprecated, overload)."""
        return tuple(f for f in self.fields if not (f.deprecated and f.optional))

    @cached_property
    def fields_message(self) -> str:
        """The deprecated overload's message: which fields, and why."""
        by_message: dict[str, list[str]] = {}
        for f in self.fields:
            if f.deprecated and f.optional:
                by_message.setdefault(literal_text(f.deprecated), []).append(f.attr)
        text = "; ".join(f"{', '.join(attrs)}: {m}" for m, attrs in by_message.items())
        return code_literal(text) if by_message else ""


@record
class ModelsView:
    future: str  # the `from __future__ import annotations` line
    imports: tuple[str, ...]  # `from ... import` lines of collections.abc, dataclasses, typing
    validators: str  # the line importing the validators module
    runtime_imports: tuple[str, ...]  # lines `name as _alias` / `name`
    own: Mapping[str, str]  # the generator's names as spelled in models.py (pynaming.Spellings)
    consts: tuple[ConstView, ...]
    aliases: tuple[AliasView, ...]
    classes: tuple[ClassView, ...]
    selectors: tuple[SelectorView, ...]
    decoders: tuple[tuple[str, str], ...]  # (module name, class) of the `_from_valid` called
    exports: tuple[str, ...]  # Python literals
    # ruff's PYI041 reads `int | float` as redundant (an int is a float to a type checker); the
    # hint is the decoders' truth (an error code stays an int), so the rule is off where it is
    noqa: tuple[str, ...] = ()  # comment lines


_NUMBER_NOQA = ("# `int | float` is a JSON number, decoded as the int or float it is:",
                "# ruff: noqa: PYI041")  # fmt: skip


def _field(c: ClassDef, f: ir.Property, attr: str, ctx: Context, b: Builds) -> FieldView:
    hint = ctx.hints.field(f)
    v = b.g["v"]
    unset = b.g["UNSET"] if f.optional else ""
    wire = code_literal(f.name)
    item = f"{v}[{wire}]"
    built = b.build(f.type, item)
    if f.nullable and built != item:
        built = f"(None if {item} is None else {built})"
    if f.optional:
        if built == item:
            build = f"{v}.get({wire}, {unset})"
        else:
            build = f"({built} if {wire} in {v} else {unset})"
    else:
        build = built
    encode = b.encode(f.type, f"self.{attr}", f.nullable)
    const = constant(f, ctx.index)
    default = f" = {unset}" if f.optional else "" if const is None else f" = {code_literal(const)}"
    return FieldView(attr, hint, default, docstring(doc_text(f.doc), "    "), build, wire, f.optional,
                     encode, deprecation(f.doc))  # fmt: skip


def constant(f: ir.Property, index: PyIndex) -> str | int | bool | None:
    """The value of a required field whose type is one literal (`method`, `jsonrpc`, `type`):
    its default, so nobody spells it out. It is still written on the wire and decoded strictly
    (the validators are unchanged). Optional fields keep `UNSET`: absent stays absent."""
    t = index.target(f.type)
    if f.optional or f.nullable or not isinstance(t, ir.Lit) or isinstance(t.value, float):
        return None
    return t.value


_FEW_OPTIONAL = 3  # up to this many optional fields, undeclared keys are found by counting


def _extends(index: PyIndex) -> dict[str, str]:
    """Class -> the class it extends in models.py: its `ir.Obj.inherits`, when that is a
    dataclass written before it whose attributes its first ones are. An `extends` chain is then
    written once per link, not once per class for every field it inherits."""
    order = {c.name: i for i, c in enumerate(index.dataclasses())}
    out = {}
    for c in index.dataclasses():
        base = c.obj.inherits
        if base not in order or order[base] > order[c.name]:
            continue
        attrs = index.names.attributes(c.name)
        if not c.obj.starts_with(index.classes[base].obj):
            continue
        if attrs[: c.obj.inherited] == index.names.attributes(base):
            out[c.name] = base
    return out


def _class(c: ClassDef, ctx: Context, b: Builds, extends: Mapping[str, str],
           chained: set[str], required: dict[str, bool]) -> ClassView:  # fmt: skip
    base = extends.get(c.name, "")
    inherited = c.obj.inherited if base else 0
    fields = tuple(_field(c, fl.prop, fl.attr, ctx, b) for fl in c.fields[inherited:])
    # whether every field is required, the inherited ones known from the base
    required[c.name] = all(not f.optional for f in fields) and required.get(base, True)
    index = c.obj.index
    value = index.value if index is not None else ir.Prim(ir.PrimKind.UNKNOWN)
    extra_hint = f"dict[str, {ctx.hints.hint(value)}]"
    py = ctx.index.py_name(c.name)
    keys = ctx.index.names.keys[c.name]
    extras, v, i, k = b.g["_extras"], b.g["v"], b.g["i"], b.g["k"]
    # The common case, no undeclared keys, tested cheaply: a valid value has every required
    # key, so when all fields are required its length says it, and with a few optional ones (in a
    # class outside a Python class chain) its length against the fields just read that are
    # not UNSET (an optional field is UNSET exactly when its key is absent); else one pass over
    # its keys (`issuperset`, cheaper from about four optional fields on).
    optional = [f for f in fields if f.optional]
    if required[c.name]:
        extra_build = f"{{}} if len({v}) == {len(c.fields)} else {extras}({v}, {keys})"
    elif not base and c.name not in chained and len(optional) <= _FEW_OPTIONAL:
        unset, self_ = (b.g["UNSET"] if optional else ""), b.g["self"]
        count = " + ".join(
            [str(len(fields) - len(optional))]
            + [f"({self_}.{f.attr} is not {unset})" for f in optional]
        )
        extra_build = f"{{}} if len({v}) == {count} else {extras}({v}, {keys})"
    else:
        extra_build = f"{{}} if {keys}.issuperset({v}) else {extras}({v}, {keys})"
    extra_encode = ""
    if not ctx.index.is_raw(value):
        extra_build = f"{{{k}: {b.build(value, i)} for {k}, {i} in {extras}({v}, {keys}).items()}}"
        extra_encode = b.encode(value, "i")
    key_set = "frozenset({" + ", ".join(f.wire for f in fields) + "})"
    if base:
        base_keys = ctx.index.names.keys[base]
        key_set = f"{base_keys} | {key_set}" if fields else base_keys
    return ClassView(py, code_literal(c.name), docstring(doc_text(c.doc), "    "), keys, key_set, fields, extra_hint,
                     extra_build, extra_encode, deprecation(c.doc),
                     ctx.index.py_name(base) if base else "",
                     bool(base) or c.name in chained)  # fmt: skip


def alias_order(ctx: Context) -> list[tuple[ir.TypeDef, bool]]:
    """Type aliases in an order where each follows the aliases it names (they are written after
    the classes, so classes need no quotes), source order otherwise; an alias on a cycle
    (JSONValue -> JSONObject -> JSONValue) is written as a string. (alias, quoted) pairs.
    """
    index = ctx.index
    aliases = {td.name: td for td in ctx.resolved.types if not is_class_obj(td.type)}
    graph = {n: tuple(m for m in index.named_graph[n] if m in aliases) for n in aliases}
    on_cycle = cyclic(graph)

    def follow(name: str, dep: str) -> bool:
        return dep not in on_cycle or name not in on_cycle

    quoted: set[str] = set()  # a string at run time: whatever names it must be a string too
    out: list[tuple[ir.TypeDef, bool]] = []
    for name in dependency_order(graph, aliases, follow):
        if name in on_cycle or any(dep in quoted for dep in graph[name]):
            quoted.add(name)
        out.append((aliases[name], name in quoted))
    return out


def models_view(ctx: Context) -> ModelsView:
    index, hints = ctx.index, ctx.hints
    g = index.names.own
    with g.recording() as asked:  # what the view spells is what models.py imports
        b = Builds(index, hints)
        consts = tuple(
            ConstView(
                index.py_name(c.name), code_literal(c.value.value), docstring(doc_text(c.doc), "")
            )
            for c in ctx.resolved.consts
        )
        aliases = []
        ordered = alias_order(ctx)
        for td, _ in ordered:  # every alias that builds something gets a `_build_` function, made
            if not index.is_raw(td.type):  # after those it calls: no recursion down a chain
                b.alias_builder(td.name)
        for td, quoted in ordered:
            value = hints.hint(td.type, inputs=True)
            aliases.append(
                AliasView(
                    index.py_name(td.name),
                    code_literal(value) if quoted else value,
                    docstring(doc_text(td.doc), ""),
                    "  # noqa: PYI042" if td.name.lstrip("_")[:1].islower() else "",
                )
            )
        extends = _extends(index)
        chained, required = set(extends.values()), dict[str, bool]()
        classes = tuple(_class(c, ctx, b, extends, chained, required) for c in index.dataclasses())
        if b.diagnostics:
            raise SchemaError(b.diagnostics)
        selectors = tuple(b.selectors[k] for k in sorted(b.selectors))
        decoders = tuple((index.names.decoders[n], index.py_name(n)) for n in sorted(b.decoders))
        # What the template writes itself: every class's base, `extra` bag and methods.
        if classes:
            g.use("Any", "JSON", "dataclass", "_field", "_Model", "_dumps", "_loads", "_NotJSON",
                  "_not_encodable", "_CHECK", "_decoded", "Final")  # fmt: skip
        if selectors:
            g.use("Any")
        if any(s.table for s in selectors):
            g.use("_UNKNOWN_TAG", "_same", "Callable")
        overloads = any(c.fields_message and c.writes_init for c in classes)  # deprecated fields
        if overloads or any(c.deprecated for c in classes):
            g.use("_deprecated")
        if overloads:
            g.use("overload")
        if any(c.deprecated_fields for c in classes):
            g.use("_deprecated_field", "UNSET")
        if any(f.optional for c in classes for f in c.fields):
            g.use("UNSET", "UnsetType")
        if consts:
            g.use("Final")
        if aliases:
            g.use("TypeAlias")
    hints_ = [a.value for a in aliases] + [f.hint for c in classes for f in c.fields]
    hints_ += [c.extra_hint for c in classes] + [s.hint for s in selectors]

    def imported(names: tuple[str, ...], private: bool = False) -> list[str]:
        """The names the view spelled, as import items (`x as _y` where the name table renamed
        them; `private`: the generator's spelling is `_x`)."""
        out = []
        for n in names:
            own = n if not private else "_" + n
            if own in asked:
                out.append(n if g[own] == n else f"{n} as {g[own]}")
        return out

    runtime = imported(("JSON", "JSONInput", "UNSET", "UnsetType"))
    runtime += imported(("Model", "NotJSON", "by_shape", "decoded", "deprecated", "deprecated_field",
                         "dumps", "extras", "loads", "not_decodable", "not_encodable", "plain",
                         "same"),
                        private=True)  # fmt: skip
    if "_encode" in asked:
        runtime.append(f"encode_value as {g['_encode']}")
    if "_member" in asked:
        runtime.append(f"encode_member as {g['_member']}")
    tolerance = imported(("UNKNOWN_TAG",), private=True)
    typing_names = ("Any", "Final", "Literal", "NoReturn", "TypeAlias", "cast", "overload")
    dataclass_names = imported(("dataclass",)) + imported(("field",), private=True)
    imports = [
        *_from("collections.abc", imported(("Callable", "Mapping", "Sequence"))),
        *_from("dataclasses", dataclass_names),
        *_from("typing", imported(typing_names)),
    ]
    exports = tuple(
        [c.name for c in consts] + [a.name for a in aliases] + [c.name for c in classes]
    )
    future = g["annotations"]
    return ModelsView(
        future="from __future__ import annotations"
        + ("" if future == "annotations" else f" as {future}"),
        imports=tuple(imports),
        validators=f"from . import validators as {g['_v']}",
        runtime_imports=_from(f"{ctx.runtime}_runtime", runtime)
        + _from(f"{ctx.runtime}_tolerance", tolerance),
        own=g,
        consts=consts,
        aliases=tuple(aliases),
        classes=classes,
        selectors=selectors,
        decoders=decoders,
        exports=tuple(code_literal(n) for n in exports),
        noqa=_NUMBER_NOQA if any(hints.number in h for h in hints_) else (),
    )


@record
class DecoderView:
    name: str  # Python literal of the type name
    build: str  # callable building a validated value


@record
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
            builders.append((td.name, f"_m.{index.names.builders[td.name]}"))
    for c in index.classes.values():
        if c.name not in index.typedefs:
            raw = c.name in index.plain_json
            builders.append((c.name, "_same" if raw else f"_m.{index.py_name(c.name)}._from_valid"))
    renamed = index.names.renamed
    builders += [(renamed[n], b) for n, b in builders if n in renamed]
    decoders = tuple(DecoderView(code_literal(n), b) for n, b in builders)
    encoders = tuple(
        (f"_m.{index.py_name(c.name)}", code_literal(c.name)) for c in index.dataclasses()
    )
    return CodecView(decoders, any(d.build == "_same" for d in decoders), encoders)


@record
class InitView:
    doc: str
    before: tuple[str, ...]  # import lines before the models import
    models: tuple[str, ...]  # the schema's names, re-exported from models
    after: tuple[str, ...]  # import lines after it
    exports: tuple[str, ...]
    former: tuple[tuple[str, str], ...] = ()  # (former name, reviewed name): deprecated aliases


def init_view(ctx: Context) -> InitView:
    names = models_exports(ctx)
    runtime = ["JSON", "UNSET", "ErrorDetail", "UnsetType", "ValidationError"]
    api = ["decode", "encode", "errors", "is_valid", "validate"]
    tolerance = ["Unknown", "UnknownLiteral", "UnknownMember", "UnknownValueWarning"]
    name = PurePath(ctx.resolved.source).name
    doc = (
        f"Python bindings for the protocol schema in {name}: dataclasses (`models`), a codec "
        "(`decode`, `encode`, `Type.from_dict`/`from_json`, `obj.to_dict()`/`to_json()`) and "
        "validators (`validate`, "
        "`is_valid`, `errors`, per-type `validators.is_<Type>`)."
    )
    models, own = ctx.index.names.exports(names, [*runtime, *tolerance, *api, "validators"])

    def line(module: str, items: list[str]) -> list[str]:
        mine = [n for n in items if n in own]
        return [f"from {module} import {', '.join(mine)}"] if mine else []

    before = line(".", ["validators"]) + line(f"{ctx.runtime}_runtime", runtime)
    before += line(f"{ctx.runtime}_tolerance", tolerance) + line(".codec", ["decode", "encode"])
    classes = {c.name for c in ctx.index.dataclasses()}
    former = tuple(
        (old, ctx.index.py_name(new))
        for old, new in former_names(classes, (td.name for td in ctx.resolved.types)).items()
        if old not in own and old not in models
    )
    return InitView(
        docstring(doc, ""),
        tuple(before),
        tuple(models),
        tuple(line(".validators", ["errors", "is_valid", "validate"])),
        tuple(code_literal(n) for n in sorted({*models, *own})),
        former,
    )


def models_exports(ctx: Context) -> tuple[str, ...]:
    index = ctx.index
    names = [index.py_name(c.name) for c in ctx.resolved.consts]
    names += [index.py_name(td.name) for td in ctx.resolved.types if not is_class_obj(td.type)]
    names += [index.py_name(c.name) for c in index.dataclasses()]
    return tuple(names)
