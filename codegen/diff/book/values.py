"""The rule book's rules for the values a type accepts and the constants: union members,
enum values, formats, bounds and patterns, schema keywords, `@TJS-type`, constants and error
codes."""

from __future__ import annotations

from ..levels import Rule

VALUE_RULES: tuple[Rule, ...] = (
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
)
