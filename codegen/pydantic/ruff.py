"""Formatting the pydantic module: `ruff format` on the rendered text (the formatter of record
for this target), with fixed options so no configuration file near the output changes it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

OPTIONS = ("--isolated", "--no-cache", "--line-length", "100", "--target-version", "py310")


def ruff_binary() -> str:
    """The ruff next to this interpreter (the venv's), else on PATH."""
    beside = Path(sys.executable).with_name("ruff")
    if beside.is_file():
        return str(beside)
    found = shutil.which("ruff")
    if found is None:
        raise RuntimeError("ruff not found: the pydantic target formats its output with ruff")
    return found


def ruff_format(text: str) -> str:
    done = subprocess.run(
        [ruff_binary(), "format", *OPTIONS, "--stdin-filename", "__init__.py", "-"],
        input=text, capture_output=True, encoding="utf-8", check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"ruff format failed on the generated module:\n{done.stderr}")
    return done.stdout
