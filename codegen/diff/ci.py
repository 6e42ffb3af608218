"""The diff for CI: a PR-comment summary, GitHub workflow annotations, JUnit XML.

All three count root causes with `tally.py` (echoes folded in), like every other output, and list
the breaking and risky ones most important first: worst level, then the most methods carried,
then report order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from xml.etree import ElementTree as ET

from ..console import escape_data, escape_property
from . import Report, SchemaInfo, tally
from .levels import ACTION_LEVELS
from .rules import Finding
from .summary import cross_cutting

# GitHub's limit for a comment (and the step summary it shows is 1 MiB): the summary stays under.
COMMENT_LIMIT = 65_536
# GitHub shows at most this many annotations of each kind (error, warning) per step.
ANNOTATIONS_PER_KIND = 10
# A before/after text longer than this is cut in one-line formats (types can be long).
_TEXT_MAX = 100
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def acting(report: Report) -> list[tuple[Finding, str]]:
    """The breaking and risky root causes with their worst level, most important first."""
    levels = tally.root_levels(report.findings)
    out = [(f, levels[f.id]) for f in report.findings if levels.get(f.id) in ACTION_LEVELS]
    # a method's own finding (removed, moved) before a type's, then the most methods carried
    return sorted(
        out, key=lambda fl: (tally.rank(fl[1]), fl[0].category != "method", -len(fl[0].methods))
    )


def _cut(text: str | None) -> str:
    if text is None:
        return "(none)"
    text = " ".join(text.split())
    return text if len(text) <= _TEXT_MAX else text[: _TEXT_MAX - 1] + "…"


def change(f: Finding) -> str:
    if f.before is None and f.after is None:
        return ""
    return f"{_cut(f.before)} → {_cut(f.after)}"


def where(f: Finding) -> str:
    """The methods a root cause is carried by, or "Protocol-wide"."""
    if not f.methods:
        return "Protocol-wide"
    if len(f.methods) <= 3:
        return ", ".join(f.methods)
    return f"{len(f.methods)} methods"


# ---------------------------------------------------------------------------------------------
# --format summary: Markdown for a PR comment


def _code(value: str) -> str:
    from .markdown import code

    return code(value)


def _line_link(report: Report, f: Finding) -> str:
    from .markdown import _line

    if f.new_line is not None:
        return _line(report.new, f.new_line, "new")
    return _line(report.old, f.old_line, "old")


def _summary_line(report: Report, f: Finding, level: str, echoes: int = 0) -> str:
    ch = change(f)
    link = _line_link(report, f)
    return (
        f"- **{level}** `{f.rule}` {_code(f.subject)}"
        + (f": {_code(ch)}" if ch else "")
        + tally.folded(echoes)
        + f" — {_where_md(f)}"
        + (f" ({link})" if link else "")
    )


def _where_md(f: Finding) -> str:
    w = where(f)
    return (
        w
        if w == "Protocol-wide" or w.endswith(" methods")
        else ", ".join(_code(m) for m in f.methods)
    )


def render_summary(report: Report, limit: int = COMMENT_LIMIT) -> str:
    """Headline, what to do, every breaking and risky root cause on one line (cut, saying so,
    only if they do not fit in `limit` characters), the rest as counts."""
    from .markdown import text

    c = tally.counts(report.findings)
    title = f"## Schema diff: {text(report.old.label)} → {text(report.new.label)}\n\n"
    if not c["total"] and report.baseline is None:
        if not report.ignored:
            return title + "No changes.\n" + _ignored_md(report)
        return title + "No findings left to review: " + _ignored_head(report) + _ignored_md(report)
    head = [title, f"**{tally.line(c)}**"]
    echoes = sum(tally.echoes(report.findings).values())
    if echoes:
        head.append(tally.folded(echoes))
    if c["documentation"]:
        head.append(f"; {c['documentation']} documentation-only changes")
    head.append(". A root cause is counted once, at its worst level.\n")
    if report.ignored:
        head.append("\n" + _ignored_head(report))
    rows = acting(report)
    if rows:
        head.append(
            "\n### What to do\n\nEach breaking or risky change, worst first, with the methods"
            " it affects and its line in schema.ts:\n\n"
        )
    cross = [f for f in cross_cutting(report.findings) if f.level not in ACTION_LEVELS]
    also = ""
    if cross:
        also = (
            "\nAlso on many methods: "
            + "; ".join(f"`{f.rule}` {_code(f.subject)} ({len(f.methods)} methods)" for f in cross)
            + ".\n"
        )
    listed = whats_new(report)
    rest = [f"{c[k]} {k}" for k in ("compatible", "info", "documentation") if c.get(k)]
    tail = (
        f"\nCounted: {', '.join(rest)} (nothing to change; see the full report).\n" if rest else ""
    )
    against = ""
    if report.baseline is not None:
        from .baseline import render_md

        against = render_md(report.baseline, _code)
    tail = also + against + "".join(_group_md(report, t, fs) for t, fs in listed) + tail
    tail += _ignored_md(report)
    folded = tally.echoes(report.findings)
    lines = [_summary_line(report, f, level, folded.get(f.id, 0)) for f, level in rows]
    body = "".join(head)
    budget = limit - len(body) - len(tail) - 200  # room for the "cut" note
    kept: list[str] = []
    for line in lines:
        if len(line) + 1 > budget:
            break
        kept.append(line)
        budget -= len(line) + 1
    out = body + "".join(line + "\n" for line in kept)
    if len(kept) < len(lines):
        out += (
            f"\n… and {len(lines) - len(kept)} more breaking or risky root causes, cut to fit"
            f" a comment ({limit} characters): see the full report (`--format md`).\n"
        )
    return out + tail


# Additions and deprecations in the PR summary: this many per group, then a count of the rest.
GROUP_MAX = 10
_MEMBER_ADDED = ("union-member-added", "union-member-added-covered")
_ADDITION_GROUPS = (
    ("New methods", ("method-added",)),
    ("New types", ("type-added",)),
    (
        "New members",
        ("property-added-optional", "property-added-required", "index-signature-added"),
    ),
    ("New union members", _MEMBER_ADDED),
    ("New values", ("enum-value-added", "open-enum-value-added", "constant-added")),
)


def whats_new(report: Report) -> list[tuple[str, list[Finding]]]:
    """What a PR adds and deprecates, grouped: (title, the findings, by subject). Additions are
    root causes (a restatement is counted in its root's line) that the breaking and risky list
    does not show already."""
    acted = {f.id for f, _ in acting(report)}
    out: list[tuple[str, list[Finding]]] = []
    for title, rules in _ADDITION_GROUPS:
        fs = [
            f
            for f in report.findings
            if f.rule in rules and f.echo_of is None and f.id not in acted
        ]
        if fs:
            out.append((title, fs))
    deprecated = [
        f
        for f in report.findings
        if f.rule == "deprecated-added" or (f.deprecated and f.rule.endswith("-added"))
    ]
    undeprecated = [f for f in report.findings if f.rule == "deprecated-removed"]
    out += [("Deprecated", deprecated), ("No longer deprecated", undeprecated)]
    return [(t, sorted(fs, key=lambda f: (f.subject, f.after or ""))) for t, fs in out if fs]


def _group_md(report: Report, title: str, fs: list[Finding]) -> str:
    """A group: its title with the count, one line per finding, cut after GROUP_MAX."""
    lines = []
    for f in fs[:GROUP_MAX]:
        member = f" + {_code(f.after or '')}" if f.rule in _MEMBER_ADDED else ""
        link = _line_link(report, f)
        lines.append(f"- {_code(f.subject)}{member}" + (f" ({link})" if link else ""))
    if len(fs) > GROUP_MAX:
        lines.append(f"- … and {len(fs) - GROUP_MAX} more (see the full report)")
    return f"\n**{title} ({len(fs)})**\n\n" + "".join(line + "\n" for line in lines)


IGNORED_LISTED = 20  # ignored findings named one by one in the summary; the rest counted


def _ignored_head(report: Report) -> str:
    """The line that says, before any finding, what an ignore file took out."""
    from .markdown import text

    return (
        f"**{len(report.ignored)} finding(s) ignored** by the ignore file"
        f" `{text(report.ignore_file or '')}` (left out of the counts and `--fail-on`; listed"
        " below with their reasons).\n"
    )


def _ignored_md(report: Report) -> str:
    from .markdown import text

    if not report.ignored and not report.stale:
        return ""
    out = f"\nIgnore file: `{text(report.ignore_file or '')}`"
    out += f"; {len(report.ignored)} finding(s) ignored" if report.ignored else ""
    out += f"; {len(report.stale)} stale entr(y/ies) match nothing" if report.stale else ""
    out += ".\n"
    if report.ignored:
        out += "\n" + "".join(
            f"- `{f.rule}` {_code(f.subject)}: {text(_cut(reason))}\n"
            for f, reason in report.ignored[:IGNORED_LISTED]
        )
        more = len(report.ignored) - IGNORED_LISTED
        out += f"- … and {more} more (see the full report)\n" if more > 0 else ""
    return out


# ---------------------------------------------------------------------------------------------
# --format github: workflow commands


def _anchor(report: Report, f: Finding) -> tuple[SchemaInfo, int | None]:
    """Always a line of the new schema.ts (a pull request annotates its head): the subject's,
    or for a removal its former owner's or former users' (`anchors.py`); none when nothing of
    it is left (the annotation then names the file only)."""
    if f.new_line is not None:
        return report.new, f.new_line
    return report.new, report.anchors.get(f.id)


def annotation(report: Report, f: Finding, level: str) -> str:
    side, line = _anchor(report, f)
    props = [f"file={escape_property(side.file)}"]
    if line is not None:
        props.append(f"line={line}")
    props.append(f"title={escape_property(f'{level}: {f.rule} {f.subject}')}")
    ch = change(f)
    message = f"{f.subject}{': ' + ch if ch else ''} — {f.why} ({where(f)})"
    kind = "error" if level == "breaking" else "warning"
    return f"::{kind} {','.join(props)}::{escape_data(message)}"


def render_github(report: Report) -> str:
    """`::error` per breaking and `::warning` per risky root cause, at most
    ANNOTATIONS_PER_KIND of each (GitHub drops the rest), then one `::notice` saying how many
    were left out."""
    shown: dict[str, int] = {"error": 0, "warning": 0}
    out, left = [], 0
    for f, level in acting(report):
        kind = "error" if level == "breaking" else "warning"
        if shown[kind] >= ANNOTATIONS_PER_KIND:
            left += 1
            continue
        shown[kind] += 1
        out.append(annotation(report, f, level))
    c = tally.counts(report.findings)
    if report.ignore_file is not None and (report.ignored or report.stale):
        out.append(_ignored_notice(report))
    if left:
        out.append(
            f"::notice title=mcp-codegen diff::{left} more breaking or risky root causes not"
            f" annotated (GitHub shows {ANNOTATIONS_PER_KIND} of each kind per step);"
            f" {escape_data(tally.line(c))} in all: see the full report"
            " (`mcp-codegen diff OLD NEW --format summary` in the job summary, or `--format md`)"
        )
    return "".join(line + "\n" for line in out)


def _ignored_notice(report: Report) -> str:
    """What the ignore file took out, as one `::notice` (never silent: the file may come from
    the pull request under review)."""
    rules = sorted({f.rule for f, _ in report.ignored})
    message = (
        f"{len(report.ignored)} finding(s) ignored by the ignore file {report.ignore_file}"
        + (f" ({', '.join(rules)})" if rules else "")
        + (f"; {len(report.stale)} stale entr(y/ies) match nothing" if report.stale else "")
        + ": they are left out of the annotations and of --fail-on"
    )
    return f"::notice title=mcp-codegen diff ignore file::{escape_data(message)}"


# ---------------------------------------------------------------------------------------------
# --format junit


def _xml(value: str) -> str:
    return _XML_BAD.sub("\ufffd", value)


def render_junit(report: Report, fail_on: str | None = None) -> str:
    """One test case per root cause (documentation-only ones too under `--fail-on any`), a
    failure for each that fails `--fail-on` (default: breaking)."""
    fail_on = fail_on or "breaking"
    failing = {f.id for f in report.failing(fail_on)}
    levels = tally.root_levels(report.findings)
    cases: Iterable[Finding] = (
        f
        for f in report.findings
        if f.echo_of is None and (f.id in levels or (fail_on == "any" and f.id in failing))
    )
    name = f"mcp-codegen diff {report.old.label} → {report.new.label}"
    suite = ET.Element("testsuite", name=_xml(name))
    n = failures = 0
    for f in cases:
        n += 1
        level = levels.get(f.id, f.level)
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_xml(where(f)),
            name=_xml(f"{f.rule} {f.subject}"),
        )
        props = ET.SubElement(case, "properties")
        for key, value in (("id", f.id), ("level", level), ("rule", f.rule)):
            ET.SubElement(props, "property", name=key, value=_xml(value))
        if f.id in failing:
            failures += 1
            failure = ET.SubElement(
                case, "failure", message=_xml(f"{level}: {f.why}"), type=_xml(f.rule)
            )
            side, line = _anchor(report, f)
            failure.text = _xml(
                f"{f.subject}: {change(f) or 'changed'}\n"
                f"{side.file}{':' + str(line) if line is not None else ''}"
            )
    skipped = _ignored_cases(report, suite)
    n += skipped
    suite.set("tests", str(n))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", str(skipped))
    root = ET.Element("testsuites", name="mcp-codegen diff", tests=str(n), failures=str(failures))
    root.set("skipped", str(skipped))
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _ignored_cases(report: Report, suite: ET.Element) -> int:
    """Each finding the ignore file took out, as a skipped test case giving the file and the
    reason; the number added."""
    for f, reason in report.ignored:
        case = ET.SubElement(suite, "testcase", classname=_xml(where(f)),
                             name=_xml(f"{f.rule} {f.subject}"))  # fmt: skip
        props = ET.SubElement(case, "properties")
        for key, value in (("id", f.id), ("level", f.level), ("rule", f.rule)):
            ET.SubElement(props, "property", name=key, value=_xml(value))
        ET.SubElement(case, "skipped",
                      message=_xml(f"ignored by {report.ignore_file}: {reason}"))  # fmt: skip
    return len(report.ignored)
