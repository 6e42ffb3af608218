"""The one rule for telling the object members of a union apart.

Used to name inline union members (`resolve`), to dispatch in the generated validators and
decoders (`bindings`), and to match union members across versions (`diff`). Each caller describes
its members as `Member`s (what the rule needs to know, read from the declared or the resolved
model); the rule itself lives only here.

A discriminator is a property that every member requires, never null, whose type is a string
literal or a union of string literals, with values disjoint across the members. Among several,
`type`, `method` and `kind` are preferred, in that order; then the first in the first member's
property order. A member without such a property is named by its distinguishing keys instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import ir
from .records import record

PREFERRED = ("type", "method", "kind")


@record(slots=True)
class Member:
    """One object member of a union, as the rule sees it."""

    keys: tuple[str, ...]  # every declared property, in order
    # required, non-nullable properties whose type is one string literal or a union of them
    literals: tuple[tuple[str, tuple[str, ...]], ...]
    # each property as `name-kind` (`a-string`): tells apart members with the same keys
    signature: tuple[str, ...] = ()

    def values(self, wire: str) -> tuple[str, ...]:
        for k, v in self.literals:
            if k == wire:
                return v
        return ()


def discriminator(members: Sequence[Member]) -> str | None:
    """The wire name of the property that tells `members` apart, or None. (A lone member is
    told apart by the first candidate: it has nothing to be disjoint from.)"""
    if not members:
        return None
    candidates = [k for k, _ in members[0].literals]
    order = [w for w in PREFERRED if w in candidates]
    order += [w for w in candidates if w not in order]
    for wire in order:
        seen: set[str] = set()
        for m in members:
            values = m.values(wire)
            if not values or seen.intersection(values):
                break
            seen.update(values)
        else:
            return wire
    return None


def distinguishing_keys(member: Member, others: Sequence[Member]) -> tuple[str, ...]:
    """The keys of `member` that no other member declares (in its order), else all its keys."""
    taken = {k for o in others for k in o.keys}
    own = tuple(k for k in member.keys if k not in taken)
    return own or member.keys


def string_literals(
    t: ir.TypeExpr, types: Mapping[str, ir.TypeDef], seen: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The values of a resolved string literal type or union of them (through aliases), else ()."""
    if isinstance(t, ir.Ref):
        td = types.get(t.name)
        if td is None or t.name in seen:
            return ()
        return string_literals(td.type, types, seen | {t.name})
    if isinstance(t, ir.Lit):
        return (t.value,) if t.kind == "string" and isinstance(t.value, str) else ()
    if isinstance(t, ir.Union_):
        out: list[str] = []
        for m in t.members:
            values = string_literals(m, types, seen)
            if not values:
                return ()
            out.extend(values)
        return tuple(dict.fromkeys(out))
    return ()


def resolved_member(obj: ir.Obj, types: Mapping[str, ir.TypeDef]) -> Member:
    """A resolved object as the rule sees it."""
    literals = []
    for p in obj.properties:
        values = () if p.optional or p.nullable else string_literals(p.type, types)
        if values:
            literals.append((p.name, values))
    return Member(tuple(p.name for p in obj.properties), tuple(literals))


def declared_member(
    obj: ir.Obj, types: Mapping[str, ir.Interface | ir.Alias], consts: Mapping[str, ir.Const]
) -> Member:
    """A declared inline object as the rule sees it (`resolve` names union members by it)."""
    literals = []
    for p in obj.properties:
        if p.optional or p.doc.has("nullable"):
            continue
        values = _declared_literals(p.type, types, consts, set())
        if values:
            literals.append((p.name, values))
    signature = tuple(f"{p.name}-{kind_word(p.type)}" for p in obj.properties)
    return Member(tuple(p.name for p in obj.properties), tuple(literals), signature)


def _declared_literals(
    t: ir.TypeExpr,
    types: Mapping[str, ir.Interface | ir.Alias],
    consts: Mapping[str, ir.Const],
    seen: set[str],
) -> tuple[str, ...]:
    """The values of a declared string literal type (through `typeof` and aliases), else ()."""
    if isinstance(t, ir.Lit):
        return (t.value,) if isinstance(t.value, str) and t.kind == "string" else ()
    if isinstance(t, ir.TypeOf) and t.name in consts:
        return _declared_literals(consts[t.name].value, types, consts, seen)
    if isinstance(t, ir.Ref) and t.name not in seen:
        decl = types.get(t.name)
        if isinstance(decl, ir.Alias):
            return _declared_literals(decl.type, types, consts, seen | {t.name})
        return ()
    if isinstance(t, ir.Union_):
        out: list[str] = []
        for m in t.members:
            values = _declared_literals(m, types, consts, seen)
            if not values:
                return ()
            out.extend(values)
        return tuple(dict.fromkeys(out))
    return ()


def kind_word(t: ir.TypeExpr) -> str:
    """One word for what a declared type is, for names (`string`, `Foo`, `array`)."""
    if isinstance(t, ir.Prim):
        return t.kind.value
    if isinstance(t, ir.Lit):
        return str(t.value)
    if isinstance(t, (ir.Ref, ir.TypeOf)):
        return t.name
    return type(t).__name__.rstrip("_").lower()
