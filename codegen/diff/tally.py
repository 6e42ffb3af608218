"""The one counting rule: a root cause is counted once, at its worst level.

A root cause is a finding that restates no other one (`echo_of` is None); the findings that
restate it (its echoes) are folded into it, so its level is the worst of its own and theirs.
Documentation-only findings are counted apart. Every output a person or a gate reads (the
Markdown headline and sections, the HTML tables, `--fail-on`, the history index, the summary,
annotations and JUnit formats) counts with this module, on `Finding`s or on the findings of a
JSON report document (docs/diff-json-format.md: `summary.roots`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .levels import LEVELS

DOCUMENTATION = "documentation"


@dataclass(frozen=True, slots=True)
class Entry:
    """What counting needs of a finding, whatever it is read from."""

    id: str
    level: str
    documentation: bool
    echo_of: str | None


def entry(f: Any) -> Entry:
    """An `Entry` of a `Finding` or of a finding of the JSON document (a mapping)."""
    if isinstance(f, Entry):
        return f
    if isinstance(f, Mapping):
        return Entry(
            str(f.get("id") or ""),
            str(f["level"]),
            f.get("category") == DOCUMENTATION,
            str(f["echo_of"]) if f.get("echo_of") else None,
        )
    return Entry(f.id, f.level, f.category == DOCUMENTATION, f.echo_of)


def rank(level: str) -> int:
    return LEVELS.index(level) if level in LEVELS else len(LEVELS)


def root_levels(findings: Iterable[Any]) -> dict[str, str]:
    """Root finding id -> the worst level among it and its echoes, in report order."""
    entries = [entry(f) for f in findings]
    out = {e.id: e.level for e in entries if e.echo_of is None and not e.documentation}
    for e in entries:
        if e.echo_of in out and rank(e.level) < rank(out[e.echo_of]):
            out[e.echo_of] = e.level
    return out


def counts(findings: Iterable[Any]) -> dict[str, int]:
    """Root causes per level, documentation-only findings apart, and `total` (all roots,
    documentation included): the `summary.roots` object."""
    entries = [entry(f) for f in findings]
    out: dict[str, int] = {level: 0 for level in LEVELS}
    for level in root_levels(entries).values():
        out[level] = out.get(level, 0) + 1
    out[DOCUMENTATION] = sum(1 for e in entries if e.documentation and e.echo_of is None)
    out["total"] = sum(v for k, v in out.items() if k != "total")
    return out


def wire_total(c: Mapping[str, int]) -> int:
    """Root causes that are not documentation only."""
    return sum(int(v) for k, v in c.items() if k not in ("total", DOCUMENTATION))


def line(c: Mapping[str, int], *, with_docs: bool = False) -> str:
    """`55 breaking, 29 risky` (levels with a count only), or `none`."""
    keys = [*LEVELS, *sorted(k for k in c if k not in LEVELS and k not in ("total", DOCUMENTATION))]
    if with_docs:
        keys.append(DOCUMENTATION)
    parts = [f"{c[k]} {k}" for k in keys if c.get(k)]
    return ", ".join(parts) or "none"


def per_level(findings: Iterable[Any]) -> dict[str, int]:
    """Every finding (echoes too) per level, documentation-only findings apart, and `total`:
    the summary's top-level counts."""
    entries = [entry(f) for f in findings]
    out: dict[str, int] = {level: 0 for level in LEVELS}
    out[DOCUMENTATION] = 0
    for e in entries:
        key = DOCUMENTATION if e.documentation else e.level
        out[key] = out.get(key, 0) + 1
    out["total"] = len(entries)
    return out


def restated(findings: Iterable[Any]) -> dict[str, int]:
    """Level -> how many findings restate a root cause of that (worst) level."""
    entries = [entry(f) for f in findings]
    levels = root_levels(entries)
    out: dict[str, int] = {}
    for root_id, n in echoes(entries).items():
        level = levels.get(root_id, "info")
        out[level] = out.get(level, 0) + n
    return out


def echoes(findings: Iterable[Any]) -> dict[str, int]:
    """Root id -> how many findings restate it."""
    out: dict[str, int] = {}
    for f in findings:
        e = entry(f)
        if e.echo_of is not None:
            out[e.echo_of] = out.get(e.echo_of, 0) + 1
    return out


def folded(count: int) -> str:
    """How many restatements a root cause folds, as every format writes it after the root
    (" (+1 restatement)", " (+3 restatements)"; "" for none)."""
    if not count:
        return ""
    return f" (+{count} restatement{'' if count == 1 else 's'})"
