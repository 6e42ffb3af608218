"""The neutral change record shared by the comparisons (`compare.py`, `compare_methods.py`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Literal

from ..analysis.methods import Direction, Kind
from .algebra import Relation
from .notation import subject


class What(str, enum.Enum):
    """Every kind of neutral change the comparisons produce. The values are stable: they order
    changes (`Change.sort_key`), so renaming a member never reorders a report."""

    METHOD_ADDED = "method.added"
    METHOD_REMOVED = "method.removed"
    METHOD_KIND = "method.kind"  # request <-> notification
    METHOD_DIRECTION = "method.direction"
    METHOD_VIA = "method.via"  # JSON-RPC message <-> input request
    METHOD_TYPE = "method.type"  # the declared message type's name
    METHOD_PARAMS = "method.params"
    METHOD_RESULT = "method.result"
    METHOD_ALT_ADDED = "method.alt.added"  # alternative result type
    METHOD_ALT_REMOVED = "method.alt.removed"
    TYPE_ADDED = "type.added"
    TYPE_REMOVED = "type.removed"
    TYPE_RENAMED = "type.renamed"
    TYPE_CHANGED = "type.changed"
    TYPE_REF = "type.ref"  # a reference retargeted, or named <-> inline
    LITERAL_CHANGED = "literal.changed"
    PROPERTY_ADDED = "property.added"
    PROPERTY_REMOVED = "property.removed"
    PROPERTY_OPTIONAL = "property.optional"
    PROPERTY_NULLABLE = "property.nullable"
    PROPERTY_READONLY = "property.readonly"
    INDEX_ADDED = "index.added"
    INDEX_REMOVED = "index.removed"
    MEMBER_ADDED = "member.added"
    MEMBER_REMOVED = "member.removed"
    MEMBERS_UNMATCHED = "members.unmatched"
    CONSTRAINT = "constraint"
    ANNOTATION_TYPE = "annotation.type"  # `@TJS-type`: the JSON Schema type of a property
    SCHEMA_TAG = "schema.tag"  # another tag the official generator writes into the schema
    NAME_CHANGED = "name.changed"  # a generated class or attribute name of the same data
    CONST_ADDED = "const.added"
    CONST_REMOVED = "const.removed"
    CONST_VALUE = "const.value"
    DOC_DESCRIPTION = "doc.description"
    DOC_TAG = "doc.tag"


Movement = Literal["added", "removed", "raised", "lowered", "changed"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Facts:
    """What a rule needs to know about a change besides its kind; None means "not applicable".

    A frozen dataclass rather than a tuple of (key, value) pairs: each fact has one type that
    mypy checks at every producer and reader, and a misspelt key is an error, not a silent
    "absent"."""

    required: bool | None = None  # property added/removed: it was/is required
    envelope: bool | None = None  # property added/removed: a JSON-RPC envelope property
    same_shape: bool | None = None  # type.ref, method.params/result: the two sides are equal
    relation: Relation | None = None  # type.changed: how the new type relates to the old
    constraint: str | None = None  # constraint: which one ("minimum", "format", ...)
    change: Movement | None = None  # constraint, doc.tag: how it moved
    literal: bool | None = None  # member added/removed: the member is a literal value
    open: bool | None = None  # member added/removed: the union also accepts any string
    ref: str | None = None  # member added/removed: the declaration the member names
    # member added/removed: another member accepts all its values; property added/removed: the
    # other side's index signature takes any value; index added/removed: its value is any
    covered: bool | None = None
    on_request: bool | None = None  # result alternative: sent only to requests that ask for it
    deprecated: bool | None = None  # property/type added or removed: it carries `@deprecated`
    via: tuple[str, ...] = ()  # type.changed of a flattened union: the member aliases behind it
    candidates: tuple[str, ...] = ()  # type added/removed: same-shaped rename candidates
    tag: str | None = None  # doc.tag: the JSDoc tag, without "@"
    kind: Kind | None = None  # method added/removed: "request" or "notification"
    direction: Direction | None = None  # method added/removed: who sends it

    def sort_key(self) -> tuple[tuple[str, str], ...]:
        """The facts that apply, as text: a total, deterministic order (False < True)."""
        return tuple(
            (f.name, str(getattr(self, f.name)))
            for f in fields(self)
            if getattr(self, f.name) not in (None, ())
        )


NO_FACTS = Facts()


@dataclass(frozen=True, slots=True)
class Change:
    """One neutral difference. `scope` is "method", "type" or "constant"."""

    scope: str
    path: tuple[str, ...]
    what: What
    before: str | None = None
    after: str | None = None
    facts: Facts = NO_FACTS
    carriers: tuple[str, ...] = ()  # other types whose messages carry this change (inheritance)

    @property
    def subject(self) -> str:
        return subject(self.path)

    def sort_key(
        self,
    ) -> tuple[str, tuple[str, ...], str, str, str, tuple[tuple[str, str], ...], tuple[str, ...]]:
        return (
            self.scope,
            self.path,
            self.what.value,
            self.before or "",
            self.after or "",
            self.facts.sort_key(),
            self.carriers,
        )
