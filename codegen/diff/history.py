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
from itertools import pairwise
from typing import Any

from .. import ir
from ..methods import method_model
from . import diff, info
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


def touched(doc: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """Methods and types a pair's findings touch: name -> "moved" (between JSON-RPC and
    input-required results), "changed" (some wire finding) or "docs" (documentation only)."""
    methods: dict[str, str] = {}
    types: dict[str, str] = {}

    def mark(into: dict[str, str], name: str, state: str) -> None:
        if _STRENGTH[state] >= _STRENGTH.get(into.get(name, "docs"), 0):
            into[name] = state

    for f in doc["findings"]:
        state = "docs" if is_documentation(f) else "changed"
        for m in f.get("methods", []):
            mark(methods, str(m), state)
        if f.get("category") == "method":
            moved = f.get("rule") == "method-transport-changed"
            mark(methods, str(f["subject"]), "moved" if moved else state)
        elif f.get("category") != "constant":
            mark(types, root_of(str(f["subject"])), state)
    return methods, types


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


def matrix(
    present: Sequence[frozenset[str]],
    touches: Sequence[dict[str, str]],
    pair_files: Sequence[str],
    anchor: str,
) -> list[dict[str, Any]]:
    """Rows of (name, cells): a cell per version with its state and, from the second version on,
    a link into that pair's page filtered on the name."""
    rows = []
    for name in sorted(set().union(*present)):
        cells = []
        for i, names in enumerate(present):
            before = None if i == 0 else name in present[i - 1]
            state = cell_state(before, name in names, None if i == 0 else touches[i - 1].get(name))
            href = None
            if i > 0 and state != "absent":
                href = f"{pair_files[i - 1]}#{anchor}={urllib.parse.quote(name, safe='')}"
            cells.append({"state": state, "text": CELL_TEXT[state], "href": href})
        rows.append({"name": name, "cells": cells})
    return rows


def history_files(schemas: Sequence[ir.Resolved]) -> dict[str, str]:
    """index.html and one `<old>..<new>.html` per consecutive pair (relative path -> text)."""
    docs = [json.loads(_json(diff(a, b))) for a, b in pairwise(schemas)]
    labels = [info(s).label for s in schemas]
    stems = file_names(labels)
    pair_files = [f"{a}..{b}.html" for a, b in pairwise(stems)]
    method_sets = [frozenset(m.method for m in method_model(s).methods) for s in schemas]
    type_sets = [frozenset(t.name for t in s.types) for s in schemas]
    touches = [touched(d) for d in docs]
    files = {name: render_html(d) for name, d in zip(pair_files, docs)}
    files["index.html"] = render_page(
        "diff/history.html.j2",
        title="Schema history: " + " → ".join(labels),
        versions=[
            {"label": label, "protocol_version": s.protocol_version, "sha256": s.sha256}
            for label, s in zip(labels, schemas)
        ],
        pairs=[
            {
                "href": href,
                "old": d["old"]["label"],
                "new": d["new"]["label"],
                "total": len(d["findings"]),
            }
            for href, d in zip(pair_files, docs)
        ],
        methods=matrix(method_sets, [t[0] for t in touches], pair_files, "method"),
        types=matrix(type_sets, [t[1] for t in touches], pair_files, "type"),
        states=[(s, CELL_TEXT[s]) for s in STATES if s != "absent"],
    )
    return files


def _json(report: Any) -> str:
    from .report import render

    return render(report, "json")
