"""How values are built from validated JSON and turned back into JSON (the codec's expressions).

A "raw" type holds no class: its Python value is the JSON value itself, so decoding is the
identity. Otherwise: classes build with `Cls._from_valid(x)` (called by a module name,
`_from_valid_Cls(x)`), arrays and maps with comprehensions, aliases with their `_build_<Alias>`
function and inline unions with a selector named from their structure
(`_build_TextContent_or_ImageContent`).

Union selection, written into each selector's comment: first by JSON type (array, object,
anything else); then among the object members by discriminator when they have one, else by
shape (of the members whose validator accepts the value, the one declaring the most of its keys;
the earlier member on a tie).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .... import ir
from ....analysis.shapes import is_class_obj, structural_key
from ....analysis.typeindex import Discriminator
from ....errors import Diagnostic, Location
from ....pynaming import HelperNames, PyIndex, Spellings
from ....pytext import Code, code_literal, comment_lines, literal
from ....records import record
from .hints import Hints

SHAPE_RULE = (
    "by shape: of the members whose validator accepts the value, the one that declares the most"
    " of its keys; on a tie, the earlier member in the union"
)


@record
class TableView:
    """A discriminator dispatch table: literal value -> the builder of its class."""

    name: str
    hint: str
    entries: tuple[tuple[str, str], ...]


@record
class ShapesView:
    """The members `by_shape` weighs, made once at import rather than on every call: a list of
    (validator, declared keys, builder) tuples, one per class."""

    name: str
    members: tuple[str, ...]  # each member's tuple expression


@record
class SelectorView:
    """A `_build_<Name>(v)` function: an alias's builder or an inline union's selector."""

    name: str
    hint: str
    comment: tuple[str, ...]  # lines
    branches: tuple[tuple[str, str], ...]  # (condition on v, or "" for the last; return expression)
    table: TableView | None = None
    shapes: ShapesView | None = None
    code: Code = Code("")  # `hint` with the names and unions it spells


@dataclass
class Builds:
    index: PyIndex
    hints: Hints
    selectors: dict[str, SelectorView] = field(default_factory=dict)
    pending: dict[str, ir.TypeExpr] = field(default_factory=dict)
    decoders: set[str] = field(default_factory=set)  # classes built by their module names
    diagnostics: list[Diagnostic] = field(default_factory=list)
    helper_names: HelperNames = field(init=False)
    g: Spellings = field(init=False)  # the generator's names in models.py, as spelled

    def __post_init__(self) -> None:
        self.helper_names = self.index.names.models_helpers()
        self.g = self.index.names.own

    # -- decoding -------------------------------------------------------------------------------

    def build(self, t: ir.TypeExpr, x: str, depth: int = 0) -> str:
        """Python expression building the value of `t` from the validated JSON `x`."""
        if self.index.is_raw(t):
            return x
        if isinstance(t, ir.Ref):
            return f"{self.alias_builder(t.name)}({x})"
        if isinstance(t, ir.Obj) and is_class_obj(t):
            return f"{self.decoder(t.name)}({x})"
        i = f"{self.g['i']}{depth or ''}"
        if isinstance(t, ir.Array):
            return f"[{self.build(t.item, i, depth + 1)} for {i} in {x}]"
        value = _dict_value_type(t)
        if value is not None:
            k = f"{self.g['k']}{depth or ''}"
            return f"{{{k}: {self.build(value, i, depth + 1)} for {k}, {i} in {x}.items()}}"
        if isinstance(t, ir.Union_):
            return f"{self.union_builder(t)}({x})"
        return x  # an intersection of non-objects: nothing to build

    def decoder(self, name: str) -> str:
        """The module name of class `name`'s `_from_valid` (`_from_valid_Icon = Icon._from_valid`
        after the classes): a staticmethod read from its class costs an attribute lookup per
        call, a module name a dict lookup."""
        self.decoders.add(name)
        return self.index.names.decoders[name]

    def alias_builder(self, name: str) -> str:
        td = self.index.typedefs[name]
        if is_class_obj(td.type):
            return self.decoder(name)
        fn = self.index.names.builders[name]
        if fn not in self.selectors and fn not in self.pending:
            t = td.type
            if isinstance(t, ir.Ref):  # a rename builds what the chain of renames ends at
                t = ir.Ref(self.index.renamed(t.name), t.loc)
            self.pending[fn] = t
            self.selectors[fn] = self._selector(fn, name, t)
            del self.pending[fn]
        return fn

    def union_builder(self, t: ir.Union_) -> str:
        fn = f"_build_{self.helper_names.key(structural_key(t))}"
        if fn not in self.selectors and fn not in self.pending:
            self.pending[fn] = t
            self.selectors[fn] = self._selector(fn, None, t)
            del self.pending[fn]
        return fn

    def _selector(self, fn: str, alias: str | None, t: ir.TypeExpr) -> SelectorView:
        py = self.index.py_name(alias) if alias else ""
        spelled = Code(py, defined=(py,)) if alias else self.hints.code(t)
        hint = spelled.text
        target = self.index.target(t) if alias is None else t
        if not isinstance(target, ir.Union_):
            return SelectorView(
                fn, hint, (), (("", self.build(target, self.g["v"])),), code=spelled
            )
        groups = self._groups(target.members)
        where = alias or hint
        v = self.g["v"]
        for m in groups["other"]:
            if not self.index.is_raw(m):
                self._unsupported(
                    t,
                    f"union '{where}': a member that is not only an object or only an array",
                )
        branches: list[tuple[str, str]] = []
        rules: list[str] = []
        arrays = groups["array"]
        if arrays and not all(self.index.is_raw(m) for m in arrays):
            if len(arrays) == 1:
                branches.append((f"type({v}) is list", self.build(arrays[0], v)))
                rules.append("arrays as the array member")
            elif all(isinstance(m, ir.Ref) for m in arrays):
                branches.append((f"type({v}) is list", self._first_accepting(arrays, hint)))
                rules.append("arrays as the first array member whose validator accepts them")
            else:
                branches.append((f"type({v}) is list", self._items_of(arrays, t, where)))
                rules.append("arrays item by item, each as the union of the members' item types")
        table = shapes = None
        objects = groups["object"]
        if objects and not all(self.index.is_raw(m) for m in objects):
            code, rule, table, shapes = self._objects(objects, t, where, fn, hint)
            branches.append((f"type({v}) is dict", code))
            rules.append(rule)
        if groups["other"] or any(self.index.is_raw(m) for m in arrays + objects):
            branches.append(("", f"{self.g['cast']}({code_literal(hint)}, {v})"))
            rules.append("anything else as it is")
        else:  # the last branch needs no test
            branches[-1] = ("", branches[-1][1])
        text = "Decoding: " + "; ".join(rules) + "."
        return SelectorView(fn, hint, comment_lines(text), tuple(branches), table, shapes, spelled)

    def _groups(
        self, members: tuple[ir.TypeExpr, ...], seen: frozenset[str] = frozenset()
    ) -> dict[str, list[ir.TypeExpr]]:
        """Union members by JSON type: "array", "object", "other". A member that is itself a
        union of several JSON types with a class in it (`T2 | null` where `type T2 = {...} |
        null`) is split into its members, through aliases; other members stay whole, so a
        named member keeps its own builder."""
        groups: dict[str, list[ir.TypeExpr]] = {"array": [], "object": [], "other": []}
        for m in members:
            kinds = self.index.kinds(m)
            group = "array" if kinds == {"array"} else "object" if kinds == {"object"} else "other"
            target = self.index.target(m)
            name = m.name if isinstance(m, ir.Ref) else ""
            if (
                group == "other"
                and isinstance(target, ir.Union_)
                and not self.index.is_raw(m)
                and name not in seen
            ):
                for g, split in self._groups(target.members, seen | {name}).items():
                    groups[g].extend(split)
                continue
            groups[group].append(m)
        return groups

    def _objects(
        self,
        objects: list[ir.TypeExpr],
        at: ir.TypeExpr,
        where: str,
        fn: str,
        hint: str,
    ) -> tuple[str, str, TableView | None, ShapesView | None]:
        """(return expression, rule text, dispatch table, members by shape) for the object
        members of a union."""
        v = self.g["v"]
        if len(objects) == 1:
            return self.build(objects[0], v), "objects as the object member", None, None
        objects = list(self.index.members(ir.Union_(tuple(objects))))
        classes = [self.index.class_of(m) for m in objects]
        names = [c for c in classes if c is not None]
        # Map-like members (index signatures, Record, `object`) have no keys to match: the
        # classes are tried by shape first, and a value none of them accepts is the map's.
        maps = [m for m, c in zip(objects, classes) if c is None]
        fallback = ""
        if maps:
            if len(maps) > 1 and not all(self.index.is_raw(m) for m in maps):
                self._unsupported(at, f"union '{where}': several map-like object members")
                return v, "objects as they are", None, None
            if not self.index.is_raw(maps[0]):
                fallback = f", lambda {v}: {self.build(maps[0], v)}"
        disc: Discriminator | None = (
            None if maps else self.index.discriminator(ir.Union_(tuple(objects)))
        )
        if disc is not None:
            entries = tuple(
                (code_literal(value), f"{self.index.py_name(c)}._from_valid")
                for c, values in disc.members
                for value in values
            )
            # a member a tolerant reader kept (static/_tolerance.py) answers this tag: itself
            entries += ((self.g["_UNKNOWN_TAG"], self.g["_same"]),)
            table = TableView("_BY_" + fn.removeprefix("_build_"), hint, entries)
            return (
                f"{table.name}[{v}[{code_literal(disc.wire)}]]({v})",
                f"objects by their {literal(disc.wire)} member",
                table,
                None,
            )
        py = [self.index.py_name(c) for c in names]
        names_ = self.index.names
        members = [
            (f"{self.g['_v']}.is_{names_.stem(c)}", names_.keys[c], f"{p}._from_valid")
            for c, p in zip(names, py)
        ]
        shapes = ShapesView(
            "_SHAPES_" + fn.removeprefix("_build_"),
            tuple(f"({', '.join(m)})" for m in members),
        )
        rule = "objects " + SHAPE_RULE
        if maps:
            rule += "; an object no class accepts as the map-like member"
        return (
            f"{self.g['cast']}({code_literal(hint)}, {self.g['_by_shape']}({v}, {shapes.name}{fallback}))",
            rule,
            None,
            shapes,
        )

    def _first_accepting(self, members: list[ir.TypeExpr], hint: str) -> str:
        """Several array members, all named: the first whose validator accepts the value."""
        parts = []
        for m in members:
            assert isinstance(m, ir.Ref)
            build = self.g["_same"] if self.index.is_raw(m) else self.alias_builder(m.name)
            parts.append(
                f"({self.g['_v']}.is_{self.index.names.stem(m.name)}, frozenset(), {build})"
            )
        v = self.g["v"]
        return f"{self.g['cast']}({code_literal(hint)}, {self.g['_by_shape']}({v}, ({', '.join(parts)},)))"

    def _items_of(self, members: list[ir.TypeExpr], at: ir.TypeExpr, where: str) -> str:
        """Several array members, not all named: each item built as the union of the item
        types (a valid array's items are all of one member's item type)."""
        items: list[ir.TypeExpr] = []
        for m in members:
            target = self.index.target(m)
            if not isinstance(target, ir.Array):
                self._unsupported(at, f"union '{where}': an array member that is not an array type")
                return self.g["v"]
            items.append(target.item)
        i, v = self.g["i"], self.g["v"]
        return f"[{self.build(ir.Union_(tuple(items)), i, 1)} for {i} in {v}]"

    def _unsupported(self, at: ir.TypeExpr, what: str) -> None:
        loc = getattr(at, "loc", None) or Location(self.index.resolved.source, 1, 1)
        self.diagnostics.append(Diagnostic(loc, f"cannot decode {what}"))

    # -- encoding -------------------------------------------------------------------------------

    def encode(self, t: ir.TypeExpr, x: str, nullable: bool = False) -> str:
        """Python expression giving the JSON form of `x`, a value of `t`."""
        if self.index.is_raw(t):
            # Plain JSON as it came; where it may hold objects or arrays, the input hint is
            # covariant (hints.py) and callers may pass any Mapping/Sequence, made plain dicts
            # and lists (`_plain` copies only those). JSON Schema payloads are typed `dict`.
            schema_payload = isinstance(t, ir.Obj) and t.name in self.index.plain_json
            holds = self.index.kinds(t) & {"array", "object"}
            return f"{self.g['_plain']}({x})" if holds and not schema_payload else x
        if (
            not nullable
            and self.index.class_of(t) is not None
            and not isinstance(self.index.target(t), ir.Union_)
        ):
            return f"{x}._to_dict()"
        if not nullable and isinstance(t, ir.Array) and self.index.class_of(t.item) is not None:
            return f"[i._to_dict() for i in {x}]"
        # A union of classes: each member object's `_to_dict` without `encode_value`'s layers.
        if not nullable and isinstance(t, ir.Array) and self._classes_only(t.item):
            return f"[{self.g['_member']}(i) for i in {x}]"
        if not nullable and self._classes_only(t):
            return f"{self.g['_member']}({x})"
        return f"{self.g['_encode']}({x})"

    def _classes_only(self, t: ir.TypeExpr) -> bool:
        """Whether `t` is a union whose members are all classes."""
        if not isinstance(self.index.target(t), ir.Union_):
            return False
        return all(self.index.class_of(m) is not None for m in self.index.members(t))


def _dict_value_type(t: ir.TypeExpr) -> ir.TypeExpr | None:
    if isinstance(t, ir.Obj) and not t.properties:
        return t.index.value if t.index is not None else ir.Prim(ir.PrimKind.UNKNOWN)
    if isinstance(t, ir.Map):
        return t.value
    return None
