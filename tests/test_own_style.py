"""The project's own Python (the generator, the benchmarks, the tests) passes `ruff check` and is
laid out as `ruff format` lays it out, with the project's configuration (pyproject.toml). Three
files had drifted from the layout unnoticed; this keeps the next one from doing so.
tests/typing/ is left out: its files are inputs to mypy whose expected errors name their lines.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bindings_support import REPO, tool

OWN = ["codegen", "benchmarks", "tests", "action"]
EXCLUDE = "tests/typing"


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [tool("ruff"), *args, "--no-cache", "--extend-exclude", EXCLUDE, *OWN]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)


def test_own_code_passes_ruff_check() -> None:
    proc = _ruff("check")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]


def test_own_code_is_ruff_formatted() -> None:
    proc = _ruff("format", "--check")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]


@pytest.mark.slow
def test_the_generator_passes_mypy_strict(tmp_path: Path) -> None:
    """`mypy` with the project's configuration (strict, over `codegen` and the static modules of
    the generated packages): a merge or a new target that drops a type is caught here."""
    cmd = [tool("mypy"), "--no-color-output", f"--cache-dir={tmp_path / 'cache'}"]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
