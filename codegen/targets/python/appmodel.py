"""The application model: one version-free type per protocol construct across several versions.
Pure and language-neutral: the resolved IRs of the versions in, a merged `ir.Resolved` (which any
emitter renders as one more schema) and the per-version facts the conversions need out. This
module matches the versions' types (names, the reviewed renames) and records where each field
exists, is required and which literals it allows; `appmerge.py` merges their type expressions,
`appnotes.py` writes the availability notes of their docstrings.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ... import ir
from ...errors import Diagnostic, Location, SchemaError
from ...reading import read_json
from .appmerge import fold_unions, hoist, member, merge_objs, merge_type, rename, union_members
from .appnotes import scoped_deprecation, type_note, with_field_docs, with_note

# The checkout's reviewed file; the wheel carries it inside the package (pyproject force-include),
# so an installed mcp-codegen merges the official versions the same way.
_PACKAGE = Path(__file__).resolve().parents[2]  # codegen/
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
    hoisted = [tuple(replace(t, type=rename(t.type, canons[k])) for t in hoist(r))
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
    obj_td = replace(obj_td, doc=with_note(obj_td.doc, note))
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
    doc = with_note(doc, type_note(name, defs, keys))
    same = all(td.constraints == newest.constraints for _, td in defs)
    constraints = newest.constraints if same else ir.NO_CONSTRAINTS
    typed = [(k, td.type) for k, td in defs if isinstance(td.type, ir.Obj)]
    fields: tuple[FieldFacts, ...] = ()
    if len(typed) == len(defs):
        obj = with_field_docs(merge_objs([o for _, o in typed]), typed)
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


# ---------------------------------------------------------------------------------------------
# Literals per version


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
    found = union_members(t)
    if all(isinstance(m, ir.Lit) and m.kind == "string" for m in found):
        return tuple(str(m.value) for m in found if isinstance(m, ir.Lit))
    return None
