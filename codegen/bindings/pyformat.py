"""Generated Python is formatted by black through its API: the pinned version (pyproject), an
explicit Mode, never a configuration file found on disk."""

from __future__ import annotations

import functools

import black
from black.mode import Mode, TargetVersion

MODE = Mode(
    target_versions={TargetVersion.PY310},
    line_length=100,
    string_normalization=True,
    is_pyi=False,
    magic_trailing_comma=True,
    preview=False,
)


@functools.lru_cache(maxsize=32)
def format_python(source: str) -> str:
    """Format one module (memoised: black is nearly all of the generation time, and tests render
    the same schemas more than once); raises black's error if the text is not valid Python,
    which is a bug in a template or a view."""
    return black.format_str(source, mode=MODE)
