"""Where a finding's subject stands in a schema.ts: a subject path -> a 1-based line.

Best effort and pure: the path is followed through declarations, properties, array items,
index signatures and matched union members; the line of the deepest part found is returned
(a property inherited through `extends` is found where it is declared)."""

from __future__ import annotations

from .. import ir
from ..analysis.methods import MethodModel
from .algebra import strip_null
from .notation import ITEM, VALUE


class Locator:
    def __init__(self, resolved: ir.Resolved, model: MethodModel) -> None:
        self.types = resolved.type_map()
        self.consts = {c.name: c for c in resolved.consts}
        self.model = model

    def line(self, scope: str, path: tuple[str, ...]) -> int | None:
        if scope == "constant":
            c = self.consts.get(path[0])
            return c.loc.line if c is not None and c.loc is not None else None
        if scope == "method":
            m = self.model.get(path[0])
            return self.line("type", (m.type_name,)) if m is not None else None
        td = self.types.get(path[0])
        if td is None:
            return None
        found = td.loc.line if td.loc is not None else None
        t: ir.TypeExpr = td.type
        for seg in path[1:]:
            step = self._step(t, seg)
            if step is None:
                break
            t, line = step
            found = line or found
        return found

    def _deref(self, t: ir.TypeExpr) -> ir.TypeExpr:
        for _ in range(8):  # aliases of aliases, never forever
            if not isinstance(t, ir.Ref) or t.name not in self.types:
                break
            t = self.types[t.name].type
        return t

    def _step(self, t: ir.TypeExpr, seg: str) -> tuple[ir.TypeExpr, int | None] | None:
        t = self._deref(strip_null(t))
        if seg == ITEM:
            return (t.item, None) if isinstance(t, ir.Array) else None
        if seg == VALUE:
            if isinstance(t, ir.Map):
                return t.value, None
            if isinstance(t, ir.Obj) and t.index is not None:
                return t.index.value, t.index.loc.line if t.index.loc else None
            return None
        if seg.startswith("["):  # a matched union member: `[type=text]` or `[object]`
            key, _, value = seg[1:-1].partition("=")
            for m in t.members if isinstance(t, ir.Union_) else ():
                o = self._deref(m)
                p = o.prop(key) if isinstance(o, ir.Obj) else None
                if isinstance(o, ir.Obj) and p is not None and _is(p.type, value):
                    return o, o.loc.line if o.loc else None
            return None
        for part in t.members if isinstance(t, (ir.Intersection, ir.Union_)) else (t,):
            part = self._deref(part)
            p = part.prop(seg) if isinstance(part, ir.Obj) else None
            if p is not None:
                return p.type, p.loc.line if p.loc else None
        return None


def _is(t: ir.TypeExpr, value: str) -> bool:
    return isinstance(t, ir.Lit) and str(t.value) == value
