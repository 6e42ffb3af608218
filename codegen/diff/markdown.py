"""The Markdown report's view model: release notes a maintainer can act on.

Order: what to do (methods added / removed / moved, cross-cutting requirements, deprecations,
literal values, counts), then one short migration entry per changed method, then every finding
once in the details (grouped by declaration, echoes folded under their root), then the
documentation-only changes folded away in `<details>`.

Each finding is written out once, in the details, under its id as anchor; everything before
links to it. Schema text (names, literals, TS-like types) only ever appears in code spans, which
`code()` builds so that no content can close them; labels and other plain text go through
`text()`."""

from __future__ import annotations

import re
from typing import Any

from . import FORMAT, Report, SchemaInfo, tally
from .levels import ACTION_LEVELS, LEVELS, worst
from .rules import Finding
from .summary import CROSS_CUTTING_MIN, cross_cutting, roots, summarize

_ROOT = re.compile(r"^[^.\[]+")
_MARKUP = re.compile(r"([\\`*_{}\[\]<>()#+!|~&])")
_BACKTICKS = re.compile(r"`+")
_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
# A method entry lists the findings of its own (at most this many methods carry them);
# changes to types shared by more methods are named by type and detailed once below.
_OWN_MAX = 2


def text(value: str) -> str:
    """Plain text with every Markdown/HTML special character escaped, on one line; an `@` that
    GitHub would make a mention (`@org/team` in a label) gets a zero-width space after it, so a
    PR comment notifies nobody."""
    return _MENTION.sub("@&#8203;", _MARKUP.sub(r"\\\1", " ".join(value.split())))


def comment(value: str) -> str:
    """Text safe inside an HTML comment: no `--` (which could close it), on one line."""
    value = " ".join(value.split())
    while "--" in value:
        value = value.replace("--", "- -")
    return value


def code(value: str) -> str:
    """A code span that shows `value` literally, whatever backticks it contains."""
    value = " ".join(value.split()) or " "
    longest = max((len(m) for m in _BACKTICKS.findall(value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") or longest else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def _line(s: SchemaInfo, line: int | None, side: str) -> str:
    if line is None:
        return ""
    if s.permalink:
        return f"[{side} L{line}]({s.link}#L{line})"
    return code(f"{s.link or s.label}:{line}")


def _where(f: Finding, report: Report) -> str:
    parts = [
        p for p in (_line(report.old, f.old_line, "old"), _line(report.new, f.new_line, "new")) if p
    ]
    return " (" + ", ".join(parts) + ")" if parts else ""


def _change(f: Finding) -> str:
    if f.before is None and f.after is None:
        return ""
    before = code(f.before) if f.before is not None else "(none)"
    after = code(f.after) if f.after is not None else "(none)"
    if f.deprecated:  # added (or removed) with `@deprecated` on it
        note = "added already `@deprecated`" if f.after is not None else "it was `@deprecated`"
        return f": {before} → {after} ({note})"
    return f": {before} → {after}"


def _affects(f: Finding) -> str:
    n = len(f.methods)
    if n == 0 or (f.category == "method" and f.methods == (f.subject,)):
        return ""
    if n <= 3:
        return "; " + ", ".join(code(m) for m in f.methods)
    return f"; affects {n} methods"


def _link(f: Finding) -> str:
    return f"[details](#{f.id})"


def _short(f: Finding, levels: dict[str, str] | None = None) -> str:
    """One line for a summary or a migration entry: level (a root's worst, from `levels`),
    subject, before → after, link."""
    level = (levels or {}).get(f.id, f.level)
    return f"**{level}** `{f.rule}` {code(f.subject)}{_change(f)} — {_link(f)}"


def _full(f: Finding, report: Report, echoes: list[Finding]) -> dict[str, Any]:
    sent = f"; sent by {' and '.join(f.sent_by)}" if f.sent_by else ""
    also = []
    if f.inherited_by:
        also.append("inherited by " + ", ".join(code(n) for n in f.inherited_by))
    if f.candidates:
        also.append("rename candidates: " + ", ".join(code(n) for n in f.candidates))
    return {
        "id": f.id,
        "line": (
            f'<a id="{f.id}"></a>**{f.level}** `{f.rule}` {code(f.subject)}{_change(f)} — '
            f"{text(f.why)} (senders: {f.sender}, receivers: {f.receiver}{sent}"
            f"{_affects(f)}){_where(f, report)}" + (" — " + "; ".join(also) if also else "")
        ),
        "echoes": [f'<a id="{e.id}"></a>`{e.rule}` {code(e.subject)}{_change(e)}' for e in echoes],
    }


def _counts_line(findings: list[Finding], levels: dict[str, str]) -> str:
    """Root causes per level, each at its worst level (`levels`, from `tally.root_levels`)."""
    parts = []
    for level in LEVELS:
        n = sum(1 for f in findings if levels.get(f.id, f.level) == level)
        if n:
            parts.append(f"{n} {level}")
    return ", ".join(parts)


def _linked(f: Finding) -> str:
    return f"[{code(f.subject)}](#{f.id})"


def _summary(report: Report, data: dict[str, Any]) -> dict[str, Any]:
    by_id = {f.id: f for f in report.findings}
    levels = tally.root_levels(report.findings)

    def methods(key: str) -> list[str]:
        out = []
        for m in data["methods"][key]:
            f = by_id[m["id"]]
            sent = f" (sent by {' and '.join(f.sent_by)})" if f.sent_by else ""
            echo = tally.folded(m["echoes"])
            out.append(f"{code(f.subject)}{sent}{echo} — {_link(f)}")
        return out

    literals: dict[tuple[str, str], list[str]] = {}
    for v in data["literals"]:
        literals.setdefault((v["subject"], v["change"]), []).append(code(v["value"]))
    return {
        "added": methods("added"),
        "removed": methods("removed"),
        "moved": [
            f"{code(by_id[m['id']].subject)}: {code(m['before'])} → {code(m['after'])} — "
            f"{_link(by_id[m['id']])}"
            for m in data["methods"]["moved"]
        ],
        "requirements": [
            f"{_short(by_id[r['id']], levels)} (affects {r['affects']} methods)"
            for r in data["cross_cutting"]
        ],
        "deprecations": [
            f"{code(d['subject'])}"
            + (" (no longer deprecated)" if d["change"] == "removed" else "")
            for d in data["deprecations"]
        ],
        "literals": [
            f"{code(subject)} {change}: {', '.join(values)}"
            for (subject, change), values in literals.items()
        ],
    }


def _acts(f: Finding, levels: dict[str, str]) -> bool:
    """Something a maintainer may have to act on: not info, not a mere new declaration (a new
    base whose members are required is one: its worst level says so)."""
    level = levels.get(f.id, f.level)
    return level != "info" and (f.rule != "type-added" or level in ACTION_LEVELS)


def _migration(report: Report, levels: dict[str, str]) -> list[dict[str, Any]]:
    """Per method: its own root findings, and the shared declarations whose changes it carries."""
    shown = {f.id for f in cross_cutting(report.findings)}
    whole = whole_methods(report)
    by_method: dict[str, list[Finding]] = {}
    for f in roots(report.findings):
        if f.category == "documentation":
            continue
        for m in f.methods:
            if m not in whole:
                by_method.setdefault(m, []).append(f)
    out = []
    for name, fs in sorted(by_method.items(), key=lambda kv: kv[0]):
        own = [f for f in fs if len(f.methods) <= _OWN_MAX and _acts(f, levels)]
        shared: dict[str, list[Finding]] = {}
        for f in fs:
            if len(f.methods) > _OWN_MAX and f.id not in shown and _acts(f, levels):
                match = _ROOT.match(f.subject)
                shared.setdefault(match.group(0) if match else f.subject, []).append(f)
        cross = sum(1 for f in fs if f.id in shown)
        out.append(
            {
                "name": code(name),
                "counts": _counts_line(fs, levels),
                "own": [_short(f, levels) for f in own],
                "info": sum(1 for f in fs if f.id not in shown and not _acts(f, levels)),
                "shared": [
                    f"{code(t)} ({_counts_line(g, levels)}): " + ", ".join(_linked(f) for f in g)
                    for t, g in sorted(
                        shared.items(),
                        key=lambda kv: (LEVELS.index(worst(f.level for f in kv[1])), kv[0]),
                    )
                ],
                "cross": cross,
            }
        )
    return out


def whole_methods(report: Report) -> set[str]:
    """Methods added or removed as a whole: their changes are the method's own finding."""
    return {f.subject for f in report.findings if f.rule in ("method-added", "method-removed")}


def protocol_wide(report: Report, levels: dict[str, str]) -> list[Finding]:
    """Breaking and risky root causes the method sections do not list: those no method carries
    (`JSONRPCErrorResponse.id`, a removed `ServerRequest`) and those only methods added or
    removed as a whole carry. With them every breaking and risky root cause is in the action
    part."""
    listed = {f.id for f in cross_cutting(report.findings)}
    whole = whole_methods(report)
    out = []
    for f in roots(report.findings):
        if f.category == "documentation" or levels.get(f.id) not in ACTION_LEVELS:
            continue
        if f.category == "method" and f.rule in _WHOLE_RULES:
            continue  # listed under Methods removed / added / moved
        if f.id in listed or any(m not in whole for m in f.methods):
            continue
        out.append(f)
    # worst first, by the fact's level (a root folds its restatements' levels in)
    return sorted(out, key=lambda f: LEVELS.index(levels[f.id]))


_WHOLE_RULES = ("method-added", "method-removed", "method-transport-changed")


def _details(report: Report, levels: dict[str, str]) -> list[dict[str, Any]]:
    echoes: dict[str, list[Finding]] = {}
    for f in report.findings:
        if f.echo_of is not None:
            echoes.setdefault(f.echo_of, []).append(f)
    groups: dict[str, list[Finding]] = {}
    for f in roots(report.findings):
        if f.category == "documentation":
            continue
        if f.category == "method":
            key = "Methods"
        elif f.category == "constant":
            key = "Constants"
        else:
            match = _ROOT.match(f.subject)
            key = match.group(0) if match else f.subject
        groups.setdefault(key, []).append(f)

    def order(kv: tuple[str, list[Finding]]) -> tuple[int, int, str]:
        first = {"Methods": 0, "Constants": 2}.get(kv[0], 1)
        return first, LEVELS.index(worst(f.level for f in kv[1])), kv[0]

    return [
        {
            "name": name if name in ("Methods", "Constants") else code(name),
            "counts": _counts_line(fs, levels),
            "findings": [_full(f, report, echoes.get(f.id, [])) for f in fs],
        }
        for name, fs in sorted(groups.items(), key=order)
    ]


def _doc_change(f: Finding) -> str:
    """One documentation change as Markdown: tag names (schema text) in code spans, where
    GitHub makes no `@` a mention."""
    if f.rule == "description-changed":
        return "description changed"
    if f.rule == "category-changed":
        return f"`@category` {text(f.before or '(none)')} → {text(f.after or '(none)')}"
    tag = f.after or f.before or "tag"
    if f.rule in ("deprecated-added", "internal-added"):
        verb = "added"
    elif f.rule in ("deprecated-removed", "internal-removed"):
        verb = "removed"
    elif f.rule == "doc-tag-changed":
        verb = "added" if f.before is None else "removed" if f.after is None else "changed"
    else:
        verb = ""
    return f"{code(tag)} {verb}"


def _entry_text(e: Any) -> str:
    if "id" in e:
        return f"id {e['id']}"
    return f"{e.get('rule', '')} {e.get('subject', '')}"


def view(report: Report) -> dict[str, Any]:
    data = summarize(report.findings, report.literals)
    docs = [f for f in report.findings if f.category == "documentation"]
    doc_groups: dict[str, list[str]] = {}
    for f in sorted(docs, key=lambda f: (f.subject, f.rule, f.before or "", f.after or "")):
        doc_groups.setdefault(f.subject, []).append(_doc_change(f))
    root_counts = tally.counts(report.findings)
    levels = tally.root_levels(report.findings)
    restated = tally.restated(report.findings)
    return {
        "format": FORMAT,
        "old": report.old,
        "new": report.new,
        "old_label": text(report.old.label),
        "old_comment": comment(report.old.label),
        "new_comment": comment(report.new.label),
        "new_label": text(report.new.label),
        "todo": _summary(report, data),
        "counts": [
            {"level": level, "roots": root_counts[level], "echoes": restated.get(level, 0)}
            for level in (*LEVELS, "documentation")
            if root_counts[level]
        ],
        "total": data["total"],
        "roots_total": root_counts["total"],
        "roots_line": tally.line(root_counts),
        "wire_total": tally.wire_total(root_counts),
        "echoes": data["echoes"],
        "cross_min": CROSS_CUTTING_MIN,
        "methods": _migration(report, levels),
        "protocol_wide": [_short(f, levels) + _affects(f) for f in protocol_wide(report, levels)],
        "details": _details(report, levels),
        "documentation": len(docs),
        "docs": [{"subject": code(s), "changes": ", ".join(c)} for s, c in doc_groups.items()],
        "ignored_from": code(report.ignore_file or ""),
        "ignored_count": len(report.ignored),
        "ignored": [f"{_short(f)} — {text(reason)}" for f, reason in report.ignored],
        "stale": [code(_entry_text(e)) + " — " + text(e.get("reason", "")) for e in report.stale],
    }
