"""Which versions declare each method, type and member, and in which each is deprecated: the
one cross-version presence model (the reference's since.json and badges and the history
matrices read it).

Input: resolved schemas, oldest first, with their labels. A type is any declared type
(`@internal` ones included, constants not); its members are the properties of its JSON object,
inherited ones included, by wire name. A type is deprecated in a version when its comment
carries `@deprecated`; a member when its own comment does or its type is deprecated (as the
reference page marks it).

Lineage: a type or member that existed under another name before keeps its real "since". Two
sources: the path-derived name of an inline object (the inline `X.params` of an older version
is the named `XParams` of a newer one: the resolver gives the inline object that name), and a
rename the diff found (`type-renamed`, `type-renamed-changed`). Such versions are the facts'
`lineage` (version -> the name it had there), not its `versions` (which stay what the version's
JSON object has). The diff's findings of each consecutive pair also say where a member's or an
alias's type `changed`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import ir
from .methods import method_model

DEPRECATED = "deprecated"


@dataclass
class Facts:
    versions: list[str] = field(default_factory=list)
    deprecated: list[str] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)  # positions in the input (labels may repeat)
    lineage: dict[str, str] = field(default_factory=dict)  # version -> the name it had there
    changed: list[str] = field(default_factory=list)  # versions whose diff changed its type
    renamed: dict[str, str] = field(default_factory=dict)  # version -> the name it had before

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"versions": list(self.versions), "deprecated": list(self.deprecated)}
        if self.lineage:
            out["lineage"] = dict(self.lineage)
        if self.changed:
            out["changed"] = list(self.changed)
        return out


@dataclass
class TypeFacts(Facts):
    members: dict[str, Facts] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["members"] = {k: self.members[k].to_json() for k in sorted(self.members)}
        return out


@dataclass(frozen=True)
class Change:
    """The first version of a run (`since`), the version that ends it (`until`, the first
    without), or where deprecation starts; `index` is the version's position."""

    kind: str  # "since" | "removed" | "deprecated" | "changed" | "named" | "renamed"
    version: str
    index: int
    detail: str = ""  # named: the inline object's path before; renamed: the former name


@dataclass
class Presence:
    versions: list[str]
    types: dict[str, TypeFacts]
    methods: dict[str, Facts] = field(default_factory=dict)  # method string -> where declared

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
        presence (under this name or, by its lineage, an earlier one) starts (`since`) and,
        unless it lasts to the newest version, ends (`removed`); a type takes this name
        (`renamed` from a former one, or `named`, an inline object before); its type changes
        (`changed`); deprecation starts (`deprecated`)."""
        out: list[Change] = []
        named, deprecated = set(facts.versions), set(facts.deprecated)
        present = named | set(facts.lineage)
        for i, v in enumerate(self.versions):
            before = i > 0 and self.versions[i - 1] in present
            was_deprecated = i > 0 and self.versions[i - 1] in deprecated
            if v in present and not before:
                out.append(Change("since", v, i))
            if v not in present and before:
                out.append(Change("removed", v, i))
            if before and v in named and self.versions[i - 1] not in named:
                if v in facts.renamed:
                    out.append(Change("renamed", v, i, facts.renamed[v]))
                elif isinstance(facts, TypeFacts):  # a member: its since says it all
                    out.append(Change("named", v, i, facts.lineage[self.versions[i - 1]]))
            if before and v in facts.changed:
                out.append(Change("changed", v, i))
            if v in deprecated and not was_deprecated:
                out.append(Change("deprecated", v, i))
        return out


def is_deprecated(doc: ir.Doc) -> bool:
    return doc.has(DEPRECATED)


def presence(
    labels: Sequence[str],
    schemas: Sequence[ir.Resolved],
    pairs: Sequence[Mapping[str, Any]] | None = None,
) -> Presence:
    """The model; `pairs`: the diff's JSON reports of consecutive schemas, when known (then
    renames and type changes are in it too)."""
    types: dict[str, TypeFacts] = {}
    methods: dict[str, Facts] = {}
    for index, (label, schema) in enumerate(zip(labels, schemas)):
        for method in method_model(schema).methods:
            found = methods.setdefault(method.method, Facts())
            found.versions.append(label)
            found.indexes.append(index)
        by_name = schema.type_map()
        for t in schema.types:
            facts = types.setdefault(t.name, TypeFacts())
            facts.versions.append(label)
            facts.indexes.append(index)
            type_deprecated = is_deprecated(t.doc)
            if type_deprecated:
                facts.deprecated.append(label)
            obj = _object_of(t, by_name)
            if obj is None:
                continue
            for p in obj.properties:
                m = facts.members.setdefault(p.name, Facts())
                m.versions.append(label)
                if type_deprecated or is_deprecated(p.doc):
                    m.deprecated.append(label)
    for label, schema in zip(labels, schemas):
        for name, (path, obj) in _inline_objects(schema).items():
            _inherit(types, name, label, path, {p.name: path for p in obj.properties})
    for i, doc in enumerate(pairs or ()):
        _pair_facts(types, labels[: i + 1], labels[i + 1], doc, _paths(schemas[i + 1]))
    return Presence(list(labels), types, methods)


def _inherit(
    types: dict[str, TypeFacts], name: str, label: str, was: str, members: Mapping[str, str]
) -> None:
    """Named type `name` was `was` in version `label` (where it is not declared): its lineage,
    and that of each of its members `members` (member -> where it was) names."""
    facts = types.get(name)
    if facts is None or label in facts.versions:
        return
    facts.lineage.setdefault(label, was)
    for member, where in members.items():
        m = facts.members.get(member)
        if m is not None and label not in m.versions:
            m.lineage.setdefault(label, where)


# The diff's rules that change what a member or an alias accepts (not how it is written).
_TYPE_RULES = frozenset({"type-changed", "type-widened", "type-narrowed", "literal-value-changed"})
_RENAME_RULES = frozenset({"type-renamed", "type-renamed-changed"})
_STEP = re.compile(r"\[[^\]]*\]|\(.*\)")  # `content[]`, `x[0]`: the member itself


def _pair_facts(
    types: dict[str, TypeFacts],
    earlier: Sequence[str],
    label: str,
    doc: Mapping[str, Any],
    paths: Mapping[str, str],
) -> None:
    """What one pair's findings add: renames (lineage of the new name: the old name's
    versions, and its own lineage), and the members and aliases whose type changed (`paths`:
    the newer schema's object at each subject path)."""
    for f in doc.get("findings", ()):
        rule, subject = f.get("rule"), str(f.get("subject", ""))
        if rule in _RENAME_RULES and f.get("before") and f.get("after"):
            old, new = str(f["before"]), str(f["after"])
            was = types.get(old)
            if was is None or new not in types:
                continue
            types[new].renamed.setdefault(label, old)
            for v in [*was.versions, *was.lineage]:
                if v in earlier:
                    members = {m: old for m, mf in was.members.items()
                               if v in mf.versions or v in mf.lineage}  # fmt: skip
                    _inherit(types, new, v, was.lineage.get(v, old), members)
        elif rule in _TYPE_RULES:
            for owner in [subject, *(f"{t}{subject[subject.find('.'):]}"
                                     for t in f.get("inherited_by", ()) if "." in subject)]:  # fmt: skip
                facts = _changed_owner(types, owner, paths)
                if facts is not None and label not in facts.changed:
                    facts.changed.append(label)


def _changed_owner(
    types: Mapping[str, TypeFacts], subject: str, paths: Mapping[str, str]
) -> Facts | None:
    """The facts a changed subject is about: `Alias` (the type), `Type.member`, or a member of
    an inline object named by its path (`X.params.m` -> `XParams`'s `m`)."""
    parts = [_STEP.sub("", p) for p in subject.split(".")]
    if len(parts) == 1:
        return types.get(parts[0])
    owner = ".".join(parts[:-1])
    facts = types.get(owner) if len(parts) == 2 else types.get(paths.get(owner, ""))
    return facts.members.get(parts[-1]) if facts is not None else None


def _inline_objects(schema: ir.Resolved) -> dict[str, tuple[str, ir.Obj]]:
    """Every inline object of the schema by its path-derived name (`CallToolRequestParams`),
    with its path (`CallToolRequest.params`)."""
    out: dict[str, tuple[str, ir.Obj]] = {}
    for t in schema.types:
        for obj in _objects(t.type, top=True):
            if obj.name and obj.name not in out:
                out[obj.name] = (".".join(str(p) for p in obj.path), obj)
    return out


def _paths(schema: ir.Resolved) -> dict[str, str]:
    """The object type at each path of the schema (`ShowRequest.params` -> `ShowRequestParams`,
    inline or a reference), as diff subjects name them."""
    out: dict[str, str] = {}
    for t in schema.types:
        for obj in _objects(t.type):
            prefix = ".".join(str(p) for p in obj.path)
            out.setdefault(prefix, obj.name)
            for p in obj.properties:
                target = p.type.type if isinstance(p.type, ir.Annotated) else p.type
                if isinstance(target, ir.Ref):
                    out.setdefault(f"{prefix}.{p.name}", target.name)
    return out


def _objects(t: ir.TypeExpr, top: bool = False) -> Iterator[ir.Obj]:
    if isinstance(t, ir.Obj):
        if not top:
            yield t
        for p in t.properties:
            yield from _objects(p.type)
        if t.index is not None:
            yield from _objects(t.index.value)
    elif isinstance(t, (ir.Union_, ir.Intersection)):
        for m in t.members:
            yield from _objects(m)
    elif isinstance(t, ir.Array):
        yield from _objects(t.item)
    elif isinstance(t, ir.Map):
        yield from _objects(t.value)
    elif isinstance(t, ir.Annotated):
        yield from _objects(t.type)


def _object_of(t: ir.TypeDef, by_name: dict[str, ir.TypeDef]) -> ir.Obj | None:
    """The JSON object a type is: its own, or (an alias of another type) that type's."""
    seen = {t.name}
    value = t.type
    while isinstance(value, ir.Ref) and value.name in by_name and value.name not in seen:
        seen.add(value.name)
        value = by_name[value.name].type
    return value if isinstance(value, ir.Obj) else None
