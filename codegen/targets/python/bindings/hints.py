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

from dataclasses import replace

from .... import ir
from ....analysis.shapes import P, is_class_obj
from ....pynaming import PyIndex
from ....pytext import Code, code_literal, compose, union

_PRIMS = {
    P.STRING: "str",
    P.INTEGER: "int",
    P.BOOLEAN: "bool",
    P.NULL: "None",
}
# A plain type absorbs the literals of its kind in a union: `"a" | string` is just `str`.
_ABSORBS = {"str": "string", "float": "number", "int": "number", "bool": "boolean"}
# TS `number`: a union of two members, which a union it stands in takes as its own (`number |
# integer` is `int | float`; a literal `1` is absorbed by `int`)
NUMBER = union(Code("int"), Code("float"))


def _never(t: ir.TypeExpr) -> bool:
    """Whether `Hints.hint` spells `t` as `NoReturn` (the type of no value)."""
    if isinstance(t, ir.Prim):
        return t.kind is P.NEVER
    if isinstance(t, ir.Union_):
        return all(isinstance(m, ir.Prim) and m.kind is P.NEVER for m in t.members)
    if isinstance(t, ir.Intersection):
        return _never(t.members[0])
    return False


def _or(code: Code, other: Code) -> Code:
    """`code | other`: a union whose members are both's (`other` not among `code`'s)."""
    joined = compose(f"{code.text} | {other.text}", code, other)
    members = code.alternatives() + other.alternatives()
    return Code(joined.text, joined.own, joined.defined, members, joined.unions)


class Hints:
    """Hints as models.py spells them: the generator's names (`JSON`, `Mapping`...) as the name
    table spells them there (`codegen/pynaming.py`: they yield to schema names). `code` and
    `field_code` also say which names a hint mentions (`pytext.Code`), so a module that writes it
    knows its imports from the model; `hint` and `field` are their text."""

    def __init__(self, index: PyIndex) -> None:
        self.index = index
        self.g = index.names.own  # looked up where a hint spells a name: its import (`views`)
        # the hints of any JSON value (`_any_json`), made without noting an import
        self._json = tuple(Code(self.g.peek(k), own=frozenset({k})) for k in ("JSON", "JSONInput"))

    def _own(self, key: str) -> Code:
        return Code(self.g[key], own=frozenset({key}))

    def _defined(self, name: str) -> Code:
        py = self.index.py_name(name)
        return Code(py, defined=(py,))

    def _any(self, inputs: bool) -> Code:
        return self._own("JSONInput" if inputs else "JSON")

    def _mapping(self, inputs: bool) -> Code:
        return self._own("Mapping") if inputs else Code("dict")

    def hint(self, t: ir.TypeExpr, inputs: bool = False) -> str:
        return self.code(t, inputs).text

    def code(self, t: ir.TypeExpr, inputs: bool = False) -> Code:
        """The hint of `t` with the names it mentions."""
        if isinstance(t, ir.Prim):
            if t.kind is P.NEVER:
                return self._own("NoReturn")
            if t.kind in (P.UNKNOWN, P.ANY):
                return self._any(inputs)
            if t.kind is P.OBJECT:
                mapping, value = self._mapping(inputs), self._any(inputs)
                return compose(f"{mapping.text}[str, {value.text}]", mapping, value)
            return NUMBER if t.kind is P.NUMBER else Code(_PRIMS[t.kind])
        if isinstance(t, ir.Lit):
            return self._literal([t])
        if isinstance(t, ir.Ref):
            return self._defined(t.name)
        if isinstance(t, ir.Array):
            seq = self._own("Sequence") if inputs else Code("list")
            item = self.code(t.item, inputs)
            return compose(f"{seq.text}[{item.text}]", seq, item)
        if isinstance(t, ir.Map):
            mapping, value = self._mapping(inputs), self.code(t.value, inputs)
            return compose(f"{mapping.text}[str, {value.text}]", mapping, value)
        if isinstance(t, ir.Obj):
            if is_class_obj(t) and t.name not in self.index.plain_json:
                return self._defined(t.name)
            if is_class_obj(t):  # a JSON Schema payload (payloads.py): read to be handed on,
                value = self._own("JSON")  # typed for readers (an LLM SDK: a dict)
                return compose(f"dict[str, {value.text}]", value)
            mapping = self._mapping(inputs)
            value = self.code(t.index.value, inputs) if t.index is not None else self._any(inputs)
            return compose(f"{mapping.text}[str, {value.text}]", mapping, value)
        if isinstance(t, ir.Union_):
            return self._union(t.members, inputs)
        if isinstance(t, ir.Intersection):
            # An intersection of non-objects (rare): its first member is the closest plain hint.
            return self.code(t.members[0], inputs)
        ir.not_resolved(t)

    def _literal(self, lits: list[ir.Lit]) -> Code:
        if any(isinstance(lit.value, float) for lit in lits):
            return Code("float")  # Literal[] takes no floats
        values = list(dict.fromkeys(code_literal(lit.value) for lit in lits))
        literal = self._own("Literal")
        return compose(f"{literal.text}[{', '.join(values)}]", literal)

    def _union(self, members: tuple[ir.TypeExpr, ...], inputs: bool = False) -> Code:
        flat = [m for m in members if not (isinstance(m, ir.Prim) and m.kind is P.NEVER)]
        if any(isinstance(m, ir.Prim) and m.kind in (P.UNKNOWN, P.ANY) for m in flat):
            return self._any(inputs)
        parts: list[Code] = []
        lits: list[ir.Lit] = []
        lit_at = -1
        for m in flat:
            if isinstance(m, ir.Lit):
                if lit_at < 0:
                    lit_at = len(parts)
                    parts.append(Code(""))
                lits.append(m)
            elif (hint := self.code(m, inputs)) == NUMBER:  # (an intersection's, a union's too)
                parts += [Code(p) for p in NUMBER.members]  # `number | integer`: once
            else:
                parts.append(hint)
        absorbed = {_ABSORBS[p.text] for p in parts if p.text in _ABSORBS}
        lits = [lit for lit in lits if lit.kind not in absorbed]
        if lit_at >= 0:
            parts[lit_at] = self._literal(lits) if lits else Code("")
        by_text = {p.text: p for p in reversed(parts) if p.text}  # the first of each spelling
        out = [by_text[text] for text in dict.fromkeys(p.text for p in parts if p.text)]
        if any(p.text == "None" for p in out):  # `X | None` reads best with None last
            out = [p for p in out if p.text != "None"] + [Code("None")]
        if not out:
            return self._own("NoReturn")
        joined = compose(" | ".join(p.text for p in out), *out)
        alternatives = tuple(m for p in out for m in p.alternatives())
        return replace(joined, members=alternatives) if len(alternatives) > 1 else joined

    def _any_json(self, code: Code) -> bool:
        """Whether `code` is the hint of any JSON value (which holds None already)."""
        return code in self._json

    def field(self, p: ir.Property) -> str:
        return self.field_code(p).text

    def field_code(self, p: ir.Property) -> Code:
        """The hint of a class attribute: `| None` when nullable, `| UnsetType` when optional."""
        if _never(p.type):  # a field that never holds a value: only ever UNSET
            return self._own("UnsetType")
        base = self.code(p.type, inputs=True)
        if p.nullable and "None" not in base.alternatives() and not self._any_json(base):
            base = _or(base, Code("None"))
        if p.optional:
            base = _or(base, self._own("UnsetType"))
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
