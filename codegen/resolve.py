"""Resolve the declared IR: complete property lists, `Omit`, `&`, `typeof`, numbers and names.

The result gives, for every object type, its own and inherited properties (`Omit` applied, a
member overriding a base member wins, intersections merged), with `optional` and `nullable` as
separate facts, constants substituted for `typeof`, and every inline object named from its path.
The resolver walks the declarations and owns the paths; it leaves to one module each the
declarations' reference graph (`declgraph`: alias cycles, resolution order), declaration merging
(`merging`), the meeting of intersected properties (`intersections`), the constraint tags
(`constraints`) and the view of a union member that names it (`discriminators`).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Iterable

from . import annotated, intersections, ir
from .constraints import TagReader
from .declgraph import alias_cycles, eager_refs
from .discriminators import declared_member
from .errors import Collector, Location
from .graphs import dependency_order
from .merging import merge_declarations
from .naming import NO_OVERRIDES, Namer, Overrides, variant_segments

_NEVER = ir.Prim(ir.PrimKind.NEVER)
_NULL = ir.Prim(ir.PrimKind.NULL)


class Resolver:
    def __init__(self, schema: ir.Schema, overrides: Overrides) -> None:
        self.schema = schema
        self.errors = Collector()
        self.namer = Namer(overrides, self.errors)
        self.tags = TagReader(self.errors, schema.source)
        self.types: dict[str, ir.Interface | ir.Alias] = {}
        self.consts: dict[str, ir.Const] = {}
        self.done: dict[str, ir.TypeDef] = {}
        self.stack: list[str] = []

    def loc(self, node: object) -> Location:
        loc = getattr(node, "loc", None)
        return loc if isinstance(loc, Location) else Location(self.schema.source, 1, 1)

    # -- entry --------------------------------------------------------------------------------

    def run(self) -> ir.Resolved:
        for d in merge_declarations(self.schema.declarations, self.errors, self.loc):
            if isinstance(d, ir.Const):
                self.consts[d.name] = d
            else:
                self.types[d.name] = d
        for name in self.types:
            self.namer.declare(name)
        for name in alias_cycles(self.types):
            self.errors.add(
                self.loc(self.types[name]), f"Type alias '{name}' circularly references itself"
            )
        # Each declaration after those it needs complete (its bases, the references it
        # intersects): resolving one then never recurses down a chain of them.
        needs = {name: eager_refs(d) for name, d in self.types.items()}
        for name in dependency_order(needs, self.types, lambda _a, _b: True):
            self.typedef(name)
        out = [self.typedef(name) for name in self.types]
        self.errors.raise_if_any()
        warnings = tuple(sorted({*self.schema.warnings, *self.errors.warnings}))
        return ir.Resolved(
            self.schema.source,
            self.schema.sha256,
            tuple(out),
            tuple(self.consts.values()),
            warnings=warnings,
        )

    # -- declarations -------------------------------------------------------------------------

    def typedef(self, name: str) -> ir.TypeDef:
        if name in self.done:
            return self.done[name]
        if name in self.stack:
            # told from the member declared first, whichever member the walk started from
            members = self.stack[self.stack.index(name) :]
            order = list(self.types)
            k = members.index(min(members, key=order.index))
            first = members[k]
            cycle = " -> ".join([*members[k:], *members[:k], first])
            self.errors.add(self.loc(self.types[first]), f"circular type reference: {cycle}")
            return ir.TypeDef(name=name, type=ir.Obj((name,), (), None, name), kind="interface")
        self.stack.append(name)
        decl = self.types[name]
        typing = self.tags.typing(decl.doc)
        constraints = self.tags.constraints(decl.doc)
        if isinstance(decl, ir.Interface):
            value: ir.TypeExpr = self.interface(decl)
            kind, bases = "interface", decl.bases
        else:
            # An alias of an annotated type (`type Uri = string & { format: "uri" }`) carries
            # the annotation as its own constraints; its tags refine them.
            declared, own = _unannotate(decl.type)
            constraints = annotated.overlay(own, constraints)
            value = self.expr(declared, (name,))
            if typing.integer:
                value = _number_to_integer(value)
            if isinstance(value, ir.Obj):
                value = dataclasses.replace(value, name=name)
            kind, bases = "alias", ()
        td = ir.TypeDef(name, value, kind, bases, decl.doc, constraints=constraints, loc=decl.loc,
                        keeps_number=typing.keeps_number)  # fmt: skip
        self.stack.pop()
        self.done[name] = td
        return td

    def object_of(self, name: str, at: object, why: str) -> ir.Obj | None:
        """The complete object a referenced declaration stands for (for extends and `&`)."""
        if name not in self.types:
            self.errors.add(self.loc(at), f"undeclared type '{name}'")
            return None
        t = self.typedef(name).type
        if not isinstance(t, ir.Obj):
            self.errors.add(self.loc(at), f"{why} '{name}', which is not an object type")
            return None
        return t

    def interface(self, decl: ir.Interface) -> ir.Obj:
        props: dict[str, ir.Property] = {}
        index: ir.Index | None = None
        obj: ir.Obj | None = None
        for base in decl.bases:
            obj = self.object_of(base.name, base, f"interface '{decl.name}' extends")
            if obj is None:
                continue
            for key in base.omit:
                if obj.prop(key) is None:
                    self.errors.add(
                        self.loc(base), f"Omit of unknown key '{key}' from '{base.name}'"
                    )
            for p in obj.properties:
                if p.name not in base.omit:
                    props[p.name] = p
            index = obj.index or index
        own = self.body(decl.body, (decl.name,))
        for p in own.properties:  # (the bases' properties are present already)
            # a member overriding a base member wins, in the base's position
            if self.kept(p):
                props[p.name] = p
            else:
                props.pop(p.name, None)
        present = tuple(props.values())
        inherits, inherited = _inherited(decl, obj, present, own)
        return ir.Obj(
            (decl.name,), present, own.index or index, decl.name, decl.body.loc, inherits, inherited
        )

    # -- objects and properties ---------------------------------------------------------------

    def body(self, obj: ir.Obj, path: tuple[str, ...]) -> ir.Obj:
        """The object standing at `path` (the resolver owns paths: the declared ones are only
        where a type is written, without the segments that tell union members apart)."""
        seen: set[str] = set()
        props = []
        for p in obj.properties:
            if p.name in seen:
                self.errors.add(self.loc(p), f"duplicate property '{p.name}' in '{'.'.join(path)}'")
                continue
            seen.add(p.name)
            props.append(self.property(p, (*path, p.name)))
        index = obj.index
        if index is not None:
            value = self.bare(index.value, "as an index signature value")
            index = dataclasses.replace(index, value=self.expr(value, (*path, "value")))
        out = dataclasses.replace(obj, path=path, properties=tuple(props), index=index)
        return dataclasses.replace(out, name=self.name_for(out))

    def property(self, p: ir.Property, path: tuple[str, ...]) -> ir.Property:
        declared, own = _unannotate(p.type)
        t = self.expr(declared, path)
        typing = self.tags.typing(p.doc)
        if typing.integer:
            t = _number_to_integer(t)
        nullable = ir.has_null(t) or p.doc.has("nullable")
        constraints = annotated.overlay(own, self.tags.constraints(p.doc))  # a tag refines
        return dataclasses.replace(
            p,
            type=t,
            nullable=nullable,
            constraints=constraints,
            keeps_number=typing.keeps_number,
        )

    def present(self, props: Iterable[ir.Property]) -> tuple[ir.Property, ...]:
        """The properties a value may have: an optional `never` one stays and means the key
        must be absent; a required one is an error (`kept`)."""
        return tuple(p for p in props if self.kept(p))

    def kept(self, p: ir.Property) -> bool:
        """False for a required `never` member, reported: no value has type `never`, so no
        value of the enclosing type exists (the official generator leaves such a member out
        and accepts anything there, which is the opposite)."""
        if p.optional or not self.is_never(p.type):
            return True
        self.errors.add(
            self.loc(p),
            f"required property '{p.name}' has type never: no value has that type, so no value "
            f"could be written; for a key that must be absent write '{p.name}?: never'",
        )
        return False

    def is_never(self, t: ir.TypeExpr, depth: int = 0) -> bool:
        if isinstance(t, ir.Prim):
            return t.kind is ir.PrimKind.NEVER
        if isinstance(t, ir.Ref) and depth < 50:  # `type Nothing = never`, guarded against cycles
            decl = self.types.get(t.name)
            return isinstance(decl, ir.Alias) and self.is_never(decl.type, depth + 1)
        return False

    def bare(self, t: ir.TypeExpr, where: str) -> ir.TypeExpr:
        """`t` where the IR has no place for constraints: an annotation there is refused."""
        if isinstance(t, ir.Annotated):
            self.errors.add(
                self.loc(t),
                f"unsupported type construct: constraint annotation ({annotated.describe(t)}) "
                f"{where}; constraints are kept only on properties and type aliases",
            )
            return t.type
        return t

    def name_for(self, obj: ir.Obj) -> str:
        return self.namer.inline(obj.path, bool(obj.properties), self.loc(obj))

    # -- type expressions ---------------------------------------------------------------------

    def expr(self, t: ir.TypeExpr, path: tuple[str, ...]) -> ir.TypeExpr:
        if isinstance(t, ir.Ref):
            if t.name in self.consts and t.name not in self.types:
                self.errors.add(
                    self.loc(t), f"'{t.name}' is a constant, not a type; write 'typeof {t.name}'"
                )
            elif t.name not in self.types:
                self.errors.add(self.loc(t), f"undeclared type '{t.name}'")
            return t
        if isinstance(t, ir.TypeOf):
            const = self.consts.get(t.name)
            if const is None:
                self.errors.add(self.loc(t), f"typeof of undeclared constant '{t.name}'")
                return _NEVER
            return const.value
        if isinstance(t, ir.Array):
            return ir.Array(self.expr(self.bare(t.item, "inside an array"), (*path, "item")))
        if isinstance(t, ir.Union_):
            return self.union(t, path)
        if isinstance(t, ir.Map):
            value = self.expr(self.bare(t.value, "as a Record value"), (*path, "value"))
            if ir.is_string_key(t.key):  # one spelling: `Record<string, V>` is `{[key: string]: V}`
                obj = ir.Obj(path, (), ir.Index(value))
                return dataclasses.replace(obj, name=self.name_for(obj))
            return ir.Map(self.expr(t.key, (*path, "key")), value)
        if isinstance(t, ir.Obj):
            obj = self.body(t, path)
            return dataclasses.replace(obj, properties=self.present(obj.properties))
        if isinstance(t, ir.Intersection):
            return self.intersection(t, path)
        if isinstance(t, ir.Annotated):  # callers unwrap it where it belongs
            return self.expr(self.bare(t, "here"), path)
        return t

    def union(self, t: ir.Union_, path: tuple[str, ...]) -> ir.TypeExpr:
        """Members flattened and each kept once (`A | A` is `A`, as in TypeScript, so no target
        has to choose between equal members); inline object members named by what tells them
        apart, when the union has another member than null. A lone `{...} | null` needs no
        segment, except as a whole alias (`type T = {...} | null`): its path's name is the
        alias's own, and the object is not the alias."""
        flat = _flat(self.bare(m, "in a union") for m in t.members)
        # inline objects, and intersections (which resolve to an object standing at the path)
        inline = [i for i, m in enumerate(flat) if isinstance(m, (ir.Obj, ir.Intersection))]
        segments: dict[int, str] = {}
        if inline and (len(path) == 1 or sum(1 for m in flat if m != _NULL) > 1):
            views = [
                declared_member(_own_properties(flat[i]), self.types, self.consts) for i in inline
            ]
            segments = dict(zip(inline, variant_segments(views)))
        out = [
            self.expr(m, (*path, segments[i]) if i in segments else path)
            for i, m in enumerate(flat)
        ]
        members = tuple(dict.fromkeys(_flat(out)))
        return members[0] if len(members) == 1 else ir.Union_(members)

    def intersection(self, t: ir.Intersection, path: tuple[str, ...]) -> ir.TypeExpr:
        """The object standing at `path` for `A & {...}`: each member resolved to its object,
        their properties met by `intersections.merge`."""
        objs: list[ir.Obj] = []
        for m in t.members:
            if isinstance(m, ir.Ref):
                obj = self.object_of(m.name, m, "intersection with")
            elif isinstance(m, ir.Obj):
                obj = self.body(m, path)
            elif isinstance(m, ir.Annotated):
                self.bare(m, "in an intersection with an object type")
                obj = None
            else:
                self.errors.add(
                    self.loc(t), "unsupported type construct: intersection with a non-object type"
                )
                obj = None
            if obj is not None:
                objs.append(obj)
        if not objs:
            return _NEVER
        props, index = intersections.merge(objs, self.errors, self.loc)
        obj = ir.Obj(path, self.present(props), index, "", objs[-1].loc)
        return dataclasses.replace(obj, name=self.name_for(obj))


# Up to this many inherited properties an interface is written flat (each output restates them:
# the fastest checks and codecs, and what every official version needs, whose most is 9); past
# it, an output refers to the base, so that an `extends` chain costs O(own + this) per link.
RESTATED_MAX = 16


def _inherited(
    decl: ir.Interface, base: ir.Obj | None, props: tuple[ir.Property, ...], own: ir.Obj
) -> tuple[str, int]:
    """Which declaration `props` start with unchanged, and how many of them: the one base of a
    plain `extends` (no Omit) when no own member overrides one of its members nor adds an index
    signature, and it has more than `RESTATED_MAX` properties; else nothing ("", 0)."""
    if len(decl.bases) != 1 or decl.bases[0].omit or base is None or own.index is not None:
        return "", 0
    n = len(base.properties)
    if n <= RESTATED_MAX or len(props) < n:
        return "", 0
    if not all(map(operator.is_, props, base.properties)):
        return "", 0
    return decl.bases[0].name, n


def _own_properties(t: ir.TypeExpr) -> ir.Obj:
    """The properties a union member declares inline, as one object (an intersection's inline
    parts merged; referenced parts are named already and do not name the member)."""
    parts = t.members if isinstance(t, ir.Intersection) else (t,)
    props = tuple(p for part in parts if isinstance(part, ir.Obj) for p in part.properties)
    return ir.Obj((), props)


def _flat(members: Iterable[ir.TypeExpr]) -> tuple[ir.TypeExpr, ...]:
    """Union members with nested unions (`A | (B | C)`) spliced in: resolved unions are flat."""
    out: list[ir.TypeExpr] = []
    for m in members:
        out.extend(m.members if isinstance(m, ir.Union_) else (m,))
    return tuple(out)


def _unannotate(t: ir.TypeExpr) -> tuple[ir.TypeExpr, ir.Constraints]:
    """A type and the constraints it carries itself (`Date`: string, format date-time)."""
    if isinstance(t, ir.Annotated):
        return t.type, t.constraints
    return t, ir.NO_CONSTRAINTS


def _number_to_integer(t: ir.TypeExpr) -> ir.TypeExpr:
    if isinstance(t, ir.Prim) and t.kind is ir.PrimKind.NUMBER:
        return ir.Prim(ir.PrimKind.INTEGER)
    if isinstance(t, ir.Union_):
        return ir.Union_(tuple(_number_to_integer(m) for m in t.members))
    if isinstance(t, ir.Array):
        return ir.Array(_number_to_integer(t.item))
    return t


def resolve(schema: ir.Schema, overrides: Overrides = NO_OVERRIDES) -> ir.Resolved:
    """The resolved model; names-file entries it used are in `Resolver.namer.used`."""
    return resolver(schema, overrides).run()


def resolver(schema: ir.Schema, overrides: Overrides = NO_OVERRIDES) -> Resolver:
    return Resolver(schema, overrides)
