"""Which type declares a property's change: a change inherited unchanged is reported once.

A property change inherited unchanged through `extends` (or copied by an alias of an
intersection) is reported once, at the type that declares it; the inheriting types are its
carriers (their messages carry the change too). The walk (`compare.py`) asks `inherited` before
comparing a property and attaches `carriers` at the end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from .. import ir
from .notation import VALUE


class Inheritance:
    def __init__(self, old: Mapping[str, ir.TypeDef], new: Mapping[str, ir.TypeDef]) -> None:
        self.old, self.new = old, new
        # (declaring type, property) -> the types that inherit its change
        self.carriers: dict[tuple[str, str], set[str]] = {}
        self.origins: dict[tuple[str, str], str] = {}

    def inherited(self, owner: str, key: str) -> bool:
        """Is `owner`'s change of `key` inherited as is? Then it is recorded as a carrier."""
        origin = self.origin(owner, key)
        if origin == owner:
            return False
        self.carriers.setdefault((origin, key), set()).add(owner)
        return True

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

    def _prop_of(self, types: Mapping[str, ir.TypeDef], t: str, key: str) -> object:
        td = types.get(t)
        if td is None or not isinstance(td.type, ir.Obj):
            return None
        return td.type.index if key == VALUE else td.type.prop(key)

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
