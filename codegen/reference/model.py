"""What the Schema Reference page documents, as typedoc sees a schema: one entry per exported,
non-`@internal` declaration, each with its category, comment, members (own and inherited, in
source order) and the notes typedoc attaches (inherited from, overrides, deprecated).

Built from the declared IR (the page shows types as written: references, `Record`, literal
values of `typeof` constants), with the inheritance rules typedoc applies:
- an interface's members are its own plus those of its bases (minus `Omit` keys), ordered by
  where each is declared (typedoc's `source-order` sort);
- an inherited member notes the immediate base it comes from (of several, the first in the
  `extends` list that is on the page); an own member that a base also declares "overrides" it,
  and takes the base member's comment when it has none;
- an interface without a comment takes its first base's (typedoc copies inherited comments);
- a member of a deprecated type is deprecated (typedoc asks the parent).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .. import ir
from ..errors import Location
from .literals import literal_ranks

INTERNAL = "internal"
CATEGORY = "category"
DEPRECATED = "deprecated"


@dataclass(frozen=True)
class Origin:
    """`Base.member`, and whether the base is on the page (then both names are links)."""

    type: str
    member: str
    linked: bool


@dataclass(frozen=True)
class Member:
    name: str
    type: ir.TypeExpr
    optional: bool
    doc: ir.Doc
    deprecated: bool
    inherited: Origin | None
    overrides: Origin | None
    loc: Location | None


@dataclass(frozen=True)
class Entry:
    """One documented declaration. `kind` is typedoc's: interface, type-alias or variable; an
    interface without properties (index signature only) is shown as typedoc shows it, through
    the declaration path with no type (`any`)."""

    name: str
    kind: str
    category: str | None
    doc: ir.Doc
    deprecated: bool
    members: tuple[Member, ...]
    index: ir.Index | None  # an interface's index signature
    type: ir.TypeExpr | None  # an alias's or constant's type; None for interfaces
    loc: Location | None

    @property
    def preview(self) -> bool:
        """Interfaces with properties get the `interface X { ... }` preview."""
        return self.kind == "interface" and bool(self.members)


@dataclass(frozen=True)
class Model:
    source: str
    entries: tuple[Entry, ...]  # source order
    consts: dict[str, ir.Lit]  # every constant, for `typeof X`
    kinds: dict[str, str]  # documented name -> typedoc kind (what links may point at)
    aliases: dict[str, ir.TypeExpr]  # every type alias's value, as written
    positions: dict[str, int]  # every declaration's place in the source
    literals: dict[str, int]  # the checker's creation order of string literals (literals.py)


def is_internal(doc: ir.Doc) -> bool:
    return doc.has(INTERNAL)


def category(doc: ir.Doc) -> str | None:
    value = doc.tag(CATEGORY)
    return " ".join(value.split()) if value is not None else None


def _pos(loc: Location | None) -> tuple[int, int]:
    return (loc.line, loc.col) if loc is not None else (0, 0)


class _Builder:
    def __init__(self, schema: ir.Schema) -> None:
        self.decls = {d.name: d for d in schema.declarations}
        self.shown = {d.name for d in schema.declarations if not is_internal(d.doc)}
        self._members: dict[str, tuple[Member, ...]] = {}

    def doc_of(self, decl: ir.Decl, seen: frozenset[str] = frozenset()) -> ir.Doc:
        """The declaration's comment, or (interfaces) its first base's when it has none."""
        if decl.doc.text or decl.doc.tags or not isinstance(decl, ir.Interface):
            return decl.doc
        for base in decl.bases:
            parent = self.decls.get(base.name)
            if parent is not None and base.name not in seen:
                return self.doc_of(parent, seen | {decl.name})
        return decl.doc

    def members(self, name: str, seen: frozenset[str] = frozenset()) -> tuple[Member, ...]:
        """All members of interface `name`, own and inherited, in declaration order."""
        if name in self._members:
            return self._members[name]
        decl = self.decls.get(name)
        if not isinstance(decl, ir.Interface) or name in seen:
            return ()
        inherited: dict[str, tuple[Member, Origin]] = {}
        # Of several bases with the member, in `extends` order (not the order of declaration):
        # the member itself (type, comment) is the first's, the checker's symbol; the base
        # typedoc names is the first one on the page (its resolve step links the first
        # documented base with the member), else the first (unlinked).
        for base in decl.bases:
            for m in self.members(base.name, seen | {name}):
                if m.name in base.omit:
                    continue
                via = Origin(base.name, m.name, base.name in self.shown)
                if m.name not in inherited:
                    inherited[m.name] = (m, via)
                elif via.linked and not inherited[m.name][1].linked:
                    inherited[m.name] = (inherited[m.name][0], via)
        out: dict[str, Member] = {}
        for key, (m, source) in inherited.items():
            out[key] = Member(m.name, m.type, m.optional, m.doc, m.deprecated, source, None, m.loc)
        for p in decl.body.properties:
            base_member = inherited.get(p.name)
            doc = p.doc
            origin: Origin | None = None
            if base_member is not None:
                origin = base_member[1]
                if not (doc.text or doc.tags):
                    doc = base_member[0].doc
            deprecated = doc.has(DEPRECATED)
            out[p.name] = Member(p.name, p.type, p.optional, doc, deprecated, None, origin, p.loc)
        result = tuple(sorted(out.values(), key=lambda m: _pos(m.loc)))
        self._members[name] = result
        return result

    def index(self, name: str, seen: frozenset[str] = frozenset()) -> ir.Index | None:
        decl = self.decls.get(name)
        if isinstance(decl, ir.Alias) and name not in seen:
            t = decl.type
            if isinstance(t, ir.Map) and ir.is_string_key(t.key):
                return ir.Index(t.value)
            if isinstance(t, ir.Obj):
                return t.index
            if isinstance(t, ir.Ref):
                return self.index(t.name, seen | {name})
            return None
        if not isinstance(decl, ir.Interface) or name in seen:
            return None
        if decl.body.index is not None:
            return decl.body.index
        for base in decl.bases:
            found = self.index(base.name, seen | {name})
            if found is not None:
                return found
        return None

    def entries(self) -> Iterator[Entry]:
        for decl in self.decls.values():
            if decl.name not in self.shown:
                continue
            doc = self.doc_of(decl)
            deprecated = doc.has(DEPRECATED)
            cat = category(doc)
            if isinstance(decl, ir.Interface):
                members = tuple(_deprecate(m) if deprecated else m for m in self.members(decl.name))
                yield Entry(decl.name, "interface", cat, doc, deprecated, members,
                            self.index(decl.name), None, decl.loc)  # fmt: skip
            elif isinstance(decl, ir.Alias):
                yield Entry(decl.name, "type-alias", cat, doc, deprecated, (), None, decl.type,
                            decl.loc)  # fmt: skip
            else:
                yield Entry(decl.name, "variable", cat, doc, deprecated, (), None, decl.value,
                            decl.loc)  # fmt: skip


def _deprecate(m: Member) -> Member:
    return Member(m.name, m.type, m.optional, m.doc, True, m.inherited, m.overrides, m.loc)


def first_mentions(schema: ir.Schema) -> dict[str, int]:
    """Where the source first names each declared type (declaration or reference), as a rank:
    the order in which TypeScript's checker meets them, roughly."""
    seen: dict[str, tuple[int, int]] = {}

    def note(name: str, loc: Location | None) -> None:
        pos = _pos(loc)
        if name not in seen or pos < seen[name]:
            seen[name] = pos

    def walk(t: ir.TypeExpr) -> None:
        if isinstance(t, ir.Ref):
            note(t.name, t.loc)
        elif isinstance(t, ir.Obj):
            for p in t.properties:
                walk(p.type)
            if t.index is not None:
                walk(t.index.value)
        elif isinstance(t, (ir.Union_, ir.Intersection)):
            for m in t.members:
                walk(m)
        elif isinstance(t, ir.Array):
            walk(t.item)
        elif isinstance(t, ir.Map):
            walk(t.key)
            walk(t.value)
        elif isinstance(t, ir.Annotated):
            walk(t.type)

    for d in schema.declarations:
        note(d.name, d.loc)
        if isinstance(d, ir.Interface):
            for b in d.bases:
                note(b.name, b.loc)
            walk(d.body)
        elif isinstance(d, ir.Alias):
            walk(d.type)
    ranked = sorted(seen, key=lambda n: seen[n])
    return {name: i for i, name in enumerate(ranked)}


def build(schema: ir.Schema, earlier: tuple[ir.Schema, ...] = ()) -> Model:
    """The page model; `earlier`: the files typedoc's program checks before this one
    (`literals.program`), which decide a union's literal order."""
    b = _Builder(schema)
    entries = tuple(b.entries())
    consts = {d.name: d.value for d in schema.declarations if isinstance(d, ir.Const)}
    aliases = {d.name: d.type for d in schema.declarations if isinstance(d, ir.Alias)}
    positions = first_mentions(schema)
    kinds = {e.name: e.kind for e in entries}
    literals = literal_ranks(schema, earlier)
    return Model(schema.source, entries, consts, kinds, aliases, positions, literals)
