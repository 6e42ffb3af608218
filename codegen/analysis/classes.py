"""Which objects of a resolved schema get a name of their own, a neutral fact every target reads
(the Python classes, zod's schemas, any other language's types): every declared object type with
properties, and every inline object with properties under a declaration (named by its path in
`codegen/naming.py`), in the order a reader meets them: each declaration, then the inline objects
inside it. The inherited part of an object that starts with its base's very properties is not
walked again (its inline objects are the base's). Two different objects of one name are a
located error for every target. How a name is spelled is each target's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from ..errors import Diagnostic, Location
from .shapes import children, is_class_obj


@dataclass(frozen=True)
class Declared:
    """A declaration that takes a module-level name: a type, an inline class or a constant."""

    name: str
    what: str  # "type" | "constant"
    loc: Location


@dataclass
class Classes:
    # every declaration and inline class, in the order met (a name met again is listed again)
    declared: list[Declared] = field(default_factory=list)
    # the class objects in the order met: name -> (object, its doc)
    objs: dict[str, tuple[ir.Obj, ir.Doc]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # two objects of one name


def where(node: object, resolved: ir.Resolved) -> Location:
    loc = getattr(node, "loc", None)
    return loc if isinstance(loc, Location) else Location(resolved.source, 1, 1)


def classes(resolved: ir.Resolved) -> Classes:
    out = Classes()

    def add(name: str, obj: ir.Obj, doc: ir.Doc) -> None:
        if name in out.objs:
            if out.objs[name][0].properties != obj.properties:
                message = f"two different object types are both named '{name}'"
                out.diagnostics.append(Diagnostic(where(obj, resolved), message))
            return
        out.objs[name] = (obj, doc)

    def inline(t: ir.TypeExpr) -> None:
        for sub in children(t):
            if isinstance(sub, ir.Obj) and is_class_obj(sub):
                out.declared.append(Declared(sub.name, "type", where(sub, resolved)))
                add(sub.name, sub, ir.NO_DOC)
            inline(sub)

    walked: dict[str, ir.Obj] = {}  # the objects whose inline objects are declared
    for td in resolved.types:
        out.declared.append(Declared(td.name, "type", where(td, resolved)))
        if is_class_obj(td.type):
            assert isinstance(td.type, ir.Obj)
            add(td.name, td.type, td.doc)
        t = td.type
        if isinstance(t, ir.Obj) and t.inherits in walked and t.starts_with(walked[t.inherits]):
            t = ir.Obj(t.path, t.own)  # the inherited part's inline objects are declared
        inline(t)
        if isinstance(td.type, ir.Obj):
            walked[td.name] = td.type
    for c in resolved.consts:
        out.declared.append(Declared(c.name, "constant", where(c, resolved)))
    return out
