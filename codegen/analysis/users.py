"""Where a declaration is used: the properties (by subject path) that name it.

A subject path is the declared name then property names, `ITEM` for an array's items and
`VALUE` for a map's values (`("Tool", "execution")`, `("CallToolResult", "content", "[]")`).
Read by the presence (a member that stood in an inline object at a place a later version names),
the diff's restatement rules and its annotations (a removed type is shown where its users were)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .. import ir

ITEM = "[]"  # a path segment: an array's items
VALUE = "[*]"  # a path segment: a map's (index signature's) values


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


def declaring_base(types: Mapping[str, ir.TypeDef], name: str, prop: str) -> str | None:
    """The base type (through `extends`, transitively) that declares `name`'s property `prop`."""
    td = types.get(name)
    own = td.type.prop(prop) if td is not None and isinstance(td.type, ir.Obj) else None
    if own is None or own.loc is None:
        return None
    seen: set[str] = set()
    todo = [b.name for b in types[name].bases]
    found = None
    while todo:
        b = todo.pop(0)
        if b in seen:
            continue
        seen.add(b)
        bt = types.get(b)
        p = bt.type.prop(prop) if bt is not None and isinstance(bt.type, ir.Obj) else None
        if p is not None and p.loc == own.loc:
            found = b  # the deepest base that still has it is where it is declared
            todo = [bb.name for bb in types[b].bases]
    return found


def user_paths(types: Mapping[str, ir.TypeDef], name: str) -> list[tuple[str, ...]]:
    """The subject paths (`("Tool", "execution")`, `("ServerResult",)`) that name `name`, in
    declaration order; a property inherited by several types (through `extends`, or an
    intersection alias) is listed once, at the type that declares it: of the paths through one
    property declaration, the one whose type is declared nearest above it."""
    chosen: dict[object, tuple[tuple[str, ...], int]] = {}
    order: list[object] = []
    for td in types.values():
        if td.name == name:
            continue
        top = td.loc.line if td.loc is not None else 0
        for ref, path, where in _walk(td.type, (td.name,), top or None):
            if ref != name:
                continue
            key: object = where if where is not None and where != top else path
            # the declaring type: the one declared nearest above the property
            rank = (where or 0) - top if where is not None and top <= where else 10**9
            if key not in chosen:
                order.append(key)
                chosen[key] = (path, rank)
            elif rank < chosen[key][1]:
                chosen[key] = (path, rank)
    return list(dict.fromkeys(chosen[k][0] for k in order))
