"""Where a declaration is used: the properties (by subject path) that name it.

Read by the restatement rules (a type removed with the only properties that named it restates
their removal) and by the annotations (a removed type is shown where its former users are)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .. import ir
from .notation import ITEM, VALUE, subject


def _walk(
    t: ir.TypeExpr, path: tuple[str, ...], line: int | None, depth: int = 0
) -> Iterator[tuple[str, tuple[str, ...], int | None]]:
    """(referenced name, subject path, line) for every reference inside `t`."""
    if depth > 12:
        return
    if isinstance(t, ir.Ref):
        yield t.name, path, line
    elif isinstance(t, (ir.Union_, ir.Intersection)):
        for m in t.members:
            yield from _walk(m, path, line, depth + 1)
    elif isinstance(t, ir.Array):
        yield from _walk(t.item, (*path, ITEM), line, depth + 1)
    elif isinstance(t, ir.Map):
        yield from _walk(t.value, (*path, VALUE), line, depth + 1)
    elif isinstance(t, ir.Annotated):
        yield from _walk(t.type, path, line, depth + 1)
    elif isinstance(t, ir.Obj):
        for p in t.properties:
            where = p.loc.line if p.loc is not None else line
            yield from _walk(p.type, (*path, p.name), where, depth + 1)
        if t.index is not None:
            where = t.index.loc.line if t.index.loc is not None else line
            yield from _walk(t.index.value, (*path, VALUE), where, depth + 1)


def user_paths(types: Mapping[str, ir.TypeDef], name: str) -> list[tuple[str, ...]]:
    """The subject paths (`("Tool", "execution")`, `("ServerResult",)`) that name `name`, in
    declaration order; a property inherited by many types is listed once per type."""
    out: dict[tuple[str, ...], None] = {}
    for td in types.values():
        if td.name == name:
            continue
        line = td.loc.line if td.loc is not None else None
        for ref, path, _ in _walk(td.type, (td.name,), line):
            if ref == name:
                out.setdefault(path, None)
    return list(out)


def users(types: Mapping[str, ir.TypeDef], name: str) -> list[str]:
    """`user_paths` as subjects (`Tool.execution`)."""
    return [subject(p) for p in user_paths(types, name)]
