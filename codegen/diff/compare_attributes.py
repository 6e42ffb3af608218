"""What a declaration or property carries besides its type, compared: the description and JSDoc
tags, the tags the official generator writes into the schema, constraints, `@TJS-type`, and a
property's optional/nullable/readonly flags, and the generated names of the same object. Pure functions of the two sides, each returning the
`Change`s it finds; the walk (`compare.py`) decides where to ask."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .. import ir
from ..constraints import SCHEMA_VALIDATION_TAGS, STRUCTURAL_TAGS, schema_keyword
from .algebra import strip_null
from .change import Change, Facts, Movement, What

_NUMBER = ir.Prim(ir.PrimKind.NUMBER)


def doc_changes(a: ir.Doc, b: ir.Doc, path: tuple[str, ...], scope: str = "type") -> list[Change]:
    """The description, the schema tags and the other JSDoc tags of one subject."""
    if a == b:
        return []
    out = []
    if a.text != b.text:
        out.append(Change(scope, path, What.DOC_DESCRIPTION))
    out.extend(_schema_tag_changes(a, b, path, scope))
    ta, tb = _tags(a), _tags(b)
    for tag in sorted(set(ta) | set(tb)):
        x, y = ta.get(tag), tb.get(tag)
        if x == y:
            continue
        change: Movement = "added" if x is None else "removed" if y is None else "changed"
        facts = Facts(tag=tag, change=change)
        if tag == "category":  # category values are names, not prose
            before = ", ".join(v.strip("`") for v in x) if x else None
            after = ", ".join(v.strip("`") for v in y) if y else None
            out.append(Change(scope, path, What.DOC_TAG, before, after, facts))
        else:
            out.append(Change(scope, path, What.DOC_TAG, facts=facts))
    return out


def _schema_tag_changes(a: ir.Doc, b: ir.Doc, path: tuple[str, ...], scope: str) -> list[Change]:
    """The tags the official generator writes into the schema (`constraints.py`), compared
    as schema: a validation keyword's value is shown, an annotation's is prose-like and
    is not."""
    out = []
    ta, tb = _tags(a, schema=True), _tags(b, schema=True)
    for tag in sorted(set(ta) | set(tb)):
        x, y = ta.get(tag), tb.get(tag)
        if x == y:
            continue
        change: Movement = "added" if x is None else "removed" if y is None else "changed"
        keyword = schema_keyword(tag) or tag
        shown = keyword in SCHEMA_VALIDATION_TAGS
        before = (f"@{tag} {' '.join(x)}".strip() if shown else f"@{tag}") if x else None
        after = (f"@{tag} {' '.join(y)}".strip() if shown else f"@{tag}") if y else None
        facts = Facts(tag=tag, change=change, constraint=keyword)
        out.append(Change(scope, path, What.SCHEMA_TAG, before, after, facts))
    return out


def annotation_changes(
    a: bool, b: bool, ta: ir.TypeExpr, tb: ir.TypeExpr, path: tuple[str, ...]
) -> list[Change]:
    """`@TJS-type number` on a `number` keeps it a JSON Schema number; without it the
    official generator renders `integer`. Gaining or losing it changes the official schema
    though the TS type stays `number`."""
    if a != b and _NUMBER in (strip_null(ta), strip_null(tb)):
        facts = Facts(tag="TJS-type")
        return [Change("type", path, What.ANNOTATION_TYPE, _rendered(a), _rendered(b), facts)]
    return []


def constraint_changes(a: ir.Constraints, b: ir.Constraints, path: tuple[str, ...]) -> list[Change]:
    out = []
    for k in ir.KEYWORDS:
        x, y = getattr(a, k.field), getattr(b, k.field)
        if x != y:
            facts = Facts(constraint=k.field, change=_direction(x, y))
            # named by its JSON Schema keyword: `maxItems: 100`, not a bare `100`
            before = None if x is None else f"{k.keyword}: {_val(x)}"
            after = None if y is None else f"{k.keyword}: {_val(y)}"
            out.append(Change("type", path, What.CONSTRAINT, before, after, facts))
    return out


def flag_changes(a: ir.Property, b: ir.Property, path: tuple[str, ...]) -> list[Change]:
    """A property's optional, nullable and readonly flags."""
    out = []
    if a.optional != b.optional:
        out.append(Change("type", path, What.PROPERTY_OPTIONAL, _req(a), _req(b)))
    if a.nullable != b.nullable:
        out.append(Change("type", path, What.PROPERTY_NULLABLE, _null(a), _null(b)))
    elif a.nullable and a.doc.has("nullable") != b.doc.has("nullable"):
        # `T | null` either way, but only `@nullable` puts null into the official schema:
        # its generator reads the schema without strict null checks
        out.append(Change("type", path, What.PROPERTY_NULLABLE, _tag_null(a), _tag_null(b)))
    if a.readonly != b.readonly:
        out.append(Change("type", path, What.PROPERTY_READONLY, _ro(a), _ro(b)))
    return out


def name_changes(
    a: ir.Obj,
    b: ir.Obj,
    path: tuple[str, ...],
    inline: bool,
    spellers: Mapping[str, Callable[[tuple[str, ...]], tuple[str, ...]]],
) -> list[Change]:
    """Generated public names of the same object: its class name (`inline` objects; declared
    types are compared by name; the neutral, path-derived name) and its properties' names in
    each target that spells them (`spellers`, asked of the registry: the diff knows no
    language's spelling). Two targets giving the same change make one finding."""
    out = []
    if inline and a.properties and b.properties and a.name != b.name:
        out.append(Change("type", path, What.NAME_CHANGED, a.name, b.name))
    seen: set[tuple[str, str, str]] = set()
    for spell in spellers.values():
        names_a = dict(zip((p.name for p in a.properties), spell(_wires(a)), strict=True))
        names_b = dict(zip((p.name for p in b.properties), spell(_wires(b)), strict=True))
        for wire in sorted(set(names_a) & set(names_b)):
            change = (wire, names_a[wire], names_b[wire])
            if change[1] != change[2] and change not in seen:
                seen.add(change)
                out.append(Change("type", (*path, wire), What.NAME_CHANGED, change[1], change[2]))
    return out


def deprecated(d: ir.Doc) -> bool | None:
    """True when the doc carries `@deprecated`: an addition that is deprecated from the start."""
    return True if any(t.name == "deprecated" for t in d.tags) else None


def _tags(d: ir.Doc, schema: bool = False) -> dict[str, tuple[str, ...]]:
    """The doc's tags the official generator writes into the schema (`schema`), or the others
    but those the model holds as structure: opaque documentation tags."""
    out: dict[str, list[str]] = {}
    for t in d.tags:
        if t.name in STRUCTURAL_TAGS or (schema_keyword(t.name) is not None) != schema:
            continue
        out.setdefault(t.name, []).append(" ".join(t.value.split()) if schema else t.value)
    return {k: tuple(v) for k, v in out.items()}


def _wires(o: ir.Obj) -> tuple[str, ...]:
    return tuple(p.name for p in o.properties)


def _rendered(keeps_number: bool) -> str:
    return "number" if keeps_number else "integer"


def _req(p: ir.Property) -> str:
    return "optional" if p.optional else "required"


def _null(p: ir.Property) -> str:
    return "nullable" if p.nullable else "not nullable"


def _tag_null(p: ir.Property) -> str:
    return (
        "nullable"
        if p.doc.has("nullable")
        else "`| null` without @nullable: not null in JSON Schema"
    )


def _ro(p: ir.Property) -> str:
    return "readonly" if p.readonly else "mutable"


def _val(v: object) -> str | None:
    return None if v is None else str(v)


def _direction(x: object, y: object) -> Movement:
    if x is None:
        return "added"
    if y is None:
        return "removed"
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return "raised" if y > x else "lowered"
    return "changed"
