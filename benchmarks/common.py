"""Shared helpers: paths, the machine note, statistics and Markdown tables. No timing policy."""

from __future__ import annotations

import math
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "benchmarks"


def venv_bin(name: str) -> str:
    """An executable installed next to the running interpreter (the venv's bin/), else `name`."""
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
                break
    except OSError:
        pass
    node = ""
    try:
        node = subprocess.run(
            ["node", "--version"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        node = "absent"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "node": node,
    }


def package_versions(names: Iterable[str]) -> dict[str, str]:
    from importlib import metadata

    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def fmt_us(seconds: float) -> str:
    if math.isnan(seconds):
        return "–"
    us = seconds * 1e6
    return f"{us:.2f}" if us < 10 else f"{us:.1f}" if us < 100 else f"{us:.0f}"


def fmt_s(seconds: float) -> str:
    return "–" if math.isnan(seconds) else f"{seconds:.3f}"


def fmt_rate(per_second: float) -> str:
    if math.isnan(per_second) or per_second <= 0:
        return "–"
    return f"{per_second:,.0f}"


def fmt_ratio(x: float) -> str:
    return "–" if math.isnan(x) else f"{x:.2f}×" if x < 10 else f"{x:.1f}×"


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str = "") -> str:
    """A Markdown table; `align` has one char per column, 'l' or 'r' (default: first l, rest r)."""
    align = align or "l" + "r" * (len(headers) - 1)
    sep = ["---" if a == "l" else "---:" for a in align]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def rotated(items: Sequence[Any], k: int) -> list[Any]:
    """`items` rotated left by k: each round starts with a different contender (interleaving)."""
    if not items:
        return []
    k %= len(items)
    return list(items[k:]) + list(items[:k])


def git_state() -> str:
    """The commit measured, and whether the work tree differed from it (others' work in progress)."""

    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
        return proc.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "codegen", "templates")
    return f"commit {head}" + (
        " with uncommitted changes under codegen/ or templates/" if dirty else ""
    )


def median_us(
    fn: Callable[[], Any], n: int, rounds: int, clock: Callable[[], int] | None = None
) -> float:
    """The median over `rounds` of the mean µs of `n` calls of `fn`; `clock` (ns) defaults to
    wall time (`time.perf_counter_ns`; `time.process_time_ns`: this process's CPU time, which
    other load on a shared machine disturbs less)."""
    import time

    now = clock if clock is not None else time.perf_counter_ns
    times = []
    for _ in range(rounds):
        start = now()
        for _ in range(n):
            fn()
        times.append((now() - start) / n / 1000)
    return sorted(times)[len(times) // 2]


def distribution(path: Path | None, versions: Sequence[str], prefix: str) -> Path:
    """`path`, or a distribution of `versions` (official schema names) generated with
    `--package mcp_bindings` into a new temporary directory."""
    if path is not None:
        return path
    import tempfile

    import corpus

    from codegen.cli import main

    out = Path(tempfile.mkdtemp(prefix=prefix))
    schemas = [str(corpus.get_version(n).schema_ts) for n in versions]
    if main([*schemas, "-o", str(out), "--package", "mcp_bindings"]) != 0:
        raise SystemExit("generation failed")
    return out
