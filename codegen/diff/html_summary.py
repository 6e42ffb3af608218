"""The summary at the top of the diff page: what an implementer must do.

Read from the report's own `summary` object when it has the migration keys (`methods`,
`cross_cutting`, `deprecations`, `literals`; docs/diff-json-format.md), otherwise computed from
the findings alone. Either way the result is a list of sections of uniform items, so the template
has one shape to lay out; a summary key this module does not know is passed on as a raw value.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

from .summary import LITERAL_RULES

# Summary keys that are counts or are laid out elsewhere (the counts table), not sections.
COUNT_KEYS = frozenset({"roots", "echoes"})
KNOWN_KEYS = frozenset({"methods", "cross_cutting", "deprecations", "literals"})
MOVES = ("removed", "added", "moved")

Finding = Mapping[str, Any]


def item(
    text: Any,
    *,
    level: Any = None,
    before: Any = None,
    after: Any = None,
    note: str = "",
    target: Any = None,
    href: str | None = None,
) -> dict[str, Any]:
    """One line of a section: `text`, an optional level and before -> after, a note, and a link
    to the finding (`target`, its id) or to the page filtered on a method (`href`)."""
    return {
        "text": str(text),
        "level": None if level is None else str(level),
        "change": before is not None or after is not None,
        "before": None if before is None else str(before),
        "after": None if after is None else str(after),
        "note": note,
        "href": href if href is not None else (f"#{target}" if target else None),
    }


def section(title: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"title": title, "entries": items, "value": None}


def method_href(method: str) -> str:
    return "#method=" + urllib.parse.quote(method, safe="")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------------------------
# From the report's summary object


def _method_entries(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for e in entries:
        echoes = int(e.get("echoes") or 0)
        note = f"+{_plural(echoes, 'restatement')}" if echoes else ""
        out.append(
            item(
                e.get("method", ""),
                level=e.get("level"),
                before=e.get("before"),
                after=e.get("after"),
                note=note,
                target=e.get("id"),
            )
        )
    return out


def from_report(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    methods = summary.get("methods")
    out = []
    if isinstance(methods, Mapping):
        for key in MOVES:
            entries = methods.get(key) or []
            if entries:
                out.append(section(f"Methods {key}", _method_entries(entries)))
        changed = methods.get("changed") or []
        if changed:
            out.append(
                section(
                    "Methods changed",
                    [
                        item(
                            c.get("method", ""),
                            level=c.get("level"),
                            note=_plural(int(c.get("findings") or 0), "root cause"),
                            href=method_href(str(c.get("method", ""))),
                        )
                        for c in changed
                    ],
                )
            )
    cross = summary.get("cross_cutting") or []
    if cross:
        out.append(
            section(
                "Requirements across methods",
                [
                    item(
                        c.get("subject", ""),
                        level=c.get("level"),
                        before=c.get("before"),
                        after=c.get("after"),
                        target=c.get("id"),
                        note=f"affects {_plural(int(c.get('affects') or 0), 'method')}",
                    )
                    for c in cross
                ],
            )
        )
    deprecations = summary.get("deprecations") or []
    if deprecations:
        out.append(
            section(
                "Deprecations",
                [
                    item(
                        d.get("subject", ""),
                        note=f"@deprecated {d.get('change', '')}".strip(),
                        target=d.get("id"),
                    )
                    for d in deprecations
                ],
            )
        )
    literals = summary.get("literals") or []
    if literals:
        out.append(
            section(
                "Literal values",
                [
                    item(
                        lit.get("subject", ""),
                        target=lit.get("id"),
                        before=lit.get("value") if lit.get("change") == "removed" else None,
                        after=lit.get("value") if lit.get("change") != "removed" else None,
                    )
                    for lit in literals
                ],
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# From the findings alone


def _by_rule(found: Sequence[tuple[str, Finding]], *rules: str) -> list[tuple[str, Finding]]:
    hits = [(fid, f) for fid, f in found if f["rule"] in rules]
    return sorted(hits, key=lambda h: (str(h[1]["subject"]), str(h[1].get("after") or "")))


def from_findings(found: Sequence[tuple[str, Finding]]) -> list[dict[str, Any]]:
    """`found`: (id, finding) pairs, the id being the finding's anchor on the page."""
    out = []
    for title, rule in (
        ("Methods removed", "method-removed"),
        ("Methods added", "method-added"),
        ("Methods moved", "method-transport-changed"),
    ):
        items = [
            item(f["subject"], level=f["level"], before=f.get("before"), after=f.get("after"),
                 target=fid)
            for fid, f in _by_rule(found, rule)
        ]  # fmt: skip
        if items:
            out.append(section(title, items))
    deprecations = [
        item(f["subject"], note="@deprecated added", target=fid)
        for fid, f in _by_rule(found, "deprecated-added")
    ]
    if deprecations:
        out.append(section("Deprecations", deprecations))
    literals = [
        item(f["subject"], before=f.get("before"), after=f.get("after"), target=fid)
        for fid, f in _by_rule(found, *LITERAL_RULES)
    ]
    if literals:
        out.append(section("Literal values", literals))
    return out


def unknown(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Summary keys this page does not know yet (not counts), as raw values."""
    return [
        {"title": key.replace("_", " ").capitalize(), "entries": [], "value": value}
        for key, value in sorted(summary.items())
        if key not in KNOWN_KEYS | COUNT_KEYS and not isinstance(value, int)
    ]


def sections(
    summary: Any, found: Sequence[tuple[str, Finding]]
) -> tuple[list[dict[str, Any]], bool]:
    """The summary sections, and whether they came from the report itself."""
    if not isinstance(summary, Mapping):
        return from_findings(found), False
    if KNOWN_KEYS & set(summary):
        return from_report(summary) + unknown(summary), True
    return from_findings(found) + unknown(summary), False
