"""In a distribution of several versions, what a version's validators add to the error for a
missing member that an earlier version of the distribution did not require (absent or optional
there): `$.resultType: required property missing (expected ResultType; required since
2026-07-28; 2025-11-25 did not declare it)`.

The words are check-wire's (`analysis.requirements.Since`, over the one presence model,
`analysis.presence`), computed here when the distribution is generated: each version's
validators carry its own text as a literal and compute nothing at run time. A single-version
package has no notes and its validators are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .... import ir
from ....analysis.requirements import Requirement
from ....pytext import code_literal

Notes = Mapping[tuple[str, str], str]
"""(type name, wire name) -> the words (`required since 2026-07-28; 2025-11-25 did not declare
it`), for one version: only the members that version requires and an earlier one did not."""


def required_since(labels: Sequence[str], schemas: Sequence[ir.Resolved]) -> list[Notes]:
    """The notes of each version of a distribution (`labels`, `schemas`: oldest first). A
    member is keyed by the declared type whose object holds it (inherited members included);
    a type an earlier version did not declare as an object (new, renamed, extracted from an
    inline object, or a union there) has none."""
    model = Requirement(labels, schemas)
    # (type, version) where the type is an object with members: only there does "absent" say
    # something (not where it was a union: `ClientNotification`, once a union of
    # notifications that each required `method`)
    objects = {(t, i) for (t, _), states in model.state.items()
               for i, state in states.items() if state != "absent"}  # fmt: skip
    out: list[Notes] = []
    for index in range(len(labels)):
        notes = {}
        for (type_name, member), states in model.state.items():
            if states.get(index) != "required":
                continue
            since = model.since(index, type_name, member)
            if since is not None and (type_name, since.before_index) in objects:
                notes[(type_name, member)] = since.words()
        out.append(dict(sorted(notes.items())))
    return out


def missing_statement(wire: str, expected: str, note: str) -> str:
    """The statement of an explanation reporting the required member `wire` missing; with a
    note, through the helper `_missing_since` (which the view then asks the template for)."""
    args = f"p, {code_literal(wire)}, {code_literal(expected)}"
    if not note:
        return f"errs.append(_missing({args}))"
    return f"errs.append(_missing_since({args}, {code_literal(note)}))"
