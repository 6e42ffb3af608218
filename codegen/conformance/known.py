"""The versions the tool knows (the pinned official schemas, oldest first, then `draft`),
loaded on first use; for the checkers, which learn a session's version from the wire."""

from __future__ import annotations

import functools

from .. import ir
from ..analysis.methods import MethodModel, method_model
from ..errors import SchemaError, SpecError
from ..spec.arguments import resolve_schema_arg
from ..spec.options import SpecOptions
from ..spec.pins import known_versions
from .check import Checker
from .crossversion import Requirement


class Versions:
    def __init__(self, options: SpecOptions) -> None:
        self.options = options
        self.labels = known_versions()

    @functools.cache  # noqa: B019 - one instance per command run
    def resolved(self, label: str) -> ir.Resolved | None:
        """The schema of `label`, or None when it cannot be had (offline, not cached)."""
        from ..pipeline import load

        try:
            return load(resolve_schema_arg(label, self.options, notify=lambda _m: None))
        except (SpecError, SchemaError, OSError):
            return None

    def label_of(self, protocol_version: str) -> str | None:
        """The label of the version a peer names (`2025-11-25`; the draft by its own string)."""
        if protocol_version in self.labels:
            return protocol_version
        for label in self.labels:
            r = self.resolved(label)
            if r is not None and r.protocol_version == protocol_version:
                return label
        return None

    @functools.cache  # noqa: B019
    def checker(self, label: str) -> Checker | None:
        r = self.resolved(label)
        return None if r is None else Checker(r)

    @functools.cache  # noqa: B019
    def methods(self, label: str) -> MethodModel | None:
        r = self.resolved(label)
        return None if r is None else method_model(r)

    @functools.cached_property
    def loaded(self) -> list[tuple[str, ir.Resolved]]:
        pairs = [(label, self.resolved(label)) for label in self.labels]
        return [(label, r) for label, r in pairs if r is not None]

    @functools.cached_property
    def requirement(self) -> Requirement:
        return Requirement([label for label, _ in self.loaded], [r for _, r in self.loaded])
