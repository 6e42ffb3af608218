"""Imports of generated modules: which names a module's view uses, and the import statements
in the order ruff's isort rules expect (so generated code passes `ruff check` as it is).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator


def all_strings(obj: object) -> str:
    """Every string inside a view (nested dataclasses, tuples, lists, generators), joined."""
    out: list[str] = []

    def walk(o: object) -> None:
        if isinstance(o, str):
            out.append(o)
            return
        cls: type = type(o)
        names = _field_names(cls)
        if names is not None:
            for name in names:
                walk(getattr(o, name))
        elif isinstance(o, (tuple, list, Iterator)):
            for item in o:
                walk(item)

    walk(obj)
    return "\n".join(out)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """The field names of a dataclass, None for any other class (looked up once per class: a
    package's views hold ~10,000 objects)."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*")


def uses(names: list[str], text: str) -> list[str]:
    """The names (identifiers) that occur in `text` as names, not as attributes."""
    found = set(_NAME.findall(text))  # one pass over the view's text, not one per name
    return [n for n in names if (n in found if n.isidentifier() else _occurs(n, text))]


def _occurs(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", text) is not None
