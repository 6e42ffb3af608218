"""Resolved type expressions -> Go types, with the expressions that decode and encode them.

Every Go type the package uses is a `GoType`: its text (`[]ContentBlock`), a `wire.Dec` and a
`wire.Enc` expression for it, and whether its zero value stands for "absent" (`nilable`: slices,
maps, interfaces, raw JSON), which decides how an optional member is held (docs/targets-go.md,
"Optional members"). Unions and string-literal unions met inline get a type of their own, named
by the neutral rule (the owner's name, the member's, `Item` for an array's items, `Value` for a
map's values), spelled for Go.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from ... import ir
from ...analysis.shapes import is_class_obj, structural_key
from ...analysis.typeindex import Discriminator, TypeIndex
from ...discriminators import discriminator as rule
from ...discriminators import string_literals
from .names import exported, type_name

P = ir.PrimKind
RAW = "json.RawMessage"


@dataclass(frozen=True)
class GoType:
    text: str
    dec: str
    enc: str
    nilable: bool = False  # the zero value is "absent" (nil slice, map, interface, raw JSON)
    # What the type is, through Go aliases (`type Cursor = string`): the constraints that
    # apply to it (bounds to a json.Number, a pattern to a string, item counts to a slice)
    number: bool = False
    string: bool = False
    array: bool = False


def go_string(s: str) -> str:
    """A Go interpreted string literal (JSON's escapes are Go's, but for `\\/`, never written)."""
    out = json.dumps(s, ensure_ascii=False)
    return out.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


@dataclass
class UnionDecl:
    """A sealed interface: its object members (Go struct names with their neutral names and
    keys), an array member, and how it dispatches."""

    name: str
    doc: ir.Doc
    members: list[tuple[str, str, tuple[str, ...]]]  # (Go type, neutral name, declared keys)
    disc: str | None  # the wire name of the discriminator
    tags: list[tuple[str, str]]  # (tag value, Go member type)
    array: GoType | None = None  # the array member (`SamplingContent[]`), as its own named type
    array_name: str = ""


@dataclass
class EnumDecl:
    name: str
    doc: ir.Doc
    values: tuple[str, ...]
    open: bool  # `"a" | "b" | string`: any string, the values are suggestions


@dataclass
class RawDecl:
    """A union of JSON values that are not all objects (`string | number`, JSONValue): a named
    raw JSON type, checked against its members on decode."""

    name: str
    doc: ir.Doc
    dec: str  # a wire.Dec[json.RawMessage]


@dataclass
class Types:
    """The Go types of one schema: lookups, and the named types made for inline unions."""

    index: TypeIndex
    go_names: dict[str, str]  # typedef or inline class name -> Go type name
    unions: dict[str, UnionDecl] = field(default_factory=dict)
    enums: dict[str, EnumDecl] = field(default_factory=dict)
    raws: dict[str, RawDecl] = field(default_factory=dict)
    _by_key: dict[str, str] = field(default_factory=dict)  # structural key -> Go name made
    taken: set[str] = field(default_factory=set)
    # typedef name -> kind of its Go declaration: struct, union, enum, raw, alias
    kinds: dict[str, str] = field(default_factory=dict)

    # -- naming ----------------------------------------------------------------------------------

    def fresh(self, name: str) -> str:
        out, n = name, 2
        while out in self.taken:
            out, n = f"{name}{n}", n + 1
        self.taken.add(out)
        return out

    # -- expressions -----------------------------------------------------------------------------

    def of(self, t: ir.TypeExpr, where: str) -> GoType:
        """The Go type of `t`, which stands at `where` (a neutral name for inline types). An
        array or map of any JSON checks its nesting from where it starts, as Python does."""
        gt = self._of(t, where)
        if _nests(t) and self.index.is_raw(t):
            return replace(gt, dec=f"wire.Depth({gt.dec})")
        return gt

    def _of(self, t: ir.TypeExpr, where: str) -> GoType:
        if isinstance(t, ir.Prim):
            return prim(t.kind)
        if isinstance(t, ir.Lit):
            return literal(t)
        if isinstance(t, ir.Ref):
            return self.named(t.name)
        if isinstance(t, ir.Obj):
            if is_class_obj(t):
                return self.struct(self.go_names[t.name])
            return self.map_of(t, where)
        if isinstance(t, ir.Array):
            item = self.of(t.item, where + "Item")
            return GoType(
                "[]" + item.text,
                f"wire.ArrayOf({item.dec})",
                f"wire.ArrayEnc({item.enc})",
                nilable=True,
                array=True,
            )
        if isinstance(t, ir.Map):
            value = self.of(t.value, where + "Value")
            return mapped(value)
        if isinstance(t, ir.Union_):
            return self.union(t, where, ir.NO_DOC, None)
        if isinstance(t, ir.Intersection):
            checks = ", ".join(f"wire.Is({self.of(m, where).dec})" for m in t.members)
            return GoType(RAW, f"wire.AllOf({checks})", "wire.EncodeRaw", nilable=True)
        ir.not_resolved(t)

    def map_of(self, t: ir.Obj, where: str) -> GoType:
        if t.index is None:
            return prim(P.OBJECT)
        return mapped(self.of(t.index.value, where + "Value"))

    def struct(self, go: str) -> GoType:
        return GoType(go, f"decode{go}", f"encode{go}")

    def named(self, name: str) -> GoType:
        """A reference to a typedef: its Go name, decoded by its own function."""
        go = self.go_names[name]
        kind = self.kinds[name]
        inner = self.target_type(name)
        return GoType(
            go,
            f"decode{go}",
            f"encode{go}",
            nilable=kind in ("union", "raw") or (kind == "alias" and inner.nilable),
            number=kind == "alias" and inner.number,
            string=kind == "alias" and inner.string,
            array=kind == "alias" and inner.array,
        )

    def target_type(self, name: str) -> GoType:
        td = self.index.typedefs[name]
        if self.kinds[name] != "alias":
            return self.struct(self.go_names[name])
        return self.of(td.type, name)

    # -- unions ----------------------------------------------------------------------------------

    def union_kind(self, t: ir.Union_) -> str:
        members = [m for m in self.index.members(t) if not _never(m)]
        targets = [self.index.target(m) for m in members]
        if targets and all(isinstance(m, ir.Lit) and m.kind == "string" for m in targets):
            return "enum"
        strings = [m for m in targets if not (isinstance(m, ir.Prim) and m.kind is P.STRING)]
        if (
            strings != targets
            and strings
            and all(isinstance(m, ir.Lit) and m.kind == "string" for m in strings)
        ):
            return "open-enum"
        classes = [m for m in members if self.index.class_of(m) is not None]
        arrays = [m for m in targets if isinstance(m, ir.Array)]
        if classes and len(classes) + len(arrays) == len(members) and len(arrays) <= 1:
            return "interface"
        return "raw"

    def union(self, t: ir.Union_, where: str, doc: ir.Doc, go: str | None) -> GoType:
        """The Go type of a union at `where` (`go`: the typedef's Go name, when it is one)."""
        members = [m for m in t.members if not _never(m)]
        if go is None and len(members) == 1:
            return self.of(members[0], where)
        kind = self.union_kind(t)
        key = f"{kind}:{structural_key(t)}"
        if go is None and key in self._by_key:
            name = self._by_key[key]
        else:
            name = go or self.fresh(exported(where))
            if go is None:
                self._by_key[key] = name
            self.declare(kind, t, name, where, doc)
        nilable = kind in ("interface", "raw")
        return GoType(
            name,
            f"decode{name}",
            f"encode{name}",
            nilable=nilable,
        )

    def declare(self, kind: str, t: ir.Union_, name: str, where: str, doc: ir.Doc) -> None:
        if kind in ("enum", "open-enum"):
            values = string_literals(
                ir.Union_(
                    tuple(
                        m
                        for m in self.index.members(t)
                        if not (isinstance(self.index.target(m), ir.Prim))
                    )
                ),
                self.index.typedefs,
            )
            self.enums[name] = EnumDecl(name, doc, values, kind == "open-enum")
            return
        if kind == "raw":
            self.raws[name] = RawDecl(name, doc, "")  # placeholder: members may refer back
            checks = ", ".join(
                f"wire.Is({self.of(m, where).dec})" for m in self.index.members(t) if not _never(m)
            )
            self.raws[name].dec = f"wire.OneOf({go_string(name)}, {checks})"
            return
        members = [m for m in self.index.members(t) if not _never(m)]
        decl = UnionDecl(name, doc, [], None, [])
        self.unions[name] = decl
        classes = []
        for m in members:
            target = self.index.target(m)
            if isinstance(target, ir.Array):
                item = self.of(target.item, where + "Item")
                decl.array_name = self.fresh(item.text.lstrip("[]*") + "List")
                decl.array = GoType(
                    "[]" + item.text,
                    f"wire.ArrayOf({item.dec})",
                    f"wire.ArrayEnc({item.enc})",
                    nilable=True,
                    array=True,
                )
                continue
            cls = self.index.class_of(m)
            assert cls is not None
            classes.append(cls)
            obj = self.index.classes[cls].obj
            keys = tuple(p.name for p in obj.properties)
            decl.members.append((self.go_names[cls], cls, keys))
        disc = _discriminator_of(self.index, classes) if len(classes) > 1 else None
        if disc is not None:
            decl.disc = disc.wire
            for cls, values in disc.members:
                decl.tags.extend((v, self.go_names[cls]) for v in values)


def _discriminator_of(index: TypeIndex, classes: list[str]) -> Discriminator | None:
    """`TypeIndex.discriminator` (the one rule) over class names, inline ones included."""
    views = [index.member_view(index.classes[c].obj) for c in classes]
    wire = rule(views)
    if wire is None or len(set(classes)) != len(classes):
        return None
    return Discriminator(wire, tuple((c, v.values(wire)) for c, v in zip(classes, views)))


def _nests(t: ir.TypeExpr) -> bool:
    """Whether `Types.of` decodes `t` item by item (`wire.ArrayOf`, `wire.MapOf`): an array, a
    map, an object of an index signature only."""
    if isinstance(t, ir.Obj):
        return not is_class_obj(t) and t.index is not None
    return isinstance(t, (ir.Array, ir.Map))


def _never(t: ir.TypeExpr) -> bool:
    return isinstance(t, ir.Prim) and t.kind is P.NEVER


def mapped(value: GoType) -> GoType:
    return GoType(
        "map[string]" + value.text,
        f"wire.MapOf({value.dec})",
        f"wire.MapEnc({value.enc})",
        nilable=True,
    )


_PRIMS: dict[P, GoType] = {
    P.STRING: GoType("string", "wire.DecodeString", "wire.EncodeString", string=True),
    P.NUMBER: GoType("json.Number", "wire.DecodeNumber", "wire.EncodeNumber", number=True),
    P.INTEGER: GoType("json.Number", "wire.DecodeInteger", "wire.EncodeNumber", number=True),
    P.BOOLEAN: GoType("bool", "wire.DecodeBool", "wire.EncodeBool"),
    P.NULL: GoType(RAW, "wire.DecodeNull", "wire.EncodeRaw", nilable=True),
    P.UNKNOWN: GoType(RAW, "wire.DecodeRaw", "wire.EncodeRaw", nilable=True),
    P.ANY: GoType(RAW, "wire.DecodeRaw", "wire.EncodeRaw", nilable=True),
    P.NEVER: GoType(RAW, "wire.DecodeNever", "wire.EncodeRaw", nilable=True),
    P.OBJECT: GoType(
        "map[string]json.RawMessage", "wire.DecodeObject", "wire.EncodeObject", nilable=True
    ),
}


def prim(kind: P) -> GoType:
    return _PRIMS[kind]


def literal(t: ir.Lit) -> GoType:
    """A one-value type where it is not a member's (an item, an alias): checked on decode."""
    if t.kind == "string":
        value = go_string(str(t.value))
        return GoType("string", f"wire.ConstStringOf({value})", "wire.EncodeString", string=True)
    if t.kind == "boolean":
        value = "true" if t.value is True else "false"
        return GoType("bool", f"wire.ConstBoolOf({value})", "wire.EncodeBool")
    return GoType(
        "json.Number",
        f"wire.ConstNumberOf({go_string(literal_text(t))})",
        "wire.EncodeNumber",
        number=True,
    )


def literal_text(t: ir.Lit) -> str:
    """A literal's JSON text (what a one-value member writes)."""
    if t.kind == "boolean":
        return "true" if t.value is True else "false"
    if t.kind == "number" and isinstance(t.value, float) and t.value.is_integer():
        return str(int(t.value))
    return json.dumps(t.value, ensure_ascii=False)


def go_type_names(index: TypeIndex) -> dict[str, str]:
    """Typedef and inline class name -> Go type name (declared: as declared; inline: the rule)."""
    out = {td.name: type_name(td.name, declared=True) for td in index.resolved.types}
    for name in index.classes:
        out.setdefault(name, type_name(name, declared=False))
    return out
