"""The README and docs/ are read by users: their links resolve, the command table lists every
command the CLI has, the README stays a guide (at most 350 lines), and the test count that
docs/testing.md gives is the suite's own (within 10%)."""

from __future__ import annotations

import re
from pathlib import Path

import conftest
import pytest

from codegen import cli

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = sorted((REPO / "docs").glob("*.md"))


def test_readme_is_a_guide() -> None:
    assert len(README.read_text().splitlines()) <= 350


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.name)
def test_relative_links_resolve(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL)
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (page.parent / target).exists(), f"{page.name}: broken link {target}"


def command_table() -> list[str]:
    section = README.read_text().split("## Commands", 1)[1].split("\n## ", 1)[0]
    return [line.split("`")[1] for line in section.splitlines() if line.startswith("| `")]


def test_command_table_lists_every_command() -> None:
    rows = command_table()
    named = {row.split()[1] for row in rows if not row.split()[1].isupper()}
    assert named == set(cli.COMMANDS), "README command table and codegen.cli.COMMANDS differ"
    main_flags = {"-o", "--check", "--package", "--target"}
    shown = {flag for row in rows for flag in main_flags if flag in row}
    assert shown == main_flags


def test_documented_test_count_is_current() -> None:
    collected = conftest.WHOLE_SUITE["collected"]
    if collected is None:
        pytest.skip("the test count is checked only when the whole suite is collected")
    text = (REPO / "docs" / "testing.md").read_text()
    found = re.search(r"about ([\d,]+) tests", text)
    assert found, "docs/testing.md must say 'about N tests'"
    stated = int(found.group(1).replace(",", ""))
    assert abs(stated - collected) <= collected // 10, (
        f"docs/testing.md says about {stated} tests; the suite has {collected}"
    )
