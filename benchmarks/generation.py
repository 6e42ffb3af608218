"""Benchmark 2: generation time, whole process, per official version.

Contenders per version, each a fresh process timed from spawn to reap:
- `mcp-codegen SCHEMA.ts -o DIR`: parse, resolve, render, format (`ruff format`), write
  — every output; also in one process (`MCP_CODEGEN_JOBS=1`; `--formatter black` takes seconds per
  version: the profile section measures it);
- `datamodel-codegen` on the same version's official schema.json, pydantic v2 and dataclasses
  outputs (formatters named explicitly as its current default, black + isort, so it does not warn);
- `typescript-json-schema` (pinned in benchmarks/package.json) producing schema.json from
  schema.ts with the flags the MCP specification repository uses.
Runs are interleaved: every repeat visits every version, and the tool order rotates per visit.
Each cell is the median over repeats.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import corpus

from .common import BENCH, fmt_ratio, fmt_s, median, rotated, table, venv_bin
from .procs import ProcResult, child_env, run_timed

TJS_BIN = BENCH / "node_modules" / ".bin" / "typescript-json-schema"


@dataclass
class Tool:
    key: str
    label: str
    argv: Callable[[corpus.Version, Path], list[str]]  # (version, output dir) -> command
    available: bool = True
    note: str = ""
    env: dict[str, str] = field(default_factory=dict)  # more environment for the command
    runs: dict[str, list[ProcResult]] = field(default_factory=dict)

    def medians(self, version: str) -> float:
        ok = [r.wall_s for r in self.runs.get(version, []) if r.returncode == 0]
        return median(ok)

    def failures(self, version: str) -> list[ProcResult]:
        return [r for r in self.runs.get(version, []) if r.returncode != 0]


def ensure_tjs(log: Callable[[str], None], install: bool = True) -> tuple[bool, str]:
    """`npm ci` the pinned typescript-json-schema into benchmarks/node_modules if needed."""
    if TJS_BIN.exists():
        return True, ""
    if not install:
        return False, "not installed (--quick does not run npm ci)"
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return False, "node/npm not installed"
    log("installing the pinned typescript-json-schema: npm ci (benchmarks/package-lock.json)")
    proc = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"],
        cwd=BENCH,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0 or not TJS_BIN.exists():
        return False, f"npm ci failed: {proc.stderr[-300:]}"
    return True, ""


def _dmcg(model_type: str) -> Callable[[corpus.Version, Path], list[str]]:
    def argv(v: corpus.Version, out: Path) -> list[str]:
        assert v.schema_json is not None
        return [
            venv_bin("datamodel-codegen"),
            "--input",
            str(v.schema_json),
            "--input-file-type",
            "jsonschema",
            "--output-model-type",
            model_type,
            "--formatters",
            "black",
            "isort",
            "--disable-timestamp",
            "--output",
            str(out / "models.py"),
        ]

    return argv


def tools(log: Callable[[str], None], install: bool = True) -> list[Tool]:
    tjs_ok, tjs_note = ensure_tjs(log, install)
    dmcg_ok = shutil.which(venv_bin("datamodel-codegen")) is not None
    return [
        Tool(
            "mcp_codegen",
            "mcp-codegen cold",
            lambda v, out: [venv_bin("mcp-codegen"), str(v.schema_ts), "-o", str(out / "pkg")],
        ),
        Tool(
            "mcp_codegen_serial",
            "mcp-codegen cold, one process",
            lambda v, out: [venv_bin("mcp-codegen"), str(v.schema_ts), "-o", str(out / "pkg")],
            env={"MCP_CODEGEN_JOBS": "1"},
        ),
        Tool(
            "dmcg_pydantic",
            "dmcg pydantic",
            _dmcg("pydantic_v2.BaseModel"),
            dmcg_ok,
            "" if dmcg_ok else "datamodel-code-generator not installed",
        ),
        Tool(
            "dmcg_dataclasses",
            "dmcg dataclasses",
            _dmcg("dataclasses.dataclass"),
            dmcg_ok,
            "" if dmcg_ok else "datamodel-code-generator not installed",
        ),
        Tool(
            "tjs",
            "tjs",
            lambda v, out: [
                "node",
                str(TJS_BIN),
                "--defaultNumberType",
                "integer",
                "--required",
                str(v.schema_ts),
                "*",
                "-o",
                str(out / "schema.json"),
            ],
            tjs_ok,
            tjs_note,
        ),
    ]


def run(
    versions: Sequence[corpus.Version],
    repeats: int,
    workdir: Path,
    log: Callable[[str], None],
    install: bool = True,
) -> list[Tool]:
    compile_bytecode(log)
    line_up = tools(log, install)
    active = [t for t in line_up if t.available]
    visit = 0
    for rep in range(repeats):
        for v in versions:
            for tool in rotated(active, visit):
                out = workdir / "gen" / tool.key / v.name / str(rep)
                out.mkdir(parents=True, exist_ok=True)
                result = run_timed(tool.argv(v, out), env=child_env() | tool.env)
                tool.runs.setdefault(v.name, []).append(result)
                if result.returncode != 0:
                    log(
                        f"  {tool.key} {v.name}: exit {result.returncode}: {result.stderr_tail[-200:]!r}"
                    )
                shutil.rmtree(out, ignore_errors=True)
            visit += 1
        log(f"  generation repeat {rep + 1}/{repeats} done")
    return line_up


def compile_bytecode(log: Callable[[str], None]) -> None:
    """Compile the measured codegen package's bytecode first, as `pip install` does for the
    contenders (with PYTHONDONTWRITEBYTECODE set, as on this machine, every run would otherwise
    compile codegen from source: ~0.1 s none of the others pay), and its templates' bytecode
    (`python -m codegen.templating`, the same for Jinja's compiled templates: ~0.1 s more)."""
    import compileall
    import importlib

    import codegen

    package = Path(codegen.__file__).resolve().parent
    compileall.compile_dir(str(package), quiet=1)
    templating = importlib.import_module("codegen.templating")
    compile_templates = getattr(templating, "compile_all", None)  # older commits: none
    count = compile_templates() if compile_templates is not None else 0
    log(f"  compiled the bytecode of {package} and of {count} templates")


def all_in_one_process(versions: Sequence[corpus.Version], repeats: int, workdir: Path) -> float:
    """Median wall of one Python process running the CLI for every version in turn (what the
    seven cost once the interpreter and imports are paid for once)."""
    code = (
        "import sys\nfrom codegen.cli import main\n"
        "for i in range(1, len(sys.argv), 2):\n"
        "    assert main([sys.argv[i], '-o', sys.argv[i + 1]]) == 0\n"
    )
    walls = []
    for rep in range(repeats):
        argv = [sys.executable, "-c", code]
        for v in versions:
            argv += [str(v.schema_ts), str(workdir / "one" / str(rep) / v.name)]
        r = run_timed(argv, env=child_env())
        if r.returncode == 0:
            walls.append(r.wall_s)
        shutil.rmtree(workdir / "one" / str(rep), ignore_errors=True)
    return median(walls)


def summarise(
    line_up: Sequence[Tool],
    versions: Sequence[corpus.Version],
) -> dict[str, Any]:
    ours = line_up[0]
    others = [t for t in line_up if not t.key.startswith("mcp_codegen")]
    per_version = {}
    for v in versions:
        row: dict[str, Any] = {}
        for t in line_up:
            row[t.key] = t.medians(v.name) if t.available else float("nan")
            row[t.key + "_peak_mib"] = median(
                [r.peak_rss_kib / 1024 for r in t.runs.get(v.name, [])]
            )
            row[t.key + "_failures"] = len(t.failures(v.name))
        for t in others:
            row["ratio_" + t.key] = row[t.key] / row[ours.key] if row[ours.key] else float("nan")
        per_version[v.name] = row
    totals = {t.key: sum(per_version[v.name][t.key] for v in versions) for t in line_up}
    return {
        "per_version": per_version,
        "totals": totals,
        "notes": {t.key: t.note for t in line_up if t.note},
    }


def results_table(summary: dict[str, Any], line_up: Sequence[Tool]) -> str:
    ours = line_up[0]
    others = [t for t in line_up if not t.key.startswith("mcp_codegen")]
    headers = (
        ["version"]
        + [f"{t.label} s" for t in line_up]
        + [f"{t.label} ÷ cold" for t in others]
        + [f"{ours.label} peak MiB"]
    )
    rows = []
    for name, row in summary["per_version"].items():
        rows.append(
            [name]
            + [fmt_s(row[t.key]) for t in line_up]
            + [fmt_ratio(row["ratio_" + t.key]) for t in others]
            + [f"{row[ours.key + '_peak_mib']:.0f}"]
        )
    tot = summary["totals"]
    rows.append(
        ["**total**"]
        + [f"**{fmt_s(tot[t.key])}**" for t in line_up]
        + [fmt_ratio(tot[t.key] / tot[ours.key]) if tot[ours.key] else "–" for t in others]
        + [""]
    )
    return table(headers, rows)
