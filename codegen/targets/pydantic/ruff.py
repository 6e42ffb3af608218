"""Formatting the pydantic module: its imports sorted by ruff's isort rules, then `ruff format`
with the settings, executable and environment of every Python output (`codegen/pyformat.py`),
so no configuration file or RUFF_* variable near the output changes it."""

from __future__ import annotations

import subprocess
import tempfile

from ...pyformat import LINE_LENGTH, RUFF_FORMAT_ARGS, TARGET, ruff_bin, ruff_env

# the isort step: the one line limit and target version of generated Python
_CHECK = ("--isolated", "--no-cache", f"--line-length={LINE_LENGTH}", f"--target-version={TARGET}")


def _run(args: list[str], text: str) -> str:
    # from an empty folder: isort's first-party guess (packages under the working directory)
    # must not depend on where the generator runs
    with tempfile.TemporaryDirectory() as nowhere:
        done = subprocess.run(
            [ruff_bin(), *args, "--stdin-filename", "__init__.py", "-"],
            input=text, capture_output=True, encoding="utf-8", check=False, cwd=nowhere,
            env=ruff_env(),
        )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"ruff {args[0]} failed on the generated module:\n{done.stderr}")
    return done.stdout


def ruff_format(text: str, first_party: str = "") -> str:
    """Imports sorted (isort's order, ruff's `I` rules; `first_party`: the consumer's package,
    which the module lives in), then `ruff format`."""
    known = ["--config", f"lint.isort.known-first-party=['{first_party}']"] if first_party else []
    isort = ["check", *_CHECK[:2], *known, "--select", "I", "--fix", "--exit-zero", "--quiet"]
    sorted_imports = _run(isort, text)
    return _run(list(RUFF_FORMAT_ARGS), sorted_imports)
