"""Finding ids and echo collapsing: one root cause, reported once.

A removed, added or moved method shows up again in findings that only restate it: its request,
params and result types removed (or added), its message type leaving `ClientRequest` /
`ServerResult` / ..., the JSON-RPC envelope `id` / `jsonrpc` of a request that moved into an
input-required result. Those findings stay in the report (nothing is lost) but are marked as
echoes of the method's own finding, so they count once."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import replace

from .. import ir
from ..analysis.methods import SIDES, Method, MethodModel
from . import restates
from .rules import Finding

# The unions that list the messages of each side: a member change there restates the method.
MESSAGE_UNIONS = frozenset(
    {"ClientRequest", "ClientNotification", "ClientResult", "ServerRequest",
     "ServerNotification", "ServerResult", "InputRequest", "InputResponse"}
)  # fmt: skip
_ROOT_RULES = ("method-removed", "method-added", "method-transport-changed")
_ALT_RULES = ("method-result-alternative-added", "method-result-alternative-removed")
_ENVELOPE = ("id", "jsonrpc")
_WHOLE_TYPE_RULES = ("type-widened", "type-narrowed", "type-changed")
_ENVELOPE_RULES = (
    "property-removed-required",
    "property-added-required",
    "envelope-property-undeclared",
    "envelope-property-declared",
)


def finding_id(f: Finding) -> str:
    """A stable anchor: the same change gets the same id in every run and every format."""
    text = "\0".join((f.rule, f.subject, f.before or "", f.after or ""))
    return "f" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def with_ids(findings: Iterable[Finding]) -> list[Finding]:
    out: list[Finding] = []
    seen: dict[str, int] = {}
    for f in findings:
        base = finding_id(f)
        seen[base] = seen.get(base, 0) + 1
        out.append(replace(f, id=base if seen[base] == 1 else f"{base}_{seen[base]}"))
    return out


def _own_types(m: Method) -> tuple[str, ...]:
    """The declarations that exist for this method alone: its message, params and result."""
    return tuple(n for n in (m.type_name, m.params_type, m.result_type) if n)


def _owners(roots: dict[str, Finding], old: MethodModel, new: MethodModel) -> dict[str, Finding]:
    """Declared type -> the root finding of the one root method that owns it. A type shared
    by several methods (`EmptyResult`) belongs to none."""
    claims: dict[str, set[str]] = {}
    for model in (old, new):
        for m in model.methods:
            for t in _own_types(m):
                claims.setdefault(t, set()).add(m.method)
    out = {}
    for t, methods in claims.items():
        if len(methods) == 1:
            (only,) = methods
            if only in roots:
                out[t] = roots[only]
    return out


def _root_of(
    f: Finding,
    owners: dict[str, Finding],
    removed: dict[str, Finding],
    moved: set[str],
    added: dict[str, Finding],
) -> Finding | None:
    if f.category == "documentation" or f.rule in _ROOT_RULES:
        return None
    if f.rule in ("type-removed", "type-added"):
        if f.subject in owners:
            return owners[f.subject]
        if f.rule == "type-removed" and f.methods and all(m in removed for m in f.methods):
            return removed[f.methods[0]]  # used by removed methods only
        if f.rule == "type-added" and f.methods and all(m in added for m in f.methods):
            return added[f.methods[0]]  # used by added methods only
        return None
    if f.rule in restates.MEMBER_RULES and f.subject in MESSAGE_UNIONS:
        return owners.get(f.before or f.after or "")
    root, _, prop = f.subject.partition(".")
    owner = owners.get(root)
    if (
        f.rule in _ENVELOPE_RULES
        and prop in _ENVELOPE
        and owner is not None
        and owner.subject in moved
    ):
        return owner
    return None


def collapse(
    findings: Iterable[Finding],
    old: MethodModel,
    new: MethodModel,
    old_types: Mapping[str, ir.TypeDef] | None = None,
    new_types: Mapping[str, ir.TypeDef] | None = None,
) -> list[Finding]:
    """Ids for every finding, and `echo_of` for those that restate a root finding: a method's
    own (below) or another fact's (`restates.py`, when the declarations are given)."""
    found = with_ids(findings)
    roots = {f.subject: f for f in found if f.rule in _ROOT_RULES}
    removed = {m: f for m, f in roots.items() if f.rule == "method-removed"}
    moved = {m for m, f in roots.items() if f.rule == "method-transport-changed"}
    added = {m: f for m, f in roots.items() if f.rule == "method-added"}
    # a method moved into input-required results is answered as input responses are: the
    # alternative results it gains or loses come with the move (`CreateTaskResult`, 77a48167)
    owners = _owners(roots, old, new)
    # `EnumSchema` widened restates `PrimitiveSchemaDefinition` gaining kinds of schema
    flattened = {name: f for f in found for name in f.via}
    echo: dict[str, Finding] = {}
    for f in found:
        root = _root_of(f, owners, removed, moved, added)
        if root is None and f.rule in _ALT_RULES and f.subject in moved:
            root = roots[f.subject]
        if root is None and f.subject in flattened and f.rule in _WHOLE_TYPE_RULES:
            root = flattened[f.subject]
        if root is not None and root is not f:
            echo[f.id] = root
    if old_types is not None and new_types is not None:
        echo = _restated(found, old, new, owners, old_types, new_types, echo)
    return _resolved(found, echo)


def _restated(
    found: list[Finding],
    old: MethodModel,
    new: MethodModel,
    owners: dict[str, Finding],
    old_t: Mapping[str, ir.TypeDef],
    new_t: Mapping[str, ir.TypeDef],
    echo: dict[str, Finding],
) -> dict[str, Finding]:
    """`echo` (a method's own restatements) extended by the rules of `restates.py`; the rule
    about a type's users runs last, on the roots the others found."""
    claims, _ = restates.method_claims(found, old, new)
    results = restates.results(old, new)
    out = dict(echo)
    for part in (
        restates.by_base(found, old_t, new_t),
        restates.by_error_code(found, old_t, new_t),
        restates.by_method_part(found, old, new),
        restates.by_new_target(found),
        restates.by_method_change(found, claims, owners, old_t, new_t, MESSAGE_UNIONS, results),
    ):
        _merge(out, part, found)

    def root(f: Finding) -> Finding:
        seen = {f.id}
        while f.id in out and out[f.id].id not in seen:
            f = out[f.id]
            seen.add(f.id)
        return f

    _merge(out, restates.by_users(found, old_t, new_t, root), found)
    return out


def _merge(out: dict[str, Finding], part: Mapping[str, Finding], found: list[Finding]) -> None:
    """Add `part` to `out`: an earlier rule wins; a documentation-only finding restates none."""
    docs = {f.id for f in found if f.category == "documentation"}
    for k, v in part.items():
        if k not in out and v.id != k and k not in docs:
            out[k] = v


def _resolved(found: list[Finding], echo: dict[str, Finding]) -> list[Finding]:
    """`echo_of` set to the root at the end of each chain (a cycle keeps its first finding).
    A root that is not a method's own finding carries its echoes' methods: `CacheableResult`
    added affects the five methods whose results inherit it."""
    out, root_of = [], {}
    for f in found:
        root, seen = echo.get(f.id), {f.id}
        while root is not None and root.id in echo and root.id not in seen:
            seen.add(root.id)
            root = echo[root.id]
        if root is not None and root.id != f.id:
            root_of[f.id] = root.id
    carried: dict[str, set[str]] = {}
    sides: dict[str, set[str]] = {}
    for f in found:
        if f.id in root_of:
            carried.setdefault(root_of[f.id], set()).update(f.methods)
            sides.setdefault(root_of[f.id], set()).update(f.sent_by)
    for f in found:
        if f.id in root_of:
            out.append(replace(f, echo_of=root_of[f.id]))
        elif f.id in carried and f.category != "method":
            methods = tuple(sorted(carried[f.id] | set(f.methods)))
            sent_by = tuple(s for s in SIDES if s in sides[f.id] | set(f.sent_by))
            out.append(replace(f, methods=methods, sent_by=sent_by))
        else:
            out.append(f)
    return out
