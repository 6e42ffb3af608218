"""The rule book: every rule, in the order `mcp-codegen rules` and docs/diff-rules.md list it,
and which kinds of breakage (api, wire) each rule's findings are.

Each id is written out once in the book; code that picks a rule names it literally too (never
assembled). The rules are kept by the kind of thing they judge, one module each.
"""

from __future__ import annotations

from ..levels import Rule
from .declarations import TYPE_RULES
from .docs import DOC_RULES
from .methods import METHOD_RULES
from .properties import PROPERTY_RULES
from .values import VALUE_RULES

RULES: dict[str, Rule] = {
    r.id: r for r in (*METHOD_RULES, *TYPE_RULES, *PROPERTY_RULES, *VALUE_RULES, *DOC_RULES)
}

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
