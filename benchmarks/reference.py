"""Benchmark: the Schema Reference. One page (`mcp-codegen reference 2026-07-28`, the largest
official page: read, lower, render, fill the template) and the seven-version reference
(`mcp-codegen reference <seven schemas> -o DIR`: pages, since.json and the six diff pages),
each in one warm Python process (imports paid before timing), the schema read included.

Targets: one page under 1 s, the seven-version reference under 5 s. Run from the repository
root: `python -m benchmarks.reference [--rounds N]`. Prints the median and best CPU and wall
seconds of each; asserts nothing (no test asserts a duration).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import corpus

PAGE_VERSION = "2026-07-28"
TARGETS = {"one page": 1.0, "seven-version reference": 5.0}


def one_page() -> None:
    from codegen.pipeline import declared
    from codegen.reference import find_template, render_page

    path = str(corpus.get_version(PAGE_VERSION).schema_ts)
    render_page(declared(path), find_template(path, None))


def seven_versions() -> None:
    from codegen.pipeline import declared, load
    from codegen.reference import find_template
    from codegen.reference.site import site_files

    paths = [str(corpus.get_version(n).schema_ts) for n in corpus.version_names()]
    site_files([declared(p) for p in paths], [load(p) for p in paths],
               [find_template(p, None) for p in paths])  # fmt: skip


def measure(fn: Callable[[], Any], rounds: int) -> dict[str, float]:
    cpu, wall = [], []
    for _ in range(rounds):
        c, w = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    cpu.sort()
    wall.sort()
    return {"cpu_median": cpu[len(cpu) // 2], "cpu_best": cpu[0],
            "wall_median": wall[len(wall) // 2], "wall_best": wall[0]}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    one_page()  # warm: imports, template directory, Jinja environment
    print(f"{'case':<26} {'target':>7} {'cpu med':>8} {'cpu best':>9} {'wall med':>9} {'met':>4}")
    for name, fn in (("one page", one_page), ("seven-version reference", seven_versions)):
        m = measure(fn, args.rounds)
        met = "yes" if m["cpu_median"] < TARGETS[name] else "no"
        print(f"{name:<26} {TARGETS[name]:>6.1f}s {m['cpu_median']:>7.3f}s {m['cpu_best']:>8.3f}s "
              f"{m['wall_median']:>8.3f}s {met:>4}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
