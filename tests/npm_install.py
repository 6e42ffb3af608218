"""The one way the tests install a pinned npm tree: `npm ci` in a folder holding a package.json and
its lock, one installer at a time (a file lock), with the failure raised as the caller's own
"unavailable" error so each suite skips locally and fails under CI=true as it decides."""

from __future__ import annotations

import fcntl
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

NPM_TIMEOUT = 600.0  # seconds


def require_node(min_major: int, unavailable: type[Exception], what: str) -> tuple[str, str]:
    """(node, npm) on PATH, node at least `min_major`; else `unavailable` naming `what`."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise unavailable(f"node >= {min_major} and npm are needed for {what}")
    out = subprocess.run(
        [node, "--version"], check=False, capture_output=True, text=True, timeout=30
    ).stdout
    match = re.match(r"v(\d+)\.", out.strip())
    if match is None or int(match.group(1)) < min_major:
        raise unavailable(f"node >= {min_major} is needed for {what}, found {out.strip()!r}")
    return node, npm


def npm_ci(
    directory: Path, ready: Callable[[], bool], unavailable: type[Exception], npm: str | None = None
) -> None:
    """`npm ci` in `directory` unless `ready()`; `ready()` must hold afterwards."""
    npm = npm or shutil.which("npm")
    if npm is None:
        raise unavailable(f"npm is needed to install the pins of {directory}/package.json")
    with open(directory / ".npm-ci.lock", "w") as lock:  # one installer at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready():
            return
        cmd = [npm, "ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"]
        try:
            proc = subprocess.run(
                cmd, check=False, cwd=directory, capture_output=True, text=True, timeout=NPM_TIMEOUT
            )
        except subprocess.TimeoutExpired as exc:
            raise unavailable(f"`{' '.join(cmd)}` in {directory} timed out") from exc
        if proc.returncode != 0:
            tail = (proc.stdout + proc.stderr)[-4000:]
            raise unavailable(
                f"`{' '.join(cmd)}` in {directory} failed ({proc.returncode}):\n{tail}"
            )
    if not ready():
        raise unavailable(f"npm ci did not install the pins of {directory}/package.json")
