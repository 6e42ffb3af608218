"""A JSON value checked against a type of the resolved model: the errors, each with its path
(written as the Python target writes it) and its code. The oracle the vectors label their
cross-version instances with, and what `check-wire` and `check-server` validate messages with.

schema.ts semantics: `number` is any JSON number, objects are open (undeclared keys pass), a
union accepts a value one of its members accepts; when none does, a discriminated union reports
the chosen member's errors (or the discriminator), any other union the value itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import ir
from ..discriminators import discriminator, resolved_member
from .codes import CONST, ENUM, MAX_ITEMS, MAXIMUM, MIN_ITEMS, MINIMUM, REQUIRED, TYPE, UNION
from .paths import index_path, key_path


@dataclass(frozen=True)
class Problem:
    path: str
    code: str
    message: str
    also: str = ""  # another path a target may report instead (a union's, for its discriminator)


def json_kind(value: Any) -> str:
    """The JSON type of a parsed value: string, integer, number, boolean, null, array, object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if math.isfinite(value) and value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "other"


def show(value: Any) -> str:
    kind = json_kind(value)
    if kind in ("array", "object"):
        return "an " + kind if kind == "array" else "an object"
    if kind == "string":
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"string {text!r}"
    return f"{kind} {value!r}" if kind != "null" else "null"


class Checker:
    """The checks of one resolved schema."""

    def __init__(self, resolved: ir.Resolved) -> None:
        self.types: Mapping[str, ir.TypeDef] = resolved.type_map()
        self._unions: dict[int, tuple[str | None, list[tuple[ir.TypeExpr, ir.Obj | None]]]] = {}

    def errors(self, type_name: str, value: Any, path: str = "$") -> list[Problem]:
        out: list[Problem] = []
        self.typedef(self.types[type_name], value, path, out)
        return out

    def typedef(self, td: ir.TypeDef, value: Any, path: str, out: list[Problem]) -> None:
        before = len(out)
        self.check(td.type, value, path, out)
        if len(out) == before:
            self.constrain(td.constraints, value, path, out)

    def obj_of(self, t: ir.TypeExpr) -> ir.Obj | None:
        seen: set[str] = set()
        while isinstance(t, ir.Ref) and t.name in self.types and t.name not in seen:
            seen.add(t.name)
            t = self.types[t.name].type
        return t if isinstance(t, ir.Obj) else None

    def check(self, t: ir.TypeExpr, value: Any, path: str, out: list[Problem]) -> None:
        if isinstance(t, ir.Prim):
            self.prim(t.kind, value, path, out)
        elif isinstance(t, ir.Lit):
            if json_kind(value) not in _LIT_KINDS[t.kind] or value != t.value:
                code = CONST if json_kind(value) in _LIT_KINDS[t.kind] else TYPE
                out.append(Problem(path, code, f"expected {_lit(t)}, got {show(value)}"))
        elif isinstance(t, ir.Ref):
            self.typedef(self.types[t.name], value, path, out)
        elif isinstance(t, ir.Array):
            if not isinstance(value, list):
                out.append(Problem(path, TYPE, f"expected an array, got {show(value)}"))
                return
            for i, item in enumerate(value):
                self.check(t.item, item, index_path(path, i), out)
        elif isinstance(t, ir.Union_):
            self.union(t, value, path, out)
        elif isinstance(t, ir.Intersection):
            for m in t.members:
                self.check(m, value, path, out)
        elif isinstance(t, ir.Map):
            if not isinstance(value, dict):
                out.append(Problem(path, TYPE, f"expected an object, got {show(value)}"))
                return
            for key in ir.record_keys(t):
                if key not in value:
                    out.append(Problem(key_path(path, key), REQUIRED, "required member missing"))
                else:
                    self.check(t.value, value[key], key_path(path, key), out)
        elif isinstance(t, ir.Obj):
            self.obj(t, value, path, out)

    def prim(self, kind: ir.PrimKind, value: Any, path: str, out: list[Problem]) -> None:
        got = json_kind(value)
        ok = {
            ir.PrimKind.STRING: got == "string",
            ir.PrimKind.NUMBER: got in ("integer", "number"),
            ir.PrimKind.INTEGER: got == "integer",
            ir.PrimKind.BOOLEAN: got == "boolean",
            ir.PrimKind.NULL: got == "null",
            ir.PrimKind.OBJECT: got == "object",
            ir.PrimKind.UNKNOWN: True,
            ir.PrimKind.ANY: True,
            ir.PrimKind.NEVER: False,
        }[kind]
        if not ok:
            out.append(Problem(path, TYPE, f"expected {kind.value}, got {show(value)}"))

    def obj(self, t: ir.Obj, value: Any, path: str, out: list[Problem]) -> None:
        if not isinstance(value, dict):
            out.append(Problem(path, TYPE, f"expected an object, got {show(value)}"))
            return
        for p in t.properties:
            at = key_path(path, p.name)
            if p.name not in value:
                if not p.optional:
                    out.append(Problem(at, REQUIRED, f"required member `{p.name}` missing"))
                continue
            v = value[p.name]
            if v is None and p.nullable:
                continue
            before = len(out)
            self.check(p.type, v, at, out)
            if len(out) == before:
                self.constrain(p.constraints, v, at, out)
        if t.index is not None:
            declared = {p.name for p in t.properties}
            for key, v in value.items():
                if key not in declared:
                    self.check(t.index.value, v, key_path(path, key), out)

    def union(self, t: ir.Union_, value: Any, path: str, out: list[Problem]) -> None:
        for m in t.members:
            if not self.errors_of(m, value, path):
                return
        disc, members = self.members(t)
        if disc is not None and isinstance(value, dict):
            tag = value.get(disc)
            for m, obj in members:
                if obj is not None and isinstance(tag, str):
                    prop = obj.prop(disc)
                    if prop is not None and not self.errors_of(prop.type, tag, path):
                        self.check(m, value, path, out)
                        return
            what = "missing" if disc not in value else f"not one of the members' ({show(tag)})"
            code = REQUIRED if disc not in value else UNION
            message = f"discriminator `{disc}` {what}"
            out.append(Problem(key_path(path, disc), code, message, also=path))
            return
        literals = [m for m in t.members if isinstance(m, ir.Lit)]
        if literals and len(literals) == len(t.members) and json_kind(value) == "string":
            out.append(Problem(path, ENUM, f"expected one of {_lits(literals)}, got {show(value)}"))
            return
        code = UNION if accepts_kind(self.kinds(t), json_kind(value)) else TYPE
        out.append(Problem(path, code, f"no member of the union accepts {show(value)}"))

    def members(self, t: ir.Union_) -> tuple[str | None, list[tuple[ir.TypeExpr, ir.Obj | None]]]:
        found = self._unions.get(id(t))
        if found is None:
            pairs = [(m, self.obj_of(m)) for m in t.members]
            objs = [o for _, o in pairs if o is not None]
            disc = None
            if len(objs) == len(pairs) and len(objs) > 1:
                disc = discriminator([resolved_member(o, self.types) for o in objs])
            found = self._unions[id(t)] = (disc, pairs)
        return found

    def kinds(self, t: ir.TypeExpr, seen: frozenset[str] = frozenset()) -> set[str]:
        """The JSON types a type accepts (`number` includes integers)."""
        if isinstance(t, ir.Prim):
            return set(_PRIM_KINDS[t.kind])
        if isinstance(t, ir.Lit):
            return {"number" if t.kind == "number" else t.kind}
        if isinstance(t, ir.Ref):
            if t.name in seen:
                return set()
            return self.kinds(self.types[t.name].type, seen | {t.name})
        if isinstance(t, ir.Array):
            return {"array"}
        if isinstance(t, (ir.Union_, ir.Intersection)):
            sets = [self.kinds(m, seen) for m in t.members]
            if isinstance(t, ir.Union_):
                return set().union(*sets)
            return set.intersection(*sets) if sets else set()
        return {"object"}  # Map, Obj

    def errors_of(self, t: ir.TypeExpr, value: Any, path: str) -> list[Problem]:
        out: list[Problem] = []
        self.check(t, value, path, out)
        return out

    def constrain(self, c: ir.Constraints, value: Any, path: str, out: list[Problem]) -> None:
        if c.is_empty():
            return
        kind = json_kind(value)
        if kind in ("integer", "number"):
            if c.minimum is not None and value < c.minimum:
                out.append(Problem(path, MINIMUM, f"expected >= {c.minimum}, got {value!r}"))
            if c.maximum is not None and value > c.maximum:
                out.append(Problem(path, MAXIMUM, f"expected <= {c.maximum}, got {value!r}"))
        if kind == "array":
            if c.min_items is not None and len(value) < c.min_items:
                out.append(Problem(path, MIN_ITEMS, f"expected >= {c.min_items} items"))
            if c.max_items is not None and len(value) > c.max_items:
                out.append(Problem(path, MAX_ITEMS, f"expected <= {c.max_items} items"))


_ALL = ("string", "number", "integer", "boolean", "null", "array", "object")
_PRIM_KINDS: dict[ir.PrimKind, tuple[str, ...]] = {
    ir.PrimKind.STRING: ("string",),
    ir.PrimKind.NUMBER: ("number",),
    ir.PrimKind.INTEGER: ("integer",),
    ir.PrimKind.BOOLEAN: ("boolean",),
    ir.PrimKind.NULL: ("null",),
    ir.PrimKind.OBJECT: ("object",),
    ir.PrimKind.UNKNOWN: _ALL,
    ir.PrimKind.ANY: _ALL,
    ir.PrimKind.NEVER: (),
}


def accepts_kind(kinds: set[str], kind: str) -> bool:
    """Whether a value of JSON type `kind` can be one of `kinds` (an integer is a number)."""
    return kind in kinds or (kind == "integer" and "number" in kinds)


_LIT_KINDS = {"string": ("string",), "number": ("integer", "number"), "boolean": ("boolean",)}


def _lit(t: ir.Lit) -> str:
    return repr(t.value) if t.kind != "boolean" else str(t.value).lower()


def _lits(ts: list[ir.Lit]) -> str:
    return ", ".join(_lit(t) for t in ts)
