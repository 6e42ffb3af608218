"""Run one command as a child process: whole-process wall time and the child's own peak RSS."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ProcResult:
    wall_s: float
    peak_rss_kib: int  # the child's own ru_maxrss (not its siblings', as RUSAGE_CHILDREN would be)
    returncode: int
    stderr_tail: str
    stdout: str = ""


def run_timed(
    argv: list[str],
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    keep_stdout: bool = False,
) -> ProcResult:
    """Start `argv`, wait for it with wait4, return wall time from spawn to reap and peak RSS."""
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read()[-2000:].decode("utf-8", "replace")
        stdout = ""
        if keep_stdout:
            out.seek(0)
            stdout = out.read().decode("utf-8", "replace")
    return ProcResult(wall, int(usage.ru_maxrss), proc.returncode, tail, stdout)


def child_env() -> dict[str, str]:
    """The parent's environment, with Python's own warnings quietened for third-party CLIs."""
    env = dict(os.environ)
    env.setdefault("PYTHONWARNINGS", "ignore")
    return env
