"""Generation profiles: per-stage times (un-profiled, from `benchmarks.stages` in a fresh process)
and a cProfile summary grouped by where the code lives (our modules, black, jinja2, ...)."""

from __future__ import annotations

import difflib
import json
import math
import pstats
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .common import REPO, fmt_s, median, table
from .procs import child_env, run_timed

STAGES = ("import", "parse", "lower", "resolve", "render", "format", "write")


def stage_times(
    schema: Path,
    out: Path,
    profile: Path | None = None,
    formatter: str = "ruff",
) -> dict[str, float]:
    argv = [sys.executable, "-m", "benchmarks.stages", str(schema), str(out)]
    if profile is not None:
        argv += ["--profile", str(profile)]
    argv += ["--formatter", formatter]
    r = run_timed(argv, cwd=REPO, env=child_env(), keep_stdout=True)
    if r.returncode != 0:
        raise RuntimeError(f"benchmarks.stages failed on {schema}: {r.stderr_tail}")
    data: dict[str, float] = json.loads(r.stdout)
    data["wall"] = r.wall_s
    data["startup"] = r.wall_s - data["in_process"]
    return data


def median_stages(runs: Sequence[dict[str, float]]) -> dict[str, float]:
    keys = set().union(*runs) if runs else set()
    return {k: median([r[k] for r in runs if k in r]) for k in sorted(keys)}


def stage_table(rows: dict[str, dict[str, float]]) -> str:
    headers = ["schema", "startup + exit", *STAGES, "total wall", "format share"]
    body = []
    for name, st in rows.items():
        wall = st.get("wall", float("nan"))
        body.append(
            [name, fmt_s(st.get("startup", float("nan")))]
            + [fmt_s(st.get(s, float("nan"))) for s in STAGES]
            + [
                fmt_s(wall),
                f"{100 * st.get('format', 0.0) / wall:.0f}%" if not math.isnan(wall) else "–",
            ]
        )
    return table(headers, body)


def _bucket(filename: str, name: str = "") -> str:
    """Where a profiled function lives: codegen.<module>, a third-party package, the stdlib,
    the import machinery, C builtins, or this harness."""
    path = filename.replace("\\", "/")
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    if "/codegen/" in path:
        return "codegen." + path.rsplit("/codegen/", 1)[1].removesuffix(".py").replace("/", ".")
    if "/benchmarks/" in path:
        return "benchmark harness"
    if path.startswith("<frozen"):
        return "import machinery"
    if path.startswith(("~", "<")):
        # compiled code (mypyc-built black, C extensions): "<built-in method black.format_str>"
        if name.startswith("<built-in method ") and "." in name:
            module = name.removeprefix("<built-in method ").split(".", 1)[0]
            if module not in ("builtins", "_imp", "posix", "marshal", "_io", "time"):
                return f"{module} (compiled)"
        return "C builtins"
    return "stdlib"


def profile_summary(prof_file: Path, top: int = 15) -> dict[str, Any]:
    stats = pstats.Stats(str(prof_file))
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = max((ct for (_, _, _, ct, _) in raw.values()), default=0.0)
    own: dict[str, float] = defaultdict(float)
    funcs = []
    for (filename, line, name), (_, ncalls, tottime, cumtime, _) in raw.items():
        bucket = _bucket(filename, name)
        own[bucket] += tottime
        funcs.append((cumtime, tottime, ncalls, f"{bucket}:{name}" + (f":{line}" if line else "")))
    funcs.sort(reverse=True)
    by_bucket = sorted(own.items(), key=lambda kv: -kv[1])
    return {
        "total_s": total,
        "own_time_by_package": [(b, t) for b, t in by_bucket[:top]],
        "top_cumulative": [(f, c, t, n) for c, t, n, f in funcs[:top]],
    }


def profile_tables(summary: dict[str, Any]) -> str:
    total = summary["total_s"] or float("nan")
    own = table(
        ["code", "own time s", "share"],
        [[b, f"{t:.3f}", f"{100 * t / total:.0f}%"] for b, t in summary["own_time_by_package"]],
    )
    cum = table(
        ["function", "cumulative s", "own s", "calls"],
        [[f"`{f}`", f"{c:.3f}", f"{t:.3f}", n] for f, c, t, n in summary["top_cumulative"]],
    )
    return (
        f"Own time by package (cProfile, total {total:.3f} s):\n\n{own}\n\nTop cumulative:\n\n{cum}"
    )


def changed_lines(a_dir: Path, b_dir: Path) -> dict[str, int]:
    """Per generated .py file: lines that differ between two outputs (added + removed)."""
    out = {}
    for a in sorted(a_dir.glob("*.py")):
        b = b_dir / a.name
        a_lines = a.read_text(encoding="utf-8").splitlines()
        b_lines = b.read_text(encoding="utf-8").splitlines() if b.exists() else []
        diff = difflib.unified_diff(a_lines, b_lines, n=0, lineterm="")
        out[a.name] = sum(1 for line in diff if line[:1] in "+-" and line[:3] not in ("---", "+++"))
    return out


def formatter_table(walls: dict[str, dict[str, float]], diffs: dict[str, dict[str, int]]) -> str:
    versions = list(next(iter(walls.values())))
    rows = []
    for fmt, per in walls.items():
        changed = diffs.get(fmt, {})
        rows.append(
            [f"`{fmt}`", fmt_s(sum(per.values()))]
            + [fmt_s(per[v]) for v in versions]
            + ["0 (reference)" if fmt == "black" else str(sum(changed.values()))]
        )
    return table(
        ["formatter", "all versions s", *[f"{v} s" for v in versions], "lines ≠ black"], rows
    )
