"""`mcp-codegen history`: how methods and types evolve over any number of schemas.

Pure: resolved schemas in (oldest first), the files of the history folder out — `index.html`
with a method x version and a type x version matrix, and one diff page per consecutive pair that
the matrix cells link to. Each pair page is the diff's own HTML page, built from its JSON report.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from .. import ir
from ..analysis.presence import presence
from . import diff, info, tally
from .html import is_documentation, render_html, render_page, root_of

# What a cell says about a name in one version, given the version before it.
STATES = ("absent", "present", "added", "removed", "moved", "changed", "docs")
CELL_TEXT = {"absent": "", "present": "✓", "added": "added", "removed": "removed",
             "moved": "moved", "changed": "changed", "docs": "docs"}  # fmt: skip
# A name touched by several findings shows the strongest: a move says more than "changed".
_STRENGTH = {"docs": 0, "changed": 1, "moved": 2}
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_names(labels: Sequence[str]) -> list[str]:
    """A safe, distinct file-name stem per label (labels come from paths: anything goes)."""
    out: list[str] = []
    for label in labels:
        stem = _UNSAFE.sub("_", label).strip("._") or "schema"
        candidate, n = stem, 2
        while candidate in out:
            candidate, n = f"{stem}_{n}", n + 1
        out.append(candidate)
    return out


@dataclass(frozen=True, slots=True)
class Touch:
    """What a pair's findings do to one name: "moved", "changed" or "docs", the worst level of
    the root causes that touch it and how many there are (`tally.py`)."""

    state: str
    level: str | None = None
    roots: int = 0


def touched(doc: Mapping[str, Any]) -> tuple[dict[str, Touch], dict[str, Touch]]:
    """Methods and types a pair's findings touch: name -> its `Touch` ("moved" between
    JSON-RPC and input-required results, "changed" by some root cause that is not
    documentation only, else "docs")."""
    levels = tally.root_levels(doc["findings"])
    hits: tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]] = ({}, {})
    states: tuple[dict[str, str], dict[str, str]] = ({}, {})

    def mark(kind: int, name: str, state: str, fid: str) -> None:
        if _STRENGTH[state] >= _STRENGTH.get(states[kind].get(name, "docs"), 0):
            states[kind][name] = state
        if fid in levels:
            hits[kind].setdefault(name, {})[fid] = levels[fid]

    for f in doc["findings"]:
        fid = str(f.get("echo_of") or f.get("id") or "")  # an echo counts as its root
        state = "docs" if is_documentation(f) else "changed"
        for m in f.get("methods", []):
            mark(0, str(m), state, fid)
        if f.get("category") == "method":
            moved = f.get("rule") == "method-transport-changed"
            mark(0, str(f["subject"]), "moved" if moved else state, fid)
        elif f.get("category") != "constant":
            mark(1, root_of(str(f["subject"])), state, fid)
    out: tuple[dict[str, Touch], dict[str, Touch]] = ({}, {})
    for kind in (0, 1):
        for name, state in states[kind].items():
            found = hits[kind].get(name, {})
            worst = min(found.values(), key=tally.rank) if found else None
            out[kind][name] = Touch(state, worst, len(found))
    return out


def cell_state(before: bool | None, now: bool, touch: str | None) -> str:
    """`before` is None for the first version (nothing to compare with)."""
    if before is None:
        return "present" if now else "absent"
    if now and not before:
        return "added"
    if before and not now:
        return "removed"
    if not now:
        return "absent"
    return touch or "present"


# More versions than this: the compact matrix (short cell texts, upright narrow columns, the
# version table folded), so a hundred drafts stay readable on one screen width.
COMPACT_OVER = 12
_SHORT = {"absent": "", "present": "✓", "added": "+", "removed": "−", "moved": "→",
          "changed": "~", "docs": "d"}  # fmt: skip


def _text(state: str, touch: Touch | None, compact: bool = False) -> str:
    """`risky · 2` for a name changed by two root causes, the worst risky; the state otherwise.
    Compact: `R2`, and a sign for the state (the cell's title says it in words)."""
    if state in ("changed", "moved") and touch is not None and touch.level is not None:
        if compact:
            return f"{touch.level[0].upper()}{touch.roots}"
        return f"{touch.level} · {touch.roots}"
    return _SHORT[state] if compact else CELL_TEXT[state]


def _title(state: str, touch: Touch | None) -> str:
    if touch is None or touch.level is None or state in ("absent", "present"):
        return state
    causes = "root cause" if touch.roots == 1 else "root causes"
    return f"{state}: {touch.roots} {causes}, the worst {touch.level}"


def matrix(
    present: Sequence[frozenset[str]],
    touches: Sequence[Mapping[str, Touch]],
    pair_files: Sequence[str],
    anchor: str,
    compact: bool = False,
) -> list[dict[str, Any]]:
    """Rows of (name, cells): a cell per version with its state, its worst level and root-cause
    count, and, when that pair's page has something to show for it, a link into the page
    filtered on the name (a ✓ cell, unchanged, links nowhere)."""
    rows = []
    for name in sorted(set().union(*present)):
        cells = []
        for i, names in enumerate(present):
            before = None if i == 0 else name in present[i - 1]
            touch = None if i == 0 else touches[i - 1].get(name)
            state = cell_state(before, name in names, touch.state if touch else None)
            href = None
            if i > 0 and state not in ("absent", "present"):
                href = f"{pair_files[i - 1]}#{anchor}={urllib.parse.quote(name, safe='')}"
            cells.append(
                {
                    "state": state,
                    "text": _text(state, touch, compact),
                    "title": _title(state, touch),
                    "level": touch.level if touch and state in ("changed", "moved") else None,
                    "roots": touch.roots if touch else 0,
                    "href": href,
                }
            )
        rows.append({"name": name, "cells": cells, "changed": any(c["href"] for c in cells)})
    return rows


def pair_docs(schemas: Sequence[ir.Resolved], labels: Sequence[str]) -> list[dict[str, Any]]:
    """The JSON diff document of each consecutive pair."""
    return [
        json.loads(_json(diff(a, b, la, lb)))
        for (a, b), (la, lb) in zip(pairwise(schemas), pairwise(labels))
    ]


def history_files(
    schemas: Sequence[ir.Resolved],
    names: Sequence[str] | None = None,
    docs: Sequence[dict[str, Any]] | None = None,
) -> dict[str, str]:
    """index.html and one `<old>..<new>.html` per consecutive pair (relative path -> text);
    `names`: each schema's label (default: from its path); `docs`: the pairs' diff documents
    when the caller has them (`pair_docs`)."""
    labels = list(names) if names is not None else [info(s).label for s in schemas]
    docs = list(docs) if docs is not None else pair_docs(schemas, labels)
    stems = file_names(labels)
    pair_files = [f"{a}..{b}.html" for a, b in pairwise(stems)]
    facts = presence(labels, schemas)  # the one cross-version model (codegen/analysis/presence.py)
    declared = [facts.declared_in(i) for i in range(len(schemas))]
    method_sets, type_sets = [m for m, _ in declared], [t for _, t in declared]
    touches = [touched(d) for d in docs]
    links = [info(s).link if info(s).permalink else None for s in schemas]
    compact = len(schemas) > COMPACT_OVER
    files = {
        name: render_html(d, {"old": links[i], "new": links[i + 1]})
        for i, (name, d) in enumerate(zip(pair_files, docs))
    }
    files["index.html"] = render_page(
        "diff/history.html.j2",
        script="history.js",
        title=history_title(labels),
        versions=[
            {"label": label, "protocol_version": s.protocol_version, "sha256": s.sha256}
            for label, s in zip(labels, schemas)
        ],
        pairs=[
            {
                "href": href,
                "old": d["old"]["label"],
                "new": d["new"]["label"],
                "roots": tally.counts(d["findings"]),
                "line": tally.line(tally.counts(d["findings"])),
            }
            for href, d in zip(pair_files, docs)
        ],
        methods=matrix(method_sets, [t[0] for t in touches], pair_files, "method", compact),
        types=matrix(type_sets, [t[1] for t in touches], pair_files, "type", compact),
        states=[(s, (_SHORT if compact else CELL_TEXT)[s]) for s in STATES if s != "absent"],
        compact=compact,
    )
    return files


def history_title(labels: Sequence[str]) -> str:
    """Every label while they fit a line; of a long series, the first and the last."""
    if len(labels) <= 8:
        return "Schema history: " + " → ".join(labels)
    return f"Schema history: {labels[0]} → … → {labels[-1]} ({len(labels)} schemas)"


def _json(report: Any) -> str:
    from .report import render

    return render(report, "json")
