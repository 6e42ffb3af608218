"""The diff and history pages as a person sees them, in headless Chromium (Debian's `chromium`,
driven by Playwright from PyPI; Playwright's own browser downloads are never used).

Skipped when Chromium or Playwright is missing, failed under CI=true (`.ci/run` installs Chromium
when it runs as root). Screenshots are kept in $MCP_CODEGEN_ARTIFACTS (default: tmp/artifacts in
the checkout); the path is printed at the end of the run.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import corpus
import pytest
from test_diff_html import EXAMPLE, HOSTILE, REPORTS, example_doc, richer_doc

from codegen.diff.history import history_files
from codegen.diff.html import render_html
from codegen.pipeline import declared, load
from codegen.reference import find_template
from codegen.reference.site import site_files

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("MCP_CODEGEN_CHROMIUM", "/usr/bin/chromium"))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


def missing(what: str) -> None:
    corpus.missing(
        f"browser tests need {what}: see the browser tests section of docs/diff-reports.md"
    )


@pytest.fixture(scope="session")
def artifacts(request: pytest.FixtureRequest) -> Path:
    path = Path(os.environ.get("MCP_CODEGEN_ARTIFACTS", REPO / "tmp" / "artifacts")).resolve()
    path.mkdir(parents=True, exist_ok=True)
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if capture is not None:  # printed past pytest's capture, once per run
        with capture.global_and_fixture_disabled():
            print(f"\nbrowser test screenshots: {path}")
    return path


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Chromium for the session, with a fresh profile and no network of its own."""
    if not CHROMIUM.is_file():
        missing(f"Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright (pip install -e '.[test]')")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1280, "height": 900},
            offline=True,
        )
        yield context
        context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A tab that records script errors and Content-Security-Policy reports."""
    tab = browser.new_page()
    tab.problems = []
    tab.on("pageerror", lambda e: tab.problems.append(f"error: {e}"))
    tab.on("console", lambda m: tab.problems.append(f"console {m.type}: {m.text}"))
    yield tab
    tab.close()


def example_pages(folder: Path) -> Path:
    v1, v2 = (load(str(EXAMPLE / v / "schema.ts")) for v in ("v1", "v2"))
    for name, text in history_files([v1, v2, v1]).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def visible(page: Any, selector: str) -> int:
    return int(page.locator(f"{selector}:visible").count())


def row(page: Any, section: str, name: str) -> Any:
    """The matrix row of exactly `name`."""
    code = page.locator("th code").filter(has_text=re.compile(f"^{re.escape(name)}$"))
    return page.locator(f"#{section} tr", has=code)


# Anything that could run a handler the schema smuggled in: every element gets every event.
FIRE_EVENTS = """() => {
  for (const e of document.querySelectorAll("*")) {
    for (const t of ["mouseover", "focus", "click", "error", "load"]) {
      if (t === "click" && (e.tagName === "A" || e.tagName === "BUTTON")) continue;
      e.dispatchEvent(new Event(t));
    }
  }
}"""
HANDLERS = """() => [...document.querySelectorAll("*")].flatMap(
  e => [...e.attributes].filter(a => a.name.startsWith("on")).map(a => e.tagName + " " + a.name))"""


# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_diff_page_summary_and_filters(page: Any, tmp_path: Path, artifacts: Path) -> None:
    doc = example_doc()  # what the committed page is made from; expectations follow from it
    wire = [f for f in doc["findings"] if f["category"] != "documentation"]
    shown_wire = [f for f in wire if not f.get("echo_of")]  # echoes start hidden
    unfiltered = [f for f in doc["findings"] if not f.get("echo_of")]
    breaking = doc["summary"]["roots"]["breaking"]  # root causes: the one count
    path = tmp_path / "diff.html"
    path.write_text(REPORTS.joinpath("example-v1..v2.html").read_text(encoding="utf-8"))
    page.goto(path.as_uri())
    assert page.title() == "Schema diff: v1 → v2"
    summary = page.locator("#summary")
    count = summary.locator("tr[data-count-level=breaking] td.num").first.inner_text()
    assert count == str(breaking) != "0"
    methods_added = summary.locator(".summary-section", has_text="Methods added").inner_text()
    assert "widgets/watch" in methods_added
    assert visible(page, ".finding") == len(shown_wire)  # documentation-only ones are folded
    assert page.locator("#shown-count").inner_text() == str(len(unfiltered))
    page.locator("input[name=level][value=breaking]").uncheck()
    hidden = [f for f in shown_wire if f["level"] == "breaking"]
    assert visible(page, ".finding[data-level=breaking]") == 0
    assert visible(page, ".finding") == len(shown_wire) - len(hidden) > 0
    assert page.locator("#shown-count").inner_text() == str(len(unfiltered) - len(hidden))
    page.locator("#reset-filters").click()
    page.locator("#methods button[data-method='widgets/lock']").click()
    assert page.locator("#method-filter").input_value() == "widgets/lock"
    shown = page.locator(".finding:visible")
    lock = [f for f in wire if "widgets/lock" in f["methods"]]
    assert shown.count() == len(lock) > 0  # "Show all" shows echoes too
    for i in range(shown.count()):
        assert "widgets/lock" in (shown.nth(i).get_attribute("data-methods") or "")
    first = shown.first
    first.locator("summary").click()  # collapsible details open on click
    assert first.get_attribute("open") is not None and first.locator("dd").first.is_visible()
    page.locator("#reset-filters").click()
    page.screenshot(path=str(artifacts / "diff-page.png"))
    assert page.problems == []


def test_echoes_and_summary_links(page: Any, tmp_path: Path, artifacts: Path) -> None:
    """With a report that marks echoes: they are hidden until asked for, and a summary entry
    opens its finding even when a filter hides it."""
    doc = richer_doc()
    path = tmp_path / "richer.html"
    path.write_text(render_html(doc), encoding="utf-8")
    page.goto(path.as_uri())
    wire = [f for f in doc["findings"] if f["category"] != "documentation"]
    roots = [f for f in wire if not f["echo_of"]]
    assert visible(page, ".finding") == len(roots) < len(wire)
    page.locator("#echo-filter").check()
    assert visible(page, ".finding") == len(wire)
    page.locator("#echo-filter").uncheck()
    page.locator("input[name=level][value=breaking]").uncheck()
    removed = doc["summary"]["methods"]["removed"][0]  # widgets/lock: a breaking finding
    page.locator("#summary a", has_text="widgets/lock").click()
    target = page.locator(f"[id='{removed['id']}']")
    assert target.is_visible() and target.get_attribute("open") is not None
    assert page.locator("input[name=level][value=breaking]").is_checked()  # filters reset
    page.screenshot(path=str(artifacts / "diff-page-richer.png"))
    assert page.problems == []


def test_history_page_matrix_and_click_through(page: Any, tmp_path: Path, artifacts: Path) -> None:
    folder = example_pages(tmp_path)
    page.goto((folder / "index.html").as_uri())
    watch = row(page, "methods", "widgets/watch")
    assert [watch.locator("td").nth(i).inner_text() for i in range(3)] == ["", "added", "removed"]
    lock = row(page, "methods", "widgets/lock")
    assert [lock.locator("td").nth(i).get_attribute("data-state") for i in range(3)] == [
        "present", "removed", "added",
    ]  # fmt: skip
    widget = row(page, "types", "Widget").locator("td").nth(1)
    level, n = widget.inner_text().split(" · ")  # the worst level and the root-cause count
    assert widget.get_attribute("data-level") == level and int(n) > 0
    assert widget.get_attribute("title") == f"changed: {n} root causes, the worst {level}"
    page.screenshot(path=str(artifacts / "history-page-example.png"))
    watch.locator("td").nth(1).locator("a").click()  # v2 added widgets/watch: to v1..v2
    page.wait_for_load_state()
    assert page.url.endswith("v1..v2.html#method=widgets%2Fwatch")
    assert page.title() == "Schema diff: v1 → v2"
    assert page.locator("#method-filter").input_value() == "widgets/watch"
    shown = page.locator(".finding:visible")
    assert 0 < shown.count() < len(example_doc()["findings"])
    for i in range(shown.count()):
        assert "widgets/watch" in (shown.nth(i).get_attribute("data-methods") or "")
    assert page.problems == []


@pytest.mark.spec
def test_official_history_page(page: Any, spec_root: Path, artifacts: Path) -> None:
    page.goto((REPORTS / "history" / "index.html").as_uri())
    headers = page.locator("#methods tr").first.locator("th").all_inner_texts()
    assert headers == ["Method", *corpus.version_names()]
    initialize = row(page, "methods", "initialize")
    assert initialize.locator("td").nth(5).inner_text() == "removed"  # 2025-11-25 -> 2026-07-28
    page.screenshot(path=str(artifacts / "history-page.png"))
    initialize.locator("td").nth(5).locator("a").click()
    page.wait_for_load_state()
    assert page.title() == "Schema diff: 2025-11-25 → 2026-07-28"
    assert page.locator("#method-filter").input_value() == "initialize"
    assert page.locator(".finding[data-level=breaking]:visible").count() > 0
    page.screenshot(path=str(artifacts / "diff-page-official.png"))
    assert page.problems == []


def test_hostile_schema_text_stays_text(page: Any, tmp_path: Path, artifacts: Path) -> None:
    """The injection fixture's markup (script tags, </textarea>, javascript: links, attribute
    quotes in names, docs and literals, and in the file names that become labels) renders as
    text; none of its scripts runs, and the page's own script still does."""
    old = tmp_path / "<img src=x onerror=window.__pwned=1>.ts"
    new = tmp_path / "\"'><b onclick=window.__pwned=2>new.ts"
    shutil.copy(HOSTILE / "injection-before.ts", old)
    shutil.copy(HOSTILE / "injection.ts", new)
    files = history_files([load(str(old)), load(str(new))])
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    pair = next(name for name in files if name != "index.html")
    for name in ("index.html", pair):
        page.goto((tmp_path / name).as_uri())
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert page.evaluate(HANDLERS) == []  # no attribute broke out of its quotes
        page.evaluate(FIRE_EVENTS)
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert "PWNED" not in page.title()
        assert page.locator("img, textarea, b").count() == 0
        assert page.locator("script").count() == 1  # the page's own
        assert page.locator("a[href^='javascript:' i]").count() == 0
        assert "<img src=x onerror=window.__pwned=1>" in page.locator("h1").inner_text()
        assert page.problems == []  # no CSP report either: nothing tried to run
    body = page.locator("body").inner_text()
    assert "<script>document.title = 'PWNED'; window.__pwned = 'literal';</script>" in body
    assert "</textarea><script>window.__pwned = 'textarea';</script>" in body
    roots = page.locator(".finding[data-echo='0']").count()
    assert page.locator("#shown-count").inner_text() == str(roots)
    page.screenshot(path=str(artifacts / "hostile-diff-page.png"), full_page=True)


@pytest.mark.slow
def test_history_matrix_stays_readable_and_filters(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    """12 columns: the name column keeps its width and, like the header row, stays in view
    when the matrix scrolls; the filter box and the "changed only" switch pick rows; a cell
    of an unchanged name links nowhere."""
    v1, v2 = (load(str(EXAMPLE / v / "schema.ts")) for v in ("v1", "v2"))
    for name, text in history_files([v1, v2] * 6).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    page.goto((tmp_path / "index.html").as_uri())
    assert page.locator("#methods tr").first.locator("th").count() == 13
    name_cell = page.locator("#types th.name").first
    assert name_cell.bounding_box()["width"] >= 180  # not squeezed to a few characters
    wrap = page.locator("#types .matrix-wrap")
    header = page.locator("#types tr").first.locator("th").nth(3)
    top = header.bounding_box()["y"]
    wrap.evaluate("el => { el.scrollTop = 200; el.scrollLeft = 400; }")
    assert header.bounding_box()["y"] == pytest.approx(top, abs=1)  # the header stays
    assert name_cell.bounding_box()["x"] >= wrap.bounding_box()["x"] - 1  # so does the name
    wrap.evaluate("el => { el.scrollTop = 0; el.scrollLeft = 0; }")
    # a ✓ cell (present, unchanged) is no link; a changed one is
    for section in ("methods", "types"):
        present = page.locator(f"#{section} td[data-state=present]")
        assert present.count() > 0 and present.locator("a").count() == 0
    all_rows = page.locator("#types tr[data-name]").count()
    page.locator("#name-filter").fill("widget")
    shown = page.locator("#types tr[data-name]:visible")
    assert 0 < shown.count() < all_rows
    for i in range(shown.count()):
        assert "widget" in (shown.nth(i).get_attribute("data-name") or "").lower()
    assert page.locator("[data-shown-for=types]").inner_text() == str(shown.count())
    page.locator("#name-filter").fill("")
    page.locator("#changed-only").check()
    changed = page.locator("#types tr[data-name]:visible")
    assert 0 < changed.count() < all_rows
    for i in range(changed.count()):
        assert changed.nth(i).locator("td a").count() > 0
    page.screenshot(path=str(artifacts / "history-page-wide.png"))
    assert page.problems == []


@pytest.mark.slow
def test_history_of_100_versions_reads_matrix_first(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    """100 columns (the length of a year of drafts): the title names the first and the last,
    the matrices come first and scroll sideways with the names and the header row in view
    (nothing shows through the name column), the version table is collapsed below them and
    opens."""
    v1, v2 = (load(str(EXAMPLE / v / "schema.ts")) for v in ("v1", "v2"))
    labels = [f"draft-{i:03d}" for i in range(100)]
    for name, text in history_files([v1, v2] * 50, labels).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    page.goto((tmp_path / "index.html").as_uri())
    assert page.locator("h1").inner_text() == (
        "Schema history: draft-000 → … → draft-099 (100 schemas)"
    )
    assert page.locator("#types tr").first.locator("th").count() == 101
    wrap = page.locator("#types .matrix-wrap")
    width = wrap.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert width[0] > 2 * width[1]  # scrolls sideways, not squeezed
    assert (
        page.locator("#methods").bounding_box()["y"] < page.locator("#versions").bounding_box()["y"]
    )
    assert page.locator("details#versions").get_attribute("open") is None
    assert visible(page, "#versions a.pair") == 0
    header = page.locator("#types tr").first.locator("th").nth(60)
    wrap.evaluate("el => { el.scrollIntoView(); el.scrollTop = 300; el.scrollLeft = 4000; }")
    box, frame = header.bounding_box(), wrap.bounding_box()
    assert frame["y"] - 1 <= box["y"] <= frame["y"] + 2  # the header row stays on top
    names = page.locator("#types tr").first.locator("th").first.bounding_box()
    assert names["x"] == pytest.approx(frame["x"] + 1, abs=2)  # so does the name column
    # what shows at the name column's right edge is a name, not a cell scrolled under it
    shown = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('th, td').tagName",
        [names["x"] + names["width"] - 4, frame["y"] + 200],
    )
    assert shown == "TH"
    page.screenshot(path=str(artifacts / "history-100-columns.png"))
    page.locator("#versions summary").click()
    assert visible(page, "#versions a.pair") == 99
    assert page.problems == []


@pytest.mark.spec
def test_official_diff_page_links_to_schema_lines(page: Any, spec_root: Path) -> None:
    """A pinned version's lines link to its commit in the specification repository; a file
    whose URL is unknown (the example) shows line numbers."""
    page.goto((REPORTS / "history" / "2025-11-25..2026-07-28.html").as_uri())
    links = page.locator("details.finding a.line")
    assert links.count() > 100
    href = links.first.get_attribute("href") or ""
    assert (
        re.fullmatch(
            r"https://github\.com/modelcontextprotocol/modelcontextprotocol/blob/[0-9a-f]{40}"
            r"/schema/2025-11-25/schema\.ts#L\d+",
            href,
        )
        or "/schema/2026-07-28/schema.ts#L" in href
    )
    page.goto((REPORTS / "example-v1..v2.html").as_uri())
    assert page.locator("details.finding a.line").count() == 0
    assert page.locator("details.finding span.line").count() > 0
    assert page.problems == []


# --------------------------------------------------------------------------- the Schema Reference
# The multi-version reference (`mcp-codegen reference A B C -o DIR`): a badge opens the right
# diff page filtered on the type, the name filter works, nothing scripted runs from schema text.
# docs/reference.png is taken here (refreshed with --update-golden).

REFERENCE_FIXTURES = REPO / "tests" / "fixtures" / "reference"


def write_reference_site(folder: Path, paths: list[Path]) -> None:
    files = site_files([declared(str(p)) for p in paths], [load(str(p)) for p in paths],
                       [find_template(str(p), None) for p in paths])  # fmt: skip
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_badge_opens_the_diff_page_of_the_change(
    page: Any, tmp_path: Path, artifacts: Path, update_golden: bool
) -> None:
    """docs/reference.png is taken here, on fixtures of our own (a page of an official version
    would carry the specification's prose into the repository)."""
    write_reference_site(
        tmp_path, [REFERENCE_FIXTURES / v / "schema.ts" for v in ("v1", "v2", "v3")]
    )
    page.goto((tmp_path / "v3.html").as_uri())
    page.set_viewport_size({"width": 1100, "height": 760})
    shot = artifacts / "reference-page.png"
    page.screenshot(path=str(shot))
    if update_golden:
        shutil.copy(shot, REPO / "docs" / "reference.png")
    colour = page.locator("#widget-colour")
    assert colour.locator(".badge").all_inner_texts() == ["since v1", "removed in v2", "since v3"]
    colour.locator("a.badge", has_text="removed in v2").click()
    page.wait_for_load_state()
    assert page.url.endswith("/v1..v2.html#type=Widget")
    assert page.title() == "Schema diff: v1 → v2"
    assert page.locator("#subject-filter").input_value() == "Widget"
    assert page.locator(".finding:visible").count() > 0
    page.go_back()
    page.locator("#widget-name a.badge", has_text="deprecated since v3").click()
    page.wait_for_load_state()
    assert page.url.endswith("/v2..v3.html#type=Widget")
    assert page.problems == []


def test_filter_by_name_on_index_and_version_page(
    page: Any, tmp_path: Path, spec_root: Path, artifacts: Path, update_golden: bool
) -> None:
    versions = ["2025-06-18", "2025-11-25", "2026-07-28"]
    write_reference_site(tmp_path, [spec_root / v / "schema.ts" for v in versions])
    page.goto((tmp_path / "index.html").as_uri())
    total = page.locator("tr.type-row").count()
    page.fill("#filter", "calltool")
    names = page.locator("tr.type-row:visible th.name").all_inner_texts()
    assert names and all("calltool" in n.lower() for n in names) and len(names) < total
    assert page.locator("#shown").inner_text() == f"{len(names)} of {total} types"
    page.goto((tmp_path / "2026-07-28.html").as_uri())
    page.fill("#filter", "ListTools")
    shown = page.locator("div.type:visible h3").all_inner_texts()
    assert shown == ["ListToolsRequest", "ListToolsResultResponse", "ListToolsResult"]
    assert page.locator("section.ref-section:visible h2").all_inner_texts() == ["tools/list"]
    page.fill("#filter", "")
    assert page.locator("div.type:visible").count() == page.locator("div.type").count()
    page.fill("#filter", "ClientCapabilities")
    page.set_viewport_size({"width": 1100, "height": 760})
    page.screenshot(path=str(artifacts / "reference-page-official.png"))  # not committed
    assert page.problems == []


def test_nothing_scripted_runs_from_schema_text(page: Any, tmp_path: Path) -> None:
    hostile = REFERENCE_FIXTURES / "hostile" / "schema.ts"
    injection = REPO / "tests" / "fixtures" / "hostile" / "injection.ts"
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    shutil.copy(injection, a / "schema.ts")
    shutil.copy(hostile, b / "schema.ts")
    write_reference_site(tmp_path, [a / "schema.ts", b / "schema.ts"])
    for name in ("index.html", "a.html", "b.html"):
        page.goto((tmp_path / name).as_uri())
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert page.evaluate(HANDLERS) == []
        page.evaluate(FIRE_EVENTS)
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert page.locator("img, textarea, b").count() == 0
        assert page.locator("script").count() == 1  # the page's own
        assert page.locator("a[href^='javascript:' i]").count() == 0
        assert page.problems == []
    body = page.locator("main").inner_text()
    assert '<script>window.__pwned = "doc";</script>' in body
    assert '{window.__pwned = "mdx"}' in body
    page.fill("#filter", "target")
    assert page.locator("div.type:visible h3").all_inner_texts() == ["Target"]
