"""The diff's HTML page and the history pages, without a browser: content, escaping of hostile
schema text, the JSON format's optional keys, the commands, atomic output and the committed pages
(generated/reports/history/ and generated/reports/example-v1..v2.html; `pytest --update-golden`
rewrites them). tests/test_browser.py looks at the same pages in Chromium."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import corpus
import pytest
from cli_support import run_cli
from golden_files import check_golden

from codegen.diff import diff
from codegen.diff.history import Touch, cell_state, file_names, history_files, touched
from codegen.diff.html import render_html
from codegen.diff.report import render
from codegen.pipeline import load

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "schemas" / "example"
HOSTILE = REPO / "tests" / "fixtures" / "hostile"
REPORTS = REPO / "generated" / "reports"
HISTORY = REPORTS / "history"
VERSIONS = corpus.version_names()
# The example's JSON report with the keys the format gained for the migration summary (summary
# methods/cross_cutting/deprecations/literals, roots and echoes; finding id, echo_of, lines).
RICHER = REPO / "tests" / "fixtures" / "html" / "example-v1..v2.richer.json"


def richer_doc() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RICHER.read_text(encoding="utf-8"))
    return data


def doc_of(old: Path, new: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(render(diff(load(str(old)), load(str(new))), "json"))
    return data


def example_doc() -> dict[str, Any]:
    return doc_of(EXAMPLE / "v1" / "schema.ts", EXAMPLE / "v2" / "schema.ts")


def hostile_doc() -> dict[str, Any]:
    return doc_of(HOSTILE / "injection-before.ts", HOSTILE / "injection.ts")


def tags(page: str, name: str) -> list[str]:
    return re.findall(rf"<{name}\b[^>]*>", page, flags=re.IGNORECASE)


class Markup(HTMLParser):
    """Every element and attribute a browser would build from the page."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, attrs))


# What the templates write; schema text that broke out of escaping would add to these.
ELEMENTS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p",
            "section", "div", "table", "tr", "th", "td", "code", "ul", "li", "dl", "dt", "dd",
            "details", "summary", "span", "button", "label", "input", "select", "option", "a",
            "script"}  # fmt: skip
ATTRIBUTES = {"lang", "charset", "name", "content", "http-equiv", "class", "id", "role",
              "aria-label", "type", "value", "checked", "placeholder", "style", "href", "rel",
              "title", "data-level", "data-methods", "data-subject", "data-root", "data-method",
              "data-state", "data-count-level", "data-group-level", "data-echo", "data-name",
              "data-changed", "data-shown-for", "open"}  # fmt: skip


def assert_inert(page: str) -> None:
    """Only the templates' own elements and attributes, no script but ours, no script links."""
    elements = Markup(page).elements
    assert {tag for tag, _ in elements} <= ELEMENTS
    assert {name for _, attrs in elements for name, _ in attrs} <= ATTRIBUTES
    assert sum(1 for tag, _ in elements if tag == "script") <= 1
    hrefs = [v or "" for _, attrs in elements for name, v in attrs if name == "href"]
    assert not [h for h in hrefs if not re.match(r"^(https://|[\w.-]+\.html(#|$)|#)", h)], hrefs


# ---------------------------------------------------------------------------------------------
# The diff page


def test_page_has_summary_filters_and_every_finding() -> None:
    doc = example_doc()
    page = render_html(doc)
    assert page.index('id="summary"') < page.index('id="methods"') < page.index('id="details"')
    breaking = doc["summary"]["roots"]["breaking"]  # root causes, as everywhere
    assert (
        f'<tr data-count-level="breaking"><td>breaking</td><td class="num">{breaking}</td>' in page
    )
    assert "<h3>Methods added</h3>" in page and "<code>widgets/watch</code>" in page
    assert len(tags(page, "details")) == len(doc["findings"]) + 1  # + the folded documentation
    assert '<details class="docs group" id="documentation">' in page  # closed: no `open`
    for level in ("breaking", "risky", "compatible", "info"):
        assert f'<input type="checkbox" name="level" value="{level}" checked>' in page
    for m in ("widgets/lock", "widgets/watch", "initialize"):
        assert f'<option value="{m}">{m}</option>' in page


def test_page_is_self_contained_and_runs_only_its_own_script() -> None:
    page = render_html(example_doc())
    assert len(tags(page, "script")) == 1 and not re.search(r"<script\b[^>]*\bsrc=", page)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched
    assert "<link" not in page and "@import" not in page
    csp = re.search(r"script-src '(sha256-[^']+)'", page)
    assert csp, "the Content-Security-Policy names the page's one script by hash"


def test_hostile_text_is_escaped_everywhere() -> None:
    doc = hostile_doc()
    page = render_html(doc)
    assert_inert(page)
    assert len(tags(page, "script")) == 1  # ours, at the end
    text = html.unescape(page)
    for f in doc["findings"]:  # every name and literal is shown, as text
        for value in (f["subject"], f["before"], f["after"], *f["methods"]):
            assert value is None or value in text, value
    for payload in (
        "<script>document.title = 'PWNED'; window.__pwned = 'literal';</script>",
        "</textarea><script>window.__pwned = 'textarea';</script>",
        "javascript:window.__pwned = 'link'",
        "<script>window.__pwned = 'method';</script>",
        "><img src=x onerror=window.__pwned='attr'>",
    ):
        assert payload in text, payload
    assert '__pwned = "doc"' not in text and "markup-doc" not in text  # no doc prose at all


def test_richer_report_summary_echoes_and_lines() -> None:
    """A report with the migration summary, ids, echoes and lines: the page shows the report's
    own summary (linked to the findings), root-cause counts and echoes hidden behind a switch."""
    doc = richer_doc()
    page = render_html(doc)
    summary = page[page.index('id="summary"') : page.index('id="methods"')]
    for title in ("Methods removed", "Methods added", "Methods changed", "Deprecations",
                  "Literal values"):  # fmt: skip
        assert f"<h3>{title}</h3>" in summary, title
    removed = doc["summary"]["methods"]["removed"][0]
    assert f'<a href="#{removed["id"]}"><code>widgets/lock</code></a>' in summary
    assert "+5 restatements" in summary
    assert '<a href="#method=widgets%2Fget"><code>widgets/get</code></a>' in summary
    echoes = doc["summary"]["echoes"]
    assert (
        "<th title=" in summary
        and f'<th class="num">{len(doc["findings"]) - echoes}</th>' in summary
    )
    assert f'<input type="checkbox" id="echo-filter"> {echoes} echoes' in page
    assert page.count('data-echo="1"') == echoes
    echo = next(f for f in doc["findings"] if f["echo_of"])
    assert f'<a href="#{echo["echo_of"]}">' in page
    first = doc["findings"][0]
    assert f'<details class="finding" id="{first["id"]}"' in page
    old, new = first["lines"]["old"], first["lines"]["new"]  # no URL known: line numbers
    assert (
        f'<dd><span class="line">old line {old}</span>, <span class="line">new line {new}</span>'
        in page
    )
    assert "<dt>lines</dt>" not in page and "<dt>id</dt>" not in page  # laid out, not dumped


def test_unknown_keys_are_shown_as_they_come() -> None:
    """Keys the JSON format gains later are shown generically; only https URLs become links."""
    doc = example_doc()
    doc["summary"] = {**doc["summary"], "upgrade_notes": [{"affects": 13, "text": "x"}]}
    doc["findings"][0] = {
        **doc["findings"][0],
        "permalinks": {"new": "https://example.org/schema.ts#L12", "old": "javascript:alert(1)"},
    }
    page = render_html(doc)
    assert "<h3>Upgrade notes</h3>" in page and "<dt>affects</dt><dd>13</dd>" in page
    assert "<h3>Deprecations</h3>" in page  # computed from the findings: no migration keys
    assert "<dt>permalinks</dt>" in page
    assert '<a href="https://example.org/schema.ts#L12" rel="noreferrer">' in page
    assert 'href="javascript:' not in page and "<code>javascript:alert(1)</code>" in page
    assert_inert(page)


def test_diff_command_writes_html(tmp_path: Path) -> None:
    out = tmp_path / "diff.html"
    proc = run_cli(
        "diff", str(EXAMPLE / "v1/schema.ts"), str(EXAMPLE / "v2/schema.ts"),
        "--format", "html", "-o", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8") == render_html(example_doc())


# ---------------------------------------------------------------------------------------------
# History


def test_cell_states() -> None:
    assert [cell_state(None, True, None), cell_state(None, False, None)] == ["present", "absent"]
    assert cell_state(False, True, "changed") == "added"
    assert cell_state(True, False, None) == "removed"
    assert cell_state(False, False, None) == "absent"
    assert [cell_state(True, True, t) for t in (None, "changed", "docs")] == [
        "present",
        "changed",
        "docs",
    ]


def test_touched_separates_wire_and_documentation_changes() -> None:
    methods, types = touched(example_doc())
    assert methods["widgets/lock"].state == "changed" and types["Widget"].state == "changed"
    assert all(t.state in ("changed", "docs") for t in [*methods.values(), *types.values()])
    doc = {"findings": [
        {"rule": "description-changed", "category": "documentation", "subject": "A.x",
         "methods": ["m"], "level": "info", "id": "f1"},
        {"rule": "method-transport-changed", "category": "method", "subject": "m", "methods": [],
         "level": "breaking", "id": "f2"},
        {"rule": "property-added-optional", "category": "property", "subject": "A.y",
         "methods": ["m"], "level": "compatible", "id": "f3"},
    ]}  # fmt: skip
    assert touched(doc) == (
        {"m": Touch("moved", "breaking", 2)},
        {"A": Touch("changed", "compatible", 1)},
    )


def test_file_names_are_safe_and_distinct() -> None:
    assert file_names(["2025-06-18", "draft"]) == ["2025-06-18", "draft"]
    assert file_names(["<img src=x>", "../etc", "a b", "a_b", ""]) == [
        "img_src_x", "etc", "a_b", "a_b_2", "schema",
    ]  # fmt: skip


def test_example_history() -> None:
    files = history_files([load(str(EXAMPLE / v / "schema.ts")) for v in ("v1", "v2")])
    assert sorted(files) == ["index.html", "v1..v2.html"]
    index = files["index.html"]
    row = re.search(r"<th class=\"name\"><code>widgets/watch</code></th>(.*?)</tr>", index)
    assert row and 'data-state="absent"' in row.group(1) and 'data-state="added"' in row.group(1)
    assert '<a href="v1..v2.html#method=widgets%2Fwatch">added</a>' in row.group(1)
    lock = re.search(r"<code>widgets/lock</code></th>(.*?)</tr>", index)
    assert lock and 'data-state="removed"' in lock.group(1)
    assert '<section id="types">' in index and "v1..v2.html#type=Widget" in index
    assert files["v1..v2.html"] == render_html(example_doc())


def test_history_command_is_atomic(tmp_path: Path) -> None:
    out = tmp_path / "history"
    v1, v2 = str(EXAMPLE / "v1/schema.ts"), str(EXAMPLE / "v2/schema.ts")
    proc = run_cli("history", v1, v2, v1, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == [".mcp-codegen-manifest.json", "index.html", "v1..v2.html", "v2..v1_2.html"]
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    broken = tmp_path / "broken.ts"
    broken.write_text("export interface {\n", encoding="utf-8")
    proc = run_cli("history", v1, str(broken), "-o", str(out))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.ts", "history"]
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask  # not the temporary folder's 0700


def test_hostile_labels_reach_no_file_name_or_markup(tmp_path: Path) -> None:
    old = tmp_path / "<img src=x onerror=window.__pwned=1>.ts"
    new = tmp_path / "\"'><b>new.ts"
    shutil.copy(HOSTILE / "injection-before.ts", old)
    shutil.copy(HOSTILE / "injection.ts", new)
    files = history_files([load(str(old)), load(str(new))])
    assert sorted(files) == ["img_src_x_onerror_window.__pwned_1..b_new.html", "index.html"]
    for page in files.values():
        assert_inert(page)


# ---------------------------------------------------------------------------------------------
# Committed pages


def official_history() -> dict[str, str]:
    return history_files([corpus.resolved(v) for v in VERSIONS])


def test_example_page_is_current(update_golden: bool) -> None:
    check_golden(REPORTS / "example-v1..v2.html", render_html(example_doc()), update_golden)


@pytest.mark.spec
def test_official_history_is_current(spec_root: Path, update_golden: bool) -> None:
    files = official_history()
    assert len(files) == len(VERSIONS) == 7
    for name, text in sorted(files.items()):
        check_golden(HISTORY / name, text, update_golden)
    present = sorted(p.name for p in HISTORY.iterdir())
    assert present == sorted(files), "pages nobody regenerates under generated/reports/history/"


@pytest.mark.spec
def test_official_history_carries_no_prose(spec_root: Path) -> None:
    """No sentence of any description of any version appears on the committed pages."""
    text = "\n".join(html.unescape(p.read_text(encoding="utf-8")) for p in HISTORY.glob("*.html"))
    for version in VERSIONS:
        for t in corpus.resolved(version).types:
            docs = [t.doc.text]
            if hasattr(t.type, "properties"):
                docs += [p.doc.text for p in t.type.properties]  # type: ignore[union-attr]
            for d in docs:
                for sentence in re.split(r"(?<=[.!?])\s+|\n", d):
                    if len(sentence) >= 24:
                        assert sentence not in text, (version, t.name)


def test_history_of_a_hundred_drafts_stays_readable() -> None:
    """Over COMPACT_OVER schemas the matrix comes first in short cells and upright narrow
    columns, the version table folded below it; the header and the name column stay sticky."""
    from codegen.diff.history import COMPACT_OVER
    from codegen.pipeline import load_text

    drafts = [
        load_text(f"export interface T {{\n  a{i // 10}: string;\n}}\n", f"d{i:03}.ts")
        for i in range(100)
    ]
    page = history_files(drafts)["index.html"]
    assert len(drafts) > COMPACT_OVER and '<body class="compact">' in page
    assert page.index('<section id="types">') < page.index('<details id="versions">')
    assert '<details id="versions" open>' not in page
    cells = re.findall(r"<td [^>]*><(?:a|span)[^>]*>([^<]*)</", page)
    assert len(cells) >= 100 and max(len(c) for c in cells) <= 4
    assert ".matrix tr:first-child th { position: sticky; top: 0;" in page
    assert ".matrix th.name { position: sticky; left: 0;" in page
    assert "writing-mode: vertical-rl" in page
