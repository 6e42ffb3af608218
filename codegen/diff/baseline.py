"""A PR judged against a baseline (the last release) as well as against its parent.

`diff OLD NEW --baseline B` diffs B -> OLD and B -> NEW and compares their root causes: those
the PR *adds* against B (a root of B -> NEW that B -> OLD does not have, nor anything on the
same subject at a level as bad), those it *keeps*, and those it *removes*. `--fail-on-baseline
LEVEL` fails only on what it adds at or above LEVEL: "fail only if the PR adds a breaking change
against the last release", whatever the parent already had."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import Report, tally
from .levels import LEVELS
from .rules import Finding

Rooted = tuple[tuple[Finding, str], ...]  # root causes with their worst level, report order


@dataclass(frozen=True, slots=True)
class Baseline:
    label: str
    added: Rooted
    kept: Rooted
    removed: Rooted

    def failing(self, level: str) -> Rooted:
        """What the PR adds against the baseline at or above `level`."""
        return tuple((f, lv) for f, lv in self.added if tally.rank(lv) <= tally.rank(level))

    def counts(self, which: str) -> dict[str, int]:
        rows: Rooted = getattr(self, which)
        return {level: sum(1 for _, lv in rows if lv == level) for level in LEVELS}


def _roots(r: Report) -> Rooted:
    levels = tally.root_levels(r.findings)
    return tuple((f, levels[f.id]) for f in r.findings if f.id in levels)


def _worst_by_subject(r: Report) -> dict[str, int]:
    """Subject -> the rank of the worst level anything on it has (echoes at their own)."""
    levels = tally.root_levels(r.findings)
    out: dict[str, int] = {}
    for f in r.findings:
        if f.category == "documentation":
            continue
        rank = tally.rank(levels.get(f.id, f.level))
        out[f.subject] = min(rank, out.get(f.subject, rank))
    return out


def compare(before: Report, after: Report, label: str) -> Baseline:
    """`before`: baseline -> the PR's parent; `after`: baseline -> the PR's head."""
    old_ids = {f.id for f in before.findings}
    new_ids = {f.id for f in after.findings}
    old_subjects = _worst_by_subject(before)
    added: list[tuple[Finding, str]] = []
    kept: list[tuple[Finding, str]] = []
    for f, level in _roots(after):
        known = f.id in old_ids or old_subjects.get(f.subject, len(LEVELS)) <= tally.rank(level)
        (kept if known else added).append((f, level))
    removed = [(f, lv) for f, lv in _roots(before) if f.id not in new_ids]
    return Baseline(label, tuple(added), tuple(kept), tuple(removed))


def _rows(rows: Iterable[tuple[Finding, str]]) -> list[dict[str, Any]]:
    return [{"id": f.id, "rule": f.rule, "subject": f.subject, "level": lv} for f, lv in rows]


def to_json(b: Baseline) -> dict[str, Any]:
    """The JSON document's `baseline` object (docs/diff-json-format.md)."""
    return {
        "label": b.label,
        "added": _rows(b.added),
        "kept": b.counts("kept"),
        "removed": _rows(b.removed),
    }


def render_md(b: Baseline, code: Any, limit: int = 20) -> str:
    """The Markdown section (report and PR summary): counts, then what is added and removed at
    the levels one acts on, `limit` each."""
    acting = ("breaking", "risky")

    def line(which: str) -> str:
        c = b.counts(which)
        return tally.line({k: v for k, v in c.items() if k in acting}).replace("none", "0")

    out = [
        f"\n### Against the baseline {code(b.label)}\n\n",
        (
            f"Breaking and risky changes against {code(b.label)}: this PR adds"
            f" {line('added')}, keeps {line('kept')}, removes {line('removed')}.\n"
        ),
    ]
    for title, rows in (("Added", b.added), ("Removed", b.removed)):
        shown = [(f, lv) for f, lv in rows if lv in acting]
        if shown:
            out.append(f"\n{title}:\n\n")
            out += [f"- **{lv}** `{f.rule}` {code(f.subject)}\n" for f, lv in shown[:limit]]
            if len(shown) > limit:
                out.append(f"- … and {len(shown) - limit} more\n")
    return "".join(out)
