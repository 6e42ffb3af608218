"""Where a member is required in one version and absent or optional in another, from the
cross-version presence model (`presence`) and each version's optionality; and the one wording
of that fact ("`resultType` is required since 2026-07-28; 2025-11-25 did not declare it"), which
check-wire, the vectors and a Python distribution's validators all say, so it is written here
once (the one text this layer writes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import ir
from .presence import Presence, object_of, presence


@dataclass(frozen=True)
class Since:
    """A member required since version `since` that the version `before` (the last earlier one
    declaring its type, at position `before_index`) did not require: it was `state` there
    ("optional" or "absent")."""

    since: str
    before: str
    state: str
    before_index: int

    def words(self) -> str:
        """`required since 2026-07-28; 2025-11-25 did not declare it`."""
        return f"required since {self.since}; {self.before} {_was(self.state)}"


class Requirement:
    """Per type and member, in each version that declares the type: "required", "optional" or
    "absent"; a version that does not declare the type has no entry."""

    def __init__(self, labels: Sequence[str], schemas: Sequence[ir.Resolved]) -> None:
        self.labels = list(labels)
        self.presence: Presence = presence(labels, schemas)
        self.state: dict[tuple[str, str], dict[int, str]] = {}
        for i, schema in enumerate(schemas):
            by_name = schema.type_map()
            for td in schema.types:
                obj = object_of(td, by_name)
                if obj is None:
                    continue
                for p in obj.properties:
                    key = (td.name, p.name)
                    self.state.setdefault(key, {})[i] = "optional" if p.optional else "required"
        for (type_name, _member), states in self.state.items():
            for i in self.presence.types[type_name].indexes:
                states.setdefault(i, "absent")

    def states(self, type_name: str, member: str) -> dict[int, str]:
        return self.state.get((type_name, member), {})

    def reason(self, index: int, type_name: str, member: str) -> str:
        """Why dropping `member` of `type_name` is wrong in the version at `index`, in words that
        name the versions where it was not required; "" when every version agrees."""
        states = self.states(type_name, member)
        if set(states.values()) == {"required"}:
            return ""
        earlier = self.since(index, type_name, member)
        later = [i for i in sorted(states) if i > index and states[i] != "required"]
        out = f"`{member}` is " + (earlier.words() if earlier else "required")
        if later:
            out += f"; {self.labels[later[0]]} {_was(states[later[0]], later=True)}"
        return out

    def since(self, index: int, type_name: str, member: str) -> Since | None:
        """For a member the version at `index` requires: the first version of the run of
        versions requiring it up to `index`, and the last earlier one declaring the type that
        did not; None when every earlier one did (or none declared the type)."""
        states = self.states(type_name, member)
        earlier = [i for i in sorted(states) if i < index]
        since = index
        for i in reversed(earlier):
            if states[i] != "required":
                break
            since = i
        before = [i for i in earlier if i < since]
        if not before:
            return None
        prev = before[-1]
        return Since(self.labels[since], self.labels[prev], states[prev], prev)

    def accepting(self, type_name: str, member: str) -> list[int]:
        """The versions that declare the type but do not require the member."""
        return [i for i, s in sorted(self.states(type_name, member).items()) if s != "required"]


def _was(state: str, later: bool = False) -> str:
    if state == "absent":
        return "does not declare it" if later else "did not declare it"
    return "makes it optional" if later else "had it optional"
