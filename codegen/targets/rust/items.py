"""The Rust items of one schema version: a struct per object type, an enum per union (tagged by
the project's one discriminator rule, else by JSON kind and required keys), an enum per set of
string literals, a type alias for the rest. Pure: a resolved IR in, item views out, in the
schema's order (inline items right after the type that holds them).

Names: a declared type keeps its schema name; an inline object keeps the resolver's
path-derived name; an inline union or string-literal set is named by the same rule from where
it stands (`codegen.naming.path_name`: `ElicitResult.content` value -> `ElicitResultContentValue`).

Here the walk: names, docs, which types hold themselves (boxed), the Rust type of each type
expression, each declaration's item; the items themselves are written by `structs` (object
types) and `unions` (unions and string-literal sets), as the views of `views`.
"""

from __future__ import annotations

from ... import ir
from ...analysis.presence import is_deprecated
from ...analysis.shapes import cyclic, is_class_obj
from ...analysis.typeindex import TypeIndex
from ...errors import Diagnostic, Location, SchemaError
from . import text as rs
from .structs import struct
from .unions import str_enum, union
from .views import JSON_MAP, JSON_VALUE, Alias, Doc, Item, Items

P = ir.PrimKind


class Builder:
    def __init__(self, resolved: ir.Resolved) -> None:
        self.resolved = resolved
        self.index = TypeIndex(resolved)
        self.typedefs = resolved.type_map()
        self.items: dict[str, Item] = {}
        self.order: list[str] = []
        self.paths: dict[str, tuple[str, ...]] = {}  # an inline item's name -> where it stands
        self.problems: list[Diagnostic] = []
        self.cyclic = cyclic(self._direct_graph())

    # -- names and docs ---------------------------------------------------------------------

    def link(self, target: str) -> str | None:
        """The intra-doc path of a `{@link}` target (`X` or `X.member`), if it is generated."""
        head, _, member = target.partition(".")
        if head not in self.typedefs and head not in self.index.classes:
            return None
        if not member:
            return head
        obj = self.index.target(ir.Ref(head)) if head in self.typedefs else None
        if isinstance(obj, ir.Obj) and obj.prop(member) is not None and is_class_obj(obj):
            return f"{obj.name}::{rs.ident(self.field_names(obj)[member])}"
        return head

    def doc(self, doc: ir.Doc, indent: str, deprecated: bool | None = None) -> Doc:
        lines = rs.doc_comment(rs.doc_lines(doc.markdown or doc.text, self.link), indent)
        dep = None
        if is_deprecated(doc) if deprecated is None else deprecated:
            note = " ".join((doc.tag("deprecated") or "").split())
            dep = (
                rs.attribute(indent, "deprecated", f"note = {rs.string(note)}")
                if note
                else f"{indent}#[deprecated]"
            )
        return Doc(lines, dep)

    def field_names(self, obj: ir.Obj) -> dict[str, str]:
        """Wire name -> snake_case field name, unique within the struct."""
        out: dict[str, str] = {}
        taken: set[str] = set()
        for p in obj.properties:
            name = rs.snake(p.name)
            while name in taken:
                name += "_"
            taken.add(name)
            out[p.name] = name
        return out

    def taken(self, name: str, path: tuple[str, ...]) -> bool:
        """Whether the inline item `name` (at `path`) is made already; a name another path or a
        declared type took is an error naming both."""
        other = self.paths.setdefault(name, path)
        declared = name in self.typedefs or name in self.index.classes
        if other != path or (len(path) > 1 and declared):
            where = ".".join(other) if other != path else name
            message = (f"the Rust name '{name}' of {'.'.join(path)} is taken by {where}; "
                       "rename one of them in a name overrides file")  # fmt: skip
            self.problems.append(Diagnostic(Location(self.resolved.source, 1, 1), message))
        return name in self.items

    def claim(self, name: str, item: Item) -> None:
        if name in self.items:
            return
        self.items[name] = item
        self.order.append(name)

    # -- recursion --------------------------------------------------------------------------

    def _direct_graph(self) -> dict[str, tuple[str, ...]]:
        """Named type -> the named types its value holds in place (not behind a Vec or map)."""

        def walk(t: ir.TypeExpr, out: list[str], top: bool) -> None:
            if isinstance(t, ir.Ref):
                out.append(t.name)
            elif isinstance(t, ir.Obj) and is_class_obj(t):
                if not top:
                    out.append(t.name)
                    return
                for p in t.properties:
                    walk(p.type, out, False)
            elif isinstance(t, ir.Union_):
                for m in t.members:
                    walk(m, out, False)

        graph: dict[str, tuple[str, ...]] = {}
        for td in self.resolved.types:
            found: list[str] = []
            walk(td.type, found, True)
            graph[td.name] = tuple(found)
        for c in self.index.classes.values():
            if c.name not in graph:
                found = []
                walk(c.obj, found, True)
                graph[c.name] = tuple(found)
        return graph

    def boxed(self, owner: str, t: ir.TypeExpr) -> bool:
        if owner not in self.cyclic:
            return False
        name = t.name if isinstance(t, (ir.Ref, ir.Obj)) else None
        return name is not None and name in self.cyclic

    # -- types ------------------------------------------------------------------------------

    def rtype(self, t: ir.TypeExpr, path: tuple[str, ...], owner: str) -> str:
        """The Rust type of `t` standing at `path`; inline items are generated on the way."""
        if isinstance(t, ir.Prim):
            return {
                P.STRING: "String",
                P.NUMBER: "json::Number",
                P.INTEGER: "i64",
                P.BOOLEAN: "bool",
                P.OBJECT: JSON_MAP,
            }.get(t.kind, JSON_VALUE)
        if isinstance(t, ir.Lit):
            return str_enum(self, (t,), path, ir.NO_DOC) if t.kind == "string" else JSON_VALUE
        if isinstance(t, ir.Ref):
            return t.name
        if isinstance(t, ir.Array):
            return f"Vec<{self.rtype(t.item, (*path, 'item'), owner)}>"
        if isinstance(t, ir.Obj):
            if is_class_obj(t):
                struct(self, t.name, t, ir.NO_DOC)
                return t.name
            return self.map_type(t, path, owner)
        if isinstance(t, ir.Union_):
            return union(self, t, path, ir.NO_DOC)
        return JSON_VALUE  # Map and Intersection do not survive resolve in any official schema

    def map_type(self, t: ir.Obj, path: tuple[str, ...], owner: str) -> str:
        value = t.index.value if t.index is not None else None
        if value is None or self.index.accepts_anything(value):
            return JSON_MAP
        return f"BTreeMap<String, {self.rtype(value, (*path, 'value'), owner)}>"

    # -- declared types ---------------------------------------------------------------------

    def typedef(self, td: ir.TypeDef) -> None:
        t = td.type
        if isinstance(t, ir.Obj) and is_class_obj(t):
            struct(self, t.name, t, td.doc)
        elif isinstance(t, ir.Union_):
            union(self, t, (td.name,), td.doc)
        elif isinstance(t, ir.Lit) and t.kind == "string":
            str_enum(self, (t,), (td.name,), td.doc)
        else:
            target = self.rtype(t, (td.name,), td.name)
            self.claim(td.name, Alias(td.name, self.doc(td.doc, ""), target))

    def build(self) -> Items:
        for td in self.resolved.types:
            self.typedef(td)
        if self.problems:
            raise SchemaError(self.problems)
        return Items([self.items[n] for n in self.order], [td.name for td in self.resolved.types])


def build(resolved: ir.Resolved) -> Items:
    return Builder(resolved).build()
