"""The versions the tool knows (the pinned official schemas, oldest first, then `draft`),
loaded on first use; for the checkers, which learn a session's version from the wire."""

from __future__ import annotations

import functools

from .. import ir
from ..analysis.methods import MethodModel, method_model
from ..analysis.requirements import Requirement
from ..errors import SpecError
from ..spec.arguments import resolve_schema_arg
from ..spec.options import SpecOptions
from ..spec.pins import known_versions
from .check import Checker


class Versions:
    def __init__(self, options: SpecOptions) -> None:
        self.options = options
        self.labels = known_versions()

    @functools.cache  # noqa: B019 - one instance per command run
    def resolved(self, label: str) -> ir.Resolved:
        """The schema of `label`. A version that cannot be had (offline, not cached, no
        `--spec-dir`) is a SpecError (exit 2): a message of that version would otherwise go
        unchecked and the run pass."""
        from ..pipeline import load

        try:
            return load(resolve_schema_arg(label, self.options, notify=lambda _m: None))
        except OSError as err:
            raise SpecError(f"version {label}: cannot read its schema: {err}") from err
        except SpecError as err:
            raise SpecError(f"version {label}: {err}") from err

    def label_of(self, protocol_version: str) -> str | None:
        """The label of the version a peer names (`2025-11-25`; the draft by its own string)."""
        if protocol_version in self.labels:
            return protocol_version
        for label in self.labels:
            if self.resolved(label).protocol_version == protocol_version:
                return label
        return None

    @functools.cache  # noqa: B019
    def checker(self, label: str) -> Checker:
        return Checker(self.resolved(label))

    @functools.cache  # noqa: B019
    def methods(self, label: str) -> MethodModel:
        return method_model(self.resolved(label))

    @functools.cached_property
    def loaded(self) -> list[tuple[str, ir.Resolved]]:
        return [(label, self.resolved(label)) for label in self.labels]

    @functools.cached_property
    def requirement(self) -> Requirement:
        return Requirement([label for label, _ in self.loaded], [r for _, r in self.loaded])
