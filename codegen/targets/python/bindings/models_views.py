"""The view of models.py: its imports (the generator names the view spelled), constants, type
aliases in dependency order, the dataclasses (`class_views`), the selectors of its unions and
`__all__`."""

from __future__ import annotations

from collections.abc import Mapping

from .... import ir
from ....analysis.shapes import cyclic, is_class_obj
from ....errors import SchemaError
from ....graphs import dependency_order
from ....pytext import Code, code_literal, doc_text, docstring
from ....records import record
from .builds import Builds, SelectorView
from .class_views import ClassView, class_view, python_bases
from .hints import NUMBER
from .views import Context


def _from(module: str, names: list[str]) -> tuple[str, ...]:
    """`from module import ...` of `names` (none: no line); their order is ruff's (isort)."""
    return (f"from {module} import {', '.join(names)}",) if names else ()


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
        spelled: list[Code] = []  # every hint the module writes, for the noqa below
        for td, quoted in ordered:
            spelled.append(hint := hints.code(td.type, inputs=True))
            value = hint.text
            aliases.append(
                AliasView(
                    index.py_name(td.name),
                    code_literal(value) if quoted else value,
                    docstring(doc_text(td.doc), ""),
                    "  # noqa: PYI042" if td.name.lstrip("_")[:1].islower() else "",
                )
            )
        extends = python_bases(index)
        chained, required = set(extends.values()), dict[str, bool]()
        classes = tuple(
            class_view(c, ctx, b, extends, chained, required) for c in index.dataclasses()
        )
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
    spelled += [f.code for c in classes for f in c.fields]
    spelled += [c.extra_code for c in classes] + [s.code for s in selectors]

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
        noqa=_NUMBER_NOQA if any(h.spells(*NUMBER.members) for h in spelled) else (),
    )
