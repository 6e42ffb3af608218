"""The rule engine: neutral changes in, findings with stable rule ids and levels out.

`rule_for` picks the one rule of a change (the book, `book/`, says its levels and why);
`evaluate` applies it, with the method models saying which methods carry the change and which
side sends the affected data. What the levels mean: `levels.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .. import ir
from ..analysis.methods import MethodModel, Side, Usage
from ..constraints import SCHEMA_VALIDATION_TAGS
from .book import RULES, breaks
from .change import Change, Facts, What
from .levels import LEVELS, Category, Level, worst
from .locate import Locator


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    category: Category
    level: Level  # the worse of `sender` and `receiver`
    sender: Level
    receiver: Level
    subject: str
    before: str | None
    after: str | None
    why: str
    methods: tuple[str, ...]  # affected methods, sorted
    sent_by: tuple[Side, ...]  # who sends the affected data ("client", "server")
    inherited_by: tuple[str, ...] = ()  # types that carry the change through `extends`
    candidates: tuple[str, ...] = ()  # rename candidates of an added/removed type
    old_line: int | None = None  # where the subject stands in the old schema.ts
    new_line: int | None = None  # ... and in the new one
    id: str = ""  # stable anchor, derived from rule, subject, before and after (`echoes.py`)
    echo_of: str | None = None  # the id of the root finding this one restates
    breaks: tuple[str, ...] = ()  # "api" and/or "wire" (`book.breaks`)
    deprecated: bool = False  # the property or type added (or removed) carries `@deprecated`
    via: tuple[str, ...] = ()  # a flattened union's change: the member aliases it comes from

    def sort_key(self) -> tuple[int, str, str, str, str, str]:
        return (
            LEVELS.index(self.level),
            self.subject,
            self.rule,
            self.before or "",
            self.after or "",
            ",".join(self.methods),
        )


# ---------------------------------------------------------------------------------------------
# Which rule a change falls under


def rule_for(c: Change) -> str:
    """The rule id of a change: one case per kind of change, every id written out."""
    f = c.facts
    match c.what:
        case What.METHOD_ADDED:
            return "method-added"
        case What.METHOD_REMOVED:
            return "method-removed"
        case What.METHOD_KIND:
            return "method-kind-changed"
        case What.METHOD_DIRECTION:
            if c.after == "both":
                return "method-direction-widened"
            if c.before == "both":
                return "method-direction-narrowed"
            return "method-direction-changed"
        case What.METHOD_VIA:
            return "method-transport-changed"
        case What.METHOD_TYPE:
            return "method-type-changed"
        case What.METHOD_PARAMS:
            return "method-params-retyped" if f.same_shape else "method-params-changed"
        case What.METHOD_RESULT:
            return "method-result-retyped" if f.same_shape else "method-result-changed"
        case What.METHOD_ALT_ADDED:
            return "method-result-alternative-added"
        case What.METHOD_ALT_REMOVED:
            return "method-result-alternative-removed"
        case What.TYPE_ADDED:
            return "type-added"
        case What.TYPE_REMOVED:
            return "type-removed"
        case What.TYPE_RENAMED:
            return "type-renamed-changed" if f.same_shape is False else "type-renamed"
        case What.TYPE_CHANGED:
            if f.relation == "wider":
                return "type-widened"
            if f.relation == "narrower":
                return "type-narrowed"
            return "type-equivalent" if f.relation == "equivalent" else "type-changed"
        case What.TYPE_REF:
            return "type-reference-changed"
        case What.LITERAL_CHANGED:
            return "literal-value-changed"
        case What.PROPERTY_ADDED:
            if f.envelope:
                return "envelope-property-declared"
            return "property-added-required" if f.required else "property-added-optional"
        case What.PROPERTY_REMOVED:
            if f.envelope:
                return "envelope-property-undeclared"
            return "property-removed-required" if f.required else "property-removed-optional"
        case What.PROPERTY_OPTIONAL:
            if c.after == "required":
                return "property-became-required"
            return "property-became-optional"
        case What.PROPERTY_NULLABLE:
            if c.after == "nullable":
                return "property-became-nullable"
            return "property-no-longer-nullable"
        case What.PROPERTY_READONLY:
            return "property-readonly-changed"
        case What.INDEX_ADDED:
            return "index-signature-added"
        case What.INDEX_REMOVED:
            return "index-signature-removed"
        case What.MEMBER_ADDED:
            if not f.literal:
                return "union-member-added-covered" if f.covered else "union-member-added"
            return "open-enum-value-added" if f.open else "enum-value-added"
        case What.MEMBER_REMOVED:
            if not f.literal:
                return "union-member-removed-covered" if f.covered else "union-member-removed"
            return "open-enum-value-removed" if f.open else "enum-value-removed"
        case What.MEMBERS_UNMATCHED:
            return "union-members-unmatched"
        case What.CONSTRAINT:
            return _constraint_rule(f)
        case What.ANNOTATION_TYPE:
            return "annotation-type-changed"
        case What.SCHEMA_TAG:
            if f.constraint in SCHEMA_VALIDATION_TAGS:
                return "schema-keyword-changed"
            return "schema-annotation-changed"
        case What.NAME_CHANGED:
            return "generated-name-changed"
        case What.CONST_ADDED:
            return "constant-added"
        case What.CONST_REMOVED:
            return "constant-removed"
        case What.CONST_VALUE:
            return _constant_rule(c)
        case What.DOC_DESCRIPTION:
            return "description-changed"
        case What.DOC_TAG:
            return _doc_tag_rule(f)
    raise ValueError(f"no rule for change {c.what!r}")  # a bug: compare and rules disagree


# A bound that moves this way excludes values that were allowed before.
_TIGHTER = {
    "minimum": "raised",
    "min_items": "raised",
    "maximum": "lowered",
    "max_items": "lowered",
}


def _constraint_rule(f: Facts) -> str:
    if f.constraint == "format":
        if f.change == "added":
            return "format-added"
        if f.change == "removed":
            return "format-removed"
        return "format-changed"
    if f.change == "added":
        return "constraint-tightened"
    if f.change == "removed":
        return "constraint-loosened"
    if f.constraint in _TIGHTER:
        return (
            "constraint-tightened" if f.change == _TIGHTER[f.constraint] else "constraint-loosened"
        )
    return "constraint-changed"


# Tags with rules of their own when they come or go; any other tag change is `doc-tag-changed`.
_DOC_TAG_RULES: dict[tuple[str, str], str] = {
    ("deprecated", "added"): "deprecated-added",
    ("deprecated", "removed"): "deprecated-removed",
    ("internal", "added"): "internal-added",
    ("internal", "removed"): "internal-removed",
}


def _doc_tag_rule(f: Facts) -> str:
    if f.tag == "category":
        return "category-changed"
    return _DOC_TAG_RULES.get((f.tag or "", f.change or ""), "doc-tag-changed")


def _is_error_code(value: str | None) -> bool:
    try:
        return value is not None and -32768 <= int(value) <= -32000
    except ValueError:
        return False


def _constant_rule(c: Change) -> str:
    if c.path[0] == ir.PROTOCOL_VERSION_CONST:
        return "protocol-version-changed"
    if _is_error_code(c.before) or _is_error_code(c.after):
        return "error-code-changed"
    return "constant-value-changed"


# ---------------------------------------------------------------------------------------------
# The engine


@dataclass(frozen=True, slots=True)
class Context:
    """What the engine needs besides the changes: who sends what, which methods carry what."""

    old_methods: MethodModel
    new_methods: MethodModel
    old_usage: Usage
    new_usage: Usage
    renames: tuple[tuple[str, str], ...] = ()
    old_types: frozenset[str] = frozenset()
    new_types: frozenset[str] = frozenset()
    old_lines: Locator | None = None
    new_lines: Locator | None = None

    def sides(self, names: Iterable[str]) -> tuple[Side, ...]:
        out: set[Side] = set()
        for n in names:
            out.update(self.old_methods.sent_by(n))
            out.update(self.new_methods.sent_by(n))
        return tuple(s for s in ("client", "server") if s in out)


def _names(c: Change, ctx: Context) -> set[str]:
    """The declared types whose messages carry a change: its root type, the types inheriting it,
    and their counterparts under a rename. A union member change of a union no method uses
    (`ClientRequest`) is carried by the member itself."""
    names = {c.path[0], *c.carriers}
    if c.facts.ref and not _methods(names, ctx):
        names.add(c.facts.ref)
    for old, new in ctx.renames:
        if old in names or new in names:
            names.update((old, new))
    return names


def _methods(names: set[str], ctx: Context) -> set[str]:
    """Methods carrying the types `names`, in the version that has them: the new one when one
    of the types is still declared there (a change to `RequestParams` is not attributed to a
    method removed meanwhile), else the old one (a removed type)."""
    if ctx.new_types and names & ctx.new_types:
        return set(ctx.new_usage.methods_using(names & ctx.new_types))
    if ctx.old_types and names & ctx.old_types:
        return set(ctx.old_usage.methods_using(names & ctx.old_types))
    return set(ctx.old_usage.methods_using(names)) | set(ctx.new_usage.methods_using(names))


def _old_path(c: Change, ctx: Context) -> tuple[str, ...]:
    """The change's path in the old schema: a renamed type's subjects are named by its new name."""
    back = {new: old for old, new in ctx.renames}
    if c.what is What.TYPE_RENAMED or c.path[0] not in back:
        return c.path
    return (back[c.path[0]], *c.path[1:])


def _new_path(c: Change) -> tuple[str, ...]:
    return (c.after,) if c.what is What.TYPE_RENAMED and c.after else c.path


def _responders(direction: str) -> tuple[Side, ...]:
    if direction == "both":
        return ("client", "server")
    return ("server",) if direction == "client_to_server" else ("client",)


# Changes of what answers a request: the answering side sends the affected data.
_RESULT_CHANGES = (What.METHOD_RESULT, What.METHOD_ALT_ADDED, What.METHOD_ALT_REMOVED)


def evaluate(changes: Iterable[Change], ctx: Context) -> tuple[Finding, ...]:
    findings = []
    for c in changes:
        rule = RULES[rule_for(c)]
        sender, receiver, why = rule.levels_for(c.facts)
        before, after = c.before, c.after
        if c.what is What.DOC_TAG and c.facts.tag != "category":
            # a tag's text is documentation prose: show the tag's name, never its value
            tag = "@" + (c.facts.tag or "")
            before = tag if c.facts.change != "added" else None
            after = tag if c.facts.change != "removed" else None
        if c.scope == "method":
            m = c.path[0]
            methods: tuple[str, ...] = (m,)
            sides: set[Side] = set()
            responder = c.what in _RESULT_CHANGES
            for model in (ctx.old_methods, ctx.new_methods):
                found = model.get(m)
                senders = found.senders if found else ()
                if responder and found is not None:  # results travel the other way
                    senders = _responders(found.direction)
                sides.update(senders)
            sent_by = tuple(s for s in ("client", "server") if s in sides)
        elif c.scope == "constant":
            methods, sent_by = (), ()
        else:
            names = _names(c, ctx)
            methods, sent_by = tuple(sorted(_methods(names, ctx))), ctx.sides(names)
        findings.append(
            Finding(
                rule=rule.id,
                category=rule.category,
                level=worst((sender, receiver)),
                sender=sender,
                receiver=receiver,
                subject=c.subject,
                before=before,
                after=after,
                why=why,
                methods=methods,
                sent_by=sent_by,
                inherited_by=c.carriers,
                candidates=c.facts.candidates,
                breaks=breaks(rule.id),
                deprecated=bool(c.facts.deprecated),
                via=c.facts.via,
                old_line=ctx.old_lines.line(c.scope, _old_path(c, ctx)) if ctx.old_lines else None,
                new_line=ctx.new_lines.line(c.scope, _new_path(c)) if ctx.new_lines else None,
            )
        )
    return tuple(sorted(findings, key=Finding.sort_key))
