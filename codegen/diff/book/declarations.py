"""The rule book's rules for declared types and type expressions: a type added, removed or
renamed, a type widened, narrowed or changed, a reference retargeted, a literal changed."""

from __future__ import annotations

from ..levels import Rule

TYPE_RULES: tuple[Rule, ...] = (
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
)
