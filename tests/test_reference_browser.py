"""The multi-version reference as a person sees it, in headless Chromium (as tests/test_browser.py
drives it): a badge opens the right diff page filtered on the type, the name filter works, and
nothing scripted runs from schema text. Screenshots go to the browser tests' artifacts folder;
docs/reference.png is taken here (refreshed with --update-golden)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import test_browser
from test_browser import FIRE_EVENTS, HANDLERS

from codegen.pipeline import declared, load
from codegen.reference import find_template
from codegen.reference.site import site_files

# the browser tests' own Chromium session, tab and screenshot folder
browser, page, artifacts = test_browser.browser, test_browser.page, test_browser.artifacts
REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "reference"


def write_site(folder: Path, paths: list[Path]) -> None:
    files = site_files([declared(str(p)) for p in paths], [load(str(p)) for p in paths],
                       [find_template(str(p), None) for p in paths])  # fmt: skip
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_badge_opens_the_diff_page_of_the_change(page: Any, tmp_path: Path) -> None:
    write_site(tmp_path, [FIXTURES / v / "schema.ts" for v in ("v1", "v2", "v3")])
    page.goto((tmp_path / "v3.html").as_uri())
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
    write_site(tmp_path, [spec_root / v / "schema.ts" for v in versions])
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
    page.fill("#filter", "")
    assert page.locator("div.type:visible").count() == page.locator("div.type").count()
    page.fill("#filter", "LoggingLevel")
    page.set_viewport_size({"width": 1100, "height": 760})
    shot = artifacts / "reference-page.png"
    page.screenshot(path=str(shot))
    if update_golden:
        shutil.copy(shot, REPO / "docs" / "reference.png")
    assert page.problems == []


def test_nothing_scripted_runs_from_schema_text(page: Any, tmp_path: Path) -> None:
    hostile = FIXTURES / "hostile" / "schema.ts"
    injection = REPO / "schemas" / "fixtures" / "hostile" / "injection.ts"
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    shutil.copy(injection, a / "schema.ts")
    shutil.copy(hostile, b / "schema.ts")
    write_site(tmp_path, [a / "schema.ts", b / "schema.ts"])
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
