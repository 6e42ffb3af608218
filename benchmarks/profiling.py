"""Generation profiles: per-stage times (un-profiled, from `benchmarks.stages` in a fresh process)
and a cProfile summary grouped by where the code lives (our modules, black, jinja2, ...)."""

from __future__ import annotations

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


def stage_times(schema: Path, out: Path, profile: Path | None = None) -> dict[str, float]:
    argv = [sys.executable, "-m", "benchmarks.stages", str(schema), str(out)]
    if profile is not None:
        argv += ["--profile", str(profile)]
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
    headers = ["schema", "startup", *STAGES, "total wall", "format share"]
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


def _bucket(filename: str) -> str:
    """Where a profiled function lives: codegen.<module>, a third-party package, the stdlib,
    the import machinery, C builtins, or this harness."""
    path = filename.replace("\\", "/")
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    if "/codegen/" in path:
        return "codegen." + Path(path).stem
    if "/benchmarks/" in path:
        return "benchmark harness"
    if path.startswith("<frozen"):
        return "import machinery"
    if path.startswith(("~", "<")):
        return "C builtins"
    return "stdlib"


def profile_summary(prof_file: Path, top: int = 15) -> dict[str, Any]:
    stats = pstats.Stats(str(prof_file))
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = max((ct for (_, _, _, ct, _) in raw.values()), default=0.0)
    own: dict[str, float] = defaultdict(float)
    funcs = []
    for (filename, line, name), (_, ncalls, tottime, cumtime, _) in raw.items():
        bucket = _bucket(filename)  # C builtins (`~`) are a bucket of their own
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
