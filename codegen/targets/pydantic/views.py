"""The pydantic module's view: the resolved IR, a profile section and the names, as plain data
for `templates/pydantic/module.py.j2`. Type hints are spelled here; nothing is formatted (ruff
formats the rendered module: `codegen/pyformat.py`).

Faithful by default: `number` is `int | float` (pydantic's smart union keeps an int an int),
`integer` is `int`; an optional field is `T | MISSING = MISSING` (pydantic's sentinel: an absent
member stays absent on a dump, and `null` is refused unless the schema allows it, then
`T | None | MISSING`); every class keeps unknown members (`extra="allow"`, as the official
schema.json says: no object in it is closed), an index signature's value type checks them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ... import ir
from ...analysis.shapes import cyclic
from ...analysis.typeindex import ClassDef
from ...errors import SchemaError
from ...naming import NO_OVERRIDES
from ...pynaming import PyIndex, Spellings, former_aliases
from ...pytext import Code, compose, docstring
from ...pytext import union as union_of
from . import profile_checks
from .names import Names, inline_paths, python_names
from .profile import Section

P = ir.PrimKind
# `Any` is the module's spelling of typing.Any (`Names.own`: a schema type may take the name)
_PRIMS = {
    P.STRING: "str", P.NUMBER: "int | float", P.INTEGER: "int", P.BOOLEAN: "bool",
    P.NULL: "None", P.UNKNOWN: "{Any}", P.ANY: "{Any}", P.NEVER: "{Any}",
    P.OBJECT: "dict[str, {Any}]",
}  # fmt: skip
_USES_ANY = frozenset({P.UNKNOWN, P.ANY, P.NEVER, P.OBJECT})
_NONE = Code("None")


# Annotations, defaults and bases are `Code`: their text with the names they mention, from
# which the module's imports and its class order are computed (never read back from the text).


@dataclass
class FieldView:
    attr: str
    annotation: Code
    default: Code | None  # the Python after `=`, None: none (a required member)
    doc: str  # the docstring literal ("" if none)


@dataclass
class ClassView:
    kind: str  # "model" | "root" | "subclass"
    name: str
    base: Code
    doc: str  # the docstring literal ("" if none)
    config: list[tuple[str, str]] = field(default_factory=list)  # ConfigDict keyword -> text
    fields: list[FieldView] = field(default_factory=list)
    root: Code | None = None  # the root annotation of a RootModel
    extra_values: Code | None = None  # the value type of unknown members, where typed

    def annotations(self) -> list[Code]:
        """What the class body names when the class is made: its base and annotations."""
        parts = [self.base, self.root, self.extra_values, *(f.annotation for f in self.fields)]
        return [c for c in parts if c is not None]


@dataclass
class ModuleView:
    header: list[str]
    imports: list[str]
    classes: list[ClassView]
    aliases: list[tuple[str, str]]  # name -> union text (module level, after the classes)
    first_party: str = ""  # the top-level package of a consumer's base class
    config_dict: str = "ConfigDict"  # pydantic.ConfigDict as the module spells it
    former: tuple[tuple[str, str], ...] = ()  # (former name, reviewed name): deprecated aliases
    own: Mapping[str, str] = field(default_factory=dict)  # the former-names block's spellings


class _Hints:
    """Type expression -> Python annotation text, in the module's names."""

    def __init__(self, index: PyIndex, names: Names, spelled: frozenset[str]) -> None:
        self.index = index
        self.names = names
        self.spelled = spelled  # aliases spelled out where they are used, not named
        self.any = Code(names.own["Any"], own=frozenset({"Any"}))
        self.prims = {
            k: Code(
                v.format(Any=self.any.text), own=self.any.own if k in _USES_ANY else frozenset()
            )
            for k, v in _PRIMS.items()
        }
        self.prims[P.NUMBER] = union_of(Code("int"), Code("float"))

    def cls(self, ir_name: str) -> Code:
        name = self.names.cls(ir_name)
        return Code(name, defined=(name,))

    def of(self, t: ir.TypeExpr) -> Code:
        if isinstance(t, ir.Prim):
            return self.prims[t.kind]
        if isinstance(t, ir.Lit):
            return self.literal([t]) or self.prims[P.NUMBER if t.kind == "number" else P.STRING]
        if isinstance(t, ir.Ref):
            if t.name in self.spelled:
                return self.of(self.index.typedefs[t.name].type)
            return self.cls(t.name)
        if isinstance(t, ir.Array):
            item = self.of(t.item)
            return compose(f"list[{item.text}]", item)
        if isinstance(t, ir.Map):
            value = self.of(t.value)
            return compose(f"dict[str, {value.text}]", value)
        if isinstance(t, ir.Obj):
            if t.properties:
                return self.cls(t.name)
            value = self.of(t.index.value) if t.index is not None else self.any
            return compose(f"dict[str, {value.text}]", value)
        if isinstance(t, ir.Union_):
            return self.union(t.members)
        return self.any  # an intersection left unresolved: any JSON value

    def union(self, members: tuple[ir.TypeExpr, ...]) -> Code:
        """Members in order; string (and other) literals joined into one `Literal[...]` where
        the first stands."""
        lits = [m for m in members if isinstance(m, ir.Lit)]
        out: list[Code] = []
        for m in members:
            if isinstance(m, ir.Lit):
                if m is lits[0]:
                    out.append(self.literal(lits) or self.any)
                continue
            out.append(self.of(m))
        return union_of(*out)  # a member that is a union (a spelled alias) adds its members

    def literal(self, lits: list[ir.Lit]) -> Code | None:
        values = [v.value for v in lits]
        if any(isinstance(v, float) for v in values):
            return None
        text = self.names.own["Literal"] + "[" + ", ".join(repr(v) for v in values) + "]"
        return Code(text, own=frozenset({"Literal"}))


def module_view(resolved: ir.Resolved, section: Section | None) -> ModuleView:
    """The module of one schema; `section`: the profile's settings for its version (None: the
    faithful default). Stale profile entries are errors, all reported together."""
    if section is not None:
        problems = profile_checks.entries(section)
        if problems:
            raise SchemaError(problems)
    s = _Settings(section)
    index = PyIndex(resolved)
    names = python_names(index, s.base_name, section.overrides() if section else NO_OVERRIDES)
    hints = _Hints(index, names, _spelled(index, s))
    used: dict[str, set[str]] = {k: set() for k in ("open_classes", "alias_classes",
                                                     "union_aliases", "links", "leniencies")}  # fmt: skip
    used_names = set(names.used_overrides)

    def doc(text: str) -> str:
        for old, entry in s.links.items():
            if old in text:
                used["links"].add(old)
                text = text.replace(old, entry["to"])
        return docstring(text, "    ")  # the one docstring writer of the Python targets

    # the doc of the property an inline class stands for (inline objects have no JSDoc of their own)
    inline_docs: dict[str, str] = {}
    for c in index.classes.values():
        for f in c.fields:
            target = f.prop.type
            if isinstance(target, ir.Obj) and target.properties and f.prop.doc.text:
                inline_docs.setdefault(target.name, f.prop.doc.text)

    def model(c: ClassDef, text: str) -> ClassView:
        name = names.cls(c.name)
        extra = s.extra
        if name in s.open_classes:
            used["open_classes"].add(name)
            extra = "allow"
        base = Code(names.own[s.base_name], own=frozenset({s.base_name}))
        view = ClassView("model", name, base, doc(text), config=s.config(extra))
        for f in c.fields:
            view.fields.append(field_view(c, name, f.prop))
        if any(f.attr.startswith(("model_dump", "model_validate")) for f in view.fields):
            # pydantic warns on import of a field in its protected namespaces; the name is the
            # schema's (`model_dump` yielded to `model_dump_`) and shadows nothing
            view.config.insert(-1, ("protected_namespaces", "()"))
        idx = c.obj.index
        if extra == "allow" and section is None and idx is not None:
            values = hints.of(idx.value)
            view.extra_values = None if values == hints.any else values
        return view

    def field_view(c: ClassDef, cls: str, p: ir.Property) -> FieldView:
        attr = names.attrs[(c.name, p.name)]
        ann = hints.of(p.type)
        if p.nullable:
            ann = union_of(ann, _NONE)
        lenient = s.leniencies.get(f"{cls}.{p.name}")
        if lenient is not None:
            used["leniencies"].add(f"{cls}.{p.name}")
            ann = _lenient(lenient["annotation"], names)
        default: Code | None = None
        if p.optional:
            if s.const_defaults and isinstance(p.type, ir.Lit):
                default = Code(repr(p.type.value))
            elif s.optional == "none":
                ann, default = union_of(ann, _NONE), _NONE
            else:
                missing = Code(names.own["MISSING"], own=frozenset({"MISSING"}))
                ann, default = union_of(ann, missing), missing
        if attr != p.name:  # in the assignment, not the annotation: known before it resolves
            keep = f"default={default.text}, " if default is not None else ""
            default = compose(f"{names.own['Field']}({keep}alias={p.name!r})",
                              *([default] if default else []), own=("Field",))  # fmt: skip
        return FieldView(attr, ann, default, doc(p.doc.text))

    inline: dict[str, list[str]] = {}  # declared type -> its inline classes, as met
    for path, ir_name in inline_paths(index).items():
        inline.setdefault(path.split(".", 1)[0], []).append(ir_name)
    items: list[ClassView] = []
    late: list[ClassView] = []
    for td in resolved.types:
        name = names.cls(td.name)
        t = td.type
        if name in s.alias_classes and isinstance(t, ir.Ref):
            used["alias_classes"].add(name)
            late.append(ClassView("subclass", name, hints.cls(t.name), doc(td.doc.text),
                                  config=s.config(s.extra)))  # fmt: skip
        elif isinstance(t, ir.Obj) and t.properties:
            items.append(model(index.classes[td.name], td.doc.text))
        elif isinstance(t, ir.Obj) and (t.index is None or index.accepts_anything(t.index.value)):
            c = ClassDef(td.name, t, td.doc, ())
            items.append(model(c, td.doc.text))  # an open bag of members: a class of no fields
        else:
            root_model = compose(f"{names.own['RootModel']}[{hints.any.text}]", hints.any,
                                 own=("RootModel",))  # fmt: skip
            items.append(ClassView("root", name, root_model, doc(td.doc.text),
                                   config=[("defer_build", "True")], root=hints.of(t)))  # fmt: skip
        for ir_name in inline.get(td.name, []):
            items.append(model(index.classes[ir_name], inline_docs.get(ir_name, "")))
    if s.class_order == "alphabetical":
        items.sort(key=lambda v: v.name)
    aliases: list[tuple[str, str]] = []
    known = {v.name for v in items + late}
    for alias, entry in s.union_aliases.items():
        members = [str(m) for m in entry["members"]]
        if all(m in known for m in members):
            used["union_aliases"].add(alias)
            aliases.append((alias, " | ".join(members)))
    if section is not None:
        stale = [d for key, got in used.items() for d in section.stale(key, got)]
        stale += section.stale("names", used_names)
        imported = set(names.own.values())  # as the module spells them
        defined = {v.name for v in items + late}
        stale += profile_checks.against_module(
            section, names.classes, inline_paths(index), defined, imported
        )
        if stale:
            raise SchemaError(stale)
    classes = _dependencies_first(items + late)
    first = s.base.split(".", 1)[0].split(":", 1)[0]
    imports = s.imports(classes, aliases, names.own)
    # the deprecated aliases of former names, as the dataclass `__init__` has them; a profile's
    # module has none: its names are its consumer's, never a former name of this generator
    taken = {c.name for c in classes} | {a for a, _ in aliases} | set(names.own.values())
    declared = (td.name for td in resolved.types)
    former, spelled = (
        former_aliases(names.classes, declared, names.cls, taken)
        if section is None
        else ((), Spellings())
    )
    return ModuleView(
        s.header(resolved),
        imports,
        classes,
        aliases,
        "" if first == "pydantic" else first,
        names.own["ConfigDict"],
        former,
        spelled,
    )


def _lenient(text: str, names: Names) -> Code:
    """A leniency's annotation (the profile's text, checked by `profile_checks`) with the names
    it mentions: the module's own names by their spelling, its classes."""
    mentioned = profile_checks.annotation_names(text)
    classes = set(names.classes.values())
    own = frozenset(key for key, spelling in names.own.items() if spelling in mentioned)
    members = profile_checks.annotation_members(text)
    return Code(text, own, tuple(n for n in mentioned if n in classes), members)


def _dependencies_first(classes: list[ClassView]) -> list[ClassView]:
    """`classes` in their order, each after the classes its annotations name (a stable
    depth-first order), annotations that name a class not yet defined (a cycle, or the class
    itself) quoted. Annotations are evaluated when a class is made, not postponed as strings
    (`from __future__ import annotations`): importing the module then compiles no strings."""
    by_name = {c.name: c for c in classes}

    def names(c: ClassView) -> list[str]:
        named = compose("", *c.annotations()).defined
        return [n for n in named if n in by_name and n != c.name]

    order: list[ClassView] = []
    state: dict[str, int] = {}  # 1: being placed, 2: placed

    def place(c: ClassView) -> None:
        stack = [(c, iter(names(c)))]
        state[c.name] = 1
        while stack:
            top, deps = stack[-1]
            for dep in deps:
                if dep not in state:
                    state[dep] = 1
                    stack.append((by_name[dep], iter(names(by_name[dep]))))
                    break
            else:
                stack.pop()
                state[top.name] = 2
                order.append(top)

    for c in classes:
        if c.name not in state:
            place(c)
    defined: set[str] = set()

    def quoted(code: Code) -> Code:
        """`code` as a string where it names a class not defined yet."""
        if any(n in by_name and n not in defined for n in code.defined):
            return Code(repr(code.text), code.own, code.defined)  # a string: no union
        return code

    for c in order:
        for f in c.fields:
            f.annotation = quoted(f.annotation)
        if c.root is not None:
            c.root = quoted(c.root)
        if c.extra_values is not None:
            c.extra_values = quoted(c.extra_values)
        defined.add(c.name)
    return order


def _is_root(index: PyIndex, td: ir.TypeDef) -> bool:
    """Whether a named type becomes a RootModel: an alias that is not an object with members
    nor an open bag of members."""
    t = td.type
    if isinstance(t, ir.Obj):
        return bool(
            not t.properties and t.index is not None and not index.accepts_anything(t.index.value)
        )
    return True


def _spelled(index: PyIndex, s: _Settings) -> frozenset[str]:
    """The aliases a field spells out (`str`, a union of classes...) instead of naming their
    RootModel: a field's value is then the value itself, not a wrapper. Recursive aliases
    (`JSONValue`) are named: a recursive type needs a name."""
    recursive = cyclic(dict(index.named_graph))
    return frozenset(
        td.name for td in index.resolved.types
        if _is_root(index, td) and td.name not in recursive and td.name not in s.alias_classes
    )  # fmt: skip


class _Settings:
    """A profile section's settings with the faithful defaults filled in."""

    def __init__(self, section: Section | None) -> None:
        get = section.get if section is not None else (lambda key, default: default)
        entries = section.entries if section is not None else (lambda key: {})
        self.faithful = section is None
        self.base = str(get("base", "pydantic:BaseModel"))
        self.base_name = self.base.rsplit(":", 1)[-1]
        self.optional = str(get("optional", "missing"))
        self.class_order = str(get("class_order", "source"))
        self.extra = str(get("extra", "allow"))
        self.const_defaults = bool(get("const_defaults", False))
        self._header: list[str] = list(get("header", []))
        self.open_classes: dict[str, Any] = entries("open_classes")
        self.alias_classes: dict[str, Any] = entries("alias_classes")
        self.union_aliases: dict[str, Any] = entries("union_aliases")
        self.links: dict[str, Any] = entries("links")
        self.leniencies: dict[str, Any] = entries("leniencies")

    def config(self, extra: str) -> list[tuple[str, str]]:
        out = [("extra", repr(extra))]
        if self.faithful:  # no consumer's base class: the wire names and attributes both work
            out += [("validate_by_name", "True"), ("serialize_by_alias", "True")]
        return out + [("defer_build", "True")]  # built on first use: a cheap import

    def header(self, resolved: ir.Resolved) -> list[str]:
        if not self._header:
            return [
                f'"""Pydantic models of MCP protocol {resolved.protocol_version}. Generated by mcp-codegen; do not edit."""'
            ]
        values = {"version": resolved.protocol_version or "", "sha256": resolved.sha256}
        return [line.format(**values) for line in self._header]

    def imports(
        self, classes: list[ClassView], aliases: list[tuple[str, str]], own: dict[str, str]
    ) -> list[str]:
        """Only what the module uses (ruff's F401), each as the module spells it (`own`)."""
        used: set[str] = {"ConfigDict"}  # every class's model_config
        for c in classes:
            defaults = [f.default for f in c.fields if f.default is not None]
            used |= compose("", *c.annotations(), *defaults).own

        def items(names: tuple[str, ...]) -> list[str]:
            return [n if own[n] == n else f"{n} as {own[n]}" for n in names if n in used]

        module, name = self.base.rsplit(":", 1)
        out: list[str] = []
        typing = items(("Annotated", "Any", "Literal"))
        if typing:
            out += [f"from typing import {', '.join(typing)}", ""]
        pyd = items(("ConfigDict", "Field", "MISSING", "RootModel"))
        base = [name if own[name] == name else f"{name} as {own[name]}"]
        if module == "pydantic":
            pyd += base
        out.append(f"from pydantic import {', '.join(sorted(pyd))}")
        if module != "pydantic":
            out.append(f"from {module} import {base[0]}")
        return out
