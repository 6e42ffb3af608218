"""What an implementer must do, computed once from a report: the `summary` object of the JSON
document and the opening section of the Markdown report (docs/diff-json-format.md).

Methods added, removed and moved between JSON-RPC messages and input-required results; the
cross-cutting requirements (one change carried by many methods, stated once with "affects N
methods"); deprecations; literal values that appear or disappear."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import ir
from . import tally
from .levels import worst
from .rules import Finding

# A change carried by at least this many methods is a cross-cutting requirement: stated once,
# up front, with the number of methods it affects (MCP versions have 20-30 methods).
CROSS_CUTTING_MIN = 8
# Declarations coming and going are not requirements (their uses are reported where they change).
_NOT_REQUIREMENTS = ("type-added", "type-removed", "type-renamed", "type-reference-changed")
_ADDITIONS = ("property-added-optional", "property-added-required", "type-added")
LITERAL_RULES = {  # the rules that add or remove a literal value (the summaries read this)
    "enum-value-added": "added",
    "enum-value-removed": "removed",
    "open-enum-value-added": "added",
    "open-enum-value-removed": "removed",
}


@dataclass(frozen=True, slots=True, order=True)
class LiteralValue:
    """A literal value that appears in or disappears from a set of values (`ResultType`)."""

    subject: str  # the union or alias that lists it
    value: str  # JSON text: `"complete"`
    change: str  # "added" | "removed"
    finding: str  # id of the finding that reports it (type-added, enum-value-removed, ...)


def _literals_of(t: ir.TypeExpr) -> tuple[str, ...]:
    from .notation import literal

    ms = t.members if isinstance(t, ir.Union_) else (t,)
    if not all(isinstance(m, (ir.Lit, ir.Prim)) for m in ms):
        return ()
    return tuple(literal(m.value) for m in ms if isinstance(m, ir.Lit))


def literal_values(
    findings: Iterable[Finding],
    old_types: Mapping[str, ir.TypeDef],
    new_types: Mapping[str, ir.TypeDef],
) -> tuple[LiteralValue, ...]:
    out = set()
    for f in findings:
        if f.rule in LITERAL_RULES:
            value = f.after if LITERAL_RULES[f.rule] == "added" else f.before
            out.add(LiteralValue(f.subject, value or "", LITERAL_RULES[f.rule], f.id))
        elif f.rule in ("type-added", "type-removed"):
            types, change = (
                (new_types, "added") if f.rule == "type-added" else (old_types, "removed")
            )
            td = types.get(f.subject)
            for v in _literals_of(td.type) if td is not None else ():
                out.add(LiteralValue(f.subject, v, change, f.id))
    return tuple(sorted(out))


def roots(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.echo_of is None]


def _ref(f: Finding) -> dict[str, Any]:
    return {"id": f.id, "rule": f.rule, "level": f.level, "subject": f.subject,
            "before": f.before, "after": f.after}  # fmt: skip


def cross_cutting(findings: tuple[Finding, ...]) -> list[Finding]:
    """Root findings (not documentation, not info) carried by many methods. A declaration added
    counts when existing messages now name it (a `type-reference-changed` retargets to it:
    `RequestParams._meta` became `RequestMetaObject`): implementers meet it everywhere."""
    named = {f.after for f in findings if f.rule == "type-reference-changed"}
    return [
        f
        for f in roots(findings)
        if f.category not in ("documentation", "method")
        and (f.rule not in _NOT_REQUIREMENTS or (f.rule == "type-added" and f.subject in named))
        and f.level != "info"
        and len(f.methods) >= CROSS_CUTTING_MIN
    ]


def summarize(findings: tuple[Finding, ...], literals: tuple[LiteralValue, ...]) -> dict[str, Any]:
    """The summary object; every list is sorted, every entry names the finding id it comes from."""
    echoes = tally.echoes(findings)

    def method(f: Finding) -> dict[str, Any]:
        return {"method": f.subject, "id": f.id, "level": f.level, "sent_by": list(f.sent_by),
                "before": f.before, "after": f.after, "echoes": echoes.get(f.id, 0)}  # fmt: skip

    by_rule: dict[str, list[Finding]] = {}
    for f in findings:
        by_rule.setdefault(f.rule, []).append(f)
    changed: dict[str, list[Finding]] = {}
    whole = {f.subject for f in findings if f.rule in ("method-added", "method-removed")}
    for f in roots(findings):
        if f.category != "documentation":
            for m in f.methods:
                if m not in whole:
                    changed.setdefault(m, []).append(f)
    return {
        **tally.per_level(findings),
        "roots": tally.counts(findings),
        "echoes": sum(echoes.values()),
        "methods": {
            "added": [method(f) for f in by_rule.get("method-added", [])],
            "removed": [method(f) for f in by_rule.get("method-removed", [])],
            "moved": [method(f) for f in by_rule.get("method-transport-changed", [])],
            "changed": [
                {"method": m, "level": worst(f.level for f in fs), "findings": len(fs)}
                for m, fs in sorted(changed.items())
            ],
        },
        "cross_cutting": [
            {**_ref(f), "affects": len(f.methods)}
            for f in sorted(cross_cutting(findings), key=lambda f: (-len(f.methods), f.sort_key()))
        ],
        "deprecations": sorted(
            [
                {"id": f.id, "subject": f.subject, "change": f.rule.removeprefix("deprecated-")}
                for f in findings
                if f.rule in ("deprecated-added", "deprecated-removed")
            ]
            + [  # added already deprecated: a deprecation too
                {"id": f.id, "subject": f.subject, "change": "added"}
                for f in findings
                if f.deprecated and f.rule in _ADDITIONS
            ],
            key=lambda d: (d["subject"], d["change"], d["id"]),
        ),
        "literals": [
            {"subject": v.subject, "value": v.value, "change": v.change, "id": v.finding}
            for v in literals
        ],
    }
