"""The reference graph between declarations, as resolution needs it.

Which aliases stand for themselves (`type A = B; type B = A | string`: refused, as TypeScript
refuses them) and which declarations each one needs resolved before it (its bases and the
references it intersects), so that the resolver resolves them in that order instead of
recursing down a chain. Iterative walks: a chain of any length costs the same per link.
"""

from __future__ import annotations

from . import ir


def alias_cycles(types: dict[str, ir.Interface | ir.Alias]) -> list[str]:
    """The aliases that stand for themselves (`type A = B; type B = A | string`), as TypeScript
    finds them: a reference counts where the alias's value is the referenced type itself (alone,
    in a union or an intersection); through an object, an array or a map the reference is
    deferred, so recursive types stay allowed. Iterative, linear in the declarations."""
    edges = {
        name: [r for r in _immediate_refs(d.type) if isinstance(types.get(r), ir.Alias)]
        for name, d in types.items()
        if isinstance(d, ir.Alias)
    }
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    cyclic: set[str] = set()
    for root, refs in edges.items():
        if root in state:
            continue
        path, stack = [root], [iter(refs)]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                cyclic.update(path[path.index(nxt) :])
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(edges[nxt]))
    return [name for name in edges if name in cyclic]


def eager_refs(d: ir.Interface | ir.Alias) -> tuple[str, ...]:
    """The declarations `d` needs resolved to resolve itself: its bases and every reference it
    intersects, anywhere inside it."""
    out = [b.name for b in d.bases] if isinstance(d, ir.Interface) else []
    todo: list[ir.TypeExpr] = [d.body if isinstance(d, ir.Interface) else d.type]
    while todo:
        t = todo.pop()
        if isinstance(t, ir.Intersection):
            out += [m.name for m in t.members if isinstance(m, ir.Ref)]
            todo.extend(t.members)
        elif isinstance(t, ir.Obj):
            todo.extend(p.type for p in t.properties)
            if t.index is not None:
                todo.append(t.index.value)
        elif isinstance(t, ir.Array):
            todo.append(t.item)
        elif isinstance(t, ir.Union_):
            todo.extend(t.members)
        elif isinstance(t, ir.Map):
            todo += [t.key, t.value]
        elif isinstance(t, ir.Annotated):
            todo.append(t.type)
    return tuple(dict.fromkeys(out))


def _immediate_refs(t: ir.TypeExpr) -> list[str]:
    out, todo = [], [t]
    while todo:
        t = todo.pop()
        if isinstance(t, ir.Ref):
            out.append(t.name)
        elif isinstance(t, (ir.Union_, ir.Intersection)):
            todo.extend(t.members)
        elif isinstance(t, ir.Annotated):
            todo.append(t.type)
    return out
