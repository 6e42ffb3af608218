"""Benchmark: the version diff. `mcp-codegen diff A B` for every consecutive pair of the
official versions, in one warm Python process (imports paid before timing): both schemas read,
compared, classified, and the report rendered in every format (Markdown, JSON, HTML, the
PR-comment summary, GitHub annotations, JUnit).

Target (issue: diffs for CI): under 1 s per pair. Run from the repository root:
`python -m benchmarks.diff [--rounds N]`. Prints the median and best CPU and wall seconds per
pair; asserts nothing (no test asserts a duration).
"""

from __future__ import annotations

import argparse
import time
from itertools import pairwise

import corpus

TARGET_S = 1.0


def one_pair(old: str, new: str) -> None:
    import json

    from codegen.diff import diff
    from codegen.diff.html import render_html
    from codegen.diff.report import render
    from codegen.pipeline import load

    report = diff(load(old), load(new))
    for fmt in ("md", "summary", "github", "junit"):
        render(report, fmt, "breaking")
    render_html(json.loads(render(report, "json")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    paths = [str(corpus.get_version(n).schema_ts) for n in corpus.version_names()]
    names = corpus.version_names()
    one_pair(paths[0], paths[1])  # warm: imports and template compilation
    print(
        f"{'pair':<32} {'cpu median':>10} {'cpu best':>9} {'wall median':>11}  target < {TARGET_S} s"
    )
    for (a, b), (na, nb) in zip(pairwise(paths), pairwise(names)):
        cpu, wall = [], []
        for _ in range(args.rounds):
            c0, w0 = time.process_time(), time.perf_counter()
            one_pair(a, b)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        cpu.sort()
        wall.sort()
        print(
            f"{na + ' -> ' + nb:<32} {cpu[len(cpu) // 2]:>9.2f}s {cpu[0]:>8.2f}s {wall[len(wall) // 2]:>10.2f}s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
