"""One finding per fact, on fixtures reduced from real pull requests of the specification
(tests/fixtures/spec-prs/<commit>/{old,new}.ts): each restated fact is one root cause, its
restatements folded under it, counted once at its worst level in every output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from codegen.diff import Report, diff, tally
from codegen.diff.ci import render_github, render_junit, render_summary
from codegen.diff.report import render_json
from codegen.pipeline import load

FIXTURES = Path(__file__).parent / "fixtures" / "spec-prs"

# commit -> the root causes a reviewer counts: (rule, subject) -> (worst level, restatements)
ROOTS: dict[str, dict[tuple[str, str], tuple[str, int]]] = {
    # methods removed with their `*ResultResponse` wrappers (one wraps the shared EmptyResult)
    "8e192a22": {
        ("method-removed", "initialize"): ("breaking", 5),
        ("method-removed", "ping"): ("breaking", 3),
        ("method-added", "server/discover"): ("risky", 5),
    },
    # a new alternative result, restated by the wrappers' `result`, by `ServerResult` and by
    # the declaration of the alternative itself
    "77a48167": {
        ("method-result-alternative-added", "prompts/get"): ("breaking", 3),
        ("method-result-alternative-added", "tools/call"): ("breaking", 1),
    },
    # `ClientNotification` losing the notification restates its direction narrowed
    "38639c08": {("method-direction-narrowed", "notifications/progress"): ("breaking", 1)},
    # `ServerResult` gaining the result restates the method's result changed
    "2ffc3fa2": {("method-result-changed", "subscriptions/listen"): ("breaking", 2)},
    # an error code renumbered is not also its error type's `code` literal changed
    "f817239f": {
        ("error-code-changed", "HEADER_MISMATCH"): ("breaking", 1),
        ("error-code-changed", "UNSUPPORTED_PROTOCOL_VERSION"): ("breaking", 1),
    },
    # one new base inherited by three results: one fact, not six
    "fa6f8512": {("type-added", "CacheableResult"): ("breaking", 6)},
    # one removal, compatible through tools/call and breaking through ServerResult: breaking
    "33959736": {
        ("method-result-alternative-removed", "tools/call"): ("breaking", 2),
        ("type-removed", "TaskAugmentedRequestParams"): ("breaking", 1),
    },
}


def report(commit: str) -> Report:
    d = FIXTURES / commit
    return diff(load(str(d / "old.ts")), load(str(d / "new.ts")), "old", "new")


@pytest.mark.parametrize("commit", sorted(ROOTS))
def test_one_root_per_fact(commit: str) -> None:
    r = report(commit)
    levels = tally.root_levels(r.findings)
    echoes = tally.echoes(r.findings)
    got = {
        (f.rule, f.subject): (levels[f.id], echoes.get(f.id, 0))
        for f in r.findings
        if f.id in levels
    }
    assert got == ROOTS[commit]
    # every finding is a root or folded under one, and an echo never points at an echo
    by_id = {f.id: f for f in r.findings}
    assert all(by_id[f.echo_of].echo_of is None for f in r.findings if f.echo_of)


@pytest.mark.parametrize("commit", sorted(ROOTS))
def test_every_output_counts_the_roots(commit: str) -> None:
    """The JSON, the PR summary, the annotations and JUnit all count the same roots."""
    r = report(commit)
    want = {level: n for level, n in r.counts().items() if level in tally.LEVELS and n}
    assert sum(want.values()) == len(ROOTS[commit])
    doc = json.loads(render_json(r))
    assert {k: v for k, v in doc["summary"]["roots"].items() if k in want} == want
    head = render_summary(r).splitlines()[2]
    assert head.startswith(f"**{tally.line(r.counts())}**")
    acting = sum(n for level, n in want.items() if level in ("breaking", "risky"))
    assert len(render_github(r).splitlines()) == acting
    junit = render_junit(r)
    assert re.search(rf'<testsuites [^>]*tests="{len(ROOTS[commit])}"', junit)


def test_worst_level_gates() -> None:
    """33959736: the alternative's removal is compatible on tools/call, its `ServerResult`
    restatement breaking; the fact fails `--fail-on breaking` once."""
    r = report("33959736")
    root = next(f for f in r.findings if f.rule == "method-result-alternative-removed")
    assert root.level == "compatible"  # its own level, as the rule table gives it
    assert [f.subject for f in r.failing("breaking")].count("tools/call") == 1
    assert "**breaking** `method-result-alternative-removed`" in render_summary(r)
