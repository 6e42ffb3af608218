"""The rule engine: neutral changes in, findings with stable rule ids and levels out.

Each rule gives two levels, one for the *senders* of the affected data and one for its
*receivers*, in the style of oasdiff / buf breaking. The question is always: if one peer still
runs code written against the old schema and the other follows the new one, what breaks?

* A sender's old code keeps producing old-shaped data. A change is breaking for senders when a
  receiver on the new schema may reject that data: a property becomes required, a value or union
  member is no longer allowed, a type narrows.
* A receiver's old code keeps expecting old-shaped data. A change is breaking for receivers when
  a sender on the new schema may produce data the old code cannot handle: a required property
  disappears or becomes optional, a type widens, null becomes possible.
* "risky" means it breaks only some implementations (strict validators, code that hard-codes a
  value, code that names a generated type); "compatible" means a real contract change that old
  code copes with; "info" has no effect on the wire (documentation, names of equal shapes).

For requests the sender is the requesting side; for results, the answering side; `sent_by` in a
finding says which side(s) that is in practice. The reasoning per rule is in `RULES` and in
docs/diff-rules.md (tests keep the two in agreement).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..methods import MethodModel, Side, Usage
from .change import Change

LEVELS = ("breaking", "risky", "compatible", "info")
CATEGORIES = (
    "method",
    "type",
    "property",
    "union",
    "enum",
    "constraint",
    "constant",
    "documentation",
)


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    category: str
    sender: str  # level for senders of the affected data
    receiver: str  # level for receivers
    purpose: str  # what the rule detects
    why: str  # the one-line reason shown with each finding
    mirror: str  # the rule the same change reports when OLD and NEW are swapped

    @property
    def level(self) -> str:
        return worst((self.sender, self.receiver))


def worst(levels: Iterable[str]) -> str:
    return min(levels, key=LEVELS.index, default="info")


B, R, C, I = "breaking", "risky", "compatible", "info"

_TABLE: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    # id, category, sender, receiver, mirror, purpose, why
    ("method-added", "method", C, C, "method-removed",
     "a method string appears in the message unions",
     "new method: nobody must send it; old peers that receive it answer method-not-found"),
    ("method-removed", "method", B, C, "method-added",
     "a method string disappears from the message unions",
     "old senders still send it, new receivers no longer handle it"),
    ("method-kind-changed", "method", B, B, "method-kind-changed",
     "a method changes between request and notification",
     "old senders wait for a response that never comes, or send one nobody expects"),
    ("method-direction-changed", "method", B, B, "method-direction-changed",
     "the side that sends a method changes (client_to_server <-> server_to_client)",
     "old code sends it the old way and does not handle it the new way"),
    ("method-direction-widened", "method", C, B, "method-direction-narrowed",
     "a method sent by one side may now be sent by both",
     "the side that starts receiving it has no handler in its old code"),
    ("method-direction-narrowed", "method", B, C, "method-direction-widened",
     "a method sent by both sides may now be sent by only one",
     "old code on the side that lost it still sends it to peers that no longer handle it"),
    ("method-transport-changed", "method", B, B, "method-transport-changed",
     "a request moves between a JSON-RPC message and an input request inside InputRequiredResult",
     "old code looks for the request on the old carrier and never sees it on the new one"),
    ("method-type-changed", "method", I, I, "method-type-changed",
     "the declared type of a method's message changes name",
     "names are not on the wire; the shapes of both types are compared separately"),
    ("method-params-changed", "method", B, B, "method-params-changed",
     "a request's or notification's params type changes to one of another shape",
     "old senders build the old params, old receivers parse the old params"),
    ("method-params-retyped", "method", I, I, "method-params-retyped",
     "a params type changes name but not shape",
     "same shape under another name: wire-compatible"),
    ("method-result-changed", "method", B, B, "method-result-changed",
     "a request is answered by a result type of another shape",
     "old responders send the old result, old requesters parse the old result"),
    ("method-result-retyped", "method", I, I, "method-result-retyped",
     "a result type changes name but not shape",
     "same shape under another name: wire-compatible"),
    ("method-result-alternative-added", "method", C, B, "method-result-alternative-removed",
     "a request may now also be answered by another result type (InputRequiredResult, CreateTaskResult)",
     "old requesters cannot parse the new kind of answer"),
    ("method-result-alternative-removed", "method", B, C, "method-result-alternative-added",
     "a request may no longer be answered by an alternative result type",
     "old responders may still send the alternative that new requesters no longer accept"),
    ("type-added", "type", C, C, "type-removed",
     "a declared type appears (rename candidates are listed)",
     "new declaration: nothing existing has to change"),
    ("type-removed", "type", B, B, "type-added",
     "a declared type disappears (rename candidates are listed)",
     "code and messages that use the type lose it"),
    ("type-renamed", "type", R, R, "type-renamed",
     "a type is removed and exactly one type of the same shape is added",
     "same shape under a new name: wire-compatible, but code that names the old type breaks"),
    ("type-changed", "type", B, B, "type-changed",
     "the type of a property or alias changes to an unrelated one (before/after as TS text)",
     "values valid before are invalid now and the other way round"),
    ("type-widened", "type", C, B, "type-narrowed",
     "a type now accepts everything it accepted before and more (integer -> number, literal -> string)",
     "old receivers may be sent values they do not handle"),
    ("type-narrowed", "type", B, C, "type-widened",
     "a type now accepts a subset of what it accepted before",
     "old senders may send values that are no longer allowed"),
    ("type-equivalent", "type", I, I, "type-equivalent",
     "a type is written differently but accepts the same JSON values (unknown <-> any, "
     + "object <-> { [key: string]: JSONValue })",
     "same set of values on the wire"),
    ("type-reference-changed", "type", I, I, "type-reference-changed",
     "a reference now points at another declaration, or an inline object became a named type"
     + " (or back)",
     "names are not on the wire; any difference in shape is reported as separate findings"),
    ("literal-value-changed", "type", B, B, "literal-value-changed",
     "a literal type (discriminator, method string, error code) changes its value",
     "old senders send the old value, old receivers match on the old value"),
    ("property-added-optional", "property", C, C, "property-removed-optional",
     "an optional property is added",
     "old senders omit it, which stays allowed; old receivers ignore it"),
    ("property-added-required", "property", B, C, "property-removed-required",
     "a required property is added",
     "old senders omit it and new receivers reject that"),
    ("property-removed-optional", "property", R, C, "property-added-optional",
     "an optional property is removed",
     "old senders may still send it (a problem for strict receivers); old receivers already"
     + " coped with its absence"),
    ("property-removed-required", "property", R, B, "property-added-required",
     "a required property is removed",
     "old receivers rely on it and no longer get it"),
    ("property-became-required", "property", B, C, "property-became-optional",
     "an optional property becomes required",
     "old senders may omit it and new receivers reject that"),
    ("property-became-optional", "property", C, B, "property-became-required",
     "a required property becomes optional",
     "old receivers rely on it and may no longer get it"),
    ("property-became-nullable", "property", C, B, "property-no-longer-nullable",
     "a property may now be null",
     "old receivers do not expect null"),
    ("property-no-longer-nullable", "property", B, C, "property-became-nullable",
     "a property may no longer be null",
     "old senders may send null and new receivers reject it"),
    ("envelope-property-declared", "property", I, I, "envelope-property-undeclared",
     "a JSON-RPC message type now declares an envelope property (`jsonrpc`, `id`) itself",
     "the JSON-RPC envelope always carried it; only the type's declaration changed"),
    ("envelope-property-undeclared", "property", I, I, "envelope-property-declared",
     "a JSON-RPC message type stops declaring an envelope property (`jsonrpc`, `id`) itself",
     "the JSON-RPC envelope still carries it; only the type's declaration changed"),
    ("property-readonly-changed", "property", I, I, "property-readonly-changed",
     "a property gains or loses `readonly`",
     "readonly is a TypeScript notion only; nothing changes on the wire"),
    ("index-signature-added", "property", C, R, "index-signature-removed",
     "an object gains an index signature (it accepts arbitrary extra keys)",
     "old receivers may get keys they do not know"),
    ("index-signature-removed", "property", R, C, "index-signature-added",
     "an object loses its index signature",
     "old senders may still send extra keys that strict receivers now reject"),
    ("union-member-added", "union", C, R, "union-member-removed",
     "a union gains a member",
     "old receivers may be sent a variant they cannot handle"),
    ("union-member-removed", "union", B, C, "union-member-added",
     "a union loses a member",
     "old senders may still send the removed variant"),
    ("union-members-unmatched", "union", B, B, "union-members-unmatched",
     "union members changed in a way that cannot be matched member by member",
     "variants cannot be paired, so neither side can be assumed compatible"),
    ("enum-value-added", "enum", C, R, "enum-value-removed",
     "a closed set of literal values gains a value",
     "old receivers may be sent a value they do not know"),
    ("enum-value-removed", "enum", B, C, "enum-value-added",
     "a closed set of literal values loses a value",
     "old senders may still send the removed value"),
    ("open-enum-value-added", "enum", I, I, "open-enum-value-removed",
     "an open set (`\"a\" | \"b\" | string`) names another value",
     "any string was already allowed"),
    ("open-enum-value-removed", "enum", I, I, "open-enum-value-added",
     "an open set (`\"a\" | \"b\" | string`) stops naming a value",
     "any string is still allowed"),
    ("format-added", "constraint", R, C, "format-removed",
     "a string property gains a `@format`",
     "values old senders produced may not match the format"),
    ("format-removed", "constraint", C, R, "format-added",
     "a string property loses its `@format`",
     "old receivers may rely on the format"),
    ("format-changed", "constraint", R, R, "format-changed",
     "a string property's `@format` changes",
     "values valid for one format may be invalid for the other"),
    ("constraint-tightened", "constraint", R, C, "constraint-loosened",
     "a minimum/minItems rises, a maximum/maxItems falls, or a bound or pattern is added",
     "values old senders produced may now be out of range"),
    ("constraint-loosened", "constraint", C, R, "constraint-tightened",
     "a minimum/minItems falls, a maximum/maxItems rises, or a bound or pattern is removed",
     "old receivers may get values outside the range they relied on"),
    ("constraint-changed", "constraint", R, R, "constraint-changed",
     "a pattern changes",
     "values valid for one pattern may be invalid for the other"),
    ("constant-added", "constant", C, C, "constant-removed",
     "a constant is declared",
     "new declaration: nothing existing has to change"),
    ("constant-removed", "constant", R, R, "constant-added",
     "a constant disappears",
     "code that names the constant breaks"),
    ("constant-value-changed", "constant", B, B, "constant-value-changed",
     "a constant's value changes",
     "old code uses the old value"),
    ("error-code-changed", "constant", B, B, "error-code-changed",
     "an error-code constant (JSON-RPC range -32768..-32000) changes value",
     "old senders send the old code and old receivers do not recognise the new one"),
    ("protocol-version-changed", "constant", R, R, "protocol-version-changed",
     "LATEST_PROTOCOL_VERSION changes",
     "peers negotiate the version; code that hard-codes the old string refuses the new one"),
    ("description-changed", "documentation", I, I, "description-changed",
     "the description of a subject changes (the text itself is not reported)",
     "documentation only"),
    ("deprecated-added", "documentation", I, I, "deprecated-removed",
     "a subject gains `@deprecated`",
     "still valid on the wire; plan its removal"),
    ("deprecated-removed", "documentation", I, I, "deprecated-added",
     "a subject loses `@deprecated`",
     "documentation only"),
    ("internal-added", "documentation", I, I, "internal-removed",
     "a subject gains `@internal`",
     "documentation only"),
    ("internal-removed", "documentation", I, I, "internal-added",
     "a subject loses `@internal`",
     "documentation only"),
    ("category-changed", "documentation", I, I, "category-changed",
     "a subject's `@category` changes",
     "documentation only"),
    ("doc-tag-changed", "documentation", I, I, "doc-tag-changed",
     "another JSDoc tag (@see, @example, @default, ...) is added, removed or changed",
     "documentation only"),
)  # fmt: skip

RULES: dict[str, Rule] = {
    row[0]: Rule(row[0], row[1], row[2], row[3], row[5], row[6], row[4]) for row in _TABLE
}


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    category: str
    level: str  # the worse of `sender` and `receiver`
    sender: str
    receiver: str
    subject: str
    before: str | None
    after: str | None
    why: str
    methods: tuple[str, ...]  # affected methods, sorted
    sent_by: tuple[Side, ...]  # who sends the affected data ("client", "server")
    inherited_by: tuple[str, ...] = ()  # types that carry the change through `extends`
    candidates: tuple[str, ...] = ()  # rename candidates of an added/removed type

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


_TIGHTER = {
    "minimum": "raised",
    "min_items": "raised",
    "maximum": "lowered",
    "max_items": "lowered",
}
_FIXED = {
    "method.added": "method-added",
    "method.removed": "method-removed",
    "method.kind": "method-kind-changed",
    "method.via": "method-transport-changed",
    "method.type": "method-type-changed",
    "method.alt.added": "method-result-alternative-added",
    "method.alt.removed": "method-result-alternative-removed",
    "type.added": "type-added",
    "type.removed": "type-removed",
    "type.renamed": "type-renamed",
    "type.ref": "type-reference-changed",
    "literal.changed": "literal-value-changed",
    "property.readonly": "property-readonly-changed",
    "index.added": "index-signature-added",
    "index.removed": "index-signature-removed",
    "members.unmatched": "union-members-unmatched",
    "const.added": "constant-added",
    "const.removed": "constant-removed",
    "doc.description": "description-changed",
}


def rule_for(c: Change) -> str:
    """The rule id of a change (every `what` maps to exactly one rule)."""
    fixed = _FIXED.get(c.what)
    if fixed is not None:
        return fixed
    if c.what == "method.direction":
        if c.after == "both":
            return "method-direction-widened"
        return "method-direction-narrowed" if c.before == "both" else "method-direction-changed"
    if c.what in ("method.params", "method.result"):
        kind = c.what.split(".")[1]
        return (
            f"method-{kind}-retyped" if c.fact("same_shape") == "yes" else f"method-{kind}-changed"
        )
    if c.what == "type.changed":
        rel = c.fact("relation")
        return {
            "wider": "type-widened",
            "narrower": "type-narrowed",
            "equivalent": "type-equivalent",
        }.get(rel, "type-changed")
    if c.what in ("property.added", "property.removed"):
        if c.fact("envelope") == "yes":
            return (
                "envelope-property-declared"
                if c.what == "property.added"
                else "envelope-property-undeclared"
            )
        verb = c.what.split(".")[1]
        return f"property-{verb}-{'required' if c.fact('required') == 'yes' else 'optional'}"
    if c.what == "property.optional":
        return "property-became-required" if c.after == "required" else "property-became-optional"
    if c.what == "property.nullable":
        return (
            "property-became-nullable" if c.after == "nullable" else "property-no-longer-nullable"
        )
    if c.what in ("member.added", "member.removed"):
        verb = c.what.split(".")[1]
        if c.fact("member") == "literal":
            return f"{'open-' if c.fact('open') == 'yes' else ''}enum-value-{verb}"
        return f"union-member-{verb}"
    if c.what == "constraint":
        return _constraint_rule(c.fact("constraint"), c.fact("change"))
    if c.what == "const.value":
        return _constant_rule(c)
    if c.what == "doc.tag":
        tag, change = c.fact("tag"), c.fact("change")
        if tag in ("deprecated", "internal") and change in ("added", "removed"):
            return f"{tag}-{change}"
        return "category-changed" if tag == "category" else "doc-tag-changed"
    raise ValueError(f"no rule for change {c.what!r}")  # a bug: compare and rules disagree


def _constraint_rule(constraint: str, change: str) -> str:
    if constraint == "format":
        return f"format-{change}"
    if change == "added":
        return "constraint-tightened"
    if change == "removed":
        return "constraint-loosened"
    if constraint in _TIGHTER:
        return "constraint-tightened" if change == _TIGHTER[constraint] else "constraint-loosened"
    return "constraint-changed"


def _is_error_code(value: str | None) -> bool:
    try:
        return value is not None and -32768 <= int(value) <= -32000
    except ValueError:
        return False


def _constant_rule(c: Change) -> str:
    if c.path[0] == "LATEST_PROTOCOL_VERSION":
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
    if c.fact("ref") and not _methods(names, ctx):
        names.add(c.fact("ref"))
    for old, new in ctx.renames:
        if old in names or new in names:
            names.update((old, new))
    return names


def _methods(names: set[str], ctx: Context) -> set[str]:
    return set(ctx.old_usage.methods_using(names)) | set(ctx.new_usage.methods_using(names))


def _responders(direction: str) -> tuple[Side, ...]:
    if direction == "both":
        return ("client", "server")
    return ("server",) if direction == "client_to_server" else ("client",)


def evaluate(changes: Iterable[Change], ctx: Context) -> tuple[Finding, ...]:
    findings = []
    for c in changes:
        rule = RULES[rule_for(c)]
        before, after = c.before, c.after
        if rule.id == "doc-tag-changed" or rule.id.startswith(("deprecated-", "internal-")):
            tag = "@" + c.fact("tag")
            before = tag if c.fact("change") != "added" else None
            after = tag if c.fact("change") != "removed" else None
        if c.scope == "method":
            m = c.path[0]
            methods: tuple[str, ...] = (m,)
            sides: set[Side] = set()
            responder = c.what.startswith(("method.result", "method.alt"))
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
        cands = c.fact("candidates")
        findings.append(
            Finding(
                rule=rule.id,
                category=rule.category,
                level=rule.level,
                sender=rule.sender,
                receiver=rule.receiver,
                subject=c.subject,
                before=before,
                after=after,
                why=rule.why,
                methods=methods,
                sent_by=sent_by,
                inherited_by=c.carriers,
                candidates=tuple(cands.split(", ")) if cands else (),
            )
        )
    return tuple(sorted(findings, key=Finding.sort_key))
