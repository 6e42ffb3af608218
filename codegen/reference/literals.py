"""The order in which TypeScript's checker creates string literal types, which is the order
typedoc shows a property's union of literals in (`mode?: "none" | "required" | "auto"` for a
schema that writes `"auto" | "required" | "none"`).

The checker interns each string literal type when it first meets the string, and sorts a
union's members by type id, so a literal the program met earlier comes first. typedoc runs
over the specification repository's TypeScript program: every `schema/*/schema.ts` (the
tsconfig's `include`), checked file by file in path order, so a page's literal order depends on
the versions whose folders sort before it. Within a file the checker meets, declaration by
declaration: the string literals of `extends Omit<X, "a">`, those of the body, then property
names it relates to an index signature (`getLiteralTypeFromProperty` when checking that an
interface extends its base): an object member whose base counterpart has an index signature
(`Request.params`) contributes its property names, and so does an interface with an indexed
base (`Result`) for its own properties. Checked against TypeScript 6.0's creation order: every
string-literal union of the seven official schemas (55) in the repository's program; a schema
checked alone, all but one (an alias, whose page shows it as written).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from .. import ir

# Created when the checker starts (the results of `typeof x`), before any source file.
PRELUDE = ("", "string", "number", "bigint", "boolean", "symbol", "undefined", "object",
           "function")  # fmt: skip

SCHEMA_FILE = "schema.ts"


def program(source: str, folder: str | Path | None) -> tuple[ir.Schema, ...]:
    """The schemas checked before `source` in the program typedoc builds over `folder` (the
    specification's `schema/`: its `*/schema.ts`, the tsconfig's `include`), those whose paths
    sort (by code point, as TypeScript sorts them) before the place `source` has there; one
    that does not parse is left out, as it would have failed the official build (the files
    are read as `program.py` reads them: regular files under `folder` only). No folder, no
    other file: the page then depends on its schema alone (a union's literals may come in
    another order than on the official page)."""
    from .program import from_arg, place_of

    if folder is None:
        return ()
    return tuple(from_arg(str(folder)).before(place_of(source)))


def literal_ranks(schema: ir.Schema, earlier: tuple[ir.Schema, ...] = ()) -> dict[str, int]:
    """Each string's place in the checker's creation order of string literal types, over the
    schemas checked before `schema` (`earlier`, from `program`) and `schema` itself."""
    ranks: dict[str, int] = {}
    for value in PRELUDE:
        ranks.setdefault(value, len(ranks))
    for before in earlier:
        for value in _met(before):
            ranks.setdefault(value, len(ranks))
    for value in _met(schema):
        ranks.setdefault(value, len(ranks))
    return ranks


def _met(schema: ir.Schema) -> Iterator[str]:
    decls = {d.name: d for d in schema.declarations}
    for d in schema.declarations:
        if isinstance(d, ir.Interface):
            for base in d.bases:
                yield from base.omit
            yield from _strings(d.body)
            yield from _related_names(d, decls)
        elif isinstance(d, ir.Alias):
            yield from _strings(d.type)


def _strings(t: ir.TypeExpr) -> Iterator[str]:
    """The string literals of a type, as written."""
    if isinstance(t, ir.Lit):
        if t.kind == "string":
            yield str(t.value)
    elif isinstance(t, ir.Obj):
        for p in t.properties:
            yield from _strings(p.type)
        if t.index is not None:
            yield from _strings(t.index.value)
    elif isinstance(t, (ir.Union_, ir.Intersection)):
        for m in t.members:
            yield from _strings(m)
    elif isinstance(t, ir.Array):
        yield from _strings(t.item)
    elif isinstance(t, ir.Map):
        yield from _strings(t.key)
        yield from _strings(t.value)
    elif isinstance(t, ir.Annotated):
        yield from _strings(t.type)


def _related_names(d: ir.Interface, decls: Mapping[str, ir.Decl]) -> Iterator[str]:
    """The property names checking `d extends ...` relates to an index signature."""
    if not d.bases:
        return
    inherited, indexed = _bases(d, decls, frozenset({d.name}))
    for p in d.body.properties:
        base_type = inherited.get(p.name)
        theirs = _object(base_type, decls) if base_type is not None else None
        mine = _object(p.type, decls)
        if theirs is not None and theirs.index is not None and mine is not None:
            yield from (q.name for q in mine.properties)
    if indexed:
        yield from (p.name for p in d.body.properties)


def _bases(
    d: ir.Interface, decls: Mapping[str, ir.Decl], seen: frozenset[str]
) -> tuple[dict[str, ir.TypeExpr], bool]:
    """The members `d`'s bases declare (nearest first) and whether one has an index signature."""
    members: dict[str, ir.TypeExpr] = {}
    indexed = False
    for base in d.bases:
        bd = decls.get(base.name)
        if not isinstance(bd, ir.Interface) or base.name in seen:
            continue
        indexed = indexed or bd.body.index is not None
        for p in bd.body.properties:
            members.setdefault(p.name, p.type)
        further, more = _bases(bd, decls, seen | {base.name})
        indexed = indexed or more
        for name, t in further.items():
            members.setdefault(name, t)
    return members, indexed


def _object(t: ir.TypeExpr, decls: Mapping[str, ir.Decl]) -> ir.Obj | None:
    """The object type `t` is, through references."""
    seen: set[str] = set()
    while isinstance(t, ir.Ref) and t.name not in seen:
        seen.add(t.name)
        d = decls.get(t.name)
        if isinstance(d, ir.Interface):
            return d.body
        if not isinstance(d, ir.Alias):
            return None
        t = d.type
    return t if isinstance(t, ir.Obj) else None
