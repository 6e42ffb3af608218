"""Neutral structural comparison of two resolved schemas: *what* changed, never how bad it is.

The output is a sorted tuple of `Change`s. Each names the changed subject by its path, says what
happened (`what`, a `What`), shows the before/after as names and structure only (TS-like text,
never doc prose), and records neutral facts a rule needs (`Facts`: `required`, `relation`, `tag`,
...). Levels and rule ids are decided in `rules.py`.

Decisions that keep the list short and exact:
* A property change inherited unchanged through `extends` is reported once, at the type that
  declares it; the inheriting types are its `carriers` (their messages carry the change too).
* Types removed and added with the same shape are renames when the match is one-to-one; with
  several same-shaped candidates they stay removed + added and list the candidates.
* A reference that now points at another declaration (or an inline object that became a named
  type) is compared through: the shapes are diffed at the referencing path, so a property gained
  by `CallToolRequest.params` is reported there even when `params` changed from inline to named.
* Union members are matched by identity: referenced name, literal value, primitive kind, and for
  inline objects their discriminating literal property (`type: "text"`). Members that cannot be
  matched one-to-one are reported as such, never dropped.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import replace

from .. import ir, targets
from ..analysis.methods import MethodModel, envelope_properties
from ..constraints import SCHEMA_VALIDATION_TAGS, STRUCTURAL_TAGS, schema_keyword
from . import notation
from .algebra import (
    Acceptance,
    detect_renames,
    detect_retyped,
    is_open,
    member_key,
    member_label,
    members,
    relation,
    shape,
    strip_null,
    union_discriminator,
)
from .change import NO_FACTS, Change, Facts, Movement, What
from .compare_methods import compare_methods
from .notation import ITEM, VALUE

# ---------------------------------------------------------------------------------------------
# The comparison


class Comparer:
    def __init__(self, old: ir.Resolved, new: ir.Resolved) -> None:
        self.old, self.new = old.type_map(), new.type_map()
        self.old_consts = {c.name: c for c in old.consts}
        self.new_consts = {c.name: c for c in new.consts}
        self.renames, self.candidates = detect_renames(old, new)
        self.retyped = detect_retyped(old, new, self.renames)  # renamed and changed
        self.out: list[Change] = []
        self.deref_stack: set[tuple[str, str]] = set()
        self.carriers: dict[tuple[str, str], set[str]] = {}
        self.origins: dict[tuple[str, str], str] = {}
        self.spellers = targets.field_spellings()

    def add(
        self,
        path: tuple[str, ...],
        what: What,
        before: str | None = None,
        after: str | None = None,
        scope: str = "type",
        facts: Facts = NO_FACTS,
    ) -> None:
        self.out.append(Change(scope, path, what, before, after, facts))

    def same(self, a: ir.TypeExpr, b: ir.TypeExpr) -> bool:
        return shape(a, self.renames) == shape(b, {})

    def keys(self, ms: tuple[ir.TypeExpr, ...], old: bool) -> list[tuple[str, ...]]:
        """The identities of union members `ms` of the old (or new) schema."""
        types = self.old if old else self.new
        renames = self.renames if old else {}
        wire = union_discriminator(ms, types)
        return [member_key(m, renames, wire, types) for m in ms]

    # -- declarations -------------------------------------------------------------------------

    def run(self, old_methods: MethodModel, new_methods: MethodModel) -> tuple[Change, ...]:
        self.constants()
        renamed_to = set(self.renames.values()) | set(self.retyped.values())
        for name, td in self.old.items():
            if name in self.renames:
                to = self.new[self.renames[name]]
                self.add((name,), What.TYPE_RENAMED, name, to.name)
                self.doc(td.doc, to.doc, (to.name,))
                self.expr(td.type, to.type, (to.name,))  # same shape: only inline docs may differ
            elif name in self.retyped:
                to = self.new[self.retyped[name]]
                self.add((name,), What.TYPE_RENAMED, name, to.name, facts=Facts(same_shape=False))
                self.doc(td.doc, to.doc, (to.name,))
                self.expr(td.type, to.type, (to.name,))  # its changes, under the new name
            elif name not in self.new:
                self.add(
                    (name,), What.TYPE_REMOVED, name, None, facts=Facts(candidates=self.cands(name))
                )
        for name in self.new:
            if name not in self.old and name not in renamed_to:
                facts = Facts(
                    candidates=self.cands(name), deprecated=_deprecated(self.new[name].doc)
                )
                self.add((name,), What.TYPE_ADDED, None, name, facts=facts)
        for name, td in self.old.items():
            if name in self.new:
                self.typedef(td, self.new[name])
        self.out.extend(compare_methods(old_methods, new_methods, self.old, self.new, self.renames))
        return self.finish(old_methods, new_methods)

    def cands(self, name: str) -> tuple[str, ...]:
        return tuple(sorted(self.candidates.get(name, [])))

    def constants(self) -> None:
        for name in sorted(set(self.old_consts) | set(self.new_consts)):
            a, b = self.old_consts.get(name), self.new_consts.get(name)
            before = notation.literal(a.value.value) if a else None
            after = notation.literal(b.value.value) if b else None
            if a is None or b is None:
                what = What.CONST_ADDED if a is None else What.CONST_REMOVED
                self.add((name,), what, before, after, scope="constant")
                continue
            if a.value != b.value:
                self.add((name,), What.CONST_VALUE, before, after, scope="constant")
            self.doc(a.doc, b.doc, (name,), scope="constant")

    def typedef(self, a: ir.TypeDef, b: ir.TypeDef) -> None:
        path = (a.name,)
        self.doc(a.doc, b.doc, path)
        self.annotation(a.keeps_number, b.keeps_number, a.type, b.type, path)
        self.constraints(a.constraints, b.constraints, path)
        self.flattened(a, b)
        if isinstance(a.type, ir.Obj) and isinstance(b.type, ir.Obj):
            self.obj(a.type, b.type, path, owner=a.name)
        elif (
            isinstance(a.type, (ir.Ref, ir.Union_))
            and isinstance(b.type, (ir.Ref, ir.Union_))
            and not self.same(a.type, b.type)
        ):
            # `type ClientResult = EmptyResult` is a one-member union: compare member by member
            self.union(a.type, b.type, path, docs=True)
        else:
            self.expr(a.type, b.type, path)

    def flattened(self, a: ir.TypeDef, b: ir.TypeDef) -> None:
        """A union alias declared with the same members whose members' own aliases changed
        what it accepts (`PrimitiveSchemaDefinition = StringSchema | ... | EnumSchema` in
        2025-11-25, `EnumSchema` now a union itself: 4 kinds of schema became 8). Reported once,
        as a change of the alias, over the members with every union alias spelt out; the
        member aliases' own whole-type changes restate it (`via`)."""
        if not isinstance(a.type, ir.Union_) or not self.same(a.type, b.type):
            return
        fa, fb = _flat(a.type, self.old, ()), _flat(b.type, self.new, ())
        ta, tb = [notation.ts(m) for m in fa], [notation.ts(m) for m in fb]
        if ta == tb:
            return
        via = tuple(
            sorted(
                m.name
                for m in a.type.members
                if isinstance(m, ir.Ref)
                and m.name in self.old
                and m.name in self.new
                and not self.same(self.old[m.name].type, self.new[m.name].type)
            )
        )
        rel = relation(ir.Union_(fa), ir.Union_(fb), self.old, self.new, self.renames)
        if rel == "equivalent":
            return  # the same values spelt otherwise (an alias became an interface)
        self.add((a.name,), What.TYPE_CHANGED, f"{len(ta)} members: {' | '.join(ta)}",
                 f"{len(tb)} members: {' | '.join(tb)}", facts=Facts(relation=rel, via=via))  # fmt: skip

    # -- inheritance --------------------------------------------------------------------------

    def _prop_of(self, types: Mapping[str, ir.TypeDef], t: str, key: str) -> object:
        td = types.get(t)
        if td is None or not isinstance(td.type, ir.Obj):
            return None
        return td.type.index if key == VALUE else td.type.prop(key)

    def origin(self, t: str, key: str) -> str:
        """The type that declares `t`'s change of `key`: itself unless the change is inherited
        as is, through `extends` or, for an alias of an intersection, from the type whose
        declaration of the property it copies (same source location in both versions)."""
        memo = self.origins.get((t, key))
        if memo is not None:
            return memo
        self.origins[(t, key)] = t  # guards against cycles while searching
        pair = self._pair(t, key)
        found = t
        for base in self._sources(t, key, pair):
            if self._pair(base, key) == pair:
                found = self.origin(base, key)
                break
        self.origins[(t, key)] = found
        return found

    def _pair(self, t: str, key: str) -> tuple[object, object]:
        return self._prop_of(self.old, t, key), self._prop_of(self.new, t, key)

    def _sources(self, t: str, key: str, pair: tuple[object, object]) -> list[str]:
        """Types `t` may have the property from, nearest first: ancestors through `extends` (not
        omitting `key`) present in both versions; for an alias (of an intersection), interfaces
        declaring the very same property (same source location) in both versions."""
        out: list[str] = []
        seen: set[str] = set()  # `out` as a set: a long `extends` chain made the test quadratic
        for types in (self.new, self.old):
            todo = deque([t])
            while todo:
                td = types.get(todo.popleft())
                for b in td.bases if td else ():
                    if key not in b.omit and b.name not in seen:
                        seen.add(b.name)
                        out.append(b.name)
                        todo.append(b.name)
        if self.old[t].kind == "alias" and self.new[t].kind == "alias":
            locs = tuple(getattr(p, "loc", None) for p in pair)
            for name in sorted(set(self.old) & set(self.new)):
                if name == t or "alias" in (self.old[name].kind, self.new[name].kind):
                    continue
                other = self._pair(name, key)
                if other == pair and tuple(getattr(p, "loc", None) for p in other) == locs:
                    out.append(name)
        return [b for b in out if b in self.old and b in self.new]

    def inherited(self, owner: str, key: str) -> bool:
        origin = self.origin(owner, key)
        if origin == owner:
            return False
        self.carriers.setdefault((origin, key), set()).add(owner)
        return True

    def finish(self, old_methods: MethodModel, new_methods: MethodModel) -> tuple[Change, ...]:
        """Attach carriers (inheriting types) and mark envelope properties of JSON-RPC messages."""
        # JSON-RPC message types in either version: a request that moved into an input-required
        # result stops declaring the envelope it travelled in (`envelope-property-undeclared`)
        messages = {m.type_name for m in old_methods.methods if m.via == "jsonrpc"} | {
            m.type_name for m in new_methods.methods if m.via == "jsonrpc"
        }
        envelopes = (envelope_properties(self.old), envelope_properties(self.new))
        out = []
        for c in self.out:
            carriers = self.carriers.get((c.path[0], c.path[1])) if len(c.path) > 1 else None
            if carriers and c.scope == "type":
                c = replace(c, carriers=tuple(sorted(carriers)))
            if c.what in (What.PROPERTY_ADDED, What.PROPERTY_REMOVED) and len(c.path) == 2:
                added = c.what is What.PROPERTY_ADDED
                env = envelopes[added].get(c.path[1])
                shown = c.after if added else c.before
                if (
                    env is not None
                    and notation.prop(env) == shown
                    and messages & {c.path[0], *c.carriers}
                ):
                    c = replace(c, facts=replace(c.facts, envelope=True))
            out.append(c)
        return tuple(sorted(set(out), key=Change.sort_key))

    # -- objects and properties ---------------------------------------------------------------

    def obj(
        self,
        a: ir.Obj,
        b: ir.Obj,
        path: tuple[str, ...],
        owner: str | None = None,
        docs: bool = True,
    ) -> None:
        self.names(a, b, path)
        # by name once: `Obj.prop` scans, which made a big object (or a long `extends` chain,
        # each link holding all its inherited properties) quadratic
        in_a, in_b = {p.name: p for p in a.properties}, {p.name: p for p in b.properties}
        for name in sorted(in_a.keys() | in_b.keys()):
            pa, pb = in_a.get(name), in_b.get(name)
            if pa == pb or (owner is not None and self.inherited(owner, name)):
                continue
            # a property that comes or goes where the other side's index signature takes any
            # value: no message changes validity (`Request.params._meta` in 2025-11-25)
            other = b if pb is None else a
            self.prop(pa, pb, (*path, name), docs, open_index=_takes_anything(other.index))
        if a.index != b.index and not (owner is not None and self.inherited(owner, VALUE)):
            if a.index is None or b.index is None:
                what = What.INDEX_ADDED if a.index is None else What.INDEX_REMOVED
                before = notation.ts(a.index.value) if a.index else None
                after = notation.ts(b.index.value) if b.index else None
                # `[key: string]: unknown` only says what JSON objects are anyway: open
                shown = a.index or b.index
                facts = Facts(covered=True) if _takes_anything(shown) else NO_FACTS
                self.add((*path, VALUE), what, before, after, facts=facts)
            else:
                self.expr(a.index.value, b.index.value, (*path, VALUE), docs)

    def prop(
        self,
        a: ir.Property | None,
        b: ir.Property | None,
        path: tuple[str, ...],
        docs: bool,
        open_index: bool = False,
    ) -> None:
        if a is None or b is None:
            p = b if a is None else a
            assert p is not None
            what = What.PROPERTY_ADDED if a is None else What.PROPERTY_REMOVED
            shown = notation.prop(p)
            self.add(path, what, None if a is None else shown, shown if a is None else None,
                     facts=Facts(required=not p.optional, covered=open_index or None,
                                 deprecated=_deprecated(p.doc)))  # fmt: skip
            return
        if a.optional != b.optional:
            self.add(path, What.PROPERTY_OPTIONAL, _req(a), _req(b))
        if a.nullable != b.nullable:
            self.add(path, What.PROPERTY_NULLABLE, _null(a), _null(b))
        elif a.nullable and a.doc.has("nullable") != b.doc.has("nullable"):
            # `T | null` either way, but only `@nullable` puts null into the official schema:
            # its generator reads the schema without strict null checks
            self.add(path, What.PROPERTY_NULLABLE, _tag_null(a), _tag_null(b))
        if a.readonly != b.readonly:
            self.add(path, What.PROPERTY_READONLY, _ro(a), _ro(b))
        self.annotation(a.keeps_number, b.keeps_number, a.type, b.type, path)
        self.constraints(a.constraints, b.constraints, path)
        self.expr(strip_null(a.type), strip_null(b.type), path, docs)
        if docs:
            self.doc(a.doc, b.doc, path)

    def annotation(
        self, a: bool, b: bool, ta: ir.TypeExpr, tb: ir.TypeExpr, path: tuple[str, ...]
    ) -> None:
        """`@TJS-type number` on a `number` keeps it a JSON Schema number; without it the
        official generator renders `integer`. Gaining or losing it changes the official schema
        though the TS type stays `number`."""
        if a != b and _NUMBER in (strip_null(ta), strip_null(tb)):
            self.add(path, What.ANNOTATION_TYPE, _rendered(a), _rendered(b),
                     facts=Facts(tag="TJS-type"))  # fmt: skip

    def constraints(self, a: ir.Constraints, b: ir.Constraints, path: tuple[str, ...]) -> None:
        for k in ir.KEYWORDS:
            x, y = getattr(a, k.field), getattr(b, k.field)
            if x != y:
                facts = Facts(constraint=k.field, change=_direction(x, y))
                # named by its JSON Schema keyword: `maxItems: 100`, not a bare `100`
                before = None if x is None else f"{k.keyword}: {_val(x)}"
                after = None if y is None else f"{k.keyword}: {_val(y)}"
                self.add(path, What.CONSTRAINT, before, after, facts=facts)

    def names(self, a: ir.Obj, b: ir.Obj, path: tuple[str, ...]) -> None:
        """Generated public names of the same object: its class name (inline objects; declared
        types are compared by name; the neutral, path-derived name) and its properties' names in
        each target that spells them (asked of the registry: the diff knows no language's
        spelling). Two targets giving the same change make one finding."""
        inline = a.name not in self.old and b.name not in self.new  # else a type-ref finding
        if inline and a.properties and b.properties and a.name != b.name:
            self.add(path, What.NAME_CHANGED, a.name, b.name)
        seen: set[tuple[str, str, str]] = set()
        for spell in self.spellers.values():
            names_a = dict(zip((p.name for p in a.properties), spell(_wires(a)), strict=True))
            names_b = dict(zip((p.name for p in b.properties), spell(_wires(b)), strict=True))
            for wire in sorted(set(names_a) & set(names_b)):
                change = (wire, names_a[wire], names_b[wire])
                if change[1] != change[2] and change not in seen:
                    seen.add(change)
                    self.add((*path, wire), What.NAME_CHANGED, change[1], change[2])

    # -- type expressions ---------------------------------------------------------------------

    def expr(
        self, a: ir.TypeExpr, b: ir.TypeExpr, path: tuple[str, ...], docs: bool = True
    ) -> None:
        if self.same(a, b):
            if docs:
                self.inline_docs(a, b, path)
            return
        if isinstance(a, ir.Obj) and isinstance(b, ir.Obj):
            return self.obj(a, b, path, docs=docs)
        if isinstance(a, ir.Array) and isinstance(b, ir.Array):
            return self.expr(a.item, b.item, (*path, ITEM), docs)
        if isinstance(a, ir.Map) and isinstance(b, ir.Map) and self.same(a.key, b.key):
            return self.expr(a.value, b.value, (*path, VALUE), docs)
        if isinstance(a, ir.Union_) or isinstance(b, ir.Union_):
            keys_a = set(self.keys(members(a), old=True))
            keys_b = set(self.keys(members(b), old=False))
            both = isinstance(a, ir.Union_) and isinstance(b, ir.Union_)
            if both or keys_a & keys_b or self.expanded(a, b):
                return self.union(a, b, path, docs)
        if isinstance(a, ir.Lit) and isinstance(b, ir.Lit):
            return self.add(path, What.LITERAL_CHANGED, notation.ts(a), notation.ts(b))
        if (a == _OBJECT and _optional_only(b)) or (b == _OBJECT and _optional_only(a)):
            # `object` -> `{ form?: ...; url?: ... }`: optional properties named, nothing more
            return self.obj(
                a if isinstance(a, ir.Obj) else _EMPTY, b if isinstance(b, ir.Obj) else _EMPTY,
                path, docs=docs,
            )  # fmt: skip
        if self.retargeted(a, b, path, docs):
            return
        rel = relation(a, b, self.old, self.new, self.renames)
        self.add(path, What.TYPE_CHANGED, notation.ts(a), notation.ts(b), facts=Facts(relation=rel))
        variant = self.best_variant(a, b)
        if variant is not None:  # object <-> union: compare the fields with the closest variant
            self.obj(*variant, path, docs=False)

    def best_variant(self, a: ir.TypeExpr, b: ir.TypeExpr) -> tuple[ir.Obj, ir.Obj] | None:
        """An object on one side, a union of objects on the other: the object and the variant
        sharing the most property names with it (the first on a tie; None when none shares)."""
        da, db = self.deref(a, self.old), self.deref(b, self.new)
        if isinstance(da, ir.Obj) and isinstance(db, ir.Union_):
            best = _closest(da, [self.deref(m, self.new) for m in db.members])
            return (da, best) if best is not None else None
        if isinstance(db, ir.Obj) and isinstance(da, ir.Union_):
            best = _closest(db, [self.deref(m, self.old) for m in da.members])
            return (best, db) if best is not None else None
        return None

    @staticmethod
    def deref(t: ir.TypeExpr, types: Mapping[str, ir.TypeDef]) -> ir.TypeExpr:
        for _ in range(8):
            if not isinstance(t, ir.Ref) or t.name not in types:
                break
            t = types[t.name].type
        return t

    def retargeted(self, a: ir.TypeExpr, b: ir.TypeExpr, path: tuple[str, ...], docs: bool) -> bool:
        """A reference that now names another declaration, or a named type that became inline (or
        the other way): compare what the two stand for, one reference deep."""
        if not isinstance(a, ir.Ref) and not isinstance(b, ir.Ref):
            return False
        da = self.old[a.name].type if isinstance(a, ir.Ref) and a.name in self.old else a
        db = self.new[b.name].type if isinstance(b, ir.Ref) and b.name in self.new else b
        if isinstance(da, ir.Ref) or isinstance(db, ir.Ref):
            return False  # an alias of an alias, or an undeclared name: report the change as is
        key = (notation.ts(a), notation.ts(b))
        if key in self.deref_stack:  # a recursive type compared through itself: stop here
            return False
        facts = Facts(same_shape=self.same(da, db))
        self.add(path, What.TYPE_REF, _target(a), _target(b), facts=facts)
        self.deref_stack.add(key)
        self.expr(da, db, path, docs=False)
        self.deref_stack.discard(key)
        return True

    # -- unions -------------------------------------------------------------------------------

    def _expand(
        self, ms: tuple[ir.TypeExpr, ...], old: bool, other: set[tuple[str, ...]]
    ) -> tuple[ir.TypeExpr, ...]:
        """Replace a member naming an alias of a union by that union's members, when the member
        itself has no counterpart and its members do (`A | B` -> `AOrBOrC`)."""
        types = self.old if old else self.new
        out: list[ir.TypeExpr] = []
        own = self.keys(ms, old)
        for m, key in zip(ms, own):
            td = types.get(m.name) if isinstance(m, ir.Ref) else None
            inner = td.type.members if td is not None and isinstance(td.type, ir.Union_) else ()
            if inner and key not in other and any(k in other for k in self.keys(inner, old)):
                out.extend(inner)
            else:
                out.append(m)
        return tuple(out)

    def expanded(
        self, a: ir.TypeExpr, b: ir.TypeExpr
    ) -> tuple[tuple[ir.TypeExpr, ...], tuple[ir.TypeExpr, ...]] | None:
        """Both sides' members with alias unions expanded where that creates matches; None when
        nothing was expanded."""
        am, bm = members(a), members(b)
        ea = self._expand(am, True, set(self.keys(bm, old=False)))
        eb = self._expand(bm, False, set(self.keys(ea, old=True)))
        return (ea, eb) if (ea, eb) != (am, bm) else None

    def union(self, a: ir.TypeExpr, b: ir.TypeExpr, path: tuple[str, ...], docs: bool) -> None:
        am, bm = members(a), members(b)
        exp = self.expanded(a, b)
        if exp is not None:
            facts = Facts(same_shape=False)
            self.add(path, What.TYPE_REF, notation.ts(a), notation.ts(b), facts=facts)
            am, bm = exp
        ka = self.keys(am, old=True)
        kb = self.keys(bm, old=False)
        open_ = is_open(am) or is_open(bm)
        unmatched_a: list[ir.TypeExpr] = []
        unmatched_b: list[ir.TypeExpr] = []
        for m, k in zip(am, ka):
            if ka.count(k) > 1 or kb.count(k) > 1:
                unmatched_a.append(m)
            elif k not in kb:
                facts = _member_facts(m, open_, self.covered(m, bm, old=True))
                self.add(path, What.MEMBER_REMOVED, notation.ts(m), None, facts=facts)
            else:
                other = bm[kb.index(k)]
                if isinstance(m, ir.Obj) and isinstance(other, ir.Obj):
                    self.expr(m, other, (*path, member_label(k)), docs)
                elif not isinstance(m, (ir.Ref, ir.Lit, ir.Prim)):
                    self.expr(m, other, path, docs)
        for m, k in zip(bm, kb):
            if ka.count(k) > 1 or kb.count(k) > 1:
                unmatched_b.append(m)
            elif k not in ka:
                facts = _member_facts(m, open_, self.covered(m, am, old=False))
                self.add(path, What.MEMBER_ADDED, None, notation.ts(m), facts=facts)
        if unmatched_a or unmatched_b:
            sa = sorted(map(str, (shape(m, self.renames) for m in unmatched_a)))
            sb = sorted(map(str, (shape(m, {}) for m in unmatched_b)))
            if sa != sb:
                before = " | ".join(notation.ts(m) for m in unmatched_a) or None
                after = " | ".join(notation.ts(m) for m in unmatched_b) or None
                self.add(path, What.MEMBERS_UNMATCHED, before, after)

    def covered(self, m: ir.TypeExpr, others: tuple[ir.TypeExpr, ...], old: bool) -> bool:
        """Does a member of the other version's union accept every value of member `m` (of the
        old union when `old`)? Members that accept any object (an index signature) or any JSON
        value do not count: they would cover every removed message."""
        if not isinstance(m, ir.Ref):
            return False
        mine, theirs = (self.old, self.new) if old else (self.new, self.old)
        renames = self.renames if old else {v: k for k, v in self.renames.items()}
        acc = Acceptance(mine, theirs, renames)
        for o in others:
            target = acc.deref(o, theirs)
            if isinstance(target, ir.Obj) and target.index is not None:
                continue
            if acc.json_top(o, theirs):
                continue
            if acc.accepts(o, m):
                return True
        return False

    # -- documentation ------------------------------------------------------------------------

    def inline_docs(self, a: ir.TypeExpr, b: ir.TypeExpr, path: tuple[str, ...]) -> None:
        """Same shape: only documentation of nested inline properties can differ."""
        if isinstance(a, ir.Obj) and isinstance(b, ir.Obj):
            for pa in a.properties:
                pb = b.prop(pa.name)
                if pb is not None and pa != pb:
                    self.doc(pa.doc, pb.doc, (*path, pa.name))
                    self.inline_docs(strip_null(pa.type), strip_null(pb.type), (*path, pa.name))
        elif isinstance(a, ir.Array) and isinstance(b, ir.Array):
            self.inline_docs(a.item, b.item, (*path, ITEM))
        elif isinstance(a, ir.Map) and isinstance(b, ir.Map):
            self.inline_docs(a.value, b.value, (*path, VALUE))
        elif isinstance(a, ir.Union_) and isinstance(b, ir.Union_):
            kb = dict(zip(self.keys(b.members, old=False), b.members))
            for m, k in zip(a.members, self.keys(a.members, old=True)):
                if isinstance(m, ir.Obj) and k in kb:
                    self.inline_docs(m, kb[k], (*path, member_label(k)))

    def schema_tags(self, a: ir.Doc, b: ir.Doc, path: tuple[str, ...], scope: str) -> None:
        """The tags the official generator writes into the schema (`constraints.py`), compared
        as schema: a validation keyword's value is shown, an annotation's is prose-like and
        is not."""
        ta, tb = _tags(a, schema=True), _tags(b, schema=True)
        for tag in sorted(set(ta) | set(tb)):
            x, y = ta.get(tag), tb.get(tag)
            if x == y:
                continue
            change: Movement = "added" if x is None else "removed" if y is None else "changed"
            keyword = schema_keyword(tag) or tag
            shown = keyword in SCHEMA_VALIDATION_TAGS
            before = (f"@{tag} {' '.join(x)}".strip() if shown else f"@{tag}") if x else None
            after = (f"@{tag} {' '.join(y)}".strip() if shown else f"@{tag}") if y else None
            facts = Facts(tag=tag, change=change, constraint=keyword)
            self.add(path, What.SCHEMA_TAG, before, after, scope=scope, facts=facts)

    def doc(self, a: ir.Doc, b: ir.Doc, path: tuple[str, ...], scope: str = "type") -> None:
        if a == b:
            return
        if a.text != b.text:
            self.add(path, What.DOC_DESCRIPTION, scope=scope)
        self.schema_tags(a, b, path, scope)
        ta, tb = _tags(a), _tags(b)
        for tag in sorted(set(ta) | set(tb)):
            x, y = ta.get(tag), tb.get(tag)
            if x == y:
                continue
            change: Movement = "added" if x is None else "removed" if y is None else "changed"
            facts = Facts(tag=tag, change=change)
            if tag == "category":  # category values are names, not prose
                before = ", ".join(v.strip("`") for v in x) if x else None
                after = ", ".join(v.strip("`") for v in y) if y else None
                self.add(path, What.DOC_TAG, before, after, scope=scope, facts=facts)
            else:
                self.add(path, What.DOC_TAG, scope=scope, facts=facts)


_NUMBER = ir.Prim(ir.PrimKind.NUMBER)
_OBJECT = ir.Prim(ir.PrimKind.OBJECT)
_EMPTY = ir.Obj((), ())


def _optional_only(t: ir.TypeExpr) -> bool:
    return isinstance(t, ir.Obj) and bool(t.properties) and all(p.optional for p in t.properties)


def _closest(o: ir.Obj, variants: list[ir.TypeExpr]) -> ir.Obj | None:
    names = {p.name for p in o.properties}
    best: ir.Obj | None = None
    score = 0
    for v in variants:
        if isinstance(v, ir.Obj):
            common = len(names & {p.name for p in v.properties})
            if common > score:
                best, score = v, common
    return best


def _rendered(keeps_number: bool) -> str:
    return "number" if keeps_number else "integer"


def _wires(o: ir.Obj) -> tuple[str, ...]:
    return tuple(p.name for p in o.properties)


def _req(p: ir.Property) -> str:
    return "optional" if p.optional else "required"


def _null(p: ir.Property) -> str:
    return "nullable" if p.nullable else "not nullable"


def _tag_null(p: ir.Property) -> str:
    return (
        "nullable"
        if p.doc.has("nullable")
        else "`| null` without @nullable: not null in JSON Schema"
    )


def _ro(p: ir.Property) -> str:
    return "readonly" if p.readonly else "mutable"


def _val(v: object) -> str | None:
    return None if v is None else str(v)


def _target(t: ir.TypeExpr) -> str:
    return notation.obj(t, depth=1) if isinstance(t, ir.Obj) else notation.ts(t)


def _direction(x: object, y: object) -> Movement:
    if x is None:
        return "added"
    if y is None:
        return "removed"
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return "raised" if y > x else "lowered"
    return "changed"


def _member_facts(m: ir.TypeExpr, open_: bool, covered: bool) -> Facts:
    ref = m.name if isinstance(m, ir.Ref) else None
    return Facts(literal=isinstance(m, ir.Lit), open=open_, ref=ref, covered=covered or None)


def _flat(
    t: ir.TypeExpr, types: Mapping[str, ir.TypeDef], seen: tuple[str, ...]
) -> tuple[ir.TypeExpr, ...]:
    """The members of a union with every member that names a union alias replaced by its
    members, recursively."""
    out: list[ir.TypeExpr] = []
    for m in members(t):
        target = types.get(m.name) if isinstance(m, ir.Ref) else None
        if target is not None and isinstance(target.type, ir.Union_) and target.name not in seen:
            out.extend(_flat(target.type, types, (*seen, target.name)))
        else:
            out.append(m)
    return tuple(out)


def _deprecated(d: ir.Doc) -> bool | None:
    """True when the doc carries `@deprecated`: an addition that is deprecated from the start."""
    return True if any(t.name == "deprecated" for t in d.tags) else None


def _tags(d: ir.Doc, schema: bool = False) -> dict[str, tuple[str, ...]]:
    """The doc's tags the official generator writes into the schema (`schema`), or the others
    but those the model holds as structure: opaque documentation tags."""
    out: dict[str, list[str]] = {}
    for t in d.tags:
        if t.name in STRUCTURAL_TAGS or (schema_keyword(t.name) is not None) != schema:
            continue
        out.setdefault(t.name, []).append(" ".join(t.value.split()) if schema else t.value)
    return {k: tuple(v) for k, v in out.items()}


def compare(
    old: ir.Resolved, new: ir.Resolved, old_methods: MethodModel, new_methods: MethodModel
) -> tuple[Change, ...]:
    """Every difference between two resolved schemas, sorted."""
    return Comparer(old, new).run(old_methods, new_methods)


def _takes_anything(index: ir.Index | None) -> bool:
    """An index signature whose value is `unknown` or `any`: every extra key is allowed."""
    return (
        index is not None
        and isinstance(index.value, ir.Prim)
        and index.value.kind in (ir.PrimKind.UNKNOWN, ir.PrimKind.ANY)
    )
