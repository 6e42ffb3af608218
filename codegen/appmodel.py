"""The application model: one version-free type per protocol construct across several versions.
Pure and language-neutral: the resolved IRs of the versions in, a merged `ir.Resolved` (which any
emitter renders as one more schema) and the per-version facts the conversions need out.

The rules (README, "Application types"):
- types are matched by name, and by the reviewed renames file (schemas/app-renames.json: old name
  -> new name); a renamed type takes the newest name. The diff's rename candidates are only
  suggestions: a test fails until each one is either in the file or rejected there. The file's
  object forms rename a type only in the versions that declare it as an object (2025-06-18's
  object `JSONRPCResponse` is the later `JSONRPCResultResponse`, while the later
  `JSONRPCResponse` is the union of both responses): one response class family.
- an object's fields are the union over the versions that have the type; a field is optional where
  some of them lacks it or has it optional; its type is what accepts every version's values
  (`merge_type`); constraints are kept only where every version states the same ones.
- docstrings name the availability of the type ("since 2025-03-26"), of each field that not every
  version has ("until 2025-06-18") and of a field's required-ness ("required from 2026-07-28").
- a type or field is deprecated (`@deprecated`: PEP 702 markers, a warning when set) only where
  every version having it deprecates it; otherwise its docstring says in which versions it is
  deprecated, and the markers stay on those versions' own types. So code answering a request
  of a version that does not deprecate it (`roots/list` for a 2025-11-25 client) is not flagged.
"""

from __future__ import annotations

import hashlib
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import ir
from .analysis.payloads import is_schema_payload
from .errors import Diagnostic, Location, SchemaError
from .reading import read_json

# The checkout's reviewed file; the wheel carries it inside the package (pyproject force-include),
# so an installed mcp-codegen merges the official versions the same way.
_PACKAGE = Path(__file__).resolve().parent
RENAMES_FILE = next(
    (
        p
        for p in (_PACKAGE / "app-renames.json", _PACKAGE.parent / "schemas" / "app-renames.json")
        if p.is_file()
    ),
    _PACKAGE.parent / "schemas" / "app-renames.json",
)
SOURCE = "app"  # the merged schema's source name (headers say "the protocol schema in app")


@dataclass(frozen=True)
class Renames:
    """The reviewed renames: `accepted` old -> new names, and the diff's candidates `rejected`
    (same shape, different construct) with the reason, so no candidate goes unreviewed."""

    accepted: Mapping[str, str]
    rejected: Mapping[str, str]  # "Old -> New" -> why not
    # old -> new where a version declares `old` as an object (later versions: a union of `new`)
    object_forms: Mapping[str, str] = field(default_factory=dict)


NO_RENAMES = Renames({}, {})


def load_renames(path: Path = RENAMES_FILE) -> Renames:
    """The renames file (`{"renames": {old: new}, "rejected": {"Old -> New": why},
    "object_forms": {old: new}}`); none when the default file is absent (an installed
    mcp-codegen outside the repository)."""
    if path == RENAMES_FILE and not path.is_file():
        return NO_RENAMES
    _, data = read_json(str(path), "app renames")
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k, {}), dict) for k in ("renames", "rejected", "object_forms")
    ):
        raise SchemaError([Diagnostic(Location(str(path), 1, 1), (
            'app renames: expected {"renames": {old: new}, "rejected": {...},'
            ' "object_forms": {...}}'
        ))])  # fmt: skip
    accepted = {str(k): str(v) for k, v in data.get("renames", {}).items()}
    rejected = {str(k): str(v) for k, v in data.get("rejected", {}).items()}
    forms = {str(k): str(v) for k, v in data.get("object_forms", {}).items()}
    return Renames(accepted, rejected, forms)


@dataclass(frozen=True)
class FieldFacts:
    """Where one field of an application type exists and is required (version keys)."""

    wire: str  # the JSON member name
    present: tuple[str, ...]
    required: tuple[str, ...]
    literals: Mapping[str, tuple[str, ...]]  # version -> the strings it allows, where they differ
    const: ir.Lit | None = None  # the one value of a constant field (filled in where required)
    declared: tuple[str, ...] = ()  # the versions that declare it (not only by an index signature)


@dataclass(frozen=True)
class TypeFacts:
    """One application type: its name in each version that has it, and its fields' facts."""

    name: str  # the application name (the newest version's)
    wire_names: Mapping[str, str]  # version key -> the type's name there
    fields: tuple[FieldFacts, ...]  # objects only, in the application type's order


@dataclass(frozen=True)
class AppModel:
    keys: tuple[str, ...]  # the versions, oldest first
    resolved: ir.Resolved  # the application types as one schema
    facts: tuple[TypeFacts, ...]  # per type of `resolved`, in its order (inline objects too)


# ---------------------------------------------------------------------------------------------
# Availability text


def span(present: Sequence[str], among: Sequence[str]) -> str:
    """How `present` sits in `among` (both in version order): "" when everywhere, else
    "since X", "until Y", "X to Y" or "in X, Y"."""
    if list(present) == list(among):
        return ""
    idx = [among.index(k) for k in present]
    contiguous = idx == list(range(idx[0], idx[0] + len(idx))) if idx else False
    if contiguous and idx[-1] == len(among) - 1:
        return f"since {present[0]}"
    if contiguous and idx[0] == 0:
        return f"until {present[-1]}"
    if contiguous:
        return f"{present[0]} to {present[-1]}"
    return "in " + ", ".join(present)


def required_note(present: Sequence[str], required: Sequence[str]) -> str:
    """Required-ness where the versions having a field disagree on it."""
    if not required or list(required) == list(present):
        return ""
    where = span(required, present)
    if where.startswith("since "):
        return "required from " + where.removeprefix("since ")
    return "required " + where


def scoped_deprecation(doc: ir.Doc, docs: Sequence[tuple[str, ir.Doc]]) -> ir.Doc:
    """`doc` (the newest version's) with its `@deprecated` tag only if every version's doc in
    `docs` (version key, doc) has one; else the tag becomes a note naming those that do."""
    if not doc.has("deprecated") or all(d.has("deprecated") for _, d in docs):
        return doc
    where = ", ".join(k for k, d in docs if d.has("deprecated"))
    message = " ".join((doc.tag("deprecated") or "").split())
    kept = replace(doc, tags=tuple(t for t in doc.tags if t.name != "deprecated"))
    note = f"Deprecated in {where} only. {message}".strip()
    return _with_note(kept, textwrap.fill(note, width=88, break_on_hyphens=False))


def _with_note(doc: ir.Doc, note: str) -> ir.Doc:
    if not note:
        return doc
    text = f"{doc.text}\n\n{note}" if doc.text else note
    return replace(doc, text=text)


# ---------------------------------------------------------------------------------------------
# Types that accept every version's values


def _rename(t: ir.TypeExpr, names: Callable[[str], str]) -> ir.TypeExpr:
    """`t` with every referenced name mapped to its application name."""
    if isinstance(t, ir.Ref):
        return ir.Ref(names(t.name))
    if isinstance(t, ir.Array):
        return ir.Array(_rename(t.item, names))
    if isinstance(t, ir.Union_):
        return ir.Union_(tuple(_rename(m, names) for m in t.members))
    if isinstance(t, ir.Map):
        return ir.Map(_rename(t.key, names), _rename(t.value, names))
    if isinstance(t, ir.Obj):
        props = tuple(replace(p, type=_rename(p.type, names)) for p in t.properties)
        index = replace(t.index, value=_rename(t.index.value, names)) if t.index else None
        return replace(t, properties=props, index=index)
    return t


def _members(t: ir.TypeExpr) -> tuple[ir.TypeExpr, ...]:
    return t.members if isinstance(t, ir.Union_) else (t,)


def _absorbed(m: ir.TypeExpr, by: ir.TypeExpr) -> bool:
    """Whether every value of `m` is one of `by` (primitives and literals only)."""
    if not isinstance(by, ir.Prim) or m == by:
        return False
    if by.kind in (ir.PrimKind.ANY, ir.PrimKind.UNKNOWN):
        return True
    if isinstance(m, ir.Lit):
        return m.kind == by.kind.value or (m.kind == "number" and by.kind is ir.PrimKind.NUMBER)
    return (
        isinstance(m, ir.Prim) and m.kind is ir.PrimKind.INTEGER and by.kind is ir.PrimKind.NUMBER
    )


def merge_type(a: ir.TypeExpr, b: ir.TypeExpr) -> ir.TypeExpr:
    """A type accepting the values of `a` and of `b` (`b` the newer: its spelling wins)."""
    if a == b:
        return b
    if isinstance(a, ir.Obj) and isinstance(b, ir.Obj):
        return merge_objs([a, b])
    if isinstance(a, ir.Array) and isinstance(b, ir.Array):
        return ir.Array(merge_type(a.item, b.item))
    if isinstance(a, ir.Map) and isinstance(b, ir.Map):
        return ir.Map(merge_type(a.key, b.key), merge_type(a.value, b.value))
    out: list[ir.TypeExpr] = []
    for m in (*_members(b), *_members(a)):
        if m not in out:
            out.append(m)
    kept = [m for m in out if not any(_absorbed(m, o) for o in out)]
    return kept[0] if len(kept) == 1 else ir.Union_(tuple(kept))


def _merge_props(props: list[ir.Property], among: int) -> ir.Property:
    """One property from its versions (oldest first); `among`: how many versions had the type."""
    newest = props[-1]
    t = props[0].type
    for p in props[1:]:
        t = merge_type(t, p.type)
    same = all(p.constraints == newest.constraints for p in props)
    return replace(
        newest,
        type=t,
        optional=len(props) < among or any(p.optional for p in props),
        nullable=any(p.nullable for p in props),
        readonly=any(p.readonly for p in props),
        keeps_number=any(p.keeps_number for p in props),
        constraints=newest.constraints if same else ir.NO_CONSTRAINTS,
    )


def member(o: ir.Obj, name: str) -> ir.Property | None:
    """Property `name` of `o`; where `o` lacks it but has an index signature, an optional
    property of the index's type (the version accepts the member as one of its keys)."""
    p = o.prop(name)
    if p is None and o.index is not None:
        return ir.Property(name, o.index.value, optional=True)
    return p


def merge_objs(objs: Sequence[ir.Obj]) -> ir.Obj:
    """The object of every field of `objs` (oldest first): the newest order, then the fields
    only older versions have."""
    order: list[str] = []
    for o in reversed(objs):
        order += [p.name for p in o.properties if p.name not in order]
    props = tuple(
        _merge_props([p for o in objs if (p := member(o, name)) is not None], len(objs))
        for name in order
    )
    indexes = [o.index for o in objs if o.index is not None]
    index = indexes[-1] if indexes else None
    for i in indexes[:-1]:
        assert index is not None
        index = replace(index, value=merge_type(i.value, index.value))
    return replace(objs[-1], properties=props, index=index)


# ---------------------------------------------------------------------------------------------
# The model


def _version_renames(r: ir.Resolved, renames: Renames) -> dict[str, str]:
    """The renames of one version: the accepted ones, and each object form it declares as an
    object."""
    objects = {t.name for t in r.types if isinstance(t.type, ir.Obj)}
    forms = {old: new for old, new in renames.object_forms.items() if old in objects}
    return {**renames.accepted, **forms}


def _canonical(renames: Mapping[str, str]) -> Callable[[str], str]:
    def name(n: str) -> str:
        seen = {n}
        while n in renames:
            n = renames[n]
            if n in seen:
                break
            seen.add(n)
        return n

    return name


def _check(keys: Sequence[str], schemas: Sequence[ir.Resolved], renames: Renames) -> None:
    """A rename whose two names are both in one version merges two constructs: refused."""
    problems = []
    for key, r in zip(keys, schemas, strict=True):
        names = {t.name for t in r.types}
        for old, new in renames.accepted.items():
            if old in names and new in names:
                message = f"app-renames: {old} -> {new}, but version {key} has both types"
                problems.append(Diagnostic(Location(r.source, 1, 1), message))
        for old, new in renames.object_forms.items():
            if old in names and new in names and old in _version_renames(r, renames):
                message = f"app-renames: object form {old} -> {new}, but version {key} has both"
                problems.append(Diagnostic(Location(r.source, 1, 1), message))
    if problems:
        raise SchemaError(problems)


def build(keys: Sequence[str], schemas: Sequence[ir.Resolved], renames: Renames) -> AppModel:
    """The application model of `schemas` (oldest first, keyed by `keys`)."""
    _check(keys, schemas, renames)
    canons = {
        k: _canonical(_version_renames(r, renames)) for k, r in zip(keys, schemas, strict=True)
    }
    per_name: dict[str, list[tuple[str, ir.TypeDef]]] = {}
    order: list[str] = []
    hoisted = [tuple(replace(t, type=_rename(t.type, canons[k])) for t in hoist(r))
               for k, r in zip(keys, schemas, strict=True)]  # fmt: skip
    for key, defs in reversed(list(zip(keys, hoisted, strict=True))):
        # the newest order first, then what only older versions have
        canon = canons[key]
        order += [n for t in defs if (n := canon(t.name)) not in per_name and n not in order]
        for t in defs:
            per_name.setdefault(canon(t.name), [])
    for key, defs in zip(keys, hoisted, strict=True):
        for t in defs:
            per_name[canons[key](t.name)].append((key, t))
    types, facts = [], []
    for name in order:
        for td, type_facts in _merge_def(name, per_name[name], keys):
            types.append(td)
            facts.append(type_facts)
    types = fold_unions(types)
    facts = [_with_literals(f, hoisted, keys, types, canons) for f in facts]
    facts = _open_meta_keys(facts, types)
    consts: dict[str, ir.Const] = {}
    for r in schemas:
        consts.update((c.name, c) for c in r.consts)
    digest = hashlib.sha256("".join(r.sha256 for r in schemas).encode()).hexdigest()
    merged = ir.Resolved(SOURCE, digest, tuple(types), tuple(consts.values()))
    return AppModel(tuple(keys), merged, tuple(facts))


META = "_meta"


def _open_meta_keys(facts: Sequence[TypeFacts], types: Sequence[ir.TypeDef]) -> list[TypeFacts]:
    """The members of a `_meta` object are keys of an open namespace, not protocol members: a
    version that takes one by its index signature carries it as it is (counts as declaring it),
    where a member another version requires would otherwise be dropped (`resultType`). So a
    2026-07-28 request's `io.modelcontextprotocol/protocolVersion` reaches a 2025-11-25 peer
    as it reaches a 2025-06-18 one, in `_meta`."""
    metas = {
        p.type.name
        for t in types
        if isinstance(t.type, ir.Obj)
        for p in t.type.properties
        if p.name == META and isinstance(p.type, ir.Ref)
    }
    return [
        replace(f, fields=tuple(replace(x, declared=x.present) for x in f.fields))
        if f.name in metas
        else f
        for f in facts
    ]


def _type_note(name: str, defs: Sequence[tuple[str, ir.TypeDef]], keys: Sequence[str]) -> str:
    present = [k for k, _ in defs]
    notes = []
    where = span(present, keys)
    if where:
        notes.append(f"Available {where}.")
    names = {k: td.name for k, td in defs}
    old = sorted({n for n in names.values() if n != name})
    for o in old:
        notes.append(f"Named {o} {span([k for k in present if names[k] == o], present)}.")
    return " ".join(notes)


OBJECT_SUFFIX = "Object"  # the object form of a type that later versions made a union


def _merge_def(
    name: str, defs: list[tuple[str, ir.TypeDef]], keys: Sequence[str]
) -> list[tuple[ir.TypeDef, TypeFacts]]:
    """The application type `name` (and, where some versions declare it as an object and
    others as a union, its object form as a type of its own, `<name>Object`)."""
    objs = [(k, td) for k, td in defs if isinstance(td.type, ir.Obj)]
    if not objs or len(objs) == len(defs):
        return [_merge_one(name, defs, keys)]
    form = name + OBJECT_SUFFIX
    obj_td, obj_facts = _merge_one(form, objs, keys)
    note = f"The object form of {name} (later versions make {name} a union)."
    obj_td = replace(obj_td, doc=_with_note(obj_td.doc, note))
    obj_facts = replace(obj_facts, wire_names={k: td.name for k, td in objs})
    others = [(k, replace(td, type=ir.Ref(form)) if isinstance(td.type, ir.Obj) else td)
              for k, td in defs]  # fmt: skip
    union_td, union_facts = _merge_one(name, others, keys)
    union_facts = replace(union_facts, wire_names={k: td.name for k, td in defs
                                                   if not isinstance(td.type, ir.Obj)})  # fmt: skip
    return [(union_td, union_facts), (obj_td, obj_facts)]


def _merge_one(
    name: str, defs: list[tuple[str, ir.TypeDef]], keys: Sequence[str]
) -> tuple[ir.TypeDef, TypeFacts]:
    newest = defs[-1][1]
    wire_names = {k: td.name for k, td in defs}
    doc = scoped_deprecation(newest.doc, [(k, td.doc) for k, td in defs])
    doc = _with_note(doc, _type_note(name, defs, keys))
    same = all(td.constraints == newest.constraints for _, td in defs)
    constraints = newest.constraints if same else ir.NO_CONSTRAINTS
    typed = [(k, td.type) for k, td in defs if isinstance(td.type, ir.Obj)]
    fields: tuple[FieldFacts, ...] = ()
    if len(typed) == len(defs):
        obj = _with_field_docs(merge_objs([o for _, o in typed]), typed)
        fields = _field_facts(obj, typed)
        merged: ir.TypeExpr = obj
    else:
        merged = defs[0][1].type
        for _, td in defs[1:]:
            merged = merge_type(merged, td.type)
    td = replace(newest, name=name, type=merged, doc=doc, constraints=constraints)
    if isinstance(merged, ir.Obj):
        td = replace(td, type=replace(merged, name=name, path=(name,)), kind="interface")
    return td, TypeFacts(name, wire_names, fields)


def _field_facts(merged: ir.Obj, typed: list[tuple[str, ir.Obj]]) -> tuple[FieldFacts, ...]:
    out = []
    for p in merged.properties:
        present = [(k, q) for k, o in typed if (q := member(o, p.name)) is not None]
        out.append(
            FieldFacts(
                wire=p.name,
                present=tuple(k for k, _ in present),
                required=tuple(k for k, q in present if not q.optional),
                literals={},
                const=p.type if isinstance(p.type, ir.Lit) else None,
                declared=tuple(k for k, o in typed if o.prop(p.name) is not None),
            )
        )
    return tuple(out)


def _with_field_docs(merged: ir.Obj, typed: list[tuple[str, ir.Obj]]) -> ir.Obj:
    """Each field's docstring names where it exists and is required, when not everywhere."""
    among = [k for k, _ in typed]
    props = []
    for p in merged.properties:
        present = [k for k, o in typed if member(o, p.name) is not None]
        required = [k for k, o in typed if (q := member(o, p.name)) is not None and not q.optional]
        notes = [n for n in (span(present, among), required_note(present, required)) if n]
        text = "; ".join(notes)
        if text and not text.startswith("required"):
            text = "available " + text
        note = (text[0].upper() + text[1:] + ".") if text else ""
        docs = [(k, q.doc) for k, o in typed if (q := member(o, p.name)) is not None]
        props.append(replace(p, doc=_with_note(scoped_deprecation(p.doc, docs), note)))
    return replace(merged, properties=tuple(props))


# ---------------------------------------------------------------------------------------------
# Inline objects as named types


def hoist(resolved: ir.Resolved) -> tuple[ir.TypeDef, ...]:
    """The types of `resolved` with every inline object replaced by a reference to a type of its
    own (named as the resolver named it), right after the type it stands in: a construct that is
    inline in one version and declared in another is then one type."""
    out: list[ir.TypeDef] = []
    for td in resolved.types:
        found: list[ir.TypeDef] = []
        top = td.type
        if isinstance(top, ir.Obj):
            t: ir.TypeExpr = _hoist_props(top, found)
        else:
            t = _hoist(top, found)
        out.append(replace(td, type=t))
        out += found
    seen: set[str] = set()
    unique = []
    for td in out:  # an inherited inline object stands in every heir: one type
        if td.name not in seen:
            seen.add(td.name)
            unique.append(td)
    return tuple(unique)


def _hoist_props(o: ir.Obj, found: list[ir.TypeDef]) -> ir.Obj:
    # A JSON Schema payload stays inline, so the application types hand it over as the plain
    # dict the wire types do (analysis/payloads.py's rule; a named type would be a class).
    props = tuple(p if is_schema_payload(p) else replace(p, type=_hoist(p.type, found))
                  for p in o.properties)  # fmt: skip
    index = replace(o.index, value=_hoist(o.index.value, found)) if o.index else None
    return replace(o, properties=props, index=index)


def _hoist(t: ir.TypeExpr, found: list[ir.TypeDef]) -> ir.TypeExpr:
    if isinstance(t, ir.Obj) and t.name:
        # its own path: emitters then treat it as the declared type it now is
        obj = replace(_hoist_props(t, found), path=(t.name,))
        found.append(ir.TypeDef(t.name, obj, "interface", loc=t.loc))
        return ir.Ref(t.name)
    if isinstance(t, ir.Obj):
        return _hoist_props(t, found)
    if isinstance(t, ir.Array):
        return ir.Array(_hoist(t.item, found))
    if isinstance(t, ir.Union_):
        return ir.Union_(tuple(_hoist(m, found) for m in t.members))
    if isinstance(t, ir.Map):
        return ir.Map(t.key, _hoist(t.value, found))
    return t


# ---------------------------------------------------------------------------------------------
# Unions and literals


def _expand(
    t: ir.TypeExpr, types: Mapping[str, ir.TypeDef], seen: frozenset[str]
) -> set[ir.TypeExpr]:
    """The members a union alias stands for, through nested union aliases."""
    if isinstance(t, ir.Ref) and t.name not in seen and t.name in types:
        target = types[t.name].type
        if isinstance(target, ir.Union_):
            out: set[ir.TypeExpr] = set()
            for m in target.members:
                out |= {m} | _expand(m, types, seen | {t.name})
            return out
    return set()


def _fold(t: ir.TypeExpr, types: Mapping[str, ir.TypeDef]) -> ir.TypeExpr:
    if isinstance(t, ir.Union_):
        members = [_fold(m, types) for m in t.members]
        covered: set[ir.TypeExpr] = set()
        for m in members:
            covered |= _expand(m, types, frozenset())
        kept = tuple(m for m in members if m not in covered)
        return kept[0] if len(kept) == 1 else ir.Union_(kept)
    if isinstance(t, ir.Array):
        return ir.Array(_fold(t.item, types))
    if isinstance(t, ir.Map):
        return ir.Map(t.key, _fold(t.value, types))
    if isinstance(t, ir.Obj):
        props = tuple(replace(p, type=_fold(p.type, types)) for p in t.properties)
        index = replace(t.index, value=_fold(t.index.value, types)) if t.index else None
        return replace(t, properties=props, index=index)
    return t


def fold_unions(types: Sequence[ir.TypeDef]) -> list[ir.TypeDef]:
    """Union members another member already stands for (`TextContent` next to `ContentBlock`,
    from a version that listed the blocks inline) are left out: one spelling per value."""
    by_name = {t.name: t for t in types}
    return [replace(t, type=_fold(t.type, by_name)) for t in types]


def _with_literals(
    facts: TypeFacts,
    hoisted: Sequence[Sequence[ir.TypeDef]],
    keys: Sequence[str],
    merged: Sequence[ir.TypeDef],
    canons: Mapping[str, Callable[[str], str]],
) -> TypeFacts:
    """Each field's allowed strings per version, where a version allows fewer than the
    application type (a literal the version does not know is refused by name)."""
    app = {t.name: t for t in merged}
    app_obj = app[facts.name].type
    if not isinstance(app_obj, ir.Obj):
        return facts
    maps = {k: {canons[k](t.name): t for t in defs} for k, defs in zip(keys, hoisted, strict=True)}
    fields = []
    for f in facts.fields:
        p = app_obj.prop(f.wire)
        allowed = _literals(p.type, app) if p is not None else None
        literals: dict[str, tuple[str, ...]] = {}
        if allowed is not None:
            for k in f.present:
                own = maps[k][canons[k](facts.wire_names[k])].type
                q = own.prop(f.wire) if isinstance(own, ir.Obj) else None
                mine = _literals(q.type, maps[k]) if q is not None else None
                if mine is not None and set(mine) != set(allowed):
                    literals[k] = mine
        fields.append(replace(f, literals=literals))
    return replace(facts, fields=tuple(fields))


def _literals(t: ir.TypeExpr, types: Mapping[str, ir.TypeDef]) -> tuple[str, ...] | None:
    """The strings a literal-only type allows (through aliases and an array's items)."""
    seen: set[str] = set()
    while isinstance(t, ir.Ref) and t.name not in seen:
        seen.add(t.name)
        td = types.get(t.name)
        if td is None:
            return None
        t = td.type
    if isinstance(t, ir.Array):
        return _literals(t.item, types)
    members = _members(t)
    if all(isinstance(m, ir.Lit) and m.kind == "string" for m in members):
        return tuple(str(m.value) for m in members if isinstance(m, ir.Lit))
    return None
