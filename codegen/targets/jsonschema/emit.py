"""Resolved IR -> one JSON Schema document with a definition per declared type. Pure.

The document has the shape of the official `schema.json` files: `$schema`, then every interface
and alias under `definitions` (draft-07) or `$defs` (2020-12); constants are not definitions, and
inline objects are inlined where they stand. Objects stay open (no `additionalProperties` unless
an index signature or a `Record` gives one), like the TypeScript types they come from.

Numbers are faithful by default: TS `number` is JSON Schema `number`. `number_as_integer`
reproduces the official generator (typescript-json-schema `--defaultNumberType integer`): a bare
`number` becomes `integer`, except inside a property tagged `@TJS-type number`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ... import ir
from ...records import record

DRAFT_07 = "draft-07"
DRAFT_2020_12 = "2020-12"
DIALECTS = {
    DRAFT_07: ("http://json-schema.org/draft-07/schema#", "definitions"),
    DRAFT_2020_12: ("https://json-schema.org/draft/2020-12/schema", "$defs"),
}
# The first protocol version whose official schema is JSON Schema 2020-12.
FIRST_2020_12_VERSION = "2025-11-25"
# Pre-release names that the official schemas published as draft-07.
_DRAFT_07_PRERELEASES = frozenset({"DRAFT-2025-v3"})

Schema = dict[str, Any]


def default_dialect(resolved: ir.Resolved) -> str:
    """draft-07 up to 2025-06-18 (and DRAFT-2025-v3), 2020-12 from 2025-11-25 on, decided by the
    LATEST_PROTOCOL_VERSION constant; a schema without a dated version gets 2020-12."""
    version = resolved.protocol_version
    if version is None:
        return DRAFT_2020_12
    if version in _DRAFT_07_PRERELEASES:
        return DRAFT_07
    if _is_date(version):
        return DRAFT_07 if version < FIRST_2020_12_VERSION else DRAFT_2020_12
    return DRAFT_2020_12


def _is_date(text: str) -> bool:
    parts = text.split("-")
    return (
        len(parts) == 3 and all(p.isdigit() for p in parts) and [len(p) for p in parts] == [4, 2, 2]
    )


def emit(
    resolved: ir.Resolved, *, number_as_integer: bool = False, dialect: str | None = None
) -> Schema:
    """The JSON Schema document for `resolved` (plain data; serialise with sorted keys)."""
    dialect = dialect or default_dialect(resolved)
    if dialect not in DIALECTS:
        raise ValueError(
            f"unknown JSON Schema dialect {dialect!r} (known: {', '.join(sorted(DIALECTS))})"
        )
    url, defs_key = DIALECTS[dialect]
    em = _Emitter(f"#/{defs_key}/", number_as_integer, dialect)
    return {"$schema": url, defs_key: {t.name: em.typedef(t) for t in resolved.types}}


@record
class _Emitter:
    ref_prefix: str
    number_as_integer: bool
    dialect: str
    keep_number: bool = False  # inside a `@TJS-type number` property
    # id of a property -> its schema: an interface's inherited properties are its base's very
    # objects, so an `extends` chain emits each once (the document still writes them per class)
    done: dict[int, Schema] = field(default_factory=dict, compare=False)

    def typedef(self, td: ir.TypeDef) -> Schema:
        em = self.keeping_number() if td.keeps_number else self
        out = self.constrain(em.type(td.type), td.constraints)
        return _describe(out, td.doc)

    def keeping_number(self) -> _Emitter:
        return _Emitter(self.ref_prefix, self.number_as_integer, self.dialect, keep_number=True)

    # -- type expressions ---------------------------------------------------------------------

    def type(self, t: ir.TypeExpr) -> Schema:
        if isinstance(t, ir.Prim):
            return self.prim(t.kind)
        if isinstance(t, ir.Lit):
            return _literal(t)
        if isinstance(t, ir.Ref):
            return {"$ref": self.ref_prefix + t.name}
        if isinstance(t, ir.Array):
            return {"type": "array", "items": self.type(t.item)}
        if isinstance(t, ir.Union_):
            return self.union(t.members)
        if isinstance(t, ir.Intersection):
            return {"allOf": [self.type(m) for m in t.members]}
        if isinstance(t, ir.Map):
            return self.map(t)
        if isinstance(t, ir.Obj):
            return self.obj(t)
        ir.not_resolved(t)

    def prim(self, kind: ir.PrimKind) -> Schema:
        if kind is ir.PrimKind.NUMBER:
            integer = self.number_as_integer and not self.keep_number
            return {"type": "integer" if integer else "number"}
        if kind in (ir.PrimKind.UNKNOWN, ir.PrimKind.ANY):
            return {}
        if kind is ir.PrimKind.NEVER:
            return {"not": {}}
        return {"type": kind.value}  # string, integer, boolean, null, object

    def union(self, members: tuple[ir.TypeExpr, ...]) -> Schema:
        """Literals of one kind become one `enum`, bare primitives one `type` list; anything else
        is a branch of `anyOf`. Branches keep source order."""
        branches: list[Schema | _Group] = []
        groups: dict[str, _Group] = {}  # literal kind, or "" for bare primitive types
        for m in members:
            if isinstance(m, ir.Lit):
                key, value = m.kind, m.value
            else:
                schema = self.type(m)
                if set(schema) != {"type"} or not isinstance(schema["type"], str):
                    if schema not in branches:
                        branches.append(schema)
                    continue
                key, value = "", schema["type"]
            if key not in groups:
                groups[key] = _Group(key, [])
                branches.append(groups[key])
            if value not in groups[key].values:  # one kind per group, so `1 == True` cannot mix
                groups[key].values.append(value)
        out = [b.schema() if isinstance(b, _Group) else b for b in branches]
        return out[0] if len(out) == 1 else {"anyOf": out}

    def map(self, t: ir.Map) -> Schema:
        value = self.type(t.value)
        keys = list(ir.record_keys(t))  # resolved maps have fixed keys
        return {"type": "object", "properties": {k: value for k in keys}, "required": list(keys)}

    def obj(self, obj: ir.Obj) -> Schema:
        out: Schema = {"type": "object"}
        if obj.properties:
            out["properties"] = {p.name: self.property(p) for p in obj.properties}
        required = [p.name for p in obj.properties if not p.optional]
        if required:
            out["required"] = required
        if obj.index is not None:
            out["additionalProperties"] = self.type(obj.index.value)
        return out

    def property(self, p: ir.Property) -> Schema:
        schema = self.done.get(id(p))
        if schema is None:
            schema = self.done[id(p)] = self.new_property(p)
        return schema

    def new_property(self, p: ir.Property) -> Schema:
        em = self.keeping_number() if p.keeps_number else self
        schema = em.type(p.type)
        if p.nullable and not ir.has_null(p.type):
            schema = _add_null(schema)
        schema = self.constrain(schema, p.constraints)
        return _describe(schema, p.doc)

    def constrain(self, schema: Schema, c: ir.Constraints) -> Schema:
        words = _constraint_keywords(c)
        if not words:
            return schema
        if "$ref" in schema and self.dialect == DRAFT_07:
            schema = {"allOf": [schema]}  # draft-07 ignores keywords beside $ref
        return {**schema, **words}


# ---------------------------------------------------------------------------------------------


def _literal(lit: ir.Lit) -> Schema:
    return {"const": lit.value, "type": _literal_type(lit.kind, lit.value)}


def _literal_type(kind: str, value: Any) -> str:
    if kind == "number":
        return "integer" if isinstance(value, int) else "number"
    return kind


@dataclass
class _Group:
    """Union members merged into one branch: literals of one kind, or bare primitive types."""

    kind: str  # "string" | "number" | "boolean" for literals; "" for primitive types
    values: list[Any]

    def schema(self) -> Schema:
        if not self.kind:
            return {"type": self.values[0] if len(self.values) == 1 else list(self.values)}
        types = {_literal_type(self.kind, v) for v in self.values}
        out: Schema = (
            {"const": self.values[0]} if len(self.values) == 1 else {"enum": list(self.values)}
        )
        out["type"] = types.pop() if len(types) == 1 else "number"
        return out


def _add_null(schema: Schema) -> Schema:
    """`@nullable`: null joins the `type` list when the schema is just a type, else `anyOf`."""
    t = schema.get("type")
    if isinstance(t, str) and "const" not in schema and "enum" not in schema:
        return {**schema, "type": [t, "null"]}
    if isinstance(t, list) and "const" not in schema and "enum" not in schema:
        return {**schema, "type": [*t, "null"]}
    if list(schema) == ["anyOf"]:
        return {"anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}


def _constraint_keywords(c: ir.Constraints) -> Schema:
    values = ((k.keyword, getattr(c, k.field)) for k in ir.KEYWORDS)
    return {keyword: value for keyword, value in values if value is not None}


def _describe(schema: Schema, doc: ir.Doc) -> Schema:
    if not doc.text:
        return schema
    return {**schema, "description": doc.text}
