"""Pure facts about single type expressions, shared by the bindings' views: what they
contain, structural names, human descriptions, cycles in a name graph, alias constraints.
"""

from __future__ import annotations

import json

from .. import ir

P = ir.PrimKind


def is_class_obj(t: ir.TypeExpr) -> bool:
    """An object type with declared properties becomes a dataclass; a property-less object
    (`{ [key: string]: V }`, `{}`) is a `dict[str, V]`."""
    return isinstance(t, ir.Obj) and bool(t.properties)


def children(t: ir.TypeExpr) -> tuple[ir.TypeExpr, ...]:
    """The type expressions directly inside `t` (properties and index of an object included)."""
    if isinstance(t, ir.Obj):
        inner = tuple(p.type for p in t.properties)
        return inner + ((t.index.value,) if t.index is not None else ())
    if isinstance(t, ir.Array):
        return (t.item,)
    if isinstance(t, ir.Map):
        return (t.key, t.value)
    if isinstance(t, (ir.Union_, ir.Intersection)):
        return t.members
    return ()


def mentions(t: ir.TypeExpr, owner: str) -> tuple[str, ...]:
    out: list[str] = []

    def walk(u: ir.TypeExpr, top: bool) -> None:
        if isinstance(u, ir.Ref):
            out.append(u.name)
            return
        if isinstance(u, ir.Obj) and is_class_obj(u) and not top and u.name != owner:
            out.append(u.name)
            return
        for c in children(u):
            walk(c, False)

    walk(t, True)
    return tuple(dict.fromkeys(out))


def cyclic(graph: dict[str, tuple[str, ...]]) -> frozenset[str]:
    """Nodes on a cycle (members of a strongly connected component with a loop), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: set[str] = set()
    counter = 0
    succs: dict[str, list[str]] = {}  # computed once per node (per step would be quadratic)
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            succ = succs.get(node)
            if succ is None:
                succ = succs[node] = [s for s in graph.get(node, ()) if s in graph]
            if i < len(succ):
                work.append((node, i + 1))
                s = succ[i]
                if s not in index:
                    work.append((s, 0))
                elif s in on_stack:
                    low[node] = min(low[node], index[s])
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph.get(node, ()):
                    out.update(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return frozenset(out)


def json_literal(lit: ir.Lit) -> str:
    """How a literal type is spelled in messages and comments: its JSON text."""
    return json.dumps(lit.value, ensure_ascii=False)


def describe(t: ir.TypeExpr, index: object = None) -> str:
    """A short human description of a type for error messages (`string`, `"text"`, `Foo`)."""
    if isinstance(t, ir.Ref):
        return t.name
    if isinstance(t, ir.Prim):
        return {P.UNKNOWN: "any value", P.ANY: "any value", P.NEVER: "nothing"}.get(
            t.kind, t.kind.value
        )
    if isinstance(t, ir.Lit):
        return json_literal(t)
    if isinstance(t, ir.Array):
        return f"array of {describe(t.item, index)}"
    if isinstance(t, ir.Map):
        keys = ", ".join(ir.record_keys(t))
        return f"object with keys {keys} of {describe(t.value, index)}"
    if isinstance(t, ir.Obj):
        if is_class_obj(t):
            return t.name
        value = t.index.value if t.index is not None else ir.Prim(P.UNKNOWN)
        if isinstance(value, ir.Prim) and value.kind in (P.UNKNOWN, P.ANY):
            return "object"
        return f"object of {describe(value, index)}"
    if isinstance(t, ir.Union_):
        return " | ".join(describe(m, index) for m in t.members)
    if isinstance(t, ir.Intersection):
        return " & ".join(describe(m, index) for m in t.members)
    ir.not_resolved(t)


def is_never(t: ir.TypeExpr) -> bool:
    return isinstance(t, ir.Prim) and t.kind is P.NEVER


def structural_key(t: ir.TypeExpr) -> str:
    """A name for a type built from its structure only (never from where it stands)."""
    if isinstance(t, ir.Prim):
        return {P.STRING: "str", P.BOOLEAN: "bool"}.get(t.kind, t.kind.value)
    if isinstance(t, ir.Lit):
        return "lit_" + json_literal(t)
    if isinstance(t, ir.Ref):
        return t.name
    if isinstance(t, ir.Obj):
        if is_class_obj(t):
            return t.name
        return "dict_of_" + (structural_key(t.index.value) if t.index is not None else "any")
    if isinstance(t, ir.Array):
        return "list_of_" + structural_key(t.item)
    if isinstance(t, ir.Map):
        return "record_" + "_".join(ir.record_keys(t)) + "_of_" + structural_key(t.value)
    if isinstance(t, ir.Union_):
        return "_or_".join(structural_key(m) for m in t.members)
    if isinstance(t, ir.Intersection):
        return "_and_".join(structural_key(m) for m in t.members)
    ir.not_resolved(t)
