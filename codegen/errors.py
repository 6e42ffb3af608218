"""Located input errors. Every problem in a schema is reported as `file:line:col: message`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A 1-based line and column in a source file."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    loc: Location
    message: str

    def __str__(self) -> str:
        return f"{self.loc}: {self.message}"


class SchemaError(Exception):
    """Bad input: one or more located diagnostics, reported together and sorted."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(sorted(set(diagnostics)))
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class Collector:
    """Accumulates diagnostics so a pass can report every problem, not just the first.

    Errors (`add`) fail the run; warnings (`warn`) travel on the model and are printed.
    """

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []

    def add(self, loc: Location, message: str) -> None:
        self.items.append(Diagnostic(loc, message))

    def warn(self, loc: Location, message: str) -> None:
        self.warnings.append(Diagnostic(loc, message))

    def sorted_warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(sorted(set(self.warnings)))

    def raise_if_any(self) -> None:
        if self.items:
            raise SchemaError(self.items)


class FormatError(Exception):
    """The formatter could not run or rejected generated code: a bug in mcp-codegen, reported as
    an internal error (exit 3), with nothing written."""


class SpecError(Exception):
    """An official schema could not be found, downloaded or verified: the message is complete
    and shown as is."""


class UsageError(Exception):
    """A command line the tool cannot run (an option the target does not take, a missing
    --package): one line, reported as `mcp-codegen: message`, exit code 2."""
