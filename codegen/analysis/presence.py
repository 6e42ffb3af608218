"""Which versions declare each method, type and member, and in which each is deprecated: the
one cross-version presence model (the reference's since.json and badges and the history
matrices read it).

Input: resolved schemas, oldest first, with their labels. A type is any declared type
(`@internal` ones included, constants not); its members are the properties of its JSON object,
inherited ones included, by wire name. A type is deprecated in a version when its comment
carries `@deprecated`; a member when its own comment does or its type is deprecated (as the
reference page marks it). A union alias also has its variants (the declared types it lists) and
its values (the literals it lists, by their JSON text: an enum's values). Inline object types
(named by their path) are kept apart (`inline`), with their members, and so are constants
(`consts`), and every property's
object (declared or inline) per version (`slots`), so a member can be followed from an inline
object into the declared type a later version extracted (`lineage`).

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

DEPRECATED = "deprecated"


@dataclass
class Facts:
    versions: list[str] = field(default_factory=list)
    deprecated: list[str] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)  # positions in the input (labels may repeat)

    def to_json(self) -> dict[str, Any]:
        return {"versions": list(self.versions), "deprecated": list(self.deprecated)}


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

    kind: str  # "since" | "removed" | "deprecated"
    version: str
    index: int


@dataclass(frozen=True)
class Lineage:
    """A member that was there before its type: since `since`, in the object `source` held
    (`owner.wire`: a property of that type), before `source` held this type."""

    since: str
    source: str


@dataclass(frozen=True)
class Held:
    name: str
    inline: bool


@dataclass
class Presence:
    versions: list[str]
    types: dict[str, TypeFacts]
    methods: dict[str, Facts] = field(default_factory=dict)  # method string -> where declared
    inline: dict[str, TypeFacts] = field(default_factory=dict)  # inline objects, by path name
    consts: dict[str, Facts] = field(default_factory=dict)  # constants (`export const`), by name
    # (owner type, wire name) -> per version index, the object the property holds: a declared
    # type's name, or an inline object's path name (`inline` True)
    slots: dict[tuple[str, str], dict[int, Held]] = field(default_factory=dict)
    _holder_index: dict[str, list[tuple[str, str]]] = field(default_factory=dict, repr=False)

    def span(self, facts: Facts) -> tuple[str, str | None]:
        """(since, until): the first and the last version declaring it; until is None while
        the newest version declares it."""
        last = facts.versions[-1]
        return facts.versions[0], None if last == self.versions[-1] else last

    def _holders(self) -> dict[str, list[tuple[str, str]]]:
        """Declared type -> the properties that hold it in some version (sorted), made once."""
        if not self._holder_index:
            for slot in sorted(self.slots):
                for held in {h for h in self.slots[slot].values() if not h.inline}:
                    self._holder_index.setdefault(held.name, []).append(slot)
        return self._holder_index

    def lineage(self, type_name: str, wire: str) -> Lineage | None:
        """Where member `wire` of declared type `type_name` was before the type had it: the
        earliest version in which a property that holds the type (in some version) held
        another object (an inline one, or a type since renamed) that had the member, when
        that is earlier than the member's own `since`."""
        own = self.types.get(type_name)
        if own is None or wire not in own.members:
            return None
        first = self.versions.index(own.members[wire].versions[0])
        best: Lineage | None = None
        this = Held(type_name, inline=False)
        for owner, prop in self._holders().get(type_name, ()):
            held = self.slots[owner, prop]
            for index in sorted(held):
                other = held[index]
                facts = (self.inline if other.inline else self.types).get(other.name)
                if index >= first or other == this or facts is None:
                    continue
                member = facts.members.get(wire)
                if member is None or self.versions[index] not in member.versions:
                    continue
                if best is None or index < self.versions.index(best.since):
                    best = Lineage(self.versions[index], f"{owner}.{prop}")
                break
        return best

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
        present, deprecated = set(facts.versions), set(facts.deprecated)
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
            obj = _object_of(t, by_name)
            if obj is None:
                continue
            for p in obj.properties:
                m = facts.members.setdefault(p.name, Facts())
                m.versions.append(label)
                if type_deprecated or is_deprecated(p.doc):
                    m.deprecated.append(label)
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
    """Record the objects `owner`'s properties hold (`slots`) and every inline object under
    `t` (`inline`), with its members, for the schema at `index`."""
    label = out.versions[index]
    if isinstance(t, ir.Obj):
        for p in t.properties:
            held = _held(p.type, by_name)
            if held is not None:
                out.slots.setdefault((owner, p.name), {})[index] = held
    for sub in children(t):
        if isinstance(sub, ir.Obj) and sub.properties and sub.name:
            facts = out.inline.setdefault(sub.name, TypeFacts())
            if label not in facts.versions:
                facts.versions.append(label)
                facts.indexes.append(index)
                for p in sub.properties:
                    facts.members.setdefault(p.name, Facts()).versions.append(label)
            _inline(out, sub.name, sub, index, by_name)
        else:
            _inline(out, owner, sub, index, by_name)


def _held(t: ir.TypeExpr, by_name: dict[str, ir.TypeDef]) -> Held | None:
    """The object a property's type is (through `| null`): a declared type or an inline one."""
    if isinstance(t, ir.Union_):
        objects = [m for m in t.members if not ir.has_null(m)]
        return _held(objects[0], by_name) if len(objects) == 1 else None
    if isinstance(t, ir.Ref) and t.name in by_name:
        return Held(t.name, inline=False)
    if isinstance(t, ir.Obj) and t.properties and t.name:
        return Held(t.name, inline=True)
    return None


def _object_of(t: ir.TypeDef, by_name: dict[str, ir.TypeDef]) -> ir.Obj | None:
    """The JSON object a type is: its own, or (an alias of another type) that type's."""
    seen = {t.name}
    value = t.type
    while isinstance(value, ir.Ref) and value.name in by_name and value.name not in seen:
        seen.add(value.name)
        value = by_name[value.name].type
    return value if isinstance(value, ir.Obj) else None
