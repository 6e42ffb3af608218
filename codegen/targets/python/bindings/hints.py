"""Python type hints for IR type expressions.

`string` -> `str`, `number` -> `int | float` (a JSON number: the decoders keep an int an int, so
an error code is typed as the int it is; `float` alone would say every number is one), integer
-> `int`,
`unknown`/`any` -> `JSON` (the package's recursive JSON alias), `object` -> `dict[str, JSON]`,
literal types and literal unions -> one `Literal[...]`, arrays -> `list[...]`, maps and
property-less objects -> `dict[str, ...]`, classes and aliases by name, other unions `A | B`.

Input hints (`inputs=True`: class attributes and alias definitions, what callers pass in) are
covariant, so a `dict[str, int]` or a `list[TextContent]` is accepted where the schema takes any
JSON or a `ContentBlock[]`: `JSONInput` for any JSON, `Mapping[str, ...]` for objects and maps,
`Sequence[...]` for arrays. Decoded values are still plain dicts and lists (which satisfy them);
what encoding returns (`JSON`) and the `extra` bags stay `dict`/`list`.
"""

from __future__ import annotations

from .... import ir
from ....analysis.shapes import P, is_class_obj
from ....pynaming import PyIndex
from ....pytext import code_literal

_PRIMS = {
    P.STRING: "str",
    P.NUMBER: "int | float",
    P.INTEGER: "int",
    P.BOOLEAN: "bool",
    P.NULL: "None",
}
# A plain type absorbs the literals of its kind in a union: `"a" | string` is just `str`.
_ABSORBS = {"str": "string", "float": "number", "int": "number", "bool": "boolean"}
_NUMBER = _PRIMS[P.NUMBER]


def _never(t: ir.TypeExpr) -> bool:
    """Whether `Hints.hint` spells `t` as `NoReturn` (the type of no value)."""
    if isinstance(t, ir.Prim):
        return t.kind is P.NEVER
    if isinstance(t, ir.Union_):
        return all(isinstance(m, ir.Prim) and m.kind is P.NEVER for m in t.members)
    if isinstance(t, ir.Intersection):
        return _never(t.members[0])
    return False


class Hints:
    """Hints as models.py spells them: the generator's names (`JSON`, `Mapping`...) as the name
    table spells them there (`codegen/pynaming.py`: they yield to schema names)."""

    def __init__(self, index: PyIndex) -> None:
        self.index = index
        self.g = index.names.own  # looked up where a hint spells a name: its import (`views`)
        self.number = _NUMBER  # TS `number`'s hint

    def _any(self, inputs: bool) -> str:
        return self.g["JSONInput"] if inputs else self.g["JSON"]

    def _mapping(self, inputs: bool) -> str:
        return self.g["Mapping"] if inputs else "dict"

    def hint(self, t: ir.TypeExpr, inputs: bool = False) -> str:
        if isinstance(t, ir.Prim):
            if t.kind is P.NEVER:
                return self.g["NoReturn"]
            if t.kind in (P.UNKNOWN, P.ANY):
                return self._any(inputs)
            if t.kind is P.OBJECT:
                return f"{self._mapping(inputs)}[str, {self._any(inputs)}]"
            return _PRIMS[t.kind]
        if isinstance(t, ir.Lit):
            return self._literal([t])
        if isinstance(t, ir.Ref):
            return self.index.py_name(t.name)
        if isinstance(t, ir.Array):
            return f"{self.g['Sequence'] if inputs else 'list'}[{self.hint(t.item, inputs)}]"
        if isinstance(t, ir.Map):
            return f"{self._mapping(inputs)}[str, {self.hint(t.value, inputs)}]"
        if isinstance(t, ir.Obj):
            if is_class_obj(t) and t.name not in self.index.plain_json:
                return self.index.py_name(t.name)
            if is_class_obj(t):  # a JSON Schema payload (payloads.py): read to be handed on,
                return f"dict[str, {self.g['JSON']}]"  # typed for readers (an LLM SDK: a dict)
            value = self.hint(t.index.value, inputs) if t.index is not None else self._any(inputs)
            return f"{self._mapping(inputs)}[str, {value}]"
        if isinstance(t, ir.Union_):
            return self._union(t.members, inputs)
        if isinstance(t, ir.Intersection):
            # An intersection of non-objects (rare): its first member is the closest plain hint.
            return self.hint(t.members[0], inputs)
        ir.not_resolved(t)

    def _literal(self, lits: list[ir.Lit]) -> str:
        if any(isinstance(lit.value, float) for lit in lits):
            return "float"  # Literal[] takes no floats
        values = list(dict.fromkeys(code_literal(lit.value) for lit in lits))
        return f"{self.g['Literal']}[{', '.join(values)}]"

    def _union(self, members: tuple[ir.TypeExpr, ...], inputs: bool = False) -> str:
        flat = [m for m in members if not (isinstance(m, ir.Prim) and m.kind is P.NEVER)]
        if any(isinstance(m, ir.Prim) and m.kind in (P.UNKNOWN, P.ANY) for m in flat):
            return self._any(inputs)
        parts: list[str] = []
        lits: list[ir.Lit] = []
        lit_at = -1
        for m in flat:
            if isinstance(m, ir.Lit):
                if lit_at < 0:
                    lit_at = len(parts)
                    parts.append("")
                lits.append(m)
            elif (hint := self.hint(m, inputs)) == _NUMBER:
                parts += _NUMBER.split(" | ")  # `number | integer` is `int | float` once
            else:
                parts.append(hint)
        absorbed = {_ABSORBS[p] for p in parts if p in _ABSORBS}
        lits = [lit for lit in lits if lit.kind not in absorbed]
        if lit_at >= 0:
            parts[lit_at] = self._literal(lits) if lits else ""
        out = [p for p in dict.fromkeys(parts) if p]
        if "None" in out:  # `X | None` reads best with None last
            out = [p for p in out if p != "None"] + ["None"]
        return " | ".join(out) if out else self.g["NoReturn"]

    def field(self, p: ir.Property) -> str:
        """The hint of a class attribute: `| None` when nullable, `| UnsetType` when optional."""
        if _never(p.type):  # a field that never holds a value: only ever UNSET
            return self.g["UnsetType"]
        base = self.hint(p.type, inputs=True)
        if (
            p.nullable
            and "None" not in base.split(" | ")
            and base not in (self.g.peek("JSON"), self.g.peek("JSONInput"))
        ):
            base += " | None"
        if p.optional:
            base += f" | {self.g['UnsetType']}"
        return base

    def mentions_module_names(self, t: ir.TypeExpr) -> bool:
        """Whether the hint names a class or alias of the module (then an alias of it is
        written as a string, so definition order and recursion do not matter at run time).
        """
        if isinstance(t, ir.Ref):
            return True
        if isinstance(t, ir.Obj) and is_class_obj(t):
            return True
        if isinstance(t, ir.Obj):
            return t.index is not None and self.mentions_module_names(t.index.value)
        if isinstance(t, ir.Array):
            return self.mentions_module_names(t.item)
        if isinstance(t, ir.Map):
            return self.mentions_module_names(t.value)
        if isinstance(t, (ir.Union_, ir.Intersection)):
            return any(self.mentions_module_names(m) for m in t.members)
        return False
