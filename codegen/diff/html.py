"""The diff as one self-contained HTML page, built from the JSON report document.

Input is the dict that `render(report, "json")` serialises (docs/diff-json-format.md), so the page
follows the JSON format rather than the report internals: keys it does not know (a richer
`summary`, new finding fields) are shown generically instead of dropped. Schema text is untrusted:
every value reaches the page through an autoescaping Jinja2 environment, and only URLs the tool
itself made (https) ever become links.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import jinja2
import markupsafe

from .. import templating
from ..templating import static_source
from . import Report, html_summary, tally
from .levels import LEVELS

DOCUMENTATION = "documentation"
# Finding keys the page lays out itself; any other key is listed in the finding as it comes.
KNOWN_KEYS = frozenset(
    {"rule", "category", "level", "levels", "subject", "before", "after", "why", "methods",
     "sent_by", "inherited_by", "candidates", "id", "echo_of", "lines"}
)  # fmt: skip
_ROOT = re.compile(r"^[^.\[]+")


def environment() -> jinja2.Environment:
    """The project's one environment, autoescaping: the pages carry names and literals from the
    schema."""
    return templating.environment(autoescape=True)


@functools.lru_cache(maxsize=2)
def page_assets(script_name: str = "page.js") -> dict[str, Any]:
    """The inline style and script a page carries (`page.js` for a diff page, `history.js` for
    the history index), and the script's CSP hash: the page runs its own script and nothing
    else, even if some text ever escaped the escaping."""
    script = static_source(f"diff/html/{script_name}")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return {
        "css": markupsafe.Markup(static_source("diff/html/page.css")),
        "script": markupsafe.Markup(script),
        "script_sha256": digest,
    }


def render_page(template: str, script: str = "page.js", **context: Any) -> str:
    return environment().get_template(template).render(page=page_assets(script), **context)


def root_of(subject: str) -> str:
    """The declared type a subject path starts from (`CallToolResult.content[]` -> `CallToolResult`)."""
    match = _ROOT.match(subject)
    return match.group(0) if match else subject


def levels_of(findings: Iterable[Mapping[str, Any]]) -> list[str]:
    """The known levels in order of severity, then any level a newer report introduces."""
    seen = {str(f["level"]) for f in findings}
    return [*LEVELS, *sorted(seen - set(LEVELS))]  # worst first: the rule table's order


def is_documentation(f: Mapping[str, Any]) -> bool:
    return f.get("category") == DOCUMENTATION


def is_echo(f: Mapping[str, Any]) -> bool:
    """A finding that restates another one (`echo_of`, when the report marks echoes)."""
    return bool(f.get("echo_of"))


def counts(findings: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Root causes per level (`tally.py`: each once, at its worst level), and the findings that
    restate them, as table rows; levels without root causes are left out."""
    c = tally.counts(findings)
    restated = tally.restated(findings)
    return [
        {
            "level": "documentation only" if level == DOCUMENTATION else level,
            "roots": c.get(level, 0),
            "echoes": restated.get(level, 0),
        }
        for level in [*levels_of(findings), DOCUMENTATION]
        if c.get(level, 0)
    ]


def _extra(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"key": key.replace("_", " "), "value": f[key]}
        for key in sorted(f)
        if key not in KNOWN_KEYS and f[key] not in (None, [], {}, "")
    ]


def finding_id(f: Mapping[str, Any], index: int) -> str:
    """The report's own id (its anchor in the Markdown too), else one by position."""
    return str(f.get("id") or f"f{index}")


def _lines(f: Mapping[str, Any], links: Mapping[str, str | None]) -> list[dict[str, Any]]:
    """Where the subject stands in each schema.ts: a link to the line when that file's URL is
    known (a pinned released version: its commit in the specification repository), else the
    line number."""
    lines = f.get("lines")
    if not isinstance(lines, Mapping):
        return []
    out = []
    for side in ("old", "new"):
        n = lines.get(side)
        if isinstance(n, int):
            base = links.get(side)
            href = f"{base}#L{n}" if base and base.startswith("https://") else None
            out.append({"side": side, "line": n, "href": href})
    return out


def finding_view(
    f: Mapping[str, Any],
    index: int,
    subjects: Mapping[str, str] | None = None,
    links: Mapping[str, str | None] | None = None,
) -> dict[str, Any]:
    """`subjects`: finding id -> subject, to name the finding an echo restates; `links`: the
    URL of each side's schema.ts, when known."""
    levels = f.get("levels") or {}
    echo_of = str(f["echo_of"]) if is_echo(f) else None
    return {
        "id": finding_id(f, index),
        "echo_of": echo_of,
        "echo_of_subject": (subjects or {}).get(echo_of or "", echo_of),
        "lines": _lines(f, links or {}),
        "rule": f["rule"],
        "category": f["category"],
        "level": f["level"],
        "subject": f["subject"],
        "root": root_of(str(f["subject"])),
        "before": f.get("before"),
        "after": f.get("after"),
        "why": f.get("why", ""),
        "levels": sorted(levels.items()),
        "methods": list(f.get("methods", [])),
        "methods_json": json.dumps(list(f.get("methods", []))),
        "sent_by": list(f.get("sent_by", [])),
        "inherited_by": list(f.get("inherited_by", [])),
        "candidates": list(f.get("candidates", [])),
        "extra": _extra(f),
    }


def method_rows(findings: list[Mapping[str, Any]], levels: list[str]) -> list[dict[str, Any]]:
    """One row per method carried by a root cause: root causes per level, worst first."""
    worst = tally.root_levels(findings)
    by_method: dict[str, list[str]] = {}
    for i, f in enumerate(findings):
        fid = finding_id(f, i)
        if fid in worst:
            for m in f.get("methods", []):
                by_method.setdefault(str(m), []).append(worst[fid])
    rows = []
    for name, ls in by_method.items():
        rows.append({"method": name, "counts": [ls.count(level) for level in levels]})
    return sorted(rows, key=lambda r: ([-n for n in r["counts"]], r["method"]))


def view(doc: Mapping[str, Any], links: Mapping[str, str | None] | None = None) -> dict[str, Any]:
    findings: list[Mapping[str, Any]] = list(doc["findings"])
    levels = levels_of(findings)
    ids = [finding_id(f, i) for i, f in enumerate(findings)]
    subjects = {fid: str(f["subject"]) for fid, f in zip(ids, findings)}
    summary, _ = html_summary.sections(doc.get("summary"), list(zip(ids, findings)))
    indexed = list(enumerate(findings))
    wire = [finding_view(f, i, subjects, links) for i, f in indexed if not is_documentation(f)]
    docs = [finding_view(f, i, subjects, links) for i, f in indexed if is_documentation(f)]
    methods = sorted({str(m) for f in findings for m in f.get("methods", [])})
    return {
        "format": doc.get("format", ""),
        "old": doc["old"],
        "new": doc["new"],
        "counts": counts(findings),
        "total": len(findings),
        "roots": tally.wire_total(tally.counts(findings)),
        "roots_total": tally.counts(findings)["total"],
        "summary_sections": summary,
        "echoes": sum(1 for f in findings if is_echo(f)),
        "folded": tally.folded(sum(1 for f in findings if is_echo(f))),
        "levels": levels,
        "methods": methods,
        "method_rows": method_rows(findings, levels),
        "groups": [
            {
                "level": level,
                "findings": [f for f in wire if f["level"] == level],
                "roots": sum(1 for f in wire if f["level"] == level and not f["echo_of"]),
                "folded": tally.folded(
                    sum(1 for f in wire if f["level"] == level and f["echo_of"])
                ),
            }
            for level in levels
        ],
        "docs": docs,
        "ignore": _ignore_view(doc.get("ignore")),
    }


def _ignore_view(ignore: Any) -> dict[str, Any] | None:
    """The ignore file's part of the page: its name, each finding it took out with the reason."""
    if not isinstance(ignore, Mapping):
        return None
    ignored = [i for i in ignore.get("ignored", []) if isinstance(i, Mapping)]
    return {
        "file": str(ignore.get("file", "")),
        "ignored": [
            {key: str(i.get(key, "")) for key in ("rule", "subject", "reason")} for i in ignored
        ],
        "stale": len(ignore.get("stale", [])),
    }


def render_html(doc: Mapping[str, Any], links: Mapping[str, str | None] | None = None) -> str:
    """The page for one JSON report document; `links`: the URL of each side's schema.ts when
    known (`{"old": ..., "new": ...}`), for links to the lines of each finding."""
    return render_page("diff/report.html.j2", **view(doc, links))


def links_of(report: Report) -> dict[str, str | None]:
    return {
        "old": report.old.link if report.old.permalink else None,
        "new": report.new.link if report.new.permalink else None,
    }


def render_format(report: Report, fmt: str, fail_on: str | None = None) -> str:
    """The report in `fmt`: html is built from the JSON document, the others by the report module."""
    from .report import render

    if fmt == "html":
        return render_html(json.loads(render(report, "json")), links_of(report))
    return render(report, fmt, fail_on)
