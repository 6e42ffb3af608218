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
from typing import Literal

from .. import ir
from ..analysis.methods import MethodModel, Side, Usage
from ..constraints import SCHEMA_VALIDATION_TAGS
from .change import Change, Facts, What
from .locate import Locator

Level = Literal["breaking", "risky", "compatible", "info"]
Category = Literal[
    "method", "type", "property", "union", "enum", "constraint", "constant", "documentation"
]
LEVELS: tuple[Level, ...] = ("breaking", "risky", "compatible", "info")  # worst first
ACTION_LEVELS: tuple[Level, ...] = LEVELS[:2]  # what a reader must act on: breaking, risky
CATEGORIES: tuple[Category, ...] = (
    "method",
    "type",
    "property",
    "union",
    "enum",
    "constraint",
    "constant",
    "documentation",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Condition:
    """A fact of the change that gives a rule other levels (and another reason)."""

    fact: str  # a `Facts` field that is true for the change
    when: str  # what that means, for `mcp-codegen rules`
    sender: Level
    receiver: Level
    why: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    id: str  # stable; written literally here and wherever a rule is picked (grep finds both)
    category: Category
    sender: Level  # level for senders of the affected data
    receiver: Level  # level for receivers
    mirror: str  # the rule the same change reports when OLD and NEW are swapped
    purpose: str  # what the rule detects
    why: str  # the one-line reason shown with each finding
    # facts that change the levels: the first that holds for a change applies
    conditions: tuple[Condition, ...] = ()

    @property
    def level(self) -> Level:
        return worst((self.sender, self.receiver))

    def levels_for(self, facts: Facts) -> tuple[Level, Level, str]:
        """Sender level, receiver level and reason for a change with these facts."""
        for c in self.conditions:
            if getattr(facts, c.fact) is True:
                return c.sender, c.receiver, c.why
        return self.sender, self.receiver, self.why


def worst(levels: Iterable[Level]) -> Level:
    return min(levels, key=LEVELS.index, default="info")


# The rule book, in the order `mcp-codegen rules` and docs/diff-rules.md list it. Each id is
# written out once here; code that picks a rule names it literally too (never assembled).
_BOOK: tuple[Rule, ...] = (
    Rule(
        id="method-added",
        category="method",
        sender="compatible",
        receiver="risky",
        mirror="method-removed",
        purpose="a method string appears in the message unions",
        why=(
            "new method: nobody must send it, but old peers that receive it answer"
            " method-not-found, which new senders must expect"
        ),
    ),
    Rule(
        id="method-removed",
        category="method",
        sender="breaking",
        receiver="compatible",
        mirror="method-added",
        purpose="a method string disappears from the message unions",
        why="old senders still send it, new receivers no longer handle it",
    ),
    Rule(
        id="method-kind-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-kind-changed",
        purpose="a method changes between request and notification",
        why="old senders wait for a response that never comes, or send one nobody expects",
    ),
    Rule(
        id="method-direction-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-direction-changed",
        purpose="the side that sends a method changes (client_to_server <-> server_to_client)",
        why="old code sends it the old way and does not handle it the new way",
    ),
    Rule(
        id="method-direction-widened",
        category="method",
        sender="compatible",
        receiver="breaking",
        mirror="method-direction-narrowed",
        purpose="a method sent by one side may now be sent by both",
        why="the side that starts receiving it has no handler in its old code",
    ),
    Rule(
        id="method-direction-narrowed",
        category="method",
        sender="breaking",
        receiver="compatible",
        mirror="method-direction-widened",
        purpose="a method sent by both sides may now be sent by only one",
        why="old code on the side that lost it still sends it to peers that no longer handle it",
    ),
    Rule(
        id="method-transport-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-transport-changed",
        purpose=(
            "a request moves between a JSON-RPC message and an input request inside "
            "InputRequiredResult"
        ),
        why="old code looks for the request on the old carrier and never sees it on the new one",
    ),
    Rule(
        id="method-type-changed",
        category="method",
        sender="info",
        receiver="info",
        mirror="method-type-changed",
        purpose="the declared type of a method's message changes name",
        why="names are not on the wire; the shapes of both types are compared separately",
    ),
    Rule(
        id="method-params-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-params-changed",
        purpose="a request's or notification's params type changes to one of another shape",
        why="old senders build the old params, old receivers parse the old params",
    ),
    Rule(
        id="method-params-retyped",
        category="method",
        sender="info",
        receiver="info",
        mirror="method-params-retyped",
        purpose="a params type changes name but not shape",
        why="same shape under another name: wire-compatible",
    ),
    Rule(
        id="method-result-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-result-changed",
        purpose="a request is answered by a result type of another shape",
        why="old responders send the old result, old requesters parse the old result",
    ),
    Rule(
        id="method-result-retyped",
        category="method",
        sender="info",
        receiver="info",
        mirror="method-result-retyped",
        purpose="a result type changes name but not shape",
        why="same shape under another name: wire-compatible",
    ),
    Rule(
        id="method-result-alternative-added",
        category="method",
        sender="compatible",
        receiver="breaking",
        mirror="method-result-alternative-removed",
        purpose=(
            "a request may now also be answered by another result type"
            " (InputRequiredResult, CreateTaskResult)"
        ),
        why="old requesters cannot parse the new kind of answer",
        conditions=(
            Condition(
                fact="on_request",
                when="the alternative answers only requests that ask for it (CreateTaskResult,"
                " for a request with `params.task`)",
                sender="compatible",
                receiver="compatible",
                why="sent only to requests that ask for it, which old requesters never do",
            ),
        ),
    ),
    Rule(
        id="method-result-alternative-removed",
        category="method",
        sender="breaking",
        receiver="compatible",
        mirror="method-result-alternative-added",
        purpose="a request may no longer be answered by an alternative result type",
        why="old responders may still send the alternative that new requesters no longer accept",
        conditions=(
            Condition(
                fact="on_request",
                when="the alternative answered only requests that asked for it (CreateTaskResult)",
                sender="compatible",
                receiver="compatible",
                why="old responders sent it only when asked, which new requesters cannot do",
            ),
        ),
    ),
    Rule(
        id="type-added",
        category="type",
        sender="compatible",
        receiver="compatible",
        mirror="type-removed",
        purpose="a declared type appears (rename candidates are listed)",
        why="new declaration: nothing existing has to change",
    ),
    Rule(
        id="type-removed",
        category="type",
        sender="breaking",
        receiver="breaking",
        mirror="type-added",
        purpose="a declared type disappears (rename candidates are listed)",
        why="code and messages that use the type lose it",
    ),
    Rule(
        id="generated-name-changed",
        category="type",
        sender="risky",
        receiver="risky",
        mirror="generated-name-changed",
        purpose="the generated name of the same data changes: an inline type's class name"
        " (it derives from its path, discriminator value or distinguishing keys) or a"
        " property's attribute name",
        why="same data under a new generated name: code that names the old class or attribute"
        " breaks",
    ),
    Rule(
        id="type-renamed",
        category="type",
        sender="risky",
        receiver="risky",
        mirror="type-renamed",
        purpose="a type is removed and exactly one type of the same shape is added",
        why="same shape under a new name: wire-compatible, but code that names the old type breaks",
    ),
    Rule(
        id="type-renamed-changed",
        category="type",
        sender="risky",
        receiver="risky",
        mirror="type-renamed-changed",
        purpose=(
            "a type is removed and one with an alike name and mostly the same properties is"
            " added (`JSONRPCError` -> `JSONRPCErrorResponse`); its changes follow under the"
            " new name"
        ),
        why=(
            "renamed and changed: code that names the old type breaks; what changed in its"
            " content is reported by the findings under the new name"
        ),
    ),
    Rule(
        id="type-changed",
        category="type",
        sender="breaking",
        receiver="breaking",
        mirror="type-changed",
        purpose=(
            "the type of a property or alias changes to an unrelated one (before/after as TS text)"
        ),
        why="values valid before are invalid now and the other way round",
    ),
    Rule(
        id="type-widened",
        category="type",
        sender="compatible",
        receiver="risky",
        mirror="type-narrowed",
        purpose=(
            "a type now accepts everything it accepted before and more"
            " (integer -> number, literal -> string)"
        ),
        why=(
            "old receivers may be sent values they do not handle (as when a union gains a"
            " member: the same change)"
        ),
    ),
    Rule(
        id="type-narrowed",
        category="type",
        sender="breaking",
        receiver="compatible",
        mirror="type-widened",
        purpose="a type now accepts a subset of what it accepted before",
        why="old senders may send values that are no longer allowed",
    ),
    Rule(
        id="type-equivalent",
        category="type",
        sender="info",
        receiver="info",
        mirror="type-equivalent",
        purpose=(
            "a type is written differently but accepts the same JSON values"
            " (unknown <-> any, object <-> { [key: string]: JSONValue })"
        ),
        why="same set of values on the wire",
    ),
    Rule(
        id="type-reference-changed",
        category="type",
        sender="info",
        receiver="info",
        mirror="type-reference-changed",
        purpose=(
            "a reference now points at another declaration, or an inline object became"
            " a named type (or back)"
        ),
        why="names are not on the wire; any difference in shape is reported as separate findings",
    ),
    Rule(
        id="literal-value-changed",
        category="type",
        sender="breaking",
        receiver="breaking",
        mirror="literal-value-changed",
        purpose="a literal type (discriminator, method string, error code) changes its value",
        why="old senders send the old value, old receivers match on the old value",
    ),
    Rule(
        id="property-added-optional",
        category="property",
        sender="compatible",
        receiver="compatible",
        mirror="property-removed-optional",
        purpose="an optional property is added",
        why="old senders omit it, which stays allowed; old receivers ignore it",
    ),
    Rule(
        id="property-added-required",
        category="property",
        sender="breaking",
        receiver="compatible",
        mirror="property-removed-required",
        purpose="a required property is added",
        why="old senders omit it and new receivers reject that",
    ),
    Rule(
        id="property-removed-optional",
        category="property",
        sender="risky",
        receiver="compatible",
        mirror="property-added-optional",
        purpose="an optional property is removed",
        why=(
            "old senders may still send it (a problem for strict receivers);"
            " old receivers already coped with its absence"
        ),
        conditions=(
            Condition(
                fact="covered",
                when="the object's index signature takes any value (`[key: string]: any`)",
                sender="compatible",
                receiver="compatible",
                why=(
                    "the index signature still takes the key, so old senders' messages stay"
                    " valid; old receivers already coped with its absence"
                ),
            ),
        ),
    ),
    Rule(
        id="property-removed-required",
        category="property",
        sender="risky",
        receiver="breaking",
        mirror="property-added-required",
        purpose="a required property is removed",
        why="old receivers rely on it and no longer get it",
    ),
    Rule(
        id="property-became-required",
        category="property",
        sender="breaking",
        receiver="compatible",
        mirror="property-became-optional",
        purpose="an optional property becomes required",
        why="old senders may omit it and new receivers reject that",
    ),
    Rule(
        id="property-became-optional",
        category="property",
        sender="compatible",
        receiver="breaking",
        mirror="property-became-required",
        purpose="a required property becomes optional",
        why="old receivers rely on it and may no longer get it",
    ),
    Rule(
        id="property-became-nullable",
        category="property",
        sender="compatible",
        receiver="breaking",
        mirror="property-no-longer-nullable",
        purpose="a property may now be null",
        why="old receivers do not expect null",
    ),
    Rule(
        id="property-no-longer-nullable",
        category="property",
        sender="breaking",
        receiver="compatible",
        mirror="property-became-nullable",
        purpose="a property may no longer be null",
        why="old senders may send null and new receivers reject it",
    ),
    Rule(
        id="envelope-property-declared",
        category="property",
        sender="info",
        receiver="info",
        mirror="envelope-property-undeclared",
        purpose=(
            "a JSON-RPC message type now declares an envelope property (`jsonrpc`, `id`) itself"
        ),
        why="the JSON-RPC envelope always carried it; only the type's declaration changed",
    ),
    Rule(
        id="envelope-property-undeclared",
        category="property",
        sender="info",
        receiver="info",
        mirror="envelope-property-declared",
        purpose=(
            "a JSON-RPC message type stops declaring an envelope property (`jsonrpc`, `id`) itself"
        ),
        why="the JSON-RPC envelope still carries it; only the type's declaration changed",
    ),
    Rule(
        id="property-readonly-changed",
        category="property",
        sender="info",
        receiver="info",
        mirror="property-readonly-changed",
        purpose="a property gains or loses `readonly`",
        why="readonly is a TypeScript notion only; nothing changes on the wire",
    ),
    Rule(
        id="index-signature-added",
        category="property",
        sender="compatible",
        receiver="risky",
        mirror="index-signature-removed",
        purpose="an object gains an index signature (it accepts arbitrary extra keys)",
        why="old receivers may get keys they do not know",
        conditions=(
            Condition(
                fact="covered",
                when="the index signature takes any value (`unknown`, `any`): JSON objects"
                " are open anyway",
                sender="info",
                receiver="info",
                why="`[key: string]: unknown` restates that objects take extra keys: no"
                " message changes validity",
            ),
        ),
    ),
    Rule(
        id="index-signature-removed",
        category="property",
        sender="risky",
        receiver="compatible",
        mirror="index-signature-added",
        purpose="an object loses its index signature",
        why="old senders may still send extra keys that strict receivers now reject",
        conditions=(
            Condition(
                fact="covered",
                when="the index signature takes any value (`unknown`, `any`): JSON objects"
                " are open anyway",
                sender="info",
                receiver="info",
                why="`[key: string]: unknown` restates that objects take extra keys: no"
                " message changes validity",
            ),
        ),
    ),
    Rule(
        id="union-member-added",
        category="union",
        sender="compatible",
        receiver="risky",
        mirror="union-member-removed",
        purpose="a union gains a member",
        why="old receivers may be sent a variant they cannot handle",
    ),
    Rule(
        id="union-member-removed",
        category="union",
        sender="breaking",
        receiver="compatible",
        mirror="union-member-added",
        purpose="a union loses a member",
        why="old senders may still send the removed variant",
    ),
    Rule(
        id="union-members-unmatched",
        category="union",
        sender="breaking",
        receiver="breaking",
        mirror="union-members-unmatched",
        purpose="union members changed in a way that cannot be matched member by member",
        why="variants cannot be paired, so neither side can be assumed compatible",
    ),
    Rule(
        id="union-member-removed-covered",
        category="union",
        sender="risky",
        receiver="risky",
        mirror="union-member-added-covered",
        purpose=(
            "a union loses a member whose every value another member now accepts"
            " (`JSONRPCError` gone, `JSONRPCResponse` now includes `JSONRPCErrorResponse`)"
        ),
        why=(
            "old senders' values stay valid (a rename with widening); code that names the"
            " removed member breaks"
        ),
    ),
    Rule(
        id="union-member-added-covered",
        category="union",
        sender="compatible",
        receiver="compatible",
        mirror="union-member-removed-covered",
        purpose="a union gains a member whose every value another member already accepted",
        why="old receivers already handle these values through the other member",
    ),
    Rule(
        id="annotation-type-changed",
        category="constraint",
        sender="risky",
        receiver="risky",
        mirror="annotation-type-changed",
        purpose=(
            "a `@TJS-type` annotation changes the JSON Schema type of a property"
            " (`number` -> `integer`)"
        ),
        why="validators built from the official JSON Schema accept other values than before",
    ),
    Rule(
        id="enum-value-added",
        category="enum",
        sender="compatible",
        receiver="risky",
        mirror="enum-value-removed",
        purpose="a closed set of literal values gains a value",
        why="old receivers may be sent a value they do not know",
    ),
    Rule(
        id="enum-value-removed",
        category="enum",
        sender="breaking",
        receiver="compatible",
        mirror="enum-value-added",
        purpose="a closed set of literal values loses a value",
        why="old senders may still send the removed value",
    ),
    Rule(
        id="open-enum-value-added",
        category="enum",
        sender="info",
        receiver="info",
        mirror="open-enum-value-removed",
        purpose='an open set (`"a" | "b" | string`) names another value',
        why="any string was already allowed",
    ),
    Rule(
        id="open-enum-value-removed",
        category="enum",
        sender="info",
        receiver="info",
        mirror="open-enum-value-added",
        purpose='an open set (`"a" | "b" | string`) stops naming a value',
        why="any string is still allowed",
    ),
    Rule(
        id="format-added",
        category="constraint",
        sender="risky",
        receiver="compatible",
        mirror="format-removed",
        purpose="a string property gains a `@format`",
        why="values old senders produced may not match the format",
    ),
    Rule(
        id="format-removed",
        category="constraint",
        sender="compatible",
        receiver="risky",
        mirror="format-added",
        purpose="a string property loses its `@format`",
        why="old receivers may rely on the format",
    ),
    Rule(
        id="format-changed",
        category="constraint",
        sender="risky",
        receiver="risky",
        mirror="format-changed",
        purpose="a string property's `@format` changes",
        why="values valid for one format may be invalid for the other",
    ),
    Rule(
        id="constraint-tightened",
        category="constraint",
        sender="breaking",
        receiver="compatible",
        mirror="constraint-loosened",
        purpose=(
            "a minimum/minItems rises, a maximum/maxItems falls, or a bound or pattern is added"
        ),
        why="values old senders produced may now be out of range and rejected",
    ),
    Rule(
        id="constraint-loosened",
        category="constraint",
        sender="compatible",
        receiver="risky",
        mirror="constraint-tightened",
        purpose=(
            "a minimum/minItems falls, a maximum/maxItems rises, or a bound or pattern is removed"
        ),
        why="old receivers may get values outside the range they relied on",
    ),
    Rule(
        id="constraint-changed",
        category="constraint",
        sender="risky",
        receiver="risky",
        mirror="constraint-changed",
        purpose="a pattern changes",
        why="values valid for one pattern may be invalid for the other",
    ),
    Rule(
        id="schema-keyword-changed",
        category="constraint",
        sender="risky",
        receiver="risky",
        mirror="schema-keyword-changed",
        purpose="another tag the official generator turns into a validation keyword (@maxLength,"
        " @multipleOf, @uniqueItems, @TJS-...) is added, removed or changed",
        why="validators built from the official JSON Schema accept other messages than before",
    ),
    Rule(
        id="schema-annotation-changed",
        category="constraint",
        sender="info",
        receiver="info",
        mirror="schema-annotation-changed",
        purpose="a tag the official generator turns into an annotation keyword (@default,"
        " @examples, @title, @$comment, ...) is added, removed or changed",
        why="the official JSON Schema says something else; what validates is unchanged",
    ),
    Rule(
        id="constant-added",
        category="constant",
        sender="compatible",
        receiver="compatible",
        mirror="constant-removed",
        purpose="a constant is declared",
        why="new declaration: nothing existing has to change",
    ),
    Rule(
        id="constant-removed",
        category="constant",
        sender="risky",
        receiver="risky",
        mirror="constant-added",
        purpose="a constant disappears",
        why="code that names the constant breaks",
    ),
    Rule(
        id="constant-value-changed",
        category="constant",
        sender="breaking",
        receiver="breaking",
        mirror="constant-value-changed",
        purpose="a constant's value changes",
        why="old code uses the old value",
    ),
    Rule(
        id="error-code-changed",
        category="constant",
        sender="breaking",
        receiver="breaking",
        mirror="error-code-changed",
        purpose="an error-code constant (JSON-RPC range -32768..-32000) changes value",
        why="old senders send the old code and old receivers do not recognise the new one",
    ),
    Rule(
        id="protocol-version-changed",
        category="constant",
        sender="risky",
        receiver="risky",
        mirror="protocol-version-changed",
        purpose="LATEST_PROTOCOL_VERSION changes",
        why="peers negotiate the version; code that hard-codes the old string refuses the new one",
    ),
    Rule(
        id="description-changed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="description-changed",
        purpose="the description of a subject changes (the text itself is not reported)",
        why="documentation only",
    ),
    Rule(
        id="deprecated-added",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="deprecated-removed",
        purpose="a subject gains `@deprecated`",
        why="still valid on the wire; plan its removal",
    ),
    Rule(
        id="deprecated-removed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="deprecated-added",
        purpose="a subject loses `@deprecated`",
        why="documentation only",
    ),
    Rule(
        id="internal-added",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="internal-removed",
        purpose="a subject gains `@internal`",
        why="documentation only",
    ),
    Rule(
        id="internal-removed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="internal-added",
        purpose="a subject loses `@internal`",
        why="documentation only",
    ),
    Rule(
        id="category-changed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="category-changed",
        purpose="a subject's `@category` changes",
        why="documentation only",
    ),
    Rule(
        id="doc-tag-changed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="doc-tag-changed",
        purpose="another JSDoc tag (@see, @example, @default, ...) is added, removed or changed",
        why="documentation only",
    ),
)

RULES: dict[str, Rule] = {r.id: r for r in _BOOK}

# The buf-style kinds of breakage, orthogonal to the levels. *wire*: a message valid before may
# be rejected now, or one rejected before may arrive now (the set of valid messages changes in a
# way one side's old code notices). *api*: a declaration, class, field or constant that code
# written against the generated bindings names disappears, is renamed or changes its type.
# `--fail-on wire` fails on wire findings of level breaking, `--fail-on api` on any api finding.
_WIRE = frozenset(
    {"method-removed", "method-kind-changed", "method-direction-changed",
     "method-direction-widened", "method-direction-narrowed", "method-transport-changed",
     "method-params-changed", "method-result-changed", "method-result-alternative-added",
     "method-result-alternative-removed", "type-changed", "type-widened", "type-narrowed",
     "literal-value-changed", "property-added-required", "property-removed-required",
     "property-removed-optional", "property-became-required", "property-became-optional",
     "property-became-nullable", "property-no-longer-nullable", "index-signature-added",
     "index-signature-removed", "union-member-added", "union-member-removed",
     "union-members-unmatched", "enum-value-added", "enum-value-removed", "format-added",
     "format-removed", "format-changed", "constraint-tightened", "constraint-loosened",
     "constraint-changed", "annotation-type-changed", "constant-value-changed",
     "error-code-changed", "protocol-version-changed", "schema-keyword-changed"}
)  # fmt: skip
_API = frozenset(
    {"method-removed", "method-type-changed", "method-params-changed", "method-params-retyped",
     "method-result-changed", "method-result-retyped", "type-removed", "type-renamed",
     "generated-name-changed", "type-renamed-changed", "type-changed", "literal-value-changed",
     "property-removed-optional", "property-removed-required", "property-became-optional",
     "property-became-nullable", "union-member-removed", "union-member-removed-covered",
     "union-members-unmatched", "enum-value-removed", "constant-removed",
     "constant-value-changed", "error-code-changed"}
)  # fmt: skip


def breaks(rule: str) -> tuple[str, ...]:
    """Which kinds of breakage a rule's findings are: ("api",), ("wire",), both or none."""
    return tuple(k for k, ids in (("api", _API), ("wire", _WIRE)) if rule in ids)


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
    breaks: tuple[str, ...] = ()  # "api" and/or "wire" (`BREAKS`)
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
