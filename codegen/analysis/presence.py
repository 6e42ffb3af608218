"""Which versions declare each method, type and member, and in which each is deprecated: the
one cross-version presence model (the reference's since.json and badges and the history
matrices read it).

Input: resolved schemas, oldest first, with their labels. A type is any declared type
(`@internal` ones included, constants not); its members are the properties of its JSON object,
inherited ones included, by wire name. A type is deprecated in a version when its comment
carries `@deprecated`; a member when its own comment does or its type is deprecated (as the
reference page marks it). A union alias also has its variants (the declared types it lists) and
its values (the literals it lists, by their JSON text: an enum's values). Inline object types
(named by their path) are kept apart (`inline_types`), with their members, and so are
constants (`consts`). A member of a type a version extracted from an inline object keeps the
versions it stood there (`Facts.inline`, `_inline_history`), so `lineage` can say when it
really appeared.

`span` is the one place since/until are read: `since` is the first version declaring a thing,
`until` the last (inclusive), None while the newest version declares it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import ir
from .methods import method_model
from .shapes import children
from .users import user_paths

DEPRECATED = "deprecated"


@dataclass
class Facts:
    versions: list[str] = field(default_factory=list)
    deprecated: list[str] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)  # positions in the input (labels may repeat)
    # a member of a type a version extracted and named: the earlier versions where it stood
    # in the inline type at the same place (`CallToolRequest.params` before
    # `CallToolRequestParams`), so its "since" is its real one
    inline: list[str] = field(default_factory=list)
    inline_from: str = ""  # that place, for the earliest of them (`CallToolRequest.params`)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"versions": list(self.versions), "deprecated": list(self.deprecated)}
        if self.inline:
            out["inline"] = list(self.inline)
        return out


@dataclass
class TypeFacts(Facts):
    members: dict[str, Facts] = field(default_factory=dict)
    variants: dict[str, Facts] = field(default_factory=dict)  # a union's declared types
    values: dict[str, Facts] = field(default_factory=dict)  # a union's literals, by JSON text

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["members"] = {k: self.members[k].to_json() for k in sorted(self.members)}
        return out


@dataclass(frozen=True)
class Change:
    """The first version of a run (`since`), the version that ends it (`until`, the first
    without), or where deprecation starts; `index` is the version's position."""

    kind: str  # "since" | "removed" | "deprecated" | "changed" | "renamed"
    version: str
    index: int
    detail: str = ""  # "renamed": the old name


@dataclass(frozen=True)
class Lineage:
    """A member that was there before its type was named: since `since`, in the inline object
    at `source` (`CallToolRequest.params`), the place that names the type now."""

    since: str
    source: str


@dataclass
class Presence:
    versions: list[str]
    types: dict[str, TypeFacts]
    methods: dict[str, Facts] = field(default_factory=dict)  # method string -> where declared
    inline_types: dict[str, TypeFacts] = field(default_factory=dict)  # inline objects, by name
    consts: dict[str, Facts] = field(default_factory=dict)  # constants (`export const`), by name

    def span(self, facts: Facts) -> tuple[str, str | None]:
        """(since, until): the first and the last version declaring it; until is None while
        the newest version declares it."""
        last = facts.versions[-1]
        return facts.versions[0], None if last == self.versions[-1] else last

    def lineage(self, type_name: str, wire: str) -> Lineage | None:
        """Where member `wire` of type `type_name` stood before the type was named: the first
        version it stood in the inline object at a place that now names the type
        (`Facts.inline`, `_inline_history`), and that place; None when it did not."""
        own = self.types.get(type_name)
        member = own.members.get(wire) if own is not None else None
        if member is None or not member.inline:
            return None
        return Lineage(member.inline[0], member.inline_from)

    def declared_in(self, index: int) -> tuple[frozenset[str], frozenset[str]]:
        """The methods and the types that the schema at `index` declares."""
        return (
            frozenset(n for n, f in self.methods.items() if index in f.indexes),
            frozenset(n for n, f in self.types.items() if index in f.indexes),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "versions": list(self.versions),
            "types": {k: self.types[k].to_json() for k in sorted(self.types)},
        }

    def changes(self, facts: Facts) -> list[Change]:
        """Every point where `facts` changes over the versions, in order: each run of
        presence starts (`since`) and, unless it lasts to the newest version, ends
        (`removed`); deprecation starts (`deprecated`)."""
        out: list[Change] = []
        present, deprecated = set(facts.versions) | set(facts.inline), set(facts.deprecated)
        for i, v in enumerate(self.versions):
            before = i > 0 and self.versions[i - 1] in present
            was_deprecated = i > 0 and self.versions[i - 1] in deprecated
            if v in present and not before:
                out.append(Change("since", v, i))
            if v not in present and before:
                out.append(Change("removed", v, i))
            if v in deprecated and not was_deprecated:
                out.append(Change("deprecated", v, i))
        return out


def is_deprecated(doc: ir.Doc) -> bool:
    return doc.has(DEPRECATED)


def presence(labels: Sequence[str], schemas: Sequence[ir.Resolved]) -> Presence:
    types: dict[str, TypeFacts] = {}
    methods: dict[str, Facts] = {}
    out = Presence(list(labels), types, methods)
    for index, (label, schema) in enumerate(zip(labels, schemas)):
        for method in method_model(schema).methods:
            found = methods.setdefault(method.method, Facts())
            found.versions.append(label)
            found.indexes.append(index)
        for c in schema.consts:
            found = out.consts.setdefault(c.name, Facts())
            found.versions.append(label)
            found.indexes.append(index)
            if is_deprecated(c.doc):
                found.deprecated.append(label)
        by_name = schema.type_map()
        for t in schema.types:
            facts = types.setdefault(t.name, TypeFacts())
            facts.versions.append(label)
            facts.indexes.append(index)
            type_deprecated = is_deprecated(t.doc)
            if type_deprecated:
                facts.deprecated.append(label)
            if isinstance(t.type, ir.Union_):
                _variants(facts, t.type, label)
            _inline(out, t.name, t.type, index, by_name)
            obj = object_of(t, by_name)
            if obj is None:
                continue
            for p in obj.properties:
                m = facts.members.setdefault(p.name, Facts())
                m.versions.append(label)
                if type_deprecated or is_deprecated(p.doc):
                    m.deprecated.append(label)
    _inline_history(labels, schemas, types)
    return out


def _variants(facts: TypeFacts, union: ir.Union_, label: str) -> None:
    for m in union.members:
        if isinstance(m, ir.Ref):
            found = facts.variants.setdefault(m.name, Facts())
        elif isinstance(m, ir.Lit):
            found = facts.values.setdefault(json.dumps(m.value), Facts())
        else:
            continue
        if label not in found.versions:
            found.versions.append(label)


def _inline(
    out: Presence, owner: str, t: ir.TypeExpr, index: int, by_name: dict[str, ir.TypeDef]
) -> None:
    """Record every inline object under `t` (`inline_types`), with its members, for the
    schema at `index`."""
    label = out.versions[index]
    for sub in children(t):
        if isinstance(sub, ir.Obj) and sub.properties and sub.name:
            facts = out.inline_types.setdefault(sub.name, TypeFacts())
            if label not in facts.versions:
                facts.versions.append(label)
                facts.indexes.append(index)
                for p in sub.properties:
                    facts.members.setdefault(p.name, Facts()).versions.append(label)
            _inline(out, sub.name, sub, index, by_name)
        else:
            _inline(out, owner, sub, index, by_name)


def _inline_history(
    labels: Sequence[str], schemas: Sequence[ir.Resolved], types: dict[str, TypeFacts]
) -> None:
    """For each type a version names for the first time, the members that stood, in the
    versions before, in an inline object at a place that now names it (`inline`)."""
    maps = [s.type_map() for s in schemas]
    for i in range(1, len(schemas)):
        for name, facts in types.items():
            if facts.indexes[:1] != [i]:
                continue  # not new in this version
            for path in user_paths(maps[i], name):
                for j in range(i - 1, -1, -1):
                    obj = _inline_at(maps[j], path)
                    if obj is None:
                        break
                    for p in obj.properties:
                        m = facts.members.get(p.name)
                        if m is not None and labels[j] not in m.inline:
                            m.inline.insert(0, labels[j])
                            if m.inline[0] == labels[j]:  # the earliest so far: its place
                                m.inline_from = ".".join(path)


def _inline_at(types: dict[str, ir.TypeDef], path: tuple[str, ...]) -> ir.Obj | None:
    """The inline object at a subject path (`("CallToolRequest", "params")`), or None when the
    path names a declared type there, or leads nowhere."""
    t = types.get(path[0])
    if t is None or len(path) < 2:
        return None
    value: ir.TypeExpr = t.type
    for seg in path[1:]:
        if isinstance(value, ir.Ref) and value.name in types:
            value = types[value.name].type
        prop = value.prop(seg) if isinstance(value, ir.Obj) else None
        if isinstance(value, ir.Array) and seg == "[]":
            value = value.item
        elif isinstance(value, ir.Obj) and seg == "[*]" and value.index is not None:
            value = value.index.value
        elif prop is not None:
            value = prop.type
        else:
            return None
    return value if isinstance(value, ir.Obj) else None


def object_of(t: ir.TypeDef, by_name: dict[str, ir.TypeDef]) -> ir.Obj | None:
    """The JSON object a type is: its own, or (an alias of another type) that type's."""
    seen = {t.name}
    value = t.type
    while isinstance(value, ir.Ref) and value.name in by_name and value.name not in seen:
        seen.add(value.name)
        value = by_name[value.name].type
    return value if isinstance(value, ir.Obj) else None
