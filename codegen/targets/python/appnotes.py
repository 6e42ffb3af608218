"""The availability prose of the application types' docstrings: where a type or field exists
("since 2025-03-26", "until 2025-06-18"), where a field is required ("required from
2026-07-28"), its other names, and deprecation scoped to the versions that state it. Pure: the
versions' declarations in, `ir.Doc` text out (appmodel.py writes it into the merged types)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import replace

from ... import ir
from .appmerge import member


def span(present: Sequence[str], among: Sequence[str]) -> str:
    """How `present` sits in `among` (both in version order): "" when everywhere, else
    "since X", "until Y", "X to Y" or "in X, Y"."""
    if list(present) == list(among):
        return ""
    idx = [among.index(k) for k in present]
    contiguous = idx == list(range(idx[0], idx[0] + len(idx))) if idx else False
    if contiguous and idx[-1] == len(among) - 1:
        return f"since {present[0]}"
    if contiguous and idx[0] == 0:
        return f"until {present[-1]}"
    if contiguous:
        return f"{present[0]} to {present[-1]}"
    return "in " + ", ".join(present)


def required_note(present: Sequence[str], required: Sequence[str]) -> str:
    """Required-ness where the versions having a field disagree on it."""
    if not required or list(required) == list(present):
        return ""
    where = span(required, present)
    if where.startswith("since "):
        return "required from " + where.removeprefix("since ")
    return "required " + where


def scoped_deprecation(doc: ir.Doc, docs: Sequence[tuple[str, ir.Doc]]) -> ir.Doc:
    """`doc` (the newest version's) with its `@deprecated` tag only if every version's doc in
    `docs` (version key, doc) has one; else the tag becomes a note naming those that do."""
    if not doc.has("deprecated") or all(d.has("deprecated") for _, d in docs):
        return doc
    where = ", ".join(k for k, d in docs if d.has("deprecated"))
    message = " ".join((doc.tag("deprecated") or "").split())
    kept = replace(doc, tags=tuple(t for t in doc.tags if t.name != "deprecated"))
    note = f"Deprecated in {where} only. {message}".strip()
    return with_note(kept, textwrap.fill(note, width=88, break_on_hyphens=False))


def with_note(doc: ir.Doc, note: str) -> ir.Doc:
    """`doc` with `note` as a paragraph of its own after its text."""
    if not note:
        return doc
    text = f"{doc.text}\n\n{note}" if doc.text else note
    return replace(doc, text=text)


def type_note(name: str, defs: Sequence[tuple[str, ir.TypeDef]], keys: Sequence[str]) -> str:
    """Where the application type `name` exists among `keys`, and its older names where."""
    present = [k for k, _ in defs]
    notes = []
    where = span(present, keys)
    if where:
        notes.append(f"Available {where}.")
    names = {k: td.name for k, td in defs}
    old = sorted({n for n in names.values() if n != name})
    for o in old:
        notes.append(f"Named {o} {span([k for k in present if names[k] == o], present)}.")
    return " ".join(notes)


def with_field_docs(merged: ir.Obj, typed: list[tuple[str, ir.Obj]]) -> ir.Obj:
    """Each field's docstring names where it exists and is required, when not everywhere."""
    among = [k for k, _ in typed]
    props = []
    for p in merged.properties:
        present = [k for k, o in typed if member(o, p.name) is not None]
        required = [k for k, o in typed if (q := member(o, p.name)) is not None and not q.optional]
        notes = [n for n in (span(present, among), required_note(present, required)) if n]
        text = "; ".join(notes)
        if text and not text.startswith("required"):
            text = "available " + text
        note = (text[0].upper() + text[1:] + ".") if text else ""
        docs = [(k, q.doc) for k, o in typed if (q := member(o, p.name)) is not None]
        props.append(replace(p, doc=with_note(scoped_deprecation(p.doc, docs), note)))
    return replace(merged, properties=tuple(props))
