"""The rule book's rules for an object's properties: added, removed, required or optional,
nullable, readonly, envelope properties, and index signatures."""

from __future__ import annotations

from ..levels import Condition, Rule

# An index signature that takes any value says what JSON objects are anyway: gaining or losing
# one changes nothing (the same condition for both directions).
_OPEN_ANYWAY = Condition(
    fact="covered",
    when="the index signature takes any value (`unknown`, `any`): JSON objects are open anyway",
    sender="info",
    receiver="info",
    why="`[key: string]: unknown` restates that objects take extra keys: no message changes"
    " validity",
)

PROPERTY_RULES: tuple[Rule, ...] = (
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
        conditions=(_OPEN_ANYWAY,),
    ),
    Rule(
        id="index-signature-removed",
        category="property",
        sender="risky",
        receiver="compatible",
        mirror="index-signature-added",
        purpose="an object loses its index signature",
        why="old senders may still send extra keys that strict receivers now reject",
        conditions=(_OPEN_ANYWAY,),
    ),
)
