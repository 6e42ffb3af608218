"""How a target names each version's folder, file or module from its key (`analysis.versions`):
one rule, each target passing its own keywords and the names its output's top level already
takes. Not a language's spelling: the sets are the caller's.

The rule: every character other than an ASCII letter or digit becomes `separator` and the name
is lower case; a version that answers negotiation (keyed by its protocol version) gets `v` first
(`2025-11-25` -> `v2025_11_25`), a label only where it would not start with a letter or `_` or
is a keyword (`draft` stays `draft`, a label `type` is `vtype` where `type` is a keyword).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ..analysis.versions import Version
from ..errors import Diagnostic, Location, SchemaError


def version_name(version: Version, keywords: Collection[str], separator: str = "_") -> str:
    """`version`'s name by the rule above."""
    name = re.sub(r"[^0-9a-zA-Z]", separator, version.key).lower()
    if version.negotiable or not re.match(r"[a-z_]", name) or name in keywords:
        name = "v" + name
    return name


def version_names(
    versions: Sequence[Version],
    *,
    what: str,
    keywords: Collection[str],
    reserved: Collection[str] = (),
    reserved_why: str = "",
    separator: str = "_",
) -> tuple[str, ...]:
    """Each version's name (`version_name`), in order. Two versions whose keys spell one name,
    and a name in `reserved` (`reserved_why` says where it is taken), raise SchemaError located
    at the later schema, naming `what` the name is (a subpackage, a package)."""
    names = tuple(version_name(v, keywords, separator) for v in versions)
    problems: list[Diagnostic] = []
    seen: dict[str, Version] = {}
    for v, name in zip(versions, names):
        where = Location(v.resolved.source, 1, 1)
        other = seen.setdefault(name, v)
        if other is not v:
            message = f"{what} '{name}' is also that of {other.resolved.source}"
            problems.append(Diagnostic(where, message))
        if name in reserved:
            problems.append(Diagnostic(where, f"{what} '{name}' is {reserved_why}"))
    if problems:
        raise SchemaError(problems)
    return names
