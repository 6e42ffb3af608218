"""The command line as a user runs it: `python -m codegen ...` in a child process."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run_cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path = REPO
) -> subprocess.CompletedProcess[str]:
    """Run `python -m codegen *args` from `cwd` with `env` added to this environment; the
    timeout only keeps a hang from stalling the run."""
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=300,
        check=False,
    )


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` refuses new entries: immutable for root (who ignores modes), else mode 0555."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
