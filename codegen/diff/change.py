"""The neutral change record shared by the comparisons (`compare.py`, `compare_methods.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from .notation import subject

Facts = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Change:
    """One neutral difference. `scope` is "method", "type" or "constant"."""

    scope: str
    path: tuple[str, ...]
    what: str
    before: str | None = None
    after: str | None = None
    facts: Facts = ()
    carriers: tuple[str, ...] = ()  # other types whose messages carry this change (inheritance)

    @property
    def subject(self) -> str:
        return subject(self.path)

    def sort_key(self) -> tuple[str, tuple[str, ...], str, str, str, Facts]:
        return (self.scope, self.path, self.what, self.before or "", self.after or "", self.facts)

    def fact(self, key: str, default: str = "") -> str:
        for k, v in self.facts:
            if k == key:
                return v
        return default


def yes(flag: bool) -> str:
    return "yes" if flag else "no"
