"""Validation-equivalence of JSON Schema documents: a normaliser and a definition-wise comparison.

`normalise` rewrites a schema into a canonical form that accepts exactly the same instances:
annotations dropped, `definitions`/`$defs` references reduced to the type name, keyword order and
the order inside `required`/`enum`/`type`/`anyOf` made irrelevant, and spellings that JSON Schema
defines to mean the same thing made one (`additionalProperties: {}` or `true` is absent, `const`
is a one-value `enum`, `{"type": [a, b]}` is `anyOf` of types, an `allOf` of plain object schemas
is one object, keywords that cannot apply to the only allowed type are dropped). Nothing is
normalised that could change which instances validate.

`compare` normalises two documents and reports, per definition, where they differ. A `$ref` on
one side and an inline schema on the other are compared by expanding the reference (recursion is
taken as equal when it returns to a pair already being compared).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

JSON = Any

# Keywords with no effect on validation (annotations), in any dialect MCP uses.
ANNOTATIONS = frozenset({
    "$comment", "$schema", "title", "description", "examples", "default", "deprecated", "readOnly",
    "writeOnly", "markdownDescription", "enumNames", "contentMediaType", "contentEncoding",
})  # fmt: skip
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_ONE = ("additionalProperties", "items", "not", "contains", "propertyNames",
               "additionalItems", "unevaluatedProperties", "unevaluatedItems", "if", "then", "else")  # fmt: skip
_SCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
# Keywords that constrain only instances of these JSON types.
_APPLIES_TO = {
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "array": ("items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems",
              "contains", "minContains", "maxContains", "unevaluatedItems"),
    "object": ("properties", "required", "additionalProperties", "patternProperties",
               "minProperties", "maxProperties", "propertyNames", "dependencies",
               "dependentRequired", "dependentSchemas", "unevaluatedProperties"),
}  # fmt: skip
_KEYWORD_TYPE = {k: t for t, ks in _APPLIES_TO.items() for k in ks}
# Keywords whose value is a number: 1.0 and 1 mean the same.
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
            "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")  # fmt: skip
_ALL_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
_NOTHING: JSON = {"not": {}}
_REF_PREFIXES = ("#/definitions/", "#/$defs/")


def dumps(value: JSON) -> str:
    """Canonical JSON text, used to sort and to compare."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def same(a: JSON, b: JSON) -> bool:
    """Equality of JSON values as JSON sees it (in Python `1 == True` and `0 == False`)."""
    return a is b or dumps(a) == dumps(b)


def canonical_value(v: JSON) -> JSON:
    """An instance value as JSON Schema compares it: 1.0 is 1 (but true is never 1)."""
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [canonical_value(x) for x in v]
    if isinstance(v, dict):
        return {k: canonical_value(x) for k, x in v.items()}
    return v


def json_type(v: JSON) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "integer" if v.is_integer() else "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


def _expand(types: frozenset[str]) -> frozenset[str]:
    """Types as sets of instances: `number` includes the integers."""
    return types | {"integer"} if "number" in types else types


def _contract(types: frozenset[str]) -> frozenset[str]:
    return types - {"integer"} if "number" in types else types


def _matches(value: JSON, types: frozenset[str]) -> bool:
    return json_type(value) in _expand(types)


def ref_name(ref: str) -> str | None:
    for prefix in _REF_PREFIXES:
        if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
            return ref[len(prefix) :]
    return None


def is_ref(schema: JSON) -> bool:
    return isinstance(schema, dict) and set(schema) == {"$ref"}


# ---------------------------------------------------------------------------------------------
# Normalisation


@dataclass
class Normaliser:
    """Normalises schemas of one document. `defs` (the document's raw definitions) lets an `allOf`
    see through references; `fold_integer` additionally treats `integer` as `number`, which is NOT
    an equivalence and exists only to isolate number/integer differences."""

    dialect: str  # "draft-07" | "2020-12"
    defs: Mapping[str, JSON]
    fold_integer: bool = False

    def __post_init__(self) -> None:
        self._cache: dict[str, JSON] = {}
        self._expanding: set[str] = set()

    def definition(self, name: str) -> JSON:
        if name not in self._cache:
            self._cache[name] = self.normalise(self.defs[name])
        return self._cache[name]

    def normalise(self, schema: JSON) -> JSON:
        if schema is True:
            return {}
        if schema is False:
            return dict(_NOTHING)
        if not isinstance(schema, dict):
            raise TypeError(f"not a schema: {schema!r}")
        s = {k: v for k, v in schema.items() if k not in ANNOTATIONS}
        for key in _NUMERIC:
            if key in s:
                s[key] = canonical_value(s[key])
        if "$ref" in s:
            ref = s.pop("$ref")
            name = ref_name(ref)
            node = {"$ref": name if name is not None else ref}
            if self.dialect == "draft-07" or not s:
                return node  # draft-07 ignores every keyword beside $ref
            return self.normalise({"allOf": [node, s]}) if name is not None else {**s, **node}
        for key in _SCHEMA_MAPS:
            if key in s and isinstance(s[key], dict):
                s[key] = {k: self.normalise(v) for k, v in s[key].items()}
        for key in _SCHEMA_ONE:
            if key in s and isinstance(s[key], (dict, bool)):
                s[key] = self.normalise(s[key])
        for key in _SCHEMA_LISTS:
            if key in s and isinstance(s[key], list):
                s[key] = [self.normalise(v) for v in s[key]]
        if isinstance(s.get("items"), list):  # draft-07 tuple form
            s["items"] = [self.normalise(v) for v in s["items"]]
        return self.simplify(s)

    # -- rewriting rules, applied to a node whose subschemas are already normal ---------------

    def simplify(self, s: dict[str, JSON]) -> JSON:
        if "$ref" in s and len(s) == 1:
            return s
        s = self.types_and_values(s)
        if s == _NOTHING:
            return s
        for key in ("additionalProperties", "items", "additionalItems", "propertyNames",
                    "unevaluatedProperties", "unevaluatedItems"):  # fmt: skip
            if s.get(key) == {}:
                del s[key]
        if "properties" in s:
            s["properties"] = {k: v for k, v in s["properties"].items() if v != {}}
        for key in ("properties", "patternProperties", "$defs", "definitions"):
            if s.get(key) == {}:
                del s[key]
        if "required" in s:
            s["required"] = sorted(set(s["required"]))
            if not s["required"]:
                del s["required"]
        if "anyOf" in s:
            s = self.any_of(s)
        if "allOf" in s:
            s = self.all_of(s)
        return s

    def types_and_values(self, s: dict[str, JSON]) -> dict[str, JSON]:
        """`type` as a sorted list (integer absorbed by number), `const` as a one-value `enum`,
        enum values outside `type` dropped (then `type` says nothing more), and keywords that only
        constrain types `type` excludes dropped."""
        if "type" in s:
            raw = s["type"]
            types = frozenset([raw] if isinstance(raw, str) else raw)
            if self.fold_integer:
                types = frozenset("number" if t == "integer" else t for t in types)
            s["type"] = sorted(_contract(types))
        if "const" in s:
            const = canonical_value(s.pop("const"))
            if "enum" in s:
                s["enum"] = [v for v in s["enum"] if same(canonical_value(v), const)]
            else:
                s["enum"] = [const]
        if "enum" in s:
            values = {dumps(canonical_value(v)): canonical_value(v) for v in s["enum"]}
            if self.fold_integer:
                values = {dumps(v): v for v in values.values()}
            if "type" in s:
                allowed = frozenset(s.pop("type"))
                values = {k: v for k, v in values.items() if _matches(v, allowed)}
            if not values:
                return dict(_NOTHING)
            s["enum"] = [values[k] for k in sorted(values)]
            kinds = {json_type(v) for v in values.values()}
            allowed_kinds = _expand(frozenset(kinds))
            for key in list(s):
                t = _KEYWORD_TYPE.get(key)
                if t is not None and not (
                    t in allowed_kinds or (t == "number" and "integer" in kinds)
                ):
                    del s[key]
        elif "type" in s:
            types = _expand(frozenset(s["type"]))
            if not types:
                return dict(_NOTHING)
            for key in list(s):
                t = _KEYWORD_TYPE.get(key)
                if t is not None and t not in types and not (t == "number" and "integer" in types):
                    del s[key]
            if _expand(frozenset(s["type"])) == _ALL_TYPES:
                del s["type"]
        return s

    def any_of(self, s: dict[str, JSON]) -> JSON:
        members: list[JSON] = []
        for m in s.pop("anyOf"):
            if set(m) == {"anyOf"}:
                members.extend(m["anyOf"])  # nested anyOf flattens
            else:
                members.append(m)
        if any(m == {} for m in members):
            return s  # one branch accepts everything
        members = [m for m in members if m != _NOTHING]
        if not members:
            return dict(_NOTHING)
        # Bare `type` branches merge into one `type` list; bare `enum` branches into one enum,
        # minus values a bare type branch already accepts.
        types: frozenset[str] = frozenset().union(
            *(m["type"] for m in members if set(m) == {"type"})
        )
        values = [v for m in members if set(m) == {"enum"} for v in m["enum"]]
        rest = [m for m in members if set(m) not in ({"type"}, {"enum"})]
        merged: list[JSON] = []
        if types:
            merged.append(self.simplify({"type": sorted(types)}))
        values = [v for v in values if not _matches(v, types)]
        if values:
            merged.append(self.simplify({"enum": values}))
        unique = {dumps(m): m for m in [*merged, *rest]}
        out = [unique[k] for k in sorted(unique)]
        if len(out) == 1:
            if not s:
                return out[0]
            return (
                self.all_of({**s, "allOf": [out[0]]}) if "allOf" not in s else {**s, "anyOf": out}
            )
        s["anyOf"] = out
        return s

    def all_of(self, s: dict[str, JSON]) -> JSON:
        members: list[JSON] = []
        for m in s.pop("allOf"):
            if set(m) == {"allOf"}:
                members.extend(m["allOf"])
            elif m != {}:
                members.append(m)
        if s:
            members.append(s)
        if not members:
            return {}
        if any(m == _NOTHING for m in members):
            return dict(_NOTHING)
        merged = self.merge(members)
        if merged is not None:
            return merged
        unique = {dumps(m): m for m in members}
        out = [unique[k] for k in sorted(unique)]
        return out[0] if len(out) == 1 else {"allOf": out}

    def merge(self, members: list[JSON]) -> JSON | None:
        """One schema equivalent to the conjunction of plain schemas, or None when that needs
        more than keyword-wise merging (then the `allOf` stays)."""
        plain: list[dict[str, JSON]] = []
        for m in members:
            if is_ref(m):
                m = self.see_through(m["$ref"])
                if m is None:
                    return None
            if any(k in m for k in ("$ref", "anyOf", "oneOf", "allOf", "not", "if", "additionalProperties",
                                    "patternProperties", "unevaluatedProperties")):  # fmt: skip
                return None
            plain.append(m)
        out: dict[str, JSON] = {}
        for m in plain:
            for key, value in m.items():
                if key not in out:
                    out[key] = value
                elif key == "type":
                    both = _expand(frozenset(out[key])) & _expand(frozenset(value))
                    if not both:
                        return dict(_NOTHING)
                    out[key] = sorted(_contract(both))
                elif key == "enum":
                    keep = {dumps(v) for v in value}
                    out[key] = [v for v in out[key] if dumps(v) in keep]
                elif key == "required":
                    out[key] = sorted(set(out[key]) | set(value))
                elif key == "properties":
                    props = dict(out[key])
                    for name, sub in value.items():
                        props[name] = (
                            self.simplify({"allOf": [props[name], sub]}) if name in props else sub
                        )
                    out[key] = props
                elif not same(out[key], value):
                    return None
        return self.simplify(out)

    def see_through(self, name: str) -> JSON | None:
        if name not in self.defs or name in self._expanding:
            return None
        self._expanding.add(name)
        try:
            return self.definition(name)
        finally:
            self._expanding.discard(name)


def normalise(schema: JSON, *, dialect: str, defs: Mapping[str, JSON] | None = None) -> JSON:
    """The canonical form of one schema (see the module docstring)."""
    return Normaliser(dialect, defs or {}).normalise(schema)


# ---------------------------------------------------------------------------------------------
# Comparison


@dataclass(frozen=True)
class Difference:
    """Where two definitions differ: a path inside the definition and both normalised schemas."""

    path: str  # e.g. "/properties/params/properties/total"; "" for the definition itself
    ours: JSON
    theirs: JSON


def definitions_of(doc: Mapping[str, JSON]) -> tuple[str, dict[str, JSON]]:
    """The dialect and the named definitions of a whole schema document."""
    url = str(doc.get("$schema", ""))
    dialect = "draft-07" if "draft-07" in url else "2020-12"
    defs = doc.get("$defs", doc.get("definitions", {}))
    return dialect, dict(defs)


@dataclass
class Comparison:
    ours: Normaliser
    theirs: Normaliser

    def definition(self, name: str) -> list[Difference]:
        return self.diff(self.ours.definition(name), self.theirs.definition(name), "", set())

    def diff(self, a: JSON, b: JSON, path: str, assumed: set[tuple[str, str]]) -> list[Difference]:
        if same(a, b):
            return []
        if is_ref(a) or is_ref(b):
            key = (dumps(a), dumps(b))
            if key in assumed:
                return []  # back at a pair being compared: equal unless shown otherwise
            a2 = self.expand(self.ours, a)
            b2 = self.expand(self.theirs, b)
            if a2 is None or b2 is None:
                return [Difference(path, a, b)]
            return self.diff(a2, b2, path, assumed | {key})
        if set(a) != set(b):
            return [Difference(path, a, b)]
        if "anyOf" in a:
            rest_a = {k: v for k, v in a.items() if k != "anyOf"}
            rest_b = {k: v for k, v in b.items() if k != "anyOf"}
            if not same(rest_a, rest_b):
                return [Difference(path, a, b)]
            only_a, only_b = self.unmatched(a["anyOf"], b["anyOf"], path, assumed)
            return [Difference(f"{path}/anyOf", only_a, only_b)] if only_a or only_b else []
        out: list[Difference] = []
        for key in sorted(a):
            va, vb = a[key], b[key]
            sub = f"{path}/{key}"
            if key in _SCHEMA_MAPS and isinstance(va, dict):
                if set(va) != set(vb):
                    out.append(Difference(sub, va, vb))
                    continue
                for name in sorted(va):
                    out.extend(self.diff(va[name], vb[name], f"{sub}/{name}", assumed))
            elif key in _SCHEMA_ONE and isinstance(va, dict) and isinstance(vb, dict):
                out.extend(self.diff(va, vb, sub, assumed))
            elif not same(va, vb):
                out.append(Difference(path, a, b))
                return out
        return out

    def unmatched(
        self, xs: list[JSON], ys: list[JSON], path: str, assumed: set[tuple[str, str]]
    ) -> tuple[list[JSON], list[JSON]]:
        """The anyOf members of each side that have no equivalent member on the other side."""
        xs = self.flatten(self.ours, xs)
        ys = self.flatten(self.theirs, ys)
        only_x: list[JSON] = []
        rest = list(ys)
        for x in xs:
            hit = next((y for y in rest if not self.diff(x, y, path, assumed)), None)
            if hit is None:
                only_x.append(x)
            else:
                rest.remove(hit)
        return only_x, rest

    @staticmethod
    def flatten(
        n: Normaliser, members: list[JSON], seen: frozenset[str] = frozenset()
    ) -> list[JSON]:
        """anyOf members, with references to pure-anyOf definitions replaced by their members
        (transitively; a reference met again is kept as it is)."""
        out: list[JSON] = []
        for m in members:
            name = m["$ref"] if is_ref(m) else None
            target = (
                n.definition(name)
                if name is not None and name in n.defs and name not in seen
                else None
            )
            if name is not None and isinstance(target, dict) and set(target) == {"anyOf"}:
                out.extend(Comparison.flatten(n, target["anyOf"], seen | {name}))
            else:
                out.append(m)
        unique = {dumps(m): m for m in out}
        return [unique[k] for k in sorted(unique)]

    @staticmethod
    def expand(n: Normaliser, schema: JSON) -> JSON | None:
        if not is_ref(schema):
            return schema
        name = schema["$ref"]
        return n.definition(name) if name in n.defs else None


def compare(
    ours: Mapping[str, JSON],
    theirs: Mapping[str, JSON],
    *,
    fold_integer: bool = False,
) -> dict[str, list[Difference]]:
    """Per definition present in both documents, the differences (empty list: equivalent)."""
    d_ours, defs_ours = definitions_of(ours)
    d_theirs, defs_theirs = definitions_of(theirs)
    cmp = Comparison(
        Normaliser(d_ours, defs_ours, fold_integer), Normaliser(d_theirs, defs_theirs, fold_integer)
    )
    common = sorted(set(defs_ours) & set(defs_theirs))
    return {name: cmp.definition(name) for name in common}
