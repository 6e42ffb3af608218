"""Language-neutral names, derived from what they name, never from counters or encounter order.

A declared type keeps its TS name. An inline object is named by joining its path in PascalCase:
`("CompleteRequest", "params", "argument")` -> `CompleteRequestParamsArgument`. Array items add
`Item`, map and index values add `Value`, and an inline object member of a union adds what tells
it apart from the other inline members (`discriminators.py`): its discriminator value
(`...Text` for `type: "text"`), else its distinguishing keys (`{a: string} | {b: number}` ->
`...A`, `...B`; with the same keys, by keys and kinds: `...AString`, `...ANumber`). So a name depends only on where the type stands and what it is, and stays the
same when union members are reordered.

`Namer` is the naming pass every inline object goes through: overrides from a reviewed names file,
collisions (an error naming both paths), and names-file entries that name nothing (stale: an
error too). Under them, the shipped reviewed names (`schemas/names.json`, `REVIEWED`) give the
worst path-derived names of the official schemas readable ones for every schema and target (an
entry a schema lacks is ignored); `former_names` tells a target which names they replaced. Targets derive their identifiers from these names in one place each
(`pynaming.py` for Python: one name table per package).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from .discriminators import Member, discriminator, distinguishing_keys
from .errors import Collector, Diagnostic, Location, SchemaError
from .reading import read_json
from .records import record

_WORD = re.compile(r"[A-Za-z0-9]+")
_PACKAGE = Path(__file__).resolve().parent


def _reviewed() -> dict[str, str]:
    """The shipped reviewed names (path -> name): `codegen/names.json` in the wheel, else the
    checkout's `schemas/names.json`."""
    for path in (_PACKAGE / "names.json", _PACKAGE.parent / "schemas" / "names.json"):
        if path.is_file():
            return dict(json.loads(path.read_text(encoding="utf-8"))["names"])
    raise FileNotFoundError(f"names.json not found next to {_PACKAGE}")


REVIEWED: Mapping[str, str] = _reviewed()


def former_names(classes: Iterable[str], declared: Iterable[str]) -> dict[str, str]:
    """Former (path-derived) name -> reviewed name, for each reviewed entry that named one of
    `classes` (the classes a target made) from a path under one of `declared` (the schema's
    declared types): the Python targets keep the former as a deprecated alias."""
    made, owners = set(classes), set(declared)
    out = {}
    for key, new in sorted(REVIEWED.items()):
        path = tuple(key.split("."))
        if new in made and path[0] in owners and path_name(path) not in made:
            out[path_name(path)] = new
    return out


def pascal(segment: str) -> str:
    """One path segment in PascalCase: `_meta` -> `Meta`, `io.x/related-task` -> `IoXRelatedTask`."""
    words = _WORD.findall(segment)
    return "".join(w[0].upper() + w[1:] for w in words)


def path_name(path: tuple[str, ...]) -> str:
    name = "".join(pascal(p) for p in path)
    if not name or name[0].isdigit():
        name = "T" + name
    return name


def variant_segments(members: Sequence[Member]) -> list[str]:
    """The path segment of each inline object member of one union (same order as `members`)."""
    wire = discriminator(members)
    out = []
    for i, m in enumerate(members):
        if wire is not None:
            words: Sequence[str] = m.values(wire)
        else:
            words = distinguishing_keys(m, [o for j, o in enumerate(members) if j != i])
        out.append("-".join(words) if words else "empty")
    # Same keys, other types: the kinds of their values tell them apart.
    return [
        "-".join(m.signature) or o if out.count(o) > 1 and members.count(m) == 1 else o
        for o, m in zip(out, members)
    ]


@record
class Overrides:
    """A reviewed JSON file mapping inline-type paths (`A.b.c`) to the names to use instead."""

    names: Mapping[str, str] = field(default_factory=dict)
    file: str = ""
    lines: Mapping[str, int] = field(default_factory=dict)  # where each entry is written

    def loc(self, key: str) -> Location:
        return Location(self.file, self.lines.get(key, 1), 1)

    def check_used(self, used: Iterable[str]) -> None:
        """Entries that named no inline object in any schema read with them: an error each."""
        stale = sorted(set(self.names) - set(used))
        if stale:
            raise SchemaError(
                Diagnostic(self.loc(k), f"name override '{k}' matches no inline type")
                for k in stale
            )


NO_OVERRIDES = Overrides()


def read_overrides(path: str | None) -> Overrides:
    if path is None:
        return NO_OVERRIDES
    text, data = read_json(path, "name overrides")
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise SchemaError(
            [Diagnostic(Location(path, 1, 1), "name overrides must map path strings to names")]
        )
    lines = {}
    for k in data:
        at = text.find(json.dumps(k))
        lines[k] = text.count("\n", 0, at) + 1 if at >= 0 else 1
    return Overrides(data, path, lines)


class Namer:
    """Names inline objects of one schema and reports collisions."""

    def __init__(self, overrides: Overrides, errors: Collector) -> None:
        self.overrides = overrides
        self.errors = errors
        self.named: dict[str, tuple[str, ...]] = {}  # name -> the path that took it
        self.used: set[str] = set()

    def declare(self, name: str) -> None:
        self.named[name] = (name,)

    def inline(self, path: tuple[str, ...], has_properties: bool, loc: Location) -> str:
        """The name of the inline object at `path` (classes only are checked for collisions)."""
        key = ".".join(path)
        if key in self.overrides.names:
            self.used.add(key)
        name = self.overrides.names.get(key) or REVIEWED.get(key) or path_name(path)
        if has_properties and len(path) > 1:
            other = self.named.setdefault(name, path)
            if other != path:
                self.errors.add(
                    loc,
                    f"type name '{name}' collides: {'.'.join(other)} and {key}; "
                    "settle it in a name overrides file",
                )
        return name
