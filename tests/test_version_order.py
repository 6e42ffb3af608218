"""Several versions are given oldest first, in every command that takes several (issue 39): two
released versions out of order are a located exit 2 before anything is written; drafts keep
their place wherever they stand."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run_cli

pytestmark = pytest.mark.spec

OUT_OF_ORDER = ("2026-07-28", "2025-11-25")


@pytest.mark.parametrize(
    "command",
    [
        ("-o", "{out}", "--package", "mcp_x"),  # generation: a distribution
        ("registry",),
        ("history", "-o", "{out}"),
        ("reference", "-o", "{out}"),
    ],
    ids=["generate", "registry", "history", "reference"],
)
def test_released_versions_out_of_order_are_refused(
    command: tuple[str, ...], spec_root: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    args = [a.format(out=out) for a in command]
    head, tail = (
        (args[:1], args[1:]) if args[0] in ("registry", "history", "reference") else ([], args)
    )
    proc = run_cli(*head, *OUT_OF_ORDER, *tail, "--spec-dir", str(spec_root), "--offline")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(str(spec_root / "2025-11-25" / "schema.ts") + ":1:1: "), lines
    assert "oldest first: 2025-11-25 comes after 2026-07-28" in lines[0]
    assert not out.exists()


def test_a_draft_keeps_its_place(spec_root: Path) -> None:
    # draft declares 2026-07-28 and is not a release: before or after a release, it is accepted
    for versions in (("draft", "2025-11-25"), ("2025-11-25", "draft", "2026-07-28")):
        proc = run_cli("registry", *versions, "--spec-dir", str(spec_root), "--offline")
        assert proc.returncode == 0, (versions, proc.stderr)
