"""The vectors of one type in one version: valid instances (official examples, minimal, full,
each union member and enum value, fractional numbers, null where allowed) and invalid ones (each
required member dropped, each literal broken, each member of a wrong JSON type, each constraint
violated, an object no union member accepts). Every invalid instance is a valid one changed in
one place; its expected errors are what the checker (`check`) finds there."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import ir
from .check import Checker, Problem, accepts_kind, json_kind
from .codes import REQUIRED
from .paths import key_path
from .values import Builder, Unbuildable

WRONG_LITERAL = "not-a-valid-literal"
# Official generator differences a vector may carry (docs/conformance.md).
NUMBER_AS_INTEGER = "number-as-integer"
NULL_ERASED = "null-erased"
JSON_TEXT_RULE = "json-text-rule"

# A value of each JSON type, to put where the member takes none of that type.
_WRONG: tuple[tuple[str, Any], ...] = (
    ("boolean", True),
    ("string", "x"),
    ("integer", 7),
    ("array", []),
    ("object", {}),
)


@dataclass
class Case:
    description: str
    data: Any
    valid: bool
    errors: list[Problem] = field(default_factory=list)
    deviation: str = ""  # one of the flags above: the official schema.json is known to differ
    text: bool = False  # `data` is JSON text, to be parsed by the implementation under test
    member: str = ""  # the top-level member an invalid case dropped (for cross-version vectors)
    why: str = ""  # the cross-version reason of a dropped member, for its error


# A reason for a dropped member: (type, member) -> words, or "" (the cross-version model).
Reasons = Callable[[str, str], str]


class TypeCases:
    def __init__(self, resolved: ir.Resolved) -> None:
        self.build = Builder(resolved)
        self.checker = Checker(resolved)
        self.types = self.build.types

    def cases(self, name: str, examples: list[tuple[str, Any]], reasons: Reasons) -> list[Case]:
        out = [Case(f"official example {file}", data, True) for file, data in examples]
        try:
            minimal = self.build.of_type(name, False)
        except Unbuildable:
            return out
        full = self.build.of_type(name, True)
        out.append(Case("minimal: required members only", minimal, True))
        if full != minimal:
            out.append(Case("every optional member", full, True))
        td = self.types[name]
        out += self.members(td)
        obj = self.checker.obj_of(td.type)
        if obj is not None:
            out += self.member_values(obj, minimal)
            out += self.broken(name, obj, minimal, "$", reasons)
        out += self.whole(name, td, minimal)
        return [c for c in out if self.agrees(name, c)]

    def agrees(self, name: str, case: Case) -> bool:
        """Keep a case the checker labels as intended; an invalid one gets the checker's errors
        (a change the type accepts after all, such as a wrong type under `unknown`, is no
        vector)."""
        found = self.checker.errors(name, case.data)
        if not case.valid:
            if case.why:
                found = [dataclasses.replace(p, message=case.why) if p.code == REQUIRED else p
                         for p in found]  # fmt: skip
            case.errors = found + self.alternatives(name, case.data, found)
        return bool(found) != case.valid

    def alternatives(self, name: str, data: Any, found: list[Problem]) -> list[Problem]:
        """For a value no member of a union type accepts: the errors of each member, any of
        which a target may report instead of the union's own."""
        t = self.types[name].type
        if not isinstance(t, ir.Union_) or not any(p.path == "$" for p in found):
            return []
        seen = {p.path for p in found}
        out = []
        for m in t.members:
            for p in self.checker.errors_of(m, data, "$"):
                if p.path not in seen:
                    seen.add(p.path)
                    out.append(p)
        return out

    # -- valid -----------------------------------------------------------------------------

    def members(self, td: ir.TypeDef) -> Iterator[Case]:
        """Each member of a union type (each value of an enum) at least once."""
        t = td.type
        if not isinstance(t, ir.Union_):
            return
        for m in t.members:
            try:
                value = self.build.value(m, False, (td.name,))
            except Unbuildable:
                continue
            deviation = NULL_ERASED if json_kind(value) == "null" else ""
            yield Case(f"union member {_describe(m)}", value, True, deviation=deviation)

    def member_values(self, obj: ir.Obj, minimal: dict[str, Any]) -> Iterator[Case]:
        """Per top-level member: each inline union member, null where allowed, a fraction where
        the member is a number."""
        for p in obj.properties:
            values: list[tuple[str, Any, str]] = []
            if isinstance(p.type, ir.Union_):
                for m in p.type.members[1:]:
                    try:
                        v = self.build.value(m, False, ())
                    except Unbuildable:
                        continue
                    values.append((f"`{p.name}` as {_describe(m)}", v, ""))
            if p.nullable:
                erased = "" if p.doc.has("nullable") else NULL_ERASED
                values.append((f"`{p.name}` null", None, erased))
            fraction = _fraction(p)
            if fraction is not None:
                values.append((f"`{p.name}` a fractional number", fraction, NUMBER_AS_INTEGER))
            for description, v, deviation in values:
                data = dict(minimal)
                data[p.name] = v
                yield Case(description, data, True, deviation=deviation)

    # -- invalid ---------------------------------------------------------------------------

    def broken(
        self, name: str, obj: ir.Obj, value: dict[str, Any], path: str, reasons: Reasons
    ) -> Iterator[Case]:
        """`value` (an instance of `obj` at `path`) changed in one place, member by member,
        down through inline objects."""
        top = path == "$"
        for p in obj.properties:
            at = key_path(path, p.name)
            if not p.optional:
                data = _without(value, p.name)
                why = reasons(name, p.name) if top else ""
                case = Case(f"`{at}` dropped" + (f": {why}" if why else ""), data, False)
                case.member = p.name if top else ""
                case.why = why
                yield case
            current = value.get(p.name)
            if p.name not in value:
                try:
                    current = self.build.value(p.type, False, (name,), p.constraints)
                except Unbuildable:
                    continue
            for description, v in self.wrong(p, current):
                yield Case(f"`{at}` {description}", _with(value, p.name, v), False)
            inner = p.type if isinstance(p.type, ir.Obj) else None
            if inner is not None and isinstance(current, dict):
                for case in self.broken(name, inner, current, at, reasons):
                    case.data = _with(value, p.name, case.data)
                    case.member = ""
                    yield case

    def wrong(self, p: ir.Property, current: Any) -> Iterator[tuple[str, Any]]:
        """A wrong JSON type, a broken literal, each constraint violated."""
        accepted = self.kinds(p.type)
        if p.nullable:
            accepted.add("null")
        for kind, v in _WRONG:
            if not accepts_kind(accepted, kind):
                yield f"given {kind}", copy.deepcopy(v)
                break
        if accepted == {"string"} and isinstance(current, str) and self.literal(p.type):
            yield "broken literal", WRONG_LITERAL
        yield from self.violations(p.constraints, p.type, current)
        if isinstance(p.type, ir.Array):
            item_kinds = self.kinds(p.type.item)
            for kind, v in _WRONG:
                if not accepts_kind(item_kinds, kind):
                    yield f"with an item of type {kind}", [copy.deepcopy(v)]
                    break

    def violations(
        self, c: ir.Constraints, t: ir.TypeExpr, current: Any
    ) -> Iterator[tuple[str, Any]]:
        """Each constraint violated (an array grown past `maxItems` repeats its first item)."""
        if c.minimum is not None:
            yield f"below its minimum {c.minimum}", c.minimum - 1
        if c.maximum is not None:
            yield f"above its maximum {c.maximum}", c.maximum + 1
        if c.max_items is not None:
            item = current[:1] if isinstance(current, list) and current else None
            if item is None and isinstance(t, ir.Array):
                try:
                    item = [self.build.value(t.item, False, ())]
                except Unbuildable:
                    item = None
            if item is not None:
                yield f"more than {c.max_items} items", item * (c.max_items + 1)
        if c.min_items is not None and c.min_items > 0:
            yield f"fewer than {c.min_items} items", []

    def whole(self, name: str, td: ir.TypeDef, minimal: Any) -> Iterator[Case]:
        """The value itself: of a wrong JSON type, a broken literal, an object no member takes."""
        accepted = self.kinds(td.type)
        for kind, v in _WRONG:
            if not accepts_kind(accepted, kind):
                yield Case(f"the value given {kind}", copy.deepcopy(v), False)
                break
        if accepted == {"string"} and self.literal(td.type):
            yield Case("broken literal", WRONG_LITERAL, False)
        for description, v in self.violations(td.constraints, td.type, minimal):
            yield Case(f"the value {description}", v, False)
        if isinstance(td.type, ir.Union_) and accepted == {"object"}:
            for data, what in (({}, "an empty object"), ({"x-unknown": 1}, "an unknown object")):
                if self.checker.errors(name, data):
                    yield Case(f"{what}: no member of the union accepts it", data, False)
                    break
            disc = self.checker.members(td.type)[0]
            if disc is not None and isinstance(minimal, dict) and disc in minimal:
                data = _with(minimal, disc, WRONG_LITERAL)
                yield Case(f"discriminator `{disc}` broken", data, False)

    # -- model facts -------------------------------------------------------------------------

    def kinds(self, t: ir.TypeExpr) -> set[str]:
        return self.checker.kinds(t)

    def literal(self, t: ir.TypeExpr, seen: frozenset[str] = frozenset()) -> bool:
        """Whether every value of `t` is a string literal."""
        if isinstance(t, ir.Lit):
            return t.kind == "string"
        if isinstance(t, ir.Ref):
            return t.name not in seen and self.literal(self.types[t.name].type, seen | {t.name})
        if isinstance(t, ir.Union_):
            return all(self.literal(m, seen) for m in t.members)
        return False


def _fraction(p: ir.Property) -> float | None:
    """A non-whole value the member accepts, when it is a plain `number`."""
    if p.keeps_number or not (isinstance(p.type, ir.Prim) and p.type.kind is ir.PrimKind.NUMBER):
        return None
    low, high = p.constraints.minimum, p.constraints.maximum
    if low is not None and high is not None:
        return (low + high) / 2 if high - low != 1 else low + 0.5
    return (low if low is not None else 1) + 0.5


def _describe(t: ir.TypeExpr) -> str:
    if isinstance(t, ir.Ref):
        return t.name
    if isinstance(t, ir.Lit):
        return repr(t.value) if isinstance(t.value, str) else str(t.value).lower()
    if isinstance(t, ir.Prim):
        return t.kind.value
    if isinstance(t, ir.Obj):
        return t.name or "object"
    if isinstance(t, ir.Array):
        return "array"
    return "member"


def _without(value: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in value.items() if k != key}


def _with(value: dict[str, Any], key: str, v: Any) -> dict[str, Any]:
    out = dict(value)
    out[key] = v
    return out
