"""What a type reaches through references, over the resolved model: the declared names a type
expression refers to (`refs`), every declared type reachable from some roots (`reach`), a type's
declared bases (`ancestors`). Neutral: names of declared types only (what each method's messages
may carry is `methods.usage`)."""

from __future__ import annotations

from collections.abc import Iterable

from .. import ir


def refs(t: ir.TypeExpr) -> Iterable[str]:
    """Names of declared types referenced anywhere inside a type expression."""
    if isinstance(t, ir.Ref):
        yield t.name
    elif isinstance(t, ir.Array):
        yield from refs(t.item)
    elif isinstance(t, (ir.Union_, ir.Intersection)):
        for m in t.members:
            yield from refs(m)
    elif isinstance(t, ir.Map):
        yield from refs(t.key)
        yield from refs(t.value)
    elif isinstance(t, ir.Obj):
        for p in t.properties:
            yield from refs(p.type)
        if t.index is not None:
            yield from refs(t.index.value)


def reach(types: dict[str, ir.TypeDef], roots: Iterable[str]) -> frozenset[str]:
    """Every declared type reachable from `roots` (included) through references."""
    seen: set[str] = set()
    todo = [r for r in roots if r in types]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(r for r in refs(types[name].type) if r in types and r not in seen)
    return frozenset(seen)


def ancestors(types: dict[str, ir.TypeDef], name: str) -> frozenset[str]:
    """Declared bases of a type, transitively (for aliases: none)."""
    out: set[str] = set()
    todo = [name]
    while todo:
        td = types.get(todo.pop())
        for b in td.bases if td else ():
            if b.name not in out:
                out.add(b.name)
                todo.append(b.name)
    return frozenset(out)
