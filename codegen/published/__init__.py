"""The published model (`mcp-codegen model`): one language-neutral JSON document of one or
several schema versions, for generators written in any language (docs/model.md).

Every fact across versions (which versions declare a type, member, union variant, enum value
or method; since, until, lineage) is read from the one presence model
(`codegen/analysis/presence.py`); the shape of each thing (its type expression, documentation,
optionality) is the newest version's that declares it; methods are given per version. Type
expressions: `exprs.py`; the document's JSON Schema: `schema.py`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .. import ir
from ..analysis.methods import method_model
from ..analysis.presence import Facts, Presence, TypeFacts, object_of, presence
from ..analysis.shapes import children
from ..analysis.versions import check_order
from ..discriminators import discriminator, resolved_member
from ..errors import Diagnostic, Location, SchemaError
from .exprs import constraints, doc_fields, expr

FORMAT = "mcp-codegen-model/1"


def check_labels(labels: Sequence[str], sources: Sequence[str]) -> None:
    """Each version once: the document is keyed by version name. (The order, oldest first, is
    `analysis.versions.check_order`'s, which `pipeline.load_many` applies.)"""
    seen: set[str] = set()
    problems = []
    for label, source in zip(labels, sources):
        if label in seen:
            problems.append(Diagnostic(Location(source, 1, 1), f"version '{label}' is given twice"))
        seen.add(label)
    if problems:
        raise SchemaError(problems)


def build(labels: Sequence[str], schemas: Sequence[ir.Resolved]) -> dict[str, Any]:
    """The model document of `schemas` (oldest first) named by `labels`."""
    check_labels(labels, [s.source for s in schemas])
    check_order(list(schemas))
    facts = presence(labels, schemas)
    newest_type: dict[str, tuple[ir.TypeDef, ir.Resolved]] = {}
    newest_inline: dict[str, ir.Obj] = {}
    members: dict[str, dict[str, ir.Property]] = {}  # type or inline object -> wire -> newest
    for schema in schemas:  # oldest first: each later version overwrites
        by_name = schema.type_map()
        found: dict[str, ir.Obj] = {}
        for t in schema.types:
            newest_type[t.name] = (t, schema)
            _collect_inline(t.type, found)
            obj = object_of(t, by_name)
            if obj is not None:
                members.setdefault(t.name, {}).update({q.name: q for q in obj.properties})
        newest_inline |= found
        for name, obj in found.items():
            members.setdefault("inline:" + name, {}).update({q.name: q for q in obj.properties})
    types = {
        name: _type(facts, facts.types[name], *newest_type[name], members.get(name, {}))
        for name in sorted(facts.types)
    }
    inline = {
        name: _inline(
            facts, facts.inline_types[name], newest_inline[name], members["inline:" + name]
        )
        for name in sorted(facts.inline_types)
    }
    newest_const: dict[str, ir.Const] = {c.name: c for schema in schemas for c in schema.consts}
    constants = {
        name: {**_span(facts, facts.consts[name]), "value": newest_const[name].value.value,
               **doc_fields(newest_const[name].doc)}
        for name in sorted(facts.consts)
    }  # fmt: skip
    return {
        "format": FORMAT,
        "versions": list(labels),
        "types": types,
        "inline_types": inline,
        "constants": constants,
        "methods": _methods(facts, labels, schemas),
    }


def _span(p: Presence, f: Facts) -> dict[str, Any]:
    since, until = p.span(f)
    out: dict[str, Any] = {"versions": list(f.versions), "since": since}
    if until is not None:
        out["until"] = until
    if f.deprecated:
        out["deprecated"] = list(f.deprecated)
    return out


def _kind(t: ir.TypeExpr) -> str:
    if isinstance(t, ir.Obj):
        return "object"
    if isinstance(t, ir.Union_) and all(isinstance(m, ir.Lit) for m in t.members):
        return "enum"
    if isinstance(t, ir.Union_):
        return "union"
    return "alias"


def _type(
    p: Presence,
    f: TypeFacts,
    td: ir.TypeDef,
    schema: ir.Resolved,
    members: dict[str, ir.Property],
) -> dict[str, Any]:
    out = _span(p, f)
    kind = _kind(td.type)
    out |= {"declared_as": td.kind, "kind": kind, **doc_fields(td.doc)}
    if not td.constraints.is_empty():
        out["constraints"] = constraints(td.constraints)
    if kind != "object":
        out["type"] = expr(td.type)
    elif isinstance(td.type, ir.Obj) and td.type.index is not None:
        out["additional"] = expr(td.type.index.value)
    if f.members:
        out["members"] = {
            wire: _member(p, f.members[wire], members[wire], td.name) for wire in sorted(f.members)
        }
    if f.variants:
        out["variants"] = {n: _span(p, v) for n, v in sorted(f.variants.items())}
        out["discriminator"] = _discriminator(td.type, schema)
    if f.values:
        out["values"] = [{"value": _literal(text), **_span(p, v)} for text, v in f.values.items()]
    return out


def _literal(text: str) -> Any:
    return json.loads(text)


def _member(p: Presence, f: Facts, prop: ir.Property, owner: str | None) -> dict[str, Any]:
    out = _span(p, f)
    out |= {"type": expr(prop.type), "optional": prop.optional, "nullable": prop.nullable}
    if prop.readonly:
        out["readonly"] = True
    if not prop.constraints.is_empty():
        out["constraints"] = constraints(prop.constraints)
    out |= doc_fields(prop.doc)
    lineage = p.lineage(owner, prop.name) if owner is not None else None
    if lineage is not None:
        out["lineage"] = {"since": lineage.since, "from": lineage.source}
    return out


def _discriminator(t: ir.TypeExpr, schema: ir.Resolved) -> str | None:
    """The property that tells the union's object variants apart (the one rule of
    `codegen/discriminators.py`), in the newest version; None when there is none."""
    if not isinstance(t, ir.Union_):
        return None
    by_name = schema.type_map()
    objects = []
    for m in t.members:
        td = by_name.get(m.name) if isinstance(m, ir.Ref) else None
        obj = object_of(td, by_name) if td is not None else None
        if obj is None:
            return None
        objects.append(resolved_member(obj, by_name))
    return discriminator(objects)


def _collect_inline(t: ir.TypeExpr, out: dict[str, ir.Obj]) -> None:
    for sub in children(t):
        if isinstance(sub, ir.Obj) and sub.properties and sub.name:
            out[sub.name] = sub
        _collect_inline(sub, out)


def _inline(
    p: Presence, f: TypeFacts, obj: ir.Obj, members: dict[str, ir.Property]
) -> dict[str, Any]:
    out = _span(p, f)
    out["path"] = list(obj.path)
    if obj.index is not None:
        out["additional"] = expr(obj.index.value)
    out["members"] = {w: _member(p, f.members[w], members[w], None) for w in sorted(f.members)}
    return out


def _methods(p: Presence, labels: Sequence[str], schemas: Sequence[ir.Resolved]) -> dict[str, Any]:
    per: dict[str, dict[str, Any]] = {}
    for label, schema in zip(labels, schemas):
        for m in method_model(schema).methods:
            per.setdefault(m.method, {})[label] = {
                "kind": m.kind,
                "direction": m.direction,
                "via": m.via,
                "message": m.type_name,
                "params": m.params_type,
                "params_optional": m.params_optional,
                "result": m.result_type,
                "alt_results": list(m.alt_result_types),
            }
    return {name: {**_span(p, p.methods[name]), "definitions": per[name]} for name in sorted(per)}
