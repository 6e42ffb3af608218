"""Version identity among several schemas: which key (`bindings(key)`) each schema gets, and
which schemas answer version negotiation. Pure: resolved IR in, frozen data out. How a version's
folder, file or module is named is each target's (`codegen/targets/spelling.py` holds the one
rule they share, each with its own keywords and reserved names).

The rule (README, "Using the bindings"): a schema is keyed by its protocol version (the
`LATEST_PROTOCOL_VERSION` const). When several schemas declare one version (a draft and its
release), the one whose directory label equals the version is the release: it keeps the version
as its key and answers negotiation; each other one is keyed by its directory label (`draft`) and
is reachable by that key only. A schema that declares no version is keyed by its label the same
way. Two schemas with one key are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from .. import ir
from ..errors import Diagnostic, Location, SchemaError


@dataclass(frozen=True)
class Version:
    key: str  # what `bindings()` takes: the protocol version, or the label (see the module doc)
    label: str  # the schema's directory label
    negotiable: bool  # listed in PROTOCOL_VERSIONS: a peer may negotiate it
    resolved: ir.Resolved


def label_for(source: str) -> str:
    """`.../2025-11-25/schema.ts` -> `2025-11-25`; any other file -> its stem."""
    p = PurePath(source)
    return p.parent.name if p.name == "schema.ts" and p.parent.name else p.stem


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def release_date(resolved: ir.Resolved) -> str | None:
    """The date a released schema declares as its version; None for a draft (a label naming a
    draft, or a version that is not a date) and for a schema that declares none."""
    declared, label = resolved.protocol_version, label_for(resolved.source)
    if declared is None or not _DATE.fullmatch(declared) or "draft" in label.lower():
        return None
    return declared


def check_order(schemas: list[ir.Resolved]) -> None:
    """Several versions are given oldest first (the last is the newest a distribution speaks):
    two released versions out of order raise SchemaError at the later one. Drafts keep their
    place wherever they stand."""
    problems: list[Diagnostic] = []
    newest: tuple[str, str] | None = None  # (date, source) of the newest release so far
    for r in schemas:
        date = release_date(r)
        if date is None:
            continue
        if newest is not None and date < newest[0]:
            message = (
                f"versions are given oldest first: {date} comes after {newest[0]} "
                f"({newest[1]}); reorder the arguments"
            )
            problems.append(_problem(r, message))
        else:
            newest = (date, r.source)
    if problems:
        raise SchemaError(problems)


def _problem(resolved: ir.Resolved, message: str) -> Diagnostic:
    return Diagnostic(Location(resolved.source, 1, 1), message)


def identify(schemas: list[ir.Resolved]) -> tuple[Version, ...]:
    """The versions of `schemas` (oldest first, as given); raises SchemaError when two schemas
    cannot be told apart (one key) or a shared version has no release."""
    by_version: dict[str, list[ir.Resolved]] = {}
    for r in schemas:
        if r.protocol_version is not None:
            by_version.setdefault(r.protocol_version, []).append(r)
    problems: list[Diagnostic] = []
    out: list[Version] = []
    for r in schemas:
        label, declared = label_for(r.source), r.protocol_version
        sharing = by_version.get(declared, []) if declared is not None else []
        released = [s for s in sharing if label_for(s.source) == declared]
        if declared is not None and len(sharing) > 1 and not released:
            others = ", ".join(s.source for s in sharing if s is not r)
            message = (f"protocol version '{declared}' is also declared by {others}, and none of "
                       f"them is in a directory named '{declared}' (the release)")  # fmt: skip
            problems.append(_problem(r, message))
            continue
        if declared is not None and (len(sharing) == 1 or r in released[:1]):
            out.append(Version(declared, label, True, r))
        else:
            out.append(Version(label, label, False, r))
    seen: dict[str, Version] = {}
    for v in out:
        other = seen.setdefault(v.key, v)
        if other is not v:
            message = f"version key '{v.key}' is also that of {other.resolved.source}"
            problems.append(_problem(v.resolved, message))
    if problems:
        raise SchemaError(problems)
    return tuple(out)
