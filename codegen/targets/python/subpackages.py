"""The subpackage of each version of a distribution, spelled from its key
(`analysis.versions.identify`) by the shared rule (`targets.spelling`) with Python's keywords
and the distribution's own top-level modules: `2025-11-25` -> `v2025_11_25`, `draft` ->
`draft`, a label `class` -> `vclass`. Two versions spelling one subpackage, or a subpackage that
is a top-level module, are located errors."""

from __future__ import annotations

import keyword
from dataclasses import dataclass

from ... import ir
from ...analysis.versions import Version, identify
from ..spelling import version_names


@dataclass(frozen=True)
class PyVersion(Version):
    """A version with the subpackage it gets in a distribution."""

    subpackage: str  # a Python identifier


def subpackages(schemas: list[ir.Resolved], reserved: frozenset[str]) -> tuple[PyVersion, ...]:
    """The versions of `schemas` (oldest first, as given), each with its subpackage; raises
    SchemaError as `identify` does, and for two versions spelling one subpackage or one that
    spells a name of the distribution's top level (`reserved`: what the distribution writes
    there, `distribution.top_level_names`; `distribution.versions_of` passes it)."""
    versions = identify(schemas)
    names = version_names(
        versions,
        what="subpackage",
        keywords=frozenset(keyword.kwlist),
        reserved=reserved,
        reserved_why="a module of the distribution's top level",
    )
    return tuple(
        PyVersion(v.key, v.label, v.negotiable, v.resolved, name)
        for v, name in zip(versions, names)
    )
