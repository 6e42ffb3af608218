"""Run one command as a child process: whole-process wall time and the child's own peak RSS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class ProcResult:
    wall_s: float
    peak_rss_kib: int  # the child's own ru_maxrss (not its siblings', as RUSAGE_CHILDREN would be)
    returncode: int
    stderr_tail: str
    stdout: str = ""


LAUNCHER = Path(__file__).resolve().parent / "launch.py"


def run_timed(
    argv: list[str],
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    keep_stdout: bool = False,
) -> ProcResult:
    """Run `argv` through `launch.py`: wall time from fork to reap, and the command's own peak
    RSS (a direct child of this big process would inherit its RSS in the peak)."""
    with (
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryDirectory() as tmp,
    ):
        result = Path(tmp) / "result.json"
        launcher = [sys.executable, "-S", str(LAUNCHER), str(result)]
        proc = subprocess.run(
            launcher + argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            check=False,
        )
        err.seek(0)
        tail = err.read()[-2000:].decode("utf-8", "replace")
        stdout = ""
        if keep_stdout:
            out.seek(0)
            stdout = out.read().decode("utf-8", "replace")
        if proc.returncode != 0 or not result.exists():
            return ProcResult(
                float("nan"), 0, proc.returncode or 1, tail or "launcher failed", stdout
            )
        data = json.loads(result.read_text(encoding="utf-8"))
    return ProcResult(
        data["wall_s"], int(data["peak_rss_kib"]), int(data["returncode"]), tail, stdout
    )


def child_env() -> dict[str, str]:
    """The parent's environment, with Python's own warnings quietened for third-party CLIs."""
    env = dict(os.environ)
    env.setdefault("PYTHONWARNINGS", "ignore")
    return env


def run_worker(module: str, argv: list[str]) -> Any:
    """`python -m MODULE ARGV --out FILE` in a fresh process (from the repository root, this
    interpreter), and the JSON it wrote to FILE: one more process of a measurement whose samples
    the caller pools with its own (validation.py and codec.py, "more processes")."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        subprocess.run(
            [sys.executable, "-m", module, *argv, "--out", str(out)],
            cwd=Path(__file__).resolve().parent.parent,
            env=child_env(),
            check=True,
        )
        return json.loads(out.read_text())
