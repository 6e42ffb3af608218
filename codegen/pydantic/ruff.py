"""Formatting the pydantic module: `ruff format` on the rendered text (the formatter of record
for this target), with fixed options so no configuration file near the output changes it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
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


def _run(args: list[str], text: str) -> str:
    # from an empty folder: isort's first-party guess (packages under the working directory)
    # must not depend on where the generator runs
    with tempfile.TemporaryDirectory() as nowhere:
        done = subprocess.run(
            [ruff_binary(), *args, "--stdin-filename", "__init__.py", "-"],
            input=text, capture_output=True, encoding="utf-8", check=False, cwd=nowhere,
        )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"ruff {args[0]} failed on the generated module:\n{done.stderr}")
    return done.stdout


def ruff_format(text: str, first_party: str = "") -> str:
    """Imports sorted (isort's order, ruff's `I` rules; `first_party`: the consumer's package,
    which the module lives in), then `ruff format`."""
    known = ["--config", f"lint.isort.known-first-party=['{first_party}']"] if first_party else []
    isort = ["check", *OPTIONS[:2], *known, "--select", "I", "--fix", "--exit-zero", "--quiet"]
    sorted_imports = _run(isort, text)
    return _run(["format", *OPTIONS], sorted_imports)
