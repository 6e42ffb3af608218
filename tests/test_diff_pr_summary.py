"""The PR summary (`--format summary`) says what a PR does: beside the breaking and risky root
causes, its additions and deprecations, grouped, one line each, capped with a count."""

from __future__ import annotations

from pathlib import Path

from codegen.diff import diff
from codegen.diff.ci import GROUP_MAX, render_summary
from codegen.pipeline import load, load_text

FIXTURES = Path(__file__).parent / "fixtures"


def test_additions_are_listed() -> None:
    d = FIXTURES / "spec-prs" / "86eed451"
    out = render_summary(diff(load(str(d / "old.ts")), load(str(d / "new.ts"))))
    assert "**New members (2)**" in out
    assert "- `ClientCapabilities.extensions` (" in out
    assert "- `ServerCapabilities.extensions` (" in out


def test_a_new_method_is_in_the_summary() -> None:
    d = FIXTURES / "diff" / "method-added"
    out = render_summary(diff(load(str(d / "old.ts")), load(str(d / "new.ts"))))
    assert "`method-added`" in out


def _types(n: int, deprecated: bool) -> str:
    tag = "/** @deprecated use the extension */\n" if deprecated else ""
    return "".join(f"{tag}export interface Thing{i:02} {{\n  a: string;\n}}\n" for i in range(n))


def test_deprecations_are_listed_capped_and_counted() -> None:
    """Like 996f9d15, which deprecates 21 declarations."""
    old = load_text(_types(21, False), "old.ts")
    new = load_text(_types(21, True), "new.ts")
    out = render_summary(diff(old, new))
    assert "**Deprecated (21)**" in out
    listed = [line for line in out.splitlines() if line.startswith("- `Thing")]
    assert len(listed) == GROUP_MAX and listed[0].startswith("- `Thing00`")
    assert f"- … and {21 - GROUP_MAX} more" in out
