"""Generated Python laid out by a real formatter, the one launcher of ruff for every Python
target: one isolated run over all the Python files of an output, `ruff check --select I,RUF022
--fix` (imports and `__all__` in ruff's order: the views write them in any order) then `ruff
format` (default), or the same sort then black itself (`--formatter black`); both pinned, every
setting given here, nothing read from the user's configuration, no cache left. black is the
style authority: the tests hold the output to `black_mode()`. docs/formatting.md has the details.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
import threading
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import FormatError

LINE_LENGTH = 100  # generated Python's one line limit (zod's: codegen/targets/zod/layout.py)
TARGET = "py310"  # the oldest Python the generated code supports
FORMATTERS = ("ruff", "black")


# black's stable style, spelled out: ruff's defaults, fixed here so a later default cannot drift.
# Every Python target formats with these (this module is the one launcher of ruff).
RUFF_FORMAT_ARGS = (
    "format", "--isolated", "--no-cache", "--no-preview", f"--line-length={LINE_LENGTH}",
    f"--target-version={TARGET}", "--config=format.quote-style='double'",
    "--config=format.indent-style='space'", "--config=format.line-ending='lf'",
    "--config=format.skip-magic-trailing-comma=false", "--config=format.docstring-code-format=false",
)  # fmt: skip
# The layout ruff's lint fixes own: imports sorted and grouped as isort does (I001) and every
# `__all__` sorted (RUF022). Fixed before formatting: a fix's text is not the formatter's layout.
RUFF_SORT_ARGS = (
    "check", "--isolated", "--no-cache", "--no-preview", f"--line-length={LINE_LENGTH}",
    f"--target-version={TARGET}", "--select=I,RUF022", "--fix", "--exit-zero", "--quiet",
)  # fmt: skip


def columns(text: str) -> int:
    """The columns `text` takes on a line as the formatters count them against LINE_LENGTH:
    East Asian wide and fullwidth characters two, combining marks none (black's `str_width`)."""
    if text.isascii():
        return len(text)
    return sum(
        0
        if unicodedata.category(ch) in ("Mn", "Me")
        else 1 + (unicodedata.east_asian_width(ch) in "WF")
        for ch in text
    )


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


def format_files(
    files: Mapping[str, str], formatter: str | None = "ruff", first_party: str = ""
) -> dict[str, str]:
    """`files` (relative path -> text), every `.py` one laid out by `formatter`, in one run."""
    return start_format(files, formatter, first_party).result()


def start_format(
    files: Mapping[str, str], formatter: str | None = "ruff", first_party: str = ""
) -> Formatting:
    """Begin laying out the `.py` files of `files` by `formatter`, in one run started at once:
    ruff sorts (and formats) in the background while the caller goes on (renders the next
    module); black formats what ruff sorted when the result is asked for; None leaves them as
    they are. `first_party`: the top-level package the imports name as first-party (isort's
    third group; a pydantic profile's consumer package). `result()` gives them back."""
    if formatter is not None and formatter not in FORMATTERS:
        raise ValueError(f"unknown formatter {formatter!r} (expected one of {FORMATTERS})")
    python = {rel: text for rel, text in files.items() if rel.endswith(".py")}
    if formatter is None or not python:
        return Formatting(files, {})
    sort: tuple[str, ...] = RUFF_SORT_ARGS
    if first_party:
        sort += ("--config", f"lint.isort.known-first-party=[{json.dumps(first_party)}]")
    steps = (sort, RUFF_FORMAT_ARGS) if formatter == "ruff" else (sort,)
    return Formatting(files, {}, _RuffRun(python, steps), black=formatter == "black")


def prepare(formatter: str | None) -> None:
    """Find what `formatter` runs now (before the caller forks, so that both processes have it)."""
    if formatter is not None:
        ruff_bin()


class Formatting:
    """Files being laid out (`start_format`)."""

    def __init__(
        self,
        files: Mapping[str, str],
        laid_out: dict[str, str],
        run: _RuffRun | None = None,
        black: bool = False,
    ) -> None:
        self._files, self._laid_out, self._run, self._black = files, laid_out, run, black

    def result(self) -> dict[str, str]:
        """The files, laid out (in their order); raises FormatError if the formatter failed."""
        laid_out = self._laid_out if self._run is None else self._run.result()
        if self._black:
            laid_out = {rel: black_format(text) for rel, text in laid_out.items()}
        return {rel: laid_out.get(rel, text) for rel, text in self._files.items()}

    def discard(self) -> None:
        """Stop the formatter and drop its work (the caller failed: no process, no folder left)."""
        if self._run is not None:
            self._run.discard()


class _RuffRun:
    """ruff's steps (`ruff check --fix`, then `ruff format`) over files written to a temporary
    directory: the first process starts at once, a background thread waits for each and starts
    the next (so formatting too overlaps the caller's work); `result()` waits for the last and
    reads the files back, `discard()` ends the run; either removes the folder. The directory is
    the working directory too: it holds only the output's own files, so isort's first-party
    guess does not depend on where the generator runs."""

    def __init__(self, files: Mapping[str, str], steps: tuple[tuple[str, ...], ...]) -> None:
        self._paths = sorted(files)
        self._tmp = tempfile.TemporaryDirectory(prefix="mcp-codegen-format-")
        self._root = Path(self._tmp.name)
        self._error: BaseException | None = None
        self._stopped = False
        self._lock = threading.Lock()
        try:
            for rel, text in files.items():
                (self._root / rel).parent.mkdir(parents=True, exist_ok=True)
                (self._root / rel).write_bytes(text.encode("utf-8"))
            self._proc = _start_ruff(self._root, steps[0], self._paths)
        except BaseException:
            self._tmp.cleanup()
            raise
        self._thread = threading.Thread(target=self._steps, args=(steps[1:],), daemon=True)
        self._thread.start()

    def _steps(self, rest: tuple[tuple[str, ...], ...]) -> None:
        try:
            _wait_ruff(self._proc)
            for step in rest:
                with self._lock:
                    if self._stopped:
                        return
                    self._proc = _start_ruff(self._root, step, self._paths)
                _wait_ruff(self._proc)
        except Exception as err:  # noqa: BLE001 - raised again by result(), in the caller
            self._error = err

    def result(self) -> dict[str, str]:
        try:
            self._thread.join()
            if self._error is not None:
                raise self._error
            return {rel: (self._root / rel).read_bytes().decode("utf-8") for rel in self._paths}
        finally:
            self._tmp.cleanup()

    def discard(self) -> None:
        try:
            with self._lock:
                self._stopped = True
                if self._proc.returncode is None:  # running, or not reaped yet
                    self._proc.kill()
            self._thread.join()
        finally:
            self._tmp.cleanup()


def _start_ruff(root: Path, args: tuple[str, ...], paths: list[str]) -> subprocess.Popen[str]:
    try:
        return subprocess.Popen(
            [ruff_bin(), *args, "--", *paths],
            cwd=root,
            env=ruff_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,  # a line or two: read when the run is waited for
            stderr=subprocess.PIPE,
            text=True,
        )
    except OSError as err:
        raise FormatError(f"cannot run ruff: {err}") from err


def _wait_ruff(proc: subprocess.Popen[str]) -> None:
    stdout, stderr = proc.communicate()
    if proc.returncode != 0:
        step = proc.args[1] if isinstance(proc.args, list) else "run"
        detail = (stderr or stdout).strip()
        raise FormatError(
            f"ruff {step} failed on the generated code (exit {proc.returncode}):\n{detail}"
        )


@functools.cache
def ruff_env() -> dict[str, str]:
    """The environment of every ruff run: no RUFF_* variable of the user's reaches it (a cache
    dir, an output format)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("RUFF_")}


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
