"""The levels a rule gives, and the records a rule is written in (`Rule`, `Condition`).

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
finding says which side(s) that is in practice. The reasoning per rule is in the rule book
(`book/`) and in docs/diff-rules.md (tests keep the two in agreement).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .change import Facts

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
