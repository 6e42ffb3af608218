"""Golden files: compare generated text with a committed file; `pytest --update-golden` rewrites
it. A failure shows the diff and the command, so a reviewer sees exactly what changed."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from codegen import ir
from codegen.pipeline import load

REPO = Path(__file__).resolve().parent.parent


def rel(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def load_from_repo(path: Path | str) -> ir.Resolved:
    """Read a schema of this repo as its goldens were made: by its path relative to the repo
    root, from there, so that locations in the output do not depend on the checkout."""
    target = Path(path)
    relative = target.relative_to(REPO).as_posix() if target.is_absolute() else str(path)
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return load(relative)
    finally:
        os.chdir(cwd)


def check_golden(
    path: Path, text: str, update: bool, command: str = "pytest --update-golden"
) -> None:
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"missing golden file {rel(path)}; run: {command}")
    old = path.read_text(encoding="utf-8")
    if old != text:
        delta = "".join(
            difflib.unified_diff(old.splitlines(True), text.splitlines(True), "golden", "now")
        )
        pytest.fail(f"{rel(path)} changed:\n{delta[:8000]}\nReview, then run: {command}")
