"""Imports of generated modules: which names a module's view uses, and the import statements
in the order ruff's isort rules expect (so generated code passes `ruff check` as it is).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import re
from collections.abc import Iterator

from ....pytext import import_cmp, import_key, sort_imports


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


def import_lines(module: str, names: list[str]) -> tuple[str, ...]:
    """`from module import ...` statements as ruff's isort orders them: plain names together,
    each `x as _y` on its own line, statements by their first name."""
    plain = sort_imports([n for n in names if " as " not in n])
    statements = [[n] for n in names if " as " in n] + ([plain] if plain else [])

    firsts = [s[0].split(" as ")[0] for s in statements]
    if all(n.isascii() for n in firsts):
        statements.sort(key=lambda s: import_key(s[0].split(" as ")[0]))
    else:

        def cmp(a: list[str], b: list[str]) -> int:
            return import_cmp(a[0].split(" as ")[0], b[0].split(" as ")[0])

        statements.sort(key=functools.cmp_to_key(cmp))
    return tuple(f"from {module} import {', '.join(s)}" for s in statements)


def parents_first(source: str) -> str:
    """Each run of consecutive top-level relative imports reordered furthest parent first
    (`from .. import x` before `from . import y`), as isort wants; stable otherwise. Version
    subpackages of a distribution import the shared runtime from `..`."""
    lines = source.splitlines(keepends=True)
    body = ast.parse(source).body
    runs: list[list[ast.ImportFrom]] = []
    for prev, node in zip([None, *body], body):
        if not (isinstance(node, ast.ImportFrom) and node.level > 0):
            continue
        if runs and prev is runs[-1][-1]:
            runs[-1].append(node)
        else:
            runs.append([node])
    for run in reversed(runs):
        start, end = run[0].lineno - 1, run[-1].end_lineno or run[-1].lineno
        chunks = [("".join(lines[n.lineno - 1 : n.end_lineno]), n.level) for n in run]
        if end - start != sum(c.count("\n") for c, _ in chunks):
            continue  # comments or blank lines between them: leave the run as it is
        ordered = sorted(chunks, key=lambda chunk: -chunk[1])
        lines[start:end] = [text for text, _ in ordered]
    return "".join(lines)
