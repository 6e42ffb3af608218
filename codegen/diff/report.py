"""Formatters for a diff `Report`: JSON (serialised, sorted keys) and Markdown (one template).

Both carry names and structure only: subjects, rule ids, TS-like before/after text, our own
one-line reasons. Descriptions and other documentation prose of the schemas never appear; a
documentation-only change says which subject changed and how (`description changed`).

The JSON format is documented in docs/diff-json-format.md and versioned by its `format` key.
"""

from __future__ import annotations

import re
from typing import Any

from ..jsonout import dumps
from ..templating import render as render_template
from . import FORMAT, Report, SchemaInfo
from .rules import LEVELS, RULES, Finding, worst
from .summary import summarize

_ROOT = re.compile(r"^[^.\[]+")


# ---------------------------------------------------------------------------------------------
# JSON


def _schema_json(s: SchemaInfo) -> dict[str, Any]:
    return {"label": s.label, "sha256": s.sha256, "protocol_version": s.protocol_version}


def finding_json(f: Finding) -> dict[str, Any]:
    return {
        "rule": f.rule,
        "category": f.category,
        "level": f.level,
        "levels": {"sender": f.sender, "receiver": f.receiver},
        "subject": f.subject,
        "before": f.before,
        "after": f.after,
        "why": f.why,
        "methods": list(f.methods),
        "sent_by": list(f.sent_by),
        "inherited_by": list(f.inherited_by),
        "candidates": list(f.candidates),
        "id": f.id,
        "echo_of": f.echo_of,
        "lines": {"old": f.old_line, "new": f.new_line},
    }


def to_json(report: Report) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "old": _schema_json(report.old),
        "new": _schema_json(report.new),
        "summary": summarize(report.findings, report.literals),
        "findings": [finding_json(f) for f in report.findings],
    }


def render_json(report: Report) -> str:
    return dumps(to_json(report))


# ---------------------------------------------------------------------------------------------
# Markdown: a view model, then the template


def _code(value: str) -> str:
    return f"`{value}`" if "`" not in value else f"`` {value} ``"


def _change(f: Finding) -> str:
    if f.before is None and f.after is None:
        return ""
    before = _code(f.before) if f.before is not None else "(none)"
    after = _code(f.after) if f.after is not None else "(none)"
    return f": {before} → {after}"


def _sides(f: Finding) -> str:
    sent = f"; sent by {' and '.join(f.sent_by)}" if f.sent_by else ""
    return f"senders: {f.sender}, receivers: {f.receiver}{sent}"


def _also(f: Finding) -> str:
    parts = []
    if f.inherited_by:
        parts.append("inherited by " + ", ".join(_code(n) for n in f.inherited_by))
    if f.candidates:
        parts.append("rename candidates: " + ", ".join(_code(n) for n in f.candidates))
    return " — " + "; ".join(parts) if parts else ""


def _full(f: Finding) -> dict[str, str]:
    return {
        "level": f.level,
        "rule": f.rule,
        "subject": _code(f.subject),
        "change": _change(f),
        "why": f.why,
        "sides": _sides(f),
        "also": _also(f),
    }


def _counts(findings: list[Finding]) -> str:
    parts = []
    for level in LEVELS:
        n = sum(1 for f in findings if f.level == level)
        if n:
            parts.append(f"{n} {level}")
    return ", ".join(parts)


def _grouped(groups: dict[str, list[Finding]]) -> list[tuple[str, list[Finding]]]:
    """Groups ordered worst level first, then by name."""
    return sorted(
        groups.items(), key=lambda kv: (LEVELS.index(worst(f.level for f in kv[1])), kv[0])
    )


def _doc_change(f: Finding) -> str:
    if f.rule == "description-changed":
        return "description changed"
    if f.rule == "category-changed":
        return f"@category {f.before or '(none)'} → {f.after or '(none)'}"
    tag = f.after or f.before or "tag"
    if f.rule in ("deprecated-added", "internal-added"):
        verb = "added"
    elif f.rule in ("deprecated-removed", "internal-removed"):
        verb = "removed"
    elif f.rule == "doc-tag-changed":
        verb = "added" if f.before is None else "removed" if f.after is None else "changed"
    else:
        verb = ""
    return f"{tag} {verb}"


def view(report: Report) -> dict[str, Any]:
    counts = report.counts()
    wire = [f for f in report.findings if f.category != "documentation"]
    docs = [f for f in report.findings if f.category == "documentation"]

    by_method: dict[str, list[Finding]] = {}
    for f in wire:
        for m in f.methods:
            by_method.setdefault(m, []).append(f)
    methods = []
    for name, fs in _grouped(by_method):
        own = [f for f in fs if f.category == "method"]
        via = [f for f in fs if f.category != "method"]
        methods.append(
            {
                "name": _code(name),
                "counts": _counts(fs),
                "own": [_full(f) for f in own],
                "via": [
                    {"level": f.level, "rule": f.rule, "subject": _code(f.subject)} for f in via
                ],
            }
        )

    by_type: dict[str, list[Finding]] = {}
    for f in wire:
        if f.category not in ("method", "constant"):
            match = _ROOT.match(f.subject)
            by_type.setdefault(match.group(0) if match else f.subject, []).append(f)
    types = [
        {"name": _code(name), "counts": _counts(fs), "findings": [_full(f) for f in fs]}
        for name, fs in _grouped(by_type)
    ]

    doc_groups: dict[str, list[str]] = {}
    for f in sorted(docs, key=lambda f: (f.subject, f.rule, f.before or "", f.after or "")):
        doc_groups.setdefault(f.subject, []).append(_doc_change(f))

    return {
        "format": FORMAT,
        "old": report.old,
        "new": report.new,
        "summary": [{"level": level, "count": counts[level]} for level in LEVELS],
        "documentation": counts["documentation"],
        "total": counts["total"],
        "methods": methods,
        "types": types,
        "constants": [_full(f) for f in wire if f.category == "constant"],
        "docs": [{"subject": _code(s), "changes": ", ".join(c)} for s, c in doc_groups.items()],
        "rules_used": sorted({f.rule for f in report.findings}),
    }


def render_markdown(report: Report) -> str:
    return render_template("diff/report.md.j2", **view(report))


def render(report: Report, fmt: str) -> str:
    return render_json(report) if fmt == "json" else render_markdown(report)


# ---------------------------------------------------------------------------------------------
# The rule list (`mcp-codegen rules`, docs/diff-rules.md)


def rules_view() -> list[dict[str, str]]:
    return [
        {
            "id": r.id,
            "category": r.category,
            "sender": r.sender,
            "receiver": r.receiver,
            "level": r.level,
            "purpose": r.purpose.replace("|", "\\|"),
            "why": r.why.replace("|", "\\|"),
            "mirror": r.mirror,
        }
        for r in RULES.values()
    ]


def render_rules(fmt: str = "md") -> str:
    if fmt == "json":
        return dumps(
            [
                {**row, "purpose": r.purpose, "why": r.why}
                for row, r in zip(rules_view(), RULES.values())
            ]
        )
    return render_template("diff/rules.md.j2", rules=rules_view())
