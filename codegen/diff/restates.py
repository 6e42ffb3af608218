"""Restatements beyond a method's own types: one fact reported once (`echoes.collapse` runs it).

A method's result or direction change shows again as a member of a message union
(`ServerResult`, `ClientNotification`); a JSON-RPC wrapper (`CallToolResultResponse { result:
CallToolResult }`) comes and goes with what it wraps; an error code renumbered shows again as the
literal `code` of its error type, and an error code added or removed as the error type that
carries it; one new base type inherited by several results shows again as each of its
properties on each result. Each function returns finding id -> the finding it restates; the
caller resolves chains (a wrapper of a type that is itself an echo) to the root.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .. import ir
from ..analysis.methods import MethodModel
from ..analysis.users import declaring_base, user_paths
from .notation import literal, subject
from .rules import Finding

MEMBER_RULES = ("union-member-removed", "union-member-added", "union-member-removed-covered",
                "union-member-added-covered")  # fmt: skip
# a method change that names a type: the type it brings or drops stands for the change
_RESULT_RULES = ("method-result-changed", "method-result-retyped")
_ALT_RULES = ("method-result-alternative-added", "method-result-alternative-removed")
_DIRECTION_RULES = ("method-direction-changed", "method-direction-narrowed",
                    "method-direction-widened", "method-kind-changed")  # fmt: skip
_TYPE_RULES = ("type-added", "type-removed")
_PROP_ADDED = ("property-added-optional", "property-added-required")
_PROP_REMOVED = ("property-removed-optional", "property-removed-required")
_CONST_RULES = ("constant-added", "constant-removed")


def _refs(t: ir.TypeExpr) -> list[str]:
    """The declarations a type names at its top (a union's members, a nullable's type)."""
    if isinstance(t, ir.Ref):
        return [t.name]
    if isinstance(t, (ir.Union_, ir.Intersection)):
        return [n for m in t.members for n in _refs(m)]
    if isinstance(t, ir.Annotated):
        return _refs(t.type)
    return []


def _prop(td: ir.TypeDef | None, name: str) -> ir.Property | None:
    return td.type.prop(name) if td is not None and isinstance(td.type, ir.Obj) else None


def method_claims(
    found: Iterable[Finding], old: MethodModel, new: MethodModel
) -> tuple[dict[str, list[Finding]], dict[str, Finding]]:
    """Declared type -> the method-change findings that name it (a result brought or dropped,
    an alternative result, the message type of a method whose direction changed), and method ->
    its direction finding."""
    claims: dict[str, list[Finding]] = {}
    direction: dict[str, Finding] = {}
    for f in found:
        names: list[str | None] = []
        if f.rule in _RESULT_RULES or f.rule in _ALT_RULES:
            names = [f.before, f.after]
        elif f.rule in _DIRECTION_RULES:
            direction[f.subject] = f
            names = [m.type_name for m in (old.get(f.subject), new.get(f.subject)) if m]
        for n in dict.fromkeys(n for n in names if n):
            claims.setdefault(n, []).append(f)
    return claims, direction


def wrapped(name: str, old: Mapping[str, ir.TypeDef], new: Mapping[str, ir.TypeDef]) -> list[str]:
    """What a JSON-RPC response wrapper wraps: the types its `result` names, on either side."""
    out: list[str] = []
    for types in (old, new):
        p = _prop(types.get(name), "result")
        out += _refs(p.type) if p is not None else []
    return list(dict.fromkeys(out))


def _request_of(wrapper: str) -> tuple[str, ...]:
    """`PingResultResponse` -> `PingRequest`: the request a response wrapper answers, by the
    naming the schema keeps (its result may be shared, `EmptyResult`, and name no method)."""
    stem = wrapper.removesuffix("ResultResponse")
    return (stem + "Request",) if stem != wrapper and stem else ()


def _one_fact(claims: Iterable[Finding], name: str) -> bool:
    """One method change names the type, or every one names it as the alternative result it
    adds or removes (`InputRequiredResult` for four methods)."""
    claims = list(claims)
    return len(claims) == 1 or (
        bool(claims) and all(c.rule in _ALT_RULES and name in (c.before, c.after) for c in claims)
    )


def by_method_change(
    found: Iterable[Finding],
    claims: Mapping[str, list[Finding]],
    owners: Mapping[str, Finding],
    old_t: Mapping[str, ir.TypeDef],
    new_t: Mapping[str, ir.TypeDef],
    message_unions: frozenset[str],
    method_results: Mapping[str, set[str]],
) -> dict[str, Finding]:
    """A message union's member, a type only one method change names, and a wrapper of a type
    a method owns or a method change names: echoes of that method's finding."""
    out: dict[str, Finding] = {}
    for f in found:
        member = f.before or f.after or ""
        if f.rule in MEMBER_RULES and f.subject in message_unions and member in claims:
            out[f.id] = claims[member][0]
        elif f.rule in _TYPE_RULES and _one_fact(claims.get(f.subject, ()), f.subject):
            out[f.id] = claims[f.subject][0]
        elif f.rule == "type-removed" and f.subject in message_unions:
            members = _refs(old_t[f.subject].type) if f.subject in old_t else []
            if members and all(m in owners for m in members):
                out[f.id] = owners[members[0]]  # a message union emptied by removed methods
        elif f.rule in _TYPE_RULES:
            for inner in (*_request_of(f.subject), *wrapped(f.subject, old_t, new_t)):
                single = claims.get(inner, ())
                root = owners.get(inner) or (single[0] if len(single) == 1 else None)
                if root is not None:
                    out[f.id] = root
                    break
        elif f.rule in MEMBER_RULES and f.subject.endswith(".result"):
            inner_types = set(wrapped(f.subject.removesuffix(".result"), old_t, new_t))
            for root in claims.get(member, ()):
                if root.rule in _ALT_RULES and inner_types & method_results.get(
                    root.subject, set()
                ):
                    out[f.id] = root
                    break
    return out


def results(old: MethodModel, new: MethodModel) -> dict[str, set[str]]:
    """Method -> its result types on both sides."""
    out: dict[str, set[str]] = {}
    for model in (old, new):
        for m in model.methods:
            if m.result_type:
                out.setdefault(m.method, set()).add(m.result_type)
    return out


def _codes(td: ir.TypeDef | None) -> set[str]:
    """The literal `error.code` of a JSON-RPC error type, as JSON text."""
    err = _prop(td, "error")
    obj = err.type if err is not None else None
    code = obj.prop("code") if isinstance(obj, ir.Obj) else None
    return (
        {literal(code.type.value)} if code is not None and isinstance(code.type, ir.Lit) else set()
    )


def by_error_code(
    found: Iterable[Finding], old_t: Mapping[str, ir.TypeDef], new_t: Mapping[str, ir.TypeDef]
) -> dict[str, Finding]:
    """An error code renumbered: its error type's `code` literal changed with it. An error code
    added or removed: the error type whose `code` it is came or went with it."""
    found = list(found)
    renumbered = {(f.before, f.after): f for f in found if f.rule == "error-code-changed"}
    consts = {(f.rule, f.after or f.before): f for f in found if f.rule in _CONST_RULES}
    out: dict[str, Finding] = {}
    for f in found:
        if f.rule == "literal-value-changed" and f.subject.endswith(".code"):
            root = renumbered.get((f.before, f.after))
            if root is not None:
                out[f.id] = root
        elif f.rule in _TYPE_RULES:
            added = f.rule == "type-added"
            for code in _codes((new_t if added else old_t).get(f.subject)):
                root = consts.get(("constant-added" if added else "constant-removed", code))
                if root is not None:
                    out[f.id] = root
    return out


def _index_base(types: Mapping[str, ir.TypeDef], name: str) -> str | None:
    """The base type that declares `name`'s index signature, as `declaring_base` does."""
    td = types.get(name)
    own = td.type.index if td is not None and isinstance(td.type, ir.Obj) else None
    if td is None or own is None or own.loc is None:
        return None
    found, todo, seen = None, [b.name for b in td.bases], set()
    while todo:
        b = todo.pop(0)
        bt = types.get(b)
        if b in seen or bt is None or not isinstance(bt.type, ir.Obj):
            continue
        seen.add(b)
        if bt.type.index is not None and bt.type.index.loc == own.loc:
            found, todo = b, [bb.name for bb in bt.bases]
    return found


def by_base(
    found: Iterable[Finding], old_t: Mapping[str, ir.TypeDef], new_t: Mapping[str, ir.TypeDef]
) -> dict[str, Finding]:
    """Members a type gains (loses) because it now (no longer) extends a base: one fact. The
    echo of the base's own finding when the base itself is added (removed), else of the first
    member that came (went) with the same base on the same type."""
    found = list(found)
    types = {(f.rule, f.subject): f for f in found if f.rule in _TYPE_RULES}
    first: dict[tuple[str, str, str], Finding] = {}
    out: dict[str, Finding] = {}
    for f in found:
        owner, _, prop = f.subject.partition(".")
        if f.rule in ("index-signature-added", "index-signature-removed") and f.subject.endswith(
            "[*]"
        ):
            owner, prop = f.subject.removesuffix("[*]"), ""
        elif not prop or "." in prop or "[" in prop:
            continue
        added = f.rule in _PROP_ADDED or f.rule == "index-signature-added"
        if not (added or f.rule in _PROP_REMOVED or f.rule == "index-signature-removed"):
            continue
        side, other = (new_t, old_t) if added else (old_t, new_t)
        base = declaring_base(side, owner, prop) if prop else _index_base(side, owner)
        if base is None or (owner in other and _extends(other, owner, base)):
            continue  # declared by a base it extended before too: the base itself changed
        root = types.get(("type-added" if added else "type-removed", base))
        via = next(
            (b.name for b in side[owner].bases if b.name == base or _extends(side, b.name, base)),
            base,
        )
        root = root or first.setdefault((owner, via, "added" if added else "removed"), f)
        if root is not f:
            out[f.id] = root
    return out


def _extends(types: Mapping[str, ir.TypeDef], name: str, base: str) -> bool:
    todo, seen = [name], set()
    while todo:
        n = todo.pop()
        if n in seen or n not in types:
            continue
        seen.add(n)
        bases = [b.name for b in types[n].bases]
        if base in bases:
            return True
        todo += bases
    return False


def by_method_part(
    found: Iterable[Finding], old: MethodModel, new: MethodModel
) -> dict[str, Finding]:
    """`ListRootsRequest.params` retargeted restates `roots/list`'s params changed (the same
    before and after), and what differs inside those params is that change's detail: the
    method's finding is the fact."""
    found = list(found)
    parts: dict[str, Finding] = {}
    for f in found:
        if f.rule in ("method-params-changed", "method-result-changed"):
            part = "params" if f.rule == "method-params-changed" else "result"
            for m in (old.get(f.subject), new.get(f.subject)):
                if m is not None:
                    parts.setdefault(f"{m.type_name}.{part}", f)
    out: dict[str, Finding] = {}
    for f in found:
        for path, root in parts.items():
            same = f.subject == path and (f.before, f.after) == (root.before, root.after)
            inside = f.subject.startswith((path + ".", path + "["))
            if (f.rule == "type-reference-changed" and same) or inside:
                out[f.id] = root
    return out


def by_new_target(found: Iterable[Finding]) -> dict[str, Finding]:
    """A reference retargeted to a declaration the same change adds (`NotificationParams._meta`
    -> the new `NotificationMetaObject`, an inline type extracted and named) restates that
    declaration's addition. What the reference gains with it stays a fact of its own."""
    found = list(found)
    added = {f.subject: f for f in found if f.rule == "type-added"}
    retargets = [f for f in found if f.rule == "type-reference-changed" and f.after in added]
    return {f.id: added[f.after or ""] for f in retargets}


def by_users(
    found: Iterable[Finding],
    old_t: Mapping[str, ir.TypeDef],
    new_t: Mapping[str, ir.TypeDef],
    root: Callable[[Finding], Finding],
) -> dict[str, Finding]:
    """A type removed together with every property and declaration that named it restates the
    first of their removals (`ToolExecution` goes with `Tool.execution`); a type added that
    only properties and declarations added with it name restates the first of those
    (`ResultType` comes with `Result.resultType`). Only when those users come down to one root
    (`root` follows the echoes known so far): a type shared by several facts is a fact too."""
    found = list(found)
    out: dict[str, Finding] = {}
    for rule, types, changes in (
        ("type-removed", old_t, (*_PROP_REMOVED, "type-removed", "index-signature-removed")),
        ("type-added", new_t, (*_PROP_ADDED, "type-added", "index-signature-added")),
    ):
        moved = {f.subject: f for f in found if f.rule in changes}
        for f in found:
            if f.rule != rule:
                continue
            used = users(types, f.subject)
            roots = [r for r in (_gone(s, moved) for s in used) if r is not None]
            final = {root(r).id: root(r) for r in roots}
            if used and len(roots) == len(used) and len(final) == 1:
                out[f.id] = next(iter(final.values()))
    return out


def _gone(subject: str, gone: Mapping[str, Finding]) -> Finding | None:
    """The removal that took this subject (itself, or a property or type above it)."""
    probe = subject
    while probe:
        if probe in gone:
            return gone[probe]
        cut = max(probe.rfind("."), probe.rfind("["))
        probe = probe[:cut] if cut > 0 else ""
    return None


def users(types: Mapping[str, ir.TypeDef], name: str) -> list[str]:
    """The subjects (`Tool.execution`) of the properties and declarations that name `name`."""
    return [subject(p) for p in user_paths(types, name)]
