"""Semantic diff of two schemas: compare (neutral changes) -> rules (findings) -> report (text).

`diff(old, new)` is pure: two resolved IRs in, a `Report` out. Reading files and writing the
output is the CLI's job (`codegen/cli/diff.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import ir
from ..analysis.methods import method_model, usage
from ..analysis.versions import label_for
from . import tally
from .algebra import detect_renames, detect_retyped
from .anchors import anchor_lines
from .compare import compare
from .echoes import collapse
from .levels import ACTION_LEVELS
from .locate import Locator
from .rules import Context, Finding, evaluate
from .summary import LiteralValue, literal_values

if TYPE_CHECKING:
    from .baseline import Baseline

FORMAT = "mcp-codegen-diff/1"
# `--fail-on`: a level (at or over it), "wire" (wire-breaking findings of level breaking),
# "api" (findings that break code naming generated declarations) or "any" (any finding at all,
# documentation included).
FAIL_LEVELS = (*ACTION_LEVELS, "wire", "api", "any")


@dataclass(frozen=True, slots=True)
class SchemaInfo:
    label: str  # "2025-06-18" for .../2025-06-18/schema.ts; the file stem otherwise
    sha256: str
    protocol_version: str | None
    # where a line of it is shown: a permalink (`https://github.com/.../schema.ts`, add `#L12`)
    # for a pinned released version, else the path as given (`path:12`); never in the JSON
    link: str = ""
    # the path CI annotations name: the schema.ts as given, or for a git input (`REF:PATH`) the
    # PATH inside the repository; never in the JSON
    file: str = ""

    @property
    def permalink(self) -> bool:
        return self.link.startswith("https://")


@dataclass(frozen=True, slots=True)
class Report:
    old: SchemaInfo
    new: SchemaInfo
    findings: tuple[Finding, ...]  # sorted: breaking first; echoes marked (`echoes.py`)
    literals: tuple[LiteralValue, ...] = ()  # literal values added or removed
    # set by `ignore.apply`: findings left out of everything but the "Ignored" list, with the
    # reason of the entry that matched; entries that matched nothing; the file they came from
    ignored: tuple[tuple[Finding, str], ...] = ()
    stale: tuple[Mapping[str, str], ...] = ()
    ignore_file: str | None = None
    # finding id -> its line in the new schema.ts, where a CI annotation goes (`anchors.py`);
    # never in the JSON
    anchors: Mapping[str, int] = field(default_factory=dict)
    # set by `--baseline`: the PR's root causes against a baseline as well (`baseline.py`)
    baseline: Baseline | None = None

    def counts(self) -> dict[str, int]:
        """Root causes per level (documentation-only ones apart), and the total: the one
        count every output shows (`tally.py`)."""
        return tally.counts(self.findings)

    def failing(self, fail_on: str) -> tuple[Finding, ...]:
        """The root causes that make `--fail-on fail_on` fail (see FAIL_LEVELS), each judged at
        its worst level (its own or an echo's)."""
        levels = tally.root_levels(self.findings)
        out = []
        for f in self.findings:
            if f.echo_of is not None:
                continue
            level = levels.get(f.id, f.level)
            if fail_on == "any":
                hit = True
            elif fail_on == "wire":
                hit = "wire" in f.breaks and level == "breaking"
            elif fail_on == "api":
                hit = "api" in f.breaks
            else:
                hit = f.category != "documentation" and tally.rank(level) <= tally.rank(fail_on)
            if hit:
                out.append(f)
        return tuple(out)

    def fails(self, fail_on: str) -> bool:
        return bool(self.failing(fail_on))


def link_for(source: str, label: str, sha256: str) -> str:
    """The permalink of a pinned released schema.ts with these very bytes, else the path."""
    from ..spec.pins import pins, repository

    pin = pins().get(label)
    if pin is not None and not pin.floats and pin.sha256("schema.ts") == sha256:
        return f"https://github.com/{repository()}/blob/{pin.ref}/schema/{label}/schema.ts"
    return source


def info(resolved: ir.Resolved, label: str | None = None, file: str | None = None) -> SchemaInfo:
    name = label or label_for(resolved.source)
    return SchemaInfo(
        name,
        resolved.sha256,
        resolved.protocol_version,
        link_for(resolved.source, name, resolved.sha256),
        file or resolved.source,
    )


def diff(
    old: ir.Resolved, new: ir.Resolved, old_label: str | None = None, new_label: str | None = None
) -> Report:
    old_m, new_m = method_model(old), method_model(new)
    changes = compare(old, new, old_m, new_m)
    renames, _ = detect_renames(old, new)
    renames.update(detect_retyped(old, new, renames))
    old_t, new_t = old.type_map(), new.type_map()
    ctx = Context(
        old_m,
        new_m,
        usage(old, old_m),
        usage(new, new_m),
        tuple(sorted(renames.items())),
        frozenset(old_t),
        frozenset(new_t),
        Locator(old, old_m),
        Locator(new, new_m),
    )
    findings = tuple(collapse(evaluate(changes, ctx), old_m, new_m, old_t, new_t))
    return Report(
        info(old, old_label),
        info(new, new_label),
        findings,
        literal_values(findings, old_t, new_t),
        anchors=anchor_lines(findings, old, new, old_m, new_m),
    )
