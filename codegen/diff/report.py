"""Formatters for a diff `Report`: JSON (serialised, sorted keys) and Markdown (one template).

Both carry names and structure only: subjects, rule ids, TS-like before/after text, our own
one-line reasons, schema.ts line numbers. Descriptions and other documentation prose of the
schemas never appear; a documentation-only change says which subject changed and how
(`description changed`).

The JSON format is documented in docs/diff-json-format.md and versioned by its `format` key.
"""

from __future__ import annotations

from typing import Any

from ..jsonout import dumps
from ..templating import render as render_template
from . import FORMAT, Report, SchemaInfo
from .book import RULES, breaks
from .rules import Finding
from .summary import summarize

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
        "breaks": list(f.breaks),
        "deprecated": f.deprecated,
    }


def to_json(report: Report) -> dict[str, Any]:
    from .ignore import to_json as ignore_json

    doc = {
        "format": FORMAT,
        "old": _schema_json(report.old),
        "new": _schema_json(report.new),
        "summary": summarize(report.findings, report.literals),
        "findings": [finding_json(f) for f in report.findings],
    }
    ignored = ignore_json(report)
    if ignored is not None:
        doc["ignore"] = ignored
    if report.baseline is not None:
        from .baseline import to_json as baseline_json

        doc["baseline"] = baseline_json(report.baseline)
    return doc


def render_json(report: Report) -> str:
    return dumps(to_json(report))


# ---------------------------------------------------------------------------------------------
# Markdown: a view model (`markdown.py`), then the template


def render_markdown(report: Report) -> str:
    from .markdown import code, view

    md = render_template("diff/report.md.j2", **view(report))
    if report.baseline is None:
        return md
    from .baseline import render_md

    section = render_md(report.baseline, code).replace("\n### ", "\n## ", 1)
    for heading in ("\n## Migration by method", "\n## Details"):
        if heading in md:
            at = md.index(heading)
            return md[:at] + section + md[at:]
    return md.rstrip("\n") + "\n" + section


def render(report: Report, fmt: str, fail_on: str | None = None) -> str:
    """`fmt`: md, json, summary, github or junit (`fail_on` marks JUnit failures)."""
    from . import ci

    if fmt == "json":
        return render_json(report)
    if fmt == "summary":
        return ci.render_summary(report)
    if fmt == "github":
        return ci.render_github(report)
    if fmt == "junit":
        return ci.render_junit(report, fail_on)
    return render_markdown(report)


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
            "breaks": ", ".join(breaks(r.id)) or "-",
            "conditions": "; ".join(
                f"when {c.when}: senders {c.sender}, receivers {c.receiver}" for c in r.conditions
            ).replace("|", "\\|")
            or "-",
        }
        for r in RULES.values()
    ]


def render_rules(fmt: str = "md") -> str:
    if fmt == "json":
        return dumps(
            [
                {
                    **row,
                    "purpose": r.purpose,
                    "why": r.why,
                    "breaks": list(breaks(r.id)),
                    "conditions": [
                        {
                            "fact": c.fact,
                            "when": c.when,
                            "sender": c.sender,
                            "receiver": c.receiver,
                            "why": c.why,
                        }
                        for c in r.conditions
                    ],
                }
                for row, r in zip(rules_view(), RULES.values())
            ]
        )
    return render_template("diff/rules.md.j2", rules=rules_view())
