"""Version identity in a distribution of several schemas: which key (`bindings(key)`) and which
subpackage each schema gets, and which schemas answer version negotiation. Pure: resolved IR in,
frozen data out.

The rule (README, "Using the bindings"): a schema is keyed by its protocol version (the
`LATEST_PROTOCOL_VERSION` const), its subpackage is `v` + that version with `_` for every other
character than a letter or digit (`2025-11-25` -> `v2025_11_25`). When several schemas declare
one version (a draft and its release), the one whose directory label equals the version is the
release: it keeps the version as its key and answers negotiation; each other one is keyed by its
directory label (`draft` -> subpackage `draft`) and is reachable by `bindings("draft")` only. A
schema that declares no version is keyed by its label the same way.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from pathlib import PurePath

from .. import ir
from ..errors import Diagnostic, Location, SchemaError

# Module names of a distribution's top level, which a version subpackage must not take.
RESERVED = frozenset({"versions", "_runtime", "_protocol", "app"})


@dataclass(frozen=True)
class Version:
    key: str  # what `bindings()` takes: the protocol version, or the label (see the module doc)
    subpackage: str  # a Python identifier
    label: str  # the schema's directory label
    negotiable: bool  # listed in PROTOCOL_VERSIONS: a peer may negotiate it
    resolved: ir.Resolved


def label_for(source: str) -> str:
    """`.../2025-11-25/schema.ts` -> `2025-11-25`; any other file -> its stem."""
    p = PurePath(source)
    return p.parent.name if p.name == "schema.ts" and p.parent.name else p.stem


def module_name(key: str, *, prefix: str) -> str:
    """A lower-case identifier for `key`: `prefix` first when asked for or when needed."""
    name = re.sub(r"[^0-9a-zA-Z]", "_", key).lower()
    if prefix or not name or not (name[0].isalpha() or name[0] == "_") or keyword.iskeyword(name):
        name = (prefix or "v") + name
    return name


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
    cannot be told apart (same key or subpackage) or a shared version has no release."""
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
            out.append(Version(declared, module_name(declared, prefix="v"), label, True, r))
        else:
            out.append(Version(label, module_name(label, prefix=""), label, False, r))
    seen: dict[str, Version] = {}
    for v in out:
        for what, value in (("version key", v.key), ("subpackage", v.subpackage)):
            other = seen.get(f"{what}:{value}")
            if other is not None:
                message = f"{what} '{value}' is also that of {other.resolved.source}"
                problems.append(_problem(v.resolved, message))
            seen[f"{what}:{value}"] = v
        if v.subpackage in RESERVED:
            message = f"subpackage '{v.subpackage}' is a module of the distribution's top level"
            problems.append(_problem(v.resolved, message))
    if problems:
        raise SchemaError(problems)
    return tuple(out)
