"""Scaling by shape: generation time, peak memory and output size for synthetic schemas of one
shape each, whole process (`mcp-codegen SCHEMA -o OUT`), cold formatting cache.

Shapes (sizes by default; `--quick` uses small ones):
- `declarations`: n declarations of a mixed kind (an interface with a doc, a literal union, an
  optional reference to the previous one; every fifth an alias union of two of them): 1k, 10k,
  100k. Linear generation keeps the time per declaration flat.
- `alias`: a chain `type A0 = A1; ... type An = Root`: 1k, 10k.
- `extends`: a chain `interface E1 extends E0 { p1 }, ...`: 1k, 10k. ir.json, models.py
  (`class E1(E0)`) and validators.py refer to the base instead of restating its properties, so
  they grow linearly; schema.json keeps the official layout (every definition with all its
  inherited properties, n(n+1)/2 in all), so it grows quadratically by design and dominates.
  A size whose output, extrapolated from the previous size, would pass `--max-output-mb` is
  skipped with the figure.

    .venv/bin/python -m benchmarks.scaling_shapes [--quick] [--shapes declarations,alias,extends]
                                                  [--sizes 1000,10000] [--max-output-mb 2000]

Also a section of `python -m benchmarks.run` (`--only shapes`).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .common import fmt_s, table, venv_bin
from .procs import child_env, run_timed

SHAPES = ("declarations", "alias", "extends")
SIZES = {"declarations": (1_000, 10_000, 100_000), "alias": (1_000, 10_000), "extends": (1_000, 10_000)}  # fmt: skip
QUICK_SIZES = {"declarations": (100, 1_000), "alias": (100, 1_000), "extends": (30, 100)}
MAX_OUTPUT_MB = 2_000.0


def declarations(n: int) -> str:
    out = []
    for i in range(n):
        if i % 5 == 4:
            out.append(f"/** Either of two. */\nexport type U{i} = T{i - 1} | T{i - 2};\n")
            continue
        prev = f"\n  prev?: T{i - 1};" if i % 5 else ""
        out.append(
            f'/** Declaration {i}. */\nexport interface T{i} {{\n  id: string;\n  kind: "a" | "b";'
            f"\n  /** @minimum 0 */\n  count?: number;{prev}\n}}\n"
        )
    return "\n".join(out)


def alias_chain(n: int) -> str:
    links = "".join(f"export type A{i} = A{i + 1};\n" for i in range(n - 1))
    return f"export interface Root {{\n  x: string;\n}}\n{links}export type A{n - 1} = Root;\n"


def extends_chain(n: int) -> str:
    out = ["export interface E0 {\n  p0: string;\n}\n"]
    out += [
        f"export interface E{i} extends E{i - 1} {{\n  p{i}: string;\n}}\n" for i in range(1, n)
    ]
    return "\n".join(out)


MAKERS: dict[str, Callable[[int], str]] = {
    "declarations": declarations,
    "alias": alias_chain,
    "extends": extends_chain,
}


def _tree_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def run(
    shapes: Sequence[str],
    sizes: dict[str, Sequence[int]],
    workdir: Path,
    log: Callable[[str], None],
    max_output_mb: float = MAX_OUTPUT_MB,
) -> list[dict[str, Any]]:
    """One generation per shape and size; a row each (a skipped size says why)."""
    env = child_env()
    rows: list[dict[str, Any]] = []
    for shape in shapes:
        previous: tuple[int, float] | None = None  # (size, output MB)
        for n in sizes[shape]:
            row: dict[str, Any] = {"shape": shape, "n": n}
            if previous is not None:
                exponent = 2 if shape == "extends" else 1
                predicted = previous[1] * (n / previous[0]) ** exponent
                if predicted > max_output_mb:
                    row["skipped"] = f"predicted output {predicted / 1000:.1f} GB > --max-output-mb"
                    rows.append(row)
                    log(f"  shapes: {shape} {n}: skipped ({row['skipped']})")
                    continue
            schema = workdir / f"{shape}_{n}.ts"
            schema.write_text(MAKERS[shape](n), encoding="utf-8")
            out = workdir / f"out_{shape}_{n}"
            r = run_timed([venv_bin("mcp-codegen"), str(schema), "-o", str(out)], env=env)
            if r.returncode != 0:
                raise RuntimeError(f"mcp-codegen failed on {shape} {n}: {r.stderr_tail}")
            output_mb = _tree_bytes(out) / 1e6
            biggest = max(
                (p for p in out.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size
            )
            row |= {
                "largest": f"{biggest.name} {biggest.stat().st_size / 1e6:,.1f} MB",
                "schema_kb": schema.stat().st_size / 1e3,
                "wall_s": r.wall_s,
                "peak_mib": r.peak_rss_kib / 1024,
                "output_mb": output_mb,
            }
            rows.append(row)
            previous = (n, output_mb)
            log(f"  shapes: {shape} {n}: {r.wall_s:.2f} s, {output_mb:.1f} MB written")
            shutil.rmtree(out, ignore_errors=True)
            schema.unlink()
    return rows


def results_table(rows: list[dict[str, Any]]) -> str:
    """Each size with its time and output per unit, and both ÷ the shape's first size: linear
    keeps the per-unit columns flat."""
    out = []
    first: dict[str, dict[str, Any]] = {}
    for r in rows:
        if "skipped" in r:
            out.append([r["shape"], f"{r['n']:,}", "–", "–", "–", "–", "–", "–", r["skipped"]])
            continue
        base = first.setdefault(r["shape"], r)
        per_s = r["wall_s"] / r["n"] * 1e3
        per_b = r["output_mb"] / r["n"] * 1e6
        ratio_s = per_s / (base["wall_s"] / base["n"] * 1e3)
        ratio_b = per_b / (base["output_mb"] / base["n"] * 1e6)
        out.append(
            [
                r["shape"],
                f"{r['n']:,}",
                f"{r['schema_kb']:,.0f} KB",
                fmt_s(r["wall_s"]),
                f"{r['peak_mib']:.0f}",
                f"{r['output_mb']:,.1f} MB",
                r["largest"],
                f"{per_s:.2f} ms, {per_b:,.0f} B",
                f"time {ratio_s:.2f}, output {ratio_b:.2f}",
            ]
        )
    return table(
        [
            "shape",
            "n",
            "schema.ts",
            "wall s",
            "peak RSS MiB",
            "written",
            "largest file",
            "per unit (time, bytes)",
            "per unit ÷ first size",
        ],
        out,
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    p.add_argument("--shapes", default=",".join(SHAPES), help=f"subset of {','.join(SHAPES)}")
    p.add_argument("--sizes", default="", help="sizes for every shape (default: per shape)")
    p.add_argument("--max-output-mb", type=float, default=MAX_OUTPUT_MB)
    args = p.parse_args(argv)
    shapes = [s for s in args.shapes.split(",") if s]
    if unknown := set(shapes) - set(SHAPES):
        p.error(f"unknown shapes: {', '.join(sorted(unknown))}")
    sizes = {s: (QUICK_SIZES if args.quick else SIZES)[s] for s in shapes}
    if args.sizes:
        sizes = {s: tuple(int(x) for x in args.sizes.split(",")) for s in shapes}
    with tempfile.TemporaryDirectory(prefix="shapes-") as tmp:
        rows = run(shapes, sizes, Path(tmp), lambda m: print(m, file=sys.stderr, flush=True),
                   args.max_output_mb)  # fmt: skip
    print(results_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
