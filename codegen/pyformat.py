"""Generated Python laid out by a real formatter: one `ruff format` run over all the Python files
of an output (default), or black itself (`--formatter black`); both pinned, every setting given
here, nothing read from the user's configuration, no cache left. black is the style authority:
the tests hold the output to `black_mode()`. docs/formatting.md has the details.
"""

from __future__ import annotations

import functools
import os
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import FormatError

LINE_LENGTH = 100  # the one line limit of generated Python (zod's is codegen/zod/layout.py's)
TARGET = "py310"  # the oldest Python the generated code supports
FORMATTERS = ("ruff", "black")

# black's stable style, spelled out: ruff's defaults, fixed here so a later default cannot drift.
_RUFF_ARGS = ("format", "--isolated", "--no-cache", "--no-preview", f"--line-length={LINE_LENGTH}",
              f"--target-version={TARGET}", "--config=format.quote-style='double'",
              "--config=format.indent-style='space'", "--config=format.line-ending='lf'",
              "--config=format.skip-magic-trailing-comma=false",
              "--config=format.docstring-code-format=false")  # fmt: skip


@functools.cache
def black_mode() -> Any:
    """The one black Mode: what `--formatter black` uses and the tests judge by."""
    from black.mode import Mode, TargetVersion

    return Mode(
        target_versions={TargetVersion[TARGET.upper()]},
        line_length=LINE_LENGTH,
        string_normalization=True,
        is_pyi=False,
        magic_trailing_comma=True,
        preview=False,
    )


def black_format(source: str) -> str:
    """One module in black's layout."""
    import black

    try:
        return str(black.format_str(source, mode=black_mode()))
    except Exception as err:  # black's parse errors have several classes
        raise FormatError(f"black could not format generated code: {err}") from err


def format_files(files: Mapping[str, str], formatter: str = "ruff") -> dict[str, str]:
    """`files` (relative path -> text), every `.py` one laid out by `formatter`, in one run."""
    python = {rel: text for rel, text in files.items() if rel.endswith(".py")}
    if formatter == "black":
        laid_out = {rel: black_format(text) for rel, text in python.items()}
    elif formatter == "ruff":
        laid_out = ruff_format(python)
    else:
        raise ValueError(f"unknown formatter {formatter!r} (expected one of {FORMATTERS})")
    return {rel: laid_out.get(rel, text) for rel, text in files.items()}


def ruff_format(files: Mapping[str, str]) -> dict[str, str]:
    """The files through one `ruff format` run in a temporary directory."""
    if not files:
        return {}
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-format-") as tmp:
        root = Path(tmp)
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(text.encode("utf-8"))
        _run_ruff(root, sorted(files))
        return {rel: (root / rel).read_bytes().decode("utf-8") for rel in files}


def _run_ruff(root: Path, paths: list[str]) -> None:
    # no RUFF_* variable of the user's environment reaches it (a cache dir, an output format)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUFF_")}
    try:
        proc = subprocess.run(
            [ruff_bin(), *_RUFF_ARGS, "--", *paths],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as err:
        raise FormatError(f"cannot run ruff: {err}") from err
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip()
        raise FormatError(
            f"ruff format failed on the generated code (exit {proc.returncode}):\n{detail}"
        )


@functools.cache
def ruff_bin() -> str:
    """The ruff executable of the installed, pinned `ruff` package (never one found on PATH)."""
    try:
        from ruff import find_ruff_bin  # type: ignore[import-untyped]
    except ImportError as err:
        raise FormatError("the ruff package is not installed (pip install mcp-codegen)") from err
    try:
        return str(find_ruff_bin())
    except FileNotFoundError as err:
        raise FormatError(f"the ruff package has no executable: {err}") from err
