"""Pairing the two versions' parts for the walk (`compare.py`): which union members are the same
member, which object variant an object is closest to, and when two types are the same shape.

Union members are matched by identity: referenced name, literal value, primitive kind, and for
inline objects their discriminating literal property (`type: "text"`). A member naming an alias
of a union is expanded into that union's members where that creates matches (`A | B` ->
`AOrBOrC`). Members that cannot be matched one-to-one are left to the walk to report as such,
never dropped. Old names are read through the renames found among the types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .. import ir
from .algebra import Acceptance, member_key, members, shape, union_discriminator

Types = Mapping[str, ir.TypeDef]
Members = tuple[ir.TypeExpr, ...]


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two unions' members paired by identity."""

    matched: tuple[tuple[ir.TypeExpr, ir.TypeExpr, tuple[str, ...]], ...]  # old, new, identity
    removed: Members  # old members with no counterpart
    added: Members  # new members with no counterpart
    # members whose identity several share, when their shapes differ: they pair with nothing
    unmatched: tuple[Members, Members]


class Matcher:
    def __init__(self, old: Types, new: Types, renames: Mapping[str, str]) -> None:
        self.old, self.new, self.renames = old, new, renames

    def same(self, a: ir.TypeExpr, b: ir.TypeExpr) -> bool:
        """Are an old and a new type the same shape, old names read through the renames?"""
        return shape(a, self.renames) == shape(b, {})

    def keys(self, ms: tuple[ir.TypeExpr, ...], old: bool) -> list[tuple[str, ...]]:
        """The identities of union members `ms` of the old (or new) schema."""
        types = self.old if old else self.new
        renames = self.renames if old else {}
        wire = union_discriminator(ms, types)
        return [member_key(m, renames, wire, types) for m in ms]

    def pair(self, am: Members, bm: Members) -> Pairing:
        """The old members `am` and the new `bm` paired one-to-one by identity, in order."""
        ka, kb = self.keys(am, old=True), self.keys(bm, old=False)
        matched, removed, added = [], [], []
        unmatched_a: list[ir.TypeExpr] = []
        unmatched_b: list[ir.TypeExpr] = []
        for m, k in zip(am, ka):
            if ka.count(k) > 1 or kb.count(k) > 1:
                unmatched_a.append(m)
            elif k not in kb:
                removed.append(m)
            else:
                matched.append((m, bm[kb.index(k)], k))
        for m, k in zip(bm, kb):
            if ka.count(k) > 1 or kb.count(k) > 1:
                unmatched_b.append(m)
            elif k not in ka:
                added.append(m)
        sa = sorted(map(str, (shape(m, self.renames) for m in unmatched_a)))
        sb = sorted(map(str, (shape(m, {}) for m in unmatched_b)))
        unmatched = ((), ()) if sa == sb else (tuple(unmatched_a), tuple(unmatched_b))
        return Pairing(tuple(matched), tuple(removed), tuple(added), unmatched)

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

    def best_variant(self, a: ir.TypeExpr, b: ir.TypeExpr) -> tuple[ir.Obj, ir.Obj] | None:
        """An object on one side, a union of objects on the other: the object and the variant
        sharing the most property names with it (the first on a tie; None when none shares)."""
        da, db = _deref(a, self.old), _deref(b, self.new)
        if isinstance(da, ir.Obj) and isinstance(db, ir.Union_):
            best = _closest(da, [_deref(m, self.new) for m in db.members])
            return (da, best) if best is not None else None
        if isinstance(db, ir.Obj) and isinstance(da, ir.Union_):
            best = _closest(db, [_deref(m, self.old) for m in da.members])
            return (best, db) if best is not None else None
        return None


def flat(t: ir.TypeExpr, types: Types, seen: tuple[str, ...] = ()) -> tuple[ir.TypeExpr, ...]:
    """The members of a union with every member that names a union alias replaced by its
    members, recursively."""
    out: list[ir.TypeExpr] = []
    for m in members(t):
        target = types.get(m.name) if isinstance(m, ir.Ref) else None
        if target is not None and isinstance(target.type, ir.Union_) and target.name not in seen:
            out.extend(flat(target.type, types, (*seen, target.name)))
        else:
            out.append(m)
    return tuple(out)


def _deref(t: ir.TypeExpr, types: Types) -> ir.TypeExpr:
    for _ in range(8):
        if not isinstance(t, ir.Ref) or t.name not in types:
            break
        t = types[t.name].type
    return t


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
