"""Type expression -> the pydantic module's annotations (`Code`: the text with the names it
mentions, so the module's imports and class order are computed from them, never read back):
faithful by default, `number` is `int | float` (pydantic's smart union keeps an int an int),
`integer` is `int`, string literals joined into one `Literal[...]`."""

from __future__ import annotations

from ... import ir
from ...pynaming import PyIndex
from ...pytext import Code, compose
from ...pytext import union as union_of
from .names import Names

P = ir.PrimKind
# `Any` is the module's spelling of typing.Any (`Names.own`: a schema type may take the name)
_PRIMS = {
    P.STRING: "str", P.NUMBER: "int | float", P.INTEGER: "int", P.BOOLEAN: "bool",
    P.NULL: "None", P.UNKNOWN: "{Any}", P.ANY: "{Any}", P.NEVER: "{Any}",
    P.OBJECT: "dict[str, {Any}]",
}  # fmt: skip
_USES_ANY = frozenset({P.UNKNOWN, P.ANY, P.NEVER, P.OBJECT})


class Hints:
    """Type expression -> Python annotation text, in the module's names."""

    def __init__(self, index: PyIndex, names: Names, spelled: frozenset[str]) -> None:
        self.index = index
        self.names = names
        self.spelled = spelled  # aliases spelled out where they are used, not named
        self.any = Code(names.own["Any"], own=frozenset({"Any"}))
        self.prims = {
            k: Code(
                v.format(Any=self.any.text), own=self.any.own if k in _USES_ANY else frozenset()
            )
            for k, v in _PRIMS.items()
        }
        self.prims[P.NUMBER] = union_of(Code("int"), Code("float"))

    def cls(self, ir_name: str) -> Code:
        name = self.names.cls(ir_name)
        return Code(name, defined=(name,))

    def of(self, t: ir.TypeExpr) -> Code:
        if isinstance(t, ir.Prim):
            return self.prims[t.kind]
        if isinstance(t, ir.Lit):
            return self.literal([t]) or self.prims[P.NUMBER if t.kind == "number" else P.STRING]
        if isinstance(t, ir.Ref):
            if t.name in self.spelled:
                return self.of(self.index.typedefs[t.name].type)
            return self.cls(t.name)
        if isinstance(t, ir.Array):
            item = self.of(t.item)
            return compose(f"list[{item.text}]", item)
        if isinstance(t, ir.Map):
            value = self.of(t.value)
            return compose(f"dict[str, {value.text}]", value)
        if isinstance(t, ir.Obj):
            if t.properties:
                return self.cls(t.name)
            value = self.of(t.index.value) if t.index is not None else self.any
            return compose(f"dict[str, {value.text}]", value)
        if isinstance(t, ir.Union_):
            return self.union(t.members)
        return self.any  # an intersection left unresolved: any JSON value

    def union(self, members: tuple[ir.TypeExpr, ...]) -> Code:
        """Members in order; string (and other) literals joined into one `Literal[...]` where
        the first stands."""
        lits = [m for m in members if isinstance(m, ir.Lit)]
        out: list[Code] = []
        for m in members:
            if isinstance(m, ir.Lit):
                if m is lits[0]:
                    out.append(self.literal(lits) or self.any)
                continue
            out.append(self.of(m))
        return union_of(*out)  # a member that is a union (a spelled alias) adds its members

    def literal(self, lits: list[ir.Lit]) -> Code | None:
        values = [v.value for v in lits]
        if any(isinstance(v, float) for v in values):
            return None
        text = self.names.own["Literal"] + "[" + ", ".join(repr(v) for v in values) + "]"
        return Code(text, own=frozenset({"Literal"}))
