"""One counting rule everywhere: for every consecutive pair of official versions, every output a
person or a gate reads gives the same root-cause counts (`codegen/diff/tally.py`)."""

from __future__ import annotations

import json
import re
from functools import cache
from itertools import pairwise
from typing import Any
from xml.etree import ElementTree as ET

import corpus
import pytest

from codegen.cli.diff import fail_message
from codegen.diff import Report, diff
from codegen.diff.ci import COMMENT_LIMIT, acting
from codegen.diff.history import history_files
from codegen.diff.html import render_html
from codegen.diff.markdown import code
from codegen.diff.report import render, render_json, render_markdown
from codegen.diff.tally import LEVELS
from codegen.spec.pins import known_versions

VERSIONS = corpus.version_names()
# consecutive schemas, and consecutive released versions (2025-06-18 -> 2025-11-25 skips the
# intermediate draft): what a maintainer upgrades across
RELEASED = [v for v in VERSIONS if v in known_versions() and v != "draft"]
PAIRS = list(dict.fromkeys([*pairwise(VERSIONS), *pairwise(RELEASED)]))
HOPS = list(pairwise(VERSIONS))  # the pairs of the history index
IDS = [f"{a}..{b}" for a, b in PAIRS]


@cache
def report(a: str, b: str) -> Report:
    return diff(corpus.resolved(a), corpus.resolved(b))


def parse_line(text: str) -> dict[str, int]:
    """`55 breaking, 29 risky` -> {"breaking": 55, "risky": 29}; `none` -> {}."""
    out = {}
    for part in text.split(", "):
        if part != "none":
            n, level = part.split(" ", 1)
            out[level] = int(n)
    return out


def expected(r: Report) -> dict[str, int]:
    roots = json.loads(render_json(r))["summary"]["roots"]
    return {level: roots[level] for level in LEVELS if roots[level]}


def markdown_counts(md: str) -> tuple[dict[str, int], dict[str, int]]:
    """The headline's counts and the counts table's."""
    head = re.search(r"^(\d+) root causes \(([^)]*)\)", md, re.MULTILINE)
    assert head is not None
    headline = parse_line(head.group(2))
    assert int(head.group(1)) == sum(headline.values())
    table = {
        level: int(n)
        for level, n in re.findall(r"^\| (\w+) \| (\d+) \|", md, re.MULTILINE)
        if level in LEVELS
    }
    return headline, table


def html_counts(page: str) -> dict[str, int]:
    rows = re.findall(r'<tr data-count-level="(\w+)"><td>\w+</td><td class="num">(\d+)</td>', page)
    return {level: int(n) for level, n in rows if level in LEVELS}


@pytest.mark.spec
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=IDS)
def test_every_output_counts_the_same(spec_root: Any, a: str, b: str) -> None:
    r = report(a, b)
    want = expected(r)
    headline, table = markdown_counts(render_markdown(r))
    assert headline == want and table == want
    assert html_counts(render_html(json.loads(render_json(r)))) == want
    for level in ("breaking", "risky"):
        failing = r.failing(level)
        n = sum(v for k, v in want.items() if LEVELS.index(k) <= LEVELS.index(level))
        assert len(failing) == n
        if n:
            message = fail_message(r, failing, level)
            assert message.startswith(f"{n} root cause(s) fail --fail-on {level} (")
            assert parse_line(message.split("(", 2)[2].rstrip(")")) == {
                k: v for k, v in want.items() if LEVELS.index(k) <= LEVELS.index(level)
            }
    summary = render(r, "summary")
    head = re.search(r"\*\*([^*]*)\*\*", summary)
    assert parse_line(head.group(1) if head else "none") == want
    github = render(r, "github")
    shown = github.count("::error ") + github.count("::warning ")
    more = re.search(r"(\d+) more breaking or risky", github)
    assert shown + (int(more.group(1)) if more else 0) == want.get("breaking", 0) + want.get(
        "risky", 0
    )
    assert len(summary) < COMMENT_LIMIT and "cut to fit" not in summary
    for f, _ in acting(r):
        assert f"`{f.rule}` {code(f.subject)}" in summary, f.subject
    md = render_markdown(r)
    action = md.split("## Details")[0]
    for f, _ in acting(r):  # every breaking and risky root cause is in the action part
        assert f"(#{f.id})" in action, (f.rule, f.subject)
    junit = render(r, "junit")
    ET.fromstring(junit)  # well-formed XML
    assert junit.count("<testcase ") == sum(want.values())
    assert junit.count("<failure ") == want.get("breaking", 0)


@pytest.mark.spec
def test_history_index_counts_the_same(spec_root: Any) -> None:
    index = history_files([corpus.resolved(v) for v in VERSIONS])["index.html"]
    for a, b in HOPS:
        found = re.search(
            rf"{re.escape(a)} → {re.escape(b)}</a> \((\d+) root causes(?:: ([^;)]*))?", index
        )
        assert found is not None, (a, b)
        want = expected(report(a, b))
        assert int(found.group(1)) == sum(want.values())
        assert parse_line(found.group(2) or "none") == want
