"""Facts about the resolved IR that every target reads (the dataclass bindings, pydantic, zod):
which objects become classes (`classes.py`; their fields' names are the wire names unless a
target's index spells them: the Python targets' `codegen/pynaming.PyIndex`), which unions have a
discriminator, which types are plain JSON ("raw": decoded as they come) and which JSON kinds a
type admits.

Pure functions of the resolved model; nothing here renders code.
"""

from __future__ import annotations

from functools import cached_property

from .. import ir
from ..discriminators import Member, discriminator, resolved_member
from ..errors import SchemaError
from ..graphs import dependency_order
from ..records import record
from .classes import Classes, classes
from .payloads import schema_payloads
from .shapes import children, is_class_obj, mentions

P = ir.PrimKind
ALL_KINDS = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})


@record
class Field:
    """A class attribute: one property, with the target's name for it (the wire name in this
    neutral index; a target's index may spell it: `_attributes`)."""

    prop: ir.Property
    attr: str


@record
class ClassDef:
    name: str
    obj: ir.Obj
    doc: ir.Doc
    fields: tuple[Field, ...]
    attrs: tuple[str, ...] = ()  # the fields' names (`TypeIndex._attributes`)

    @property
    def wire_names(self) -> tuple[str, ...]:
        return tuple(f.prop.name for f in self.fields)


@record
class Discriminator:
    """A required literal property whose values tell union members apart."""

    wire: str
    # (member class name, the literal values it takes), in union order
    members: tuple[tuple[str, tuple[str, ...]], ...]


class TypeIndex:
    """Lookup tables over one resolved schema, in wire names and language-neutral type names. A
    target that spells names its own way subclasses it and overrides `_spell` (called once with
    the class objects, before the classes are made) and `_attributes`."""

    def __init__(self, resolved: ir.Resolved) -> None:
        self.resolved = resolved
        self.typedefs = resolved.type_map()
        found = classes(resolved)
        self._spell(found)
        self.classes: dict[str, ClassDef] = {}
        self._raw_memo: dict[str, bool] = {}
        self._target_memo: dict[str, ir.TypeExpr] = {}
        self._renamed_memo: dict[str, str] = {}
        for name, (obj, doc) in found.objs.items():
            attrs = self._attributes(name, obj)
            base = self.classes.get(obj.inherits)
            n = obj.inherited
            if base is not None and obj.starts_with(base.obj) and attrs[:n] == base.attrs:
                own = zip(obj.properties[n:], attrs[n:])  # the inherited fields are the base's
                fields = base.fields + tuple(Field(p, a) for p, a in own)
            else:
                fields = tuple(Field(p, a) for p, a in zip(obj.properties, attrs))
            self.classes[name] = ClassDef(name, obj, doc, fields, attrs)
        # Inline objects handed over as plain JSON (payloads.py's rule): they keep a validator
        # (their class definition stays here) but are decoded and encoded as they are.
        self.plain_json = schema_payloads([c.obj for c in self.classes.values()])
        if found.diagnostics:
            raise SchemaError(found.diagnostics)
        self._kinds_memo: dict[str, frozenset[str]] = {}
        self._anything_memo: dict[str, bool] = {}
        self._warm()

    def _warm(self) -> None:
        """Fill the per-name memos of the reference-following facts in dependency order, so
        each name's fact is found from its dependencies' without recursing down a chain of
        aliases (a chain of 10,000 is as cheap per link as a chain of 2)."""
        names = [td.name for td in self.resolved.types]
        for name in dependency_order(self.named_graph, names, lambda _a, _b: True):
            ref = ir.Ref(name)
            self.target(ref)
            self.kinds(ref)
            self.accepts_anything(ref)
            self.is_raw(ref)

    # -- a target's spelling -------------------------------------------------------------------

    def _spell(self, found: Classes) -> None:
        """A target's index makes its names here (this one spells none)."""

    def _attributes(self, name: str, obj: ir.Obj) -> tuple[str, ...]:
        """The names of class `name`'s fields: here its wire names."""
        return tuple(p.name for p in obj.properties)

    # -- references -----------------------------------------------------------------------------

    def target(self, t: ir.TypeExpr) -> ir.TypeExpr:
        """The expression a reference stands for (through alias chains), else `t` itself."""
        if not isinstance(t, ir.Ref):
            return t
        start, seen = t.name, set()
        while isinstance(t, ir.Ref) and t.name not in seen:
            if t.name in self._target_memo:  # the rest of the chain is known
                t = self._target_memo[t.name]
                break
            seen.add(t.name)
            t = self.typedefs[t.name].type
        self._target_memo[start] = t
        return t

    def renamed(self, name: str) -> str:
        """The end of a chain of plain renames from `name` (`type A = B; type B = C`, none with
        constraints of its own): the first type along it that is more than another name. The
        generated checks and builders of an alias call that type's directly, so a chain of any
        length costs one call at run time, not one per link (Python's recursion limit)."""
        path: list[str] = []
        while name not in self._renamed_memo and name not in path:
            td = self.typedefs[name]
            if not (isinstance(td.type, ir.Ref) and td.constraints.is_empty()):
                break
            path.append(name)
            name = td.type.name
        end = self._renamed_memo.get(name, name)
        for link in path:
            self._renamed_memo[link] = end
        return end

    def class_of(self, t: ir.TypeExpr) -> str | None:
        """The class a type expression denotes directly (a class reference or inline class)."""
        t = self.target(t)
        if isinstance(t, ir.Obj) and is_class_obj(t):
            return t.name
        return None

    def is_class_name(self, name: str) -> bool:
        return name in self.classes

    def dataclasses(self) -> list[ClassDef]:
        """The classes that become dataclasses: all but those handed over as plain JSON."""
        return [c for c in self.classes.values() if c.name not in self.plain_json]

    def members(self, t: ir.TypeExpr) -> tuple[ir.TypeExpr, ...]:
        """The members of a union, nested unions (also behind aliases) flattened, in order."""
        out: list[ir.TypeExpr] = []
        seen: set[str] = set()
        todo = [t]  # a stack, last member first: the order of a depth-first walk, no recursion
        while todo:
            u = todo.pop()
            tu = self.target(u)
            if isinstance(tu, ir.Union_) and not (isinstance(u, ir.Ref) and u.name in seen):
                if isinstance(u, ir.Ref):
                    seen.add(u.name)
                todo.extend(reversed(tu.members))
            else:
                out.append(u)
        return tuple(out)

    # -- unions ---------------------------------------------------------------------------------

    def discriminator(self, t: ir.TypeExpr) -> Discriminator | None:
        """A discriminator for a union whose members are all distinct classes, by the one rule
        (`codegen/discriminators.py`)."""
        members = self.members(t)
        names = [self.class_of(m) for m in members]
        if len(members) < 2 or any(n is None for n in names):
            return None
        classes = [self.classes[n] for n in names if n is not None]
        if len({c.name for c in classes}) != len(classes):
            return None
        views = [self.member_view(c.obj) for c in classes]
        wire = discriminator(views)
        if wire is None:
            return None
        return Discriminator(wire, tuple((c.name, v.values(wire)) for c, v in zip(classes, views)))

    def member_view(self, obj: ir.Obj) -> Member:
        return resolved_member(obj, self.typedefs)

    # -- raw JSON -------------------------------------------------------------------------------

    def is_raw(self, t: ir.TypeExpr) -> bool:
        """True when no class occurs in `t`: its decoded value is the JSON value itself."""
        if isinstance(t, ir.Ref):
            if t.name not in self._raw_memo:
                self._raw_memo[t.name] = True  # assumed while recursing (JSONValue-like cycles)
                self._raw_memo[t.name] = self.is_raw(self.typedefs[t.name].type)
            return self._raw_memo[t.name]
        if isinstance(t, ir.Obj):
            if t.properties:
                return t.name in self.plain_json
            return t.index is None or self.is_raw(t.index.value)
        return all(self.is_raw(c) for c in children(t))

    # -- JSON kinds -----------------------------------------------------------------------------

    def kinds(self, t: ir.TypeExpr) -> frozenset[str]:
        """The JSON kinds a value of `t` can have (integers count as numbers too)."""
        if isinstance(t, ir.Ref):
            memo = self._kinds_memo.get(t.name)
            if memo is None:
                # resolve refuses alias cycles; a reference back here (through an object or an
                # array, where kinds stop) adds nothing while this name is worked out
                self._kinds_memo[t.name] = frozenset()
                memo = self._kinds_memo[t.name] = self.kinds(self.typedefs[t.name].type)
            return memo
        if isinstance(t, ir.Prim):
            return _PRIM_KINDS[t.kind]
        if isinstance(t, ir.Lit):
            if t.kind == "number":
                return frozenset({"integer", "number"})
            return frozenset({t.kind})
        if isinstance(t, ir.Array):
            return frozenset({"array"})
        if isinstance(t, (ir.Obj, ir.Map)):
            return frozenset({"object"})
        if isinstance(t, ir.Union_):
            out: frozenset[str] = frozenset()
            for m in t.members:
                out |= self.kinds(m)
            return out
        if isinstance(t, ir.Intersection):
            inter = ALL_KINDS
            for m in t.members:
                inter &= self.kinds(m)
            return inter
        return ALL_KINDS

    def accepts_anything(self, t: ir.TypeExpr) -> bool:
        """`unknown`/`any`, or a union/alias that includes them: no check at all."""
        if isinstance(t, ir.Ref):
            memo = self._anything_memo.get(t.name)
            if memo is None:
                self._anything_memo[t.name] = False  # as for kinds
                memo = self.accepts_anything(self.typedefs[t.name].type)
                self._anything_memo[t.name] = memo
            return memo
        if isinstance(t, ir.Prim):
            return t.kind in (P.UNKNOWN, P.ANY)
        if isinstance(t, ir.Union_):
            return any(self.accepts_anything(m) for m in t.members)
        return False

    # -- recursion ------------------------------------------------------------------------------

    @cached_property
    def named_graph(self) -> dict[str, tuple[str, ...]]:
        """Named type (typedef or inline class) -> named types its expression mentions directly."""
        graph: dict[str, tuple[str, ...]] = {}
        for td in self.resolved.types:
            t = td.type
            base = self.typedefs.get(t.inherits) if isinstance(t, ir.Obj) else None
            if (
                isinstance(t, ir.Obj)
                and base is not None
                and base.name in graph
                and _extends(t, base.type)
            ):
                # what the base mentions, then what the own properties add, as a walk finds them
                own = mentions(ir.Obj(t.path, t.own), td.name)
                graph[td.name] = tuple(dict.fromkeys(graph[base.name] + own))
            else:
                graph[td.name] = mentions(t, td.name)
        for c in self.classes.values():
            if c.name not in graph:
                graph[c.name] = mentions(c.obj, c.name)
        return graph


def _extends(t: ir.Obj, base: ir.TypeExpr) -> bool:
    return isinstance(base, ir.Obj) and t.starts_with(base)


_PRIM_KINDS = {
    P.STRING: frozenset({"string"}),
    P.NUMBER: frozenset({"integer", "number"}),
    P.INTEGER: frozenset({"integer", "number"}),
    P.BOOLEAN: frozenset({"boolean"}),
    P.NULL: frozenset({"null"}),
    P.UNKNOWN: ALL_KINDS,
    P.ANY: ALL_KINDS,
    P.NEVER: frozenset(),
    P.OBJECT: frozenset({"object"}),
}
