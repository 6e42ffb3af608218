"""Neutral structural comparison of two resolved schemas: *what* changed, never how bad it is.

The output is a sorted tuple of `Change`s. Each names the changed subject by its path, says what
happened (`what`, a `What`), shows the before/after as names and structure only (TS-like text,
never doc prose), and records neutral facts a rule needs (`Facts`: `required`, `relation`, `tag`,
...). Levels and rule ids are decided in `rules.py`.

This module is the walk: declarations, then type expressions, objects, properties and unions,
recursively. Its helpers each keep one decision: `matching.py` pairs union members and variants,
`inheritance.py` reports an inherited property change once (at the declaring type, the
inheriting types as its carriers), `compare_attributes.py` compares docs, tags, constraints,
flags and generated names, `compare_methods.py` the method models. Decisions of the walk itself:
* Types removed and added with the same shape are renames when the match is one-to-one; with
  several same-shaped candidates they stay removed + added and list the candidates.
* A reference that now points at another declaration (or an inline object that became a named
  type) is compared through: the shapes are diffed at the referencing path, so a property gained
  by `CallToolRequest.params` is reported there even when `params` changed from inline to named.
* Union members that cannot be matched one-to-one are reported as such, never dropped.
"""

from __future__ import annotations

from dataclasses import replace

from .. import ir, targets
from ..analysis.methods import MethodModel, envelope_properties
from . import notation
from .algebra import (
    detect_renames,
    detect_retyped,
    is_open,
    member_label,
    members,
    relation,
    strip_null,
)
from .change import NO_FACTS, Change, Facts, What
from .compare_attributes import (
    annotation_changes,
    constraint_changes,
    deprecated,
    doc_changes,
    flag_changes,
    name_changes,
)
from .compare_methods import compare_methods
from .inheritance import Inheritance
from .matching import Matcher, flat
from .notation import ITEM, VALUE


class Comparer:
    def __init__(self, old: ir.Resolved, new: ir.Resolved) -> None:
        self.old, self.new = old.type_map(), new.type_map()
        self.old_consts = {c.name: c for c in old.consts}
        self.new_consts = {c.name: c for c in new.consts}
        self.renames, self.candidates = detect_renames(old, new)
        self.retyped = detect_retyped(old, new, self.renames)  # renamed and changed
        self.match = Matcher(self.old, self.new, self.renames)
        self.inheritance = Inheritance(self.old, self.new)
        self.out: list[Change] = []
        self.deref_stack: set[tuple[str, str]] = set()
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

    def doc(self, a: ir.Doc, b: ir.Doc, path: tuple[str, ...], scope: str = "type") -> None:
        self.out.extend(doc_changes(a, b, path, scope))

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
                    candidates=self.cands(name), deprecated=deprecated(self.new[name].doc)
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
        self.out.extend(annotation_changes(a.keeps_number, b.keeps_number, a.type, b.type, path))
        self.out.extend(constraint_changes(a.constraints, b.constraints, path))
        self.flattened(a, b)
        if isinstance(a.type, ir.Obj) and isinstance(b.type, ir.Obj):
            self.obj(a.type, b.type, path, owner=a.name)
        elif (
            isinstance(a.type, (ir.Ref, ir.Union_))
            and isinstance(b.type, (ir.Ref, ir.Union_))
            and not self.match.same(a.type, b.type)
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
        if not isinstance(a.type, ir.Union_) or not self.match.same(a.type, b.type):
            return
        fa, fb = flat(a.type, self.old), flat(b.type, self.new)
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
                and not self.match.same(self.old[m.name].type, self.new[m.name].type)
            )
        )
        rel = relation(ir.Union_(fa), ir.Union_(fb), self.old, self.new, self.renames)
        if rel == "equivalent":
            return  # the same values spelt otherwise (an alias became an interface)
        self.add((a.name,), What.TYPE_CHANGED, f"{len(ta)} members: {' | '.join(ta)}",
                 f"{len(tb)} members: {' | '.join(tb)}", facts=Facts(relation=rel, via=via))  # fmt: skip

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
            carriers = (
                self.inheritance.carriers.get((c.path[0], c.path[1])) if len(c.path) > 1 else None
            )
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

    def inherited(self, owner: str | None, key: str) -> bool:
        return owner is not None and self.inheritance.inherited(owner, key)

    def obj(
        self,
        a: ir.Obj,
        b: ir.Obj,
        path: tuple[str, ...],
        owner: str | None = None,
        docs: bool = True,
    ) -> None:
        inline = a.name not in self.old and b.name not in self.new  # else a type-ref finding
        self.out.extend(name_changes(a, b, path, inline, self.spellers))
        # by name once: `Obj.prop` scans, which made a big object (or a long `extends` chain,
        # each link holding all its inherited properties) quadratic
        in_a, in_b = {p.name: p for p in a.properties}, {p.name: p for p in b.properties}
        for name in sorted(in_a.keys() | in_b.keys()):
            pa, pb = in_a.get(name), in_b.get(name)
            if pa == pb or self.inherited(owner, name):
                continue
            # a property that comes or goes where the other side's index signature takes any
            # value: no message changes validity (`Request.params._meta` in 2025-11-25)
            other = b if pb is None else a
            self.prop(pa, pb, (*path, name), docs, open_index=_takes_anything(other.index))
        if a.index != b.index and not self.inherited(owner, VALUE):
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
                                 deprecated=deprecated(p.doc)))  # fmt: skip
            return
        self.out.extend(flag_changes(a, b, path))
        self.out.extend(annotation_changes(a.keeps_number, b.keeps_number, a.type, b.type, path))
        self.out.extend(constraint_changes(a.constraints, b.constraints, path))
        self.expr(strip_null(a.type), strip_null(b.type), path, docs)
        if docs:
            self.doc(a.doc, b.doc, path)

    # -- type expressions ---------------------------------------------------------------------

    def expr(
        self, a: ir.TypeExpr, b: ir.TypeExpr, path: tuple[str, ...], docs: bool = True
    ) -> None:
        if self.match.same(a, b):
            if docs:
                self.inline_docs(a, b, path)
            return
        if isinstance(a, ir.Obj) and isinstance(b, ir.Obj):
            return self.obj(a, b, path, docs=docs)
        if isinstance(a, ir.Array) and isinstance(b, ir.Array):
            return self.expr(a.item, b.item, (*path, ITEM), docs)
        if isinstance(a, ir.Map) and isinstance(b, ir.Map) and self.match.same(a.key, b.key):
            return self.expr(a.value, b.value, (*path, VALUE), docs)
        if isinstance(a, ir.Union_) or isinstance(b, ir.Union_):
            keys_a = set(self.match.keys(members(a), old=True))
            keys_b = set(self.match.keys(members(b), old=False))
            both = isinstance(a, ir.Union_) and isinstance(b, ir.Union_)
            if both or keys_a & keys_b or self.match.expanded(a, b):
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
        variant = self.match.best_variant(a, b)
        if variant is not None:  # object <-> union: compare the fields with the closest variant
            self.obj(*variant, path, docs=False)

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
        facts = Facts(same_shape=self.match.same(da, db))
        self.add(path, What.TYPE_REF, _target(a), _target(b), facts=facts)
        self.deref_stack.add(key)
        self.expr(da, db, path, docs=False)
        self.deref_stack.discard(key)
        return True

    def union(self, a: ir.TypeExpr, b: ir.TypeExpr, path: tuple[str, ...], docs: bool) -> None:
        am, bm = members(a), members(b)
        exp = self.match.expanded(a, b)
        if exp is not None:
            facts = Facts(same_shape=False)
            self.add(path, What.TYPE_REF, notation.ts(a), notation.ts(b), facts=facts)
            am, bm = exp
        pairs = self.match.pair(am, bm)
        open_ = is_open(am) or is_open(bm)
        for m in pairs.removed:
            facts = _member_facts(m, open_, self.match.covered(m, bm, old=True))
            self.add(path, What.MEMBER_REMOVED, notation.ts(m), None, facts=facts)
        for m, other, k in pairs.matched:
            if isinstance(m, ir.Obj) and isinstance(other, ir.Obj):
                self.expr(m, other, (*path, member_label(k)), docs)
            elif not isinstance(m, (ir.Ref, ir.Lit, ir.Prim)):
                self.expr(m, other, path, docs)
        for m in pairs.added:
            facts = _member_facts(m, open_, self.match.covered(m, am, old=False))
            self.add(path, What.MEMBER_ADDED, None, notation.ts(m), facts=facts)
        unmatched_a, unmatched_b = pairs.unmatched
        if unmatched_a or unmatched_b:
            before = " | ".join(notation.ts(m) for m in unmatched_a) or None
            after = " | ".join(notation.ts(m) for m in unmatched_b) or None
            self.add(path, What.MEMBERS_UNMATCHED, before, after)

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
            kb = dict(zip(self.match.keys(b.members, old=False), b.members))
            for m, k in zip(a.members, self.match.keys(a.members, old=True)):
                if isinstance(m, ir.Obj) and k in kb:
                    self.inline_docs(m, kb[k], (*path, member_label(k)))


_OBJECT = ir.Prim(ir.PrimKind.OBJECT)
_EMPTY = ir.Obj((), ())


def _optional_only(t: ir.TypeExpr) -> bool:
    return isinstance(t, ir.Obj) and bool(t.properties) and all(p.optional for p in t.properties)


def _target(t: ir.TypeExpr) -> str:
    return notation.obj(t, depth=1) if isinstance(t, ir.Obj) else notation.ts(t)


def _member_facts(m: ir.TypeExpr, open_: bool, covered: bool) -> Facts:
    ref = m.name if isinstance(m, ir.Ref) else None
    return Facts(literal=isinstance(m, ir.Lit), open=open_, ref=ref, covered=covered or None)


def _takes_anything(index: ir.Index | None) -> bool:
    """An index signature whose value is `unknown` or `any`: every extra key is allowed."""
    return (
        index is not None
        and isinstance(index.value, ir.Prim)
        and index.value.kind in (ir.PrimKind.UNKNOWN, ir.PrimKind.ANY)
    )


def compare(
    old: ir.Resolved, new: ir.Resolved, old_methods: MethodModel, new_methods: MethodModel
) -> tuple[Change, ...]:
    """Every difference between two resolved schemas, sorted."""
    return Comparer(old, new).run(old_methods, new_methods)
