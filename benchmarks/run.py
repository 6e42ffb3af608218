"""One-command benchmark runner (see benchmarks/README.md).

    .venv/bin/python -m benchmarks.run [--quick] [--only validation,apptypes,generation,...]
                                       [--rounds N] [--repeats N] [--update-readme]

Prints a Markdown report, writes it to benchmarks/results/latest.md and the raw numbers to
benchmarks/results/latest.json; --update-readme also replaces the results section of
benchmarks/README.md. Not part of the test suite (tests/test_benchmarks_smoke.py runs --quick).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import corpus  # tests/corpus.py, on sys.path via benchmarks/__init__.py

from . import common
from .common import BENCH, fmt_ratio, fmt_s, table

QUICK_VERSION = "2024-11-05"  # the smallest official schema: --quick generates only this one
EXAMPLE_SCHEMA = BENCH.parent / "schemas" / "example" / "v2" / "schema.ts"
SECTIONS = ("validation", "codec", "apptypes", "generation", "scaling", "shapes", "profile")
APPTYPES_QUICK = ("2025-06-18", "2026-07-28")  # --quick: application types of two versions
README_BEGIN, README_END = "<!-- results:begin -->", "<!-- results:end -->"
PACKAGES = (
    "mcp-codegen",
    "jsonschema",
    "fastjsonschema",
    "jsonschema-rs",
    "pydantic",
    "pydantic-core",
    "mcp",
    "mcp-types",
    "datamodel-code-generator",
    "black",
    "ruff",
    "tree-sitter",
)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _json_default(o: Any) -> Any:
    if isinstance(o, Path):
        return str(o)
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    return str(o)


# --------------------------------------------------------------------------- sections


def run_validation(
    args: argparse.Namespace, workdir: Path, report: list[str], raw: dict[str, Any]
) -> None:
    from . import contenders, validation

    log("validation: labelling the corpus with the official schema.json ...")
    cases = validation.build_corpus(cap=args.cap, max_examples=args.max_examples)
    bindings = contenders.GeneratedBindings(workdir / "bindings")
    line_up = contenders.lineup(bindings)
    log(f"validation: {len(cases)} instances, {len(line_up)} contenders, {args.rounds} rounds ...")
    t0 = time.perf_counter()
    columns = validation.run(line_up, cases, args.rounds)
    worker_args = ["--cap", str(args.cap), "--rounds", str(args.rounds)]
    worker_args += ["--bindings", str(workdir / "bindings")]
    if args.max_examples is not None:
        worker_args += ["--max-examples", str(args.max_examples)]
    validation.pool_processes(columns, cases, args.processes - 1, worker_args, log)
    log(f"validation: done in {time.perf_counter() - t0:.1f} s")
    summaries = [validation.summarise(c, cases) for c in columns]
    by_key = {c.contender.key: c for c in columns}
    labels = {c.contender.key: c.contender.label for c in columns}
    n_valid = sum(c.valid for c in cases)
    n_ex = sum(c.example for c in cases)
    versions = sorted({c.version for c in cases})

    problems = [f"- {v}: {g.problem}" for v, g in bindings.loaded.items() if g.problem]
    validators_cols = [c for c in columns if c.contender.role in ("validate", "both")]
    decode_cols = [c for c in columns if c.contender.role in ("decode", "both")]
    vsum = [s for s in summaries if s["key"] in {c.contender.key for c in validators_cols}]
    dsum = [s for s in summaries if s["key"] in {c.contender.key for c in decode_cols}]

    report.append("## 1. Validation throughput\n")
    report.append(
        f"Corpus: {len(cases)} instances from the examples of {', '.join(versions)}: {n_ex} official examples, "
        f"{n_valid - n_ex} mutations still valid, {len(cases) - n_valid} invalid mutations; labels from "
        "`jsonschema` on the official schema.json. Medians over "
        f"{args.rounds} interleaved rounds in each of {args.processes} processes; µs = median per instance; per second = instances ÷ their summed times.\n"
    )
    if problems:
        report.append("mcp-codegen bindings unavailable:\n" + "\n".join(problems) + "\n")
    report.append(validation.results_table(vsum) + "\n")
    base = by_key["mcp_codegen"]
    val_ratios: dict[str, Any] = {}
    if any(fn is not None for fn in base.checks):
        val_ratios = validation.ratios(base, validators_cols, cases)
        report.append(
            "Ratios (other's median µs ÷ ours, on the instances both cover; > 1 means mcp-codegen is faster):\n"
        )
        report.append(validation.ratio_table("mcp-codegen `is_valid`", val_ratios, labels) + "\n")

    off = validation.disagreements(base, cases)
    schema_ts: tuple[int, int] | None = None
    if off:
        report.append("mcp-codegen `is_valid` answers that differ from the labels, by mutation:\n")
        for key, count, samples in off:
            report.append(f"- {key}: {count}, e.g. " + "; ".join(f"`{d}`" for d in samples))
        report.append("")
        schema_ts = validation.schema_ts_labels(base, cases, _our_json_schemas(versions))
        report.append(
            f"Of these {schema_ts[1]}, {schema_ts[0]} agree with schema.ts's meaning (relabelled by "
            "`jsonschema` against `mcp-codegen jsonschema` of the version: `number` a number, "
            "`JSONValue` with `null`); the official schema.json renders `number` as `integer` and "
            "leaves `null` out of `JSONValue`.\n"
        )
    report.append("### Decoding (dict → objects)\n")
    report.append(validation.results_table(dsum) + "\n")
    dec_ratios: dict[str, Any] = {}
    dbase = by_key["mcp_codegen_decode"]
    if any(fn is not None for fn in dbase.checks):
        dec_ratios = validation.ratios(dbase, decode_cols, cases)
        report.append(validation.ratio_table("mcp-codegen `decode`", dec_ratios, labels) + "\n")

    unmapped = {s["label"]: s["unmapped"] for s in summaries if s["unmapped"] and s["covered"]}
    if unmapped:
        report.append(
            "Example types a contender has no model for (their instances are left out of its column):\n"
        )
        for label, names in unmapped.items():
            report.append(f"- {label} ({len(names)}): {', '.join(names)}")
        report.append("")
    raw["validation"] = {
        "instances": len(cases),
        "examples": n_ex,
        "valid": n_valid,
        "rounds": args.rounds,
        "processes": args.processes,
        # samples behind each instance's median: rounds x processes when every process pooled
        "samples_per_instance": min((len(x) for x in base.samples or () if x), default=0),
        "summaries": summaries,
        "ratios": val_ratios,
        "decode_ratios": dec_ratios,
        "notes": {c.contender.key: c.contender.note for c in columns},
        "mcp_codegen_disagreements": off,
        "schema_ts_agreement": schema_ts,
        "problems": problems,
    }


def _our_json_schemas(versions: list[str]) -> dict[str, Any]:
    """`mcp-codegen jsonschema SCHEMA.ts` (schema.ts's meaning, no --number-as-integer) per version."""
    import json
    import subprocess

    from .common import venv_bin
    from .procs import child_env

    out = {}
    for v in versions:
        schema = str(corpus.get_version(v).schema_ts)
        proc = subprocess.run(
            [venv_bin("mcp-codegen"), "jsonschema", schema],
            capture_output=True,
            text=True,
            check=True,
            env=child_env(),
        )
        out[v] = json.loads(proc.stdout)
    return out


def run_codec(
    args: argparse.Namespace, workdir: Path, report: list[str], raw: dict[str, Any]
) -> None:
    """Decode / encode / JSON text against the SDK wire models, and import time (codec.py)."""
    import importlib

    from . import codec

    log(f"codec: generating {codec.VERSION} ...")
    root, modules = codec.generate(workdir, [codec.VERSION], None)
    sys.path.insert(0, str(root))
    pkg = modules[0]
    ours_codec = importlib.import_module(f"{pkg}.codec")
    ours_models = importlib.import_module(f"{pkg}.models")
    cases = codec.build_cases(ours_codec, ours_models, codec.VERSION, args.max_examples)
    log(f"codec: {len(cases)} cases, {args.rounds} rounds ...")
    codec.time_cases(cases, args.rounds)
    codec.pool_processes(cases, args.processes - 1, root, pkg, args.rounds, args.max_examples, log)
    summary = codec.summarise(cases)
    rows = []
    for op, r in summary["ops"].items():
        rows.append(
            [
                codec.OP_LABELS[op],
                f"{r['ours_us']:.2f}",
                f"{r['pydantic_us']:.2f}",
                fmt_ratio(r["ratio"]),
                f"{r.get('tools_ours_us', math.nan):.1f}",
                f"{r.get('tools_pydantic_us', math.nan):.1f}",
                fmt_ratio(r.get("tools_ratio", math.nan)),
            ]
        )
    tools = next(iter(summary["ops"].values())).get("tools_label", "the tool list")
    report.append("## Codec: decoding, encoding, JSON text\n")
    report.append(
        f"{summary['examples']} official examples of {codec.VERSION} that the SDK wire models "
        f"(`{codec.SDK_MODULE}`) accept, and a {tools}; medians over {args.rounds} interleaved "
        f"rounds in each of {args.processes} processes; ratio = pydantic's median µs ÷ ours (> 1: mcp-codegen is faster). JSON text "
        "rows: ours through orjson (the accelerated path, `pip install 'PKG[fast]'`) and through "
        "the standard library's json (`MCP_BINDINGS_JSON=stdlib`, the default without orjson); "
        "pydantic's the same calls in both.\n"
    )
    report.append(
        table(
            [
                "operation",
                "ours µs/example",
                "pydantic µs/example",
                "ratio",
                "ours µs, tool list",
                "pydantic µs, tool list",
                "ratio, tool list",
            ],
            rows,
            "lrrrrrr",
        )
        + "\n"
    )
    versions = [codec.VERSION] if args.quick else corpus.version_names()
    log(f"codec: import time ({len(versions)} versions in the multi-version package) ...")
    multi_root, multi_modules = codec.generate(workdir, versions, "mcpbench")
    subjects = [
        (f"one version ({codec.VERSION})", root, [pkg]),
        (
            f"multi-version package ({len(versions)} versions, all imported)",
            multi_root,
            multi_modules,
        ),
        codec.sdk_subject(),
    ]
    imports = codec.import_rows(subjects, args.repeats)
    report.append(
        "Import in a fresh interpreter (median of "
        f"{args.repeats}; MiB = peak RSS above an interpreter importing nothing):\n"
    )
    report.append(
        table(
            ["package", "bytecode", "import ms", "memory MiB"],
            [
                [
                    i["label"],
                    "compiled" if i["compiled"] else "none",
                    f"{i['ms']:.0f}",
                    f"{i['mib']:.1f}",
                ]
                for i in imports
            ],
            "llrr",
        )
        + "\n"
    )
    samples = min(
        (len(t) for c in cases for ops in c.times.values() for t in ops.values()), default=0
    )
    raw["codec"] = {**summary, "imports": imports, "rounds": args.rounds,
                    "processes": args.processes, "samples_per_case": samples}  # fmt: skip


def run_apptypes(
    args: argparse.Namespace, workdir: Path, report: list[str], raw: dict[str, Any]
) -> None:
    """Application types against the SDK's hand-written layer (apptypes.py), same messages."""
    from codegen.cli import main as codegen

    from . import apptypes

    names = list(APPTYPES_QUICK) if args.quick else corpus.version_names()
    log(f"apptypes: generating a distribution of {len(names)} versions ...")
    dist = workdir / "apptypes"
    schemas = [str(corpus.get_version(n).schema_ts) for n in names]
    if codegen([*schemas, "-o", str(dist), "--package", "mcp_apptypes"]) != 0:
        raise RuntimeError("apptypes: generation failed")
    items = apptypes.cases(*apptypes.load(dist, "mcp_apptypes"))
    # short rounds, many of them: a message's ratio pairs our time and the SDK's within
    # milliseconds, so a burst of other work on the shared cores rarely lands on one side only
    calls, rounds = (5, 1) if args.quick else (100, max(args.rounds, 15))
    log(f"apptypes: {len(items)} messages, {rounds} rounds of {calls} calls ...")
    rows = apptypes.measure(items, calls, rounds)
    summary = apptypes.summarise(rows)
    report.append("## Application types against the SDK's hand-written layer\n")
    report.append(
        f"The {apptypes.VERSION} official examples both sides handle: parse = "
        '`app.parse_message(message, version=V, direction="client_to_server")` against '
        "`mcp_types.methods.parse_client_request(method, V, params)`; serialize = "
        "`app.serialize(result, version=V, method=M)` against "
        f"`serialize_server_result(M, V, data)`. {rounds} interleaved rounds of {calls} calls; "
        "µs = median over rounds; ratio = the median over rounds of the SDK's time ÷ ours in "
        "the same round (> 1: mcp-codegen is faster).\n"
    )
    body = [[f"{r.kind} `{r.method}`", f"{r.ours_us:.1f}", f"{r.sdk_us:.1f}", fmt_ratio(r.ratio)]
            for r in rows]  # fmt: skip
    for kind, s in summary.items():
        what = (
            f"**{kind}: median of {s['messages']} messages** (total {fmt_ratio(s['total_ratio'])})"
        )
        body.append([what, "", "", fmt_ratio(s["median_ratio"])])
    report.append(table(["message", "ours µs", "SDK µs", "ratio"], body, "lrrr") + "\n")
    raw["apptypes"] = {
        "version": apptypes.VERSION,
        "rounds": rounds,
        "calls": calls,
        "rows": [vars(r) for r in rows],
        "summary": summary,
    }


def run_generation(
    args: argparse.Namespace, workdir: Path, report: list[str], raw: dict[str, Any]
) -> None:
    from . import generation

    versions = corpus.versions()
    if args.quick:
        versions = [v for v in versions if v.name == QUICK_VERSION]
    log(f"generation: {len(versions)} versions x {args.repeats} repeats, interleaved ...")
    line_up = generation.run(versions, args.repeats, workdir, log, install=not args.quick)
    summary = generation.summarise(line_up, versions)
    one = generation.all_in_one_process(versions, args.scaling_repeats, workdir)
    summary["all_in_one_process_s"] = one
    report.append("## 2. Generation time (whole process, median wall seconds)\n")
    report.append(
        "dmcg = datamodel-codegen on the version's official schema.json (black + isort formatting, its default); "
        "tjs = typescript-json-schema (npm, pinned in benchmarks/package-lock.json) schema.ts → schema.json with the "
        "MCP specification's flags; mcp-codegen cold = a fresh process writing every output, laid out "
        "by `ruff format` (no output cache: every generation is a first one; the package's bytecode and its compiled templates made first, as an install has them); "
        '"X ÷ cold" = how many times longer X takes than mcp-codegen cold; peak MiB = the cold '
        "run's own peak RSS (ru_maxrss).\n"
    )
    report.append(generation.results_table(summary, line_up) + "\n")
    report.append(
        f"mcp-codegen (cold) for all {len(versions)} schemas in one Python process (interpreter and imports paid once): "
        f"**{fmt_s(one)} s**.\n"
    )
    for key, note in summary["notes"].items():
        report.append(f"- {key}: {note}")
    raw["generation"] = summary


def run_scaling(
    args: argparse.Namespace, workdir: Path, report: list[str], raw: dict[str, Any]
) -> None:
    from . import scaling

    factors = (1, 2) if args.quick else (1, 2, 4, 8)
    base = EXAMPLE_SCHEMA if args.quick else corpus.get_version("draft").schema_ts
    name = "bundled example" if args.quick else "draft"
    log(f"scaling: {name} schema x {factors}, {args.scaling_repeats} repeats ...")
    res = scaling.run(factors, args.scaling_repeats, workdir, log, base=base)
    tf, mf, rx = res["time_fit"], res["memory_fit"], res["black_formatter"]
    report.append(f"## 3. Scaling ({name} schema replicated, whole process, medians)\n")
    report.append(scaling.results_table(res) + "\n")
    report.append(
        f"Time: {tf['intercept_s']:.3f} s + {tf['per_copy_s']:.3f} s per copy (R² {tf['r2']:.4f}); marginal "
        f"cost per copy 4×→8× ÷ 2×→4×: {tf['marginal_ratio']:.2f} (4×→8× ÷ 1×→2×: "
        f"{tf['marginal_ratio_from_1x']:.2f}). Peak RSS: {mf['intercept_mib']:.0f} MiB + "
        f"{mf['per_copy_mib']:.1f} MiB per copy (R² {mf['r2']:.4f}); marginal ratio {mf['marginal_ratio']:.2f} "
        f"(÷ 1×→2×: {mf['marginal_ratio_from_1x']:.2f}). "
        f"With --formatter black: {rx['per_copy_s']:.3f} s per copy, "
        f"R² {rx['r2']:.4f}, marginal ratio {rx['marginal_ratio']:.2f}.\n"
    )
    raw["scaling"] = res


def run_shapes(
    args: argparse.Namespace, workdir: Path, report: list[str], raw: dict[str, Any]
) -> None:
    from . import scaling_shapes as shapes

    sizes = shapes.QUICK_SIZES if args.quick else shapes.SIZES
    log(f"shapes: {', '.join(f'{s} {list(n)}' for s, n in sizes.items())} ...")
    rows = shapes.run(shapes.SHAPES, sizes, workdir, log)
    report.append("## Scaling by shape (synthetic schemas, whole process, one run each)\n")
    report.append(shapes.results_table(rows) + "\n")
    raw["shapes"] = rows


def run_profile(
    args: argparse.Namespace, workdir: Path, report: list[str], raw: dict[str, Any]
) -> None:
    from . import profiling

    versions = corpus.versions()
    target = QUICK_VERSION if args.quick else "draft"
    if args.quick:
        versions = [v for v in versions if v.name == target]
    formatters = ("ruff", "black", "none")
    log(
        f"profile: per-stage times, {len(versions)} versions x {formatters} x {args.profile_repeats} ..."
    )
    runs: dict[str, dict[str, list[dict[str, float]]]] = {
        f: {v.name: [] for v in versions} for f in formatters
    }
    visit = 0
    for _ in range(args.profile_repeats):
        for v in versions:
            for fmt in common.rotated(list(formatters), visit):
                out = workdir / "profile" / fmt / v.name
                runs[fmt][v.name].append(profiling.stage_times(v.schema_ts, out, formatter=fmt))
            visit += 1
    diffs = {
        fmt: profiling.changed_lines(
            workdir / "profile" / "black" / target, workdir / "profile" / fmt / target
        )
        for fmt in formatters
        if fmt != "black"
    }
    stages = {
        fmt: {name: profiling.median_stages(rs) for name, rs in per.items()}
        for fmt, per in runs.items()
    }
    walls = {fmt: {name: st["wall"] for name, st in per.items()} for fmt, per in stages.items()}
    profiled = corpus.get_version(target)
    summaries = {}
    for fmt in ("ruff", "black"):
        prof_file = workdir / f"{target}-{fmt}.prof"
        profiling.stage_times(
            profiled.schema_ts, workdir / "prof" / fmt, profile=prof_file, formatter=fmt
        )
        summaries[fmt] = profiling.profile_summary(prof_file)

    report.append("## Generation profile\n")
    report.append(
        "Per stage, seconds, median of "
        f"{args.profile_repeats} (a fresh process per run, no profiler; `format` = the main "
        "process's time starting `ruff format` on each group of modules and waiting for it (most "
        "of ruff's work overlaps rendering); `startup + exit` = "
        "wall minus the script's own time):\n"
    )
    report.append(profiling.stage_table(stages["ruff"]) + "\n")
    report.append("The same with `--formatter black` (black in-process, module by module):\n")
    report.append(profiling.stage_table(stages["black"]) + "\n")
    report.append(
        "Formatters compared: whole-process wall of the same generation with ruff (the default), "
        "black (`--formatter black`) and no formatter (benchmark-only: codegen's `start_format` "
        f"replaced inside the measuring process); last column: lines of the {target} generated .py "
        "files that differ from black's:\n"
    )
    report.append(profiling.formatter_table(walls, diffs) + "\n")
    for fmt, summary in summaries.items():
        report.append(
            f"cProfile of one {target} generation with `{fmt}` (profiler overhead inflates "
            "call-heavy code):\n"
        )
        report.append(profiling.profile_tables(summary) + "\n")
    raw["profile"] = {
        "stages": stages,
        "walls": walls,
        "diff_lines_vs_black": diffs,
        "cprofile_draft": summaries,
    }


# --------------------------------------------------------------------------- targets


def targets(raw: dict[str, Any]) -> str:
    rows: list[list[str]] = []

    def add(name: str, measured: str, ok: bool | None) -> None:
        rows.append([name, measured, "–" if ok is None else "met" if ok else "**missed**"])

    val = raw.get("validation")
    if val and val["ratios"]:
        r = val["ratios"]
        ours = next(s for s in val["summaries"] if s["key"] == "mcp_codegen")
        fj = r["fastjsonschema"]
        add(
            "validation ≥ 8× faster than fastjsonschema (valid examples)",
            f"{fmt_ratio(fj['examples'])} (all valid: {fmt_ratio(fj['valid'])})",
            fj["examples"] >= 8,
        )
        own = r.get("mcp_codegen_checker")
        if own is not None and own.get("examples"):
            # r[...] are ratios to is_valid; fastjsonschema's ÷ checker's is the bound check's ratio.
            bound = fj["examples"] / own["examples"]
            add(
                "… with the check bound once per type (`validators.checker`, as fastjsonschema compiles once)",
                f"{fmt_ratio(bound)} (all valid: {fmt_ratio(fj['valid'] / own['valid'])}; "
                f"`is_valid` takes {fmt_ratio(1 / own['examples'])} of its time)",
                bound >= 8,
            )
        for key, label in (("sdk_types", "SDK `mcp.types`"), ("sdk_wire", "SDK wire models")):
            if key in r:
                add(
                    f"validation ≥ 2× faster than {label} (valid examples)",
                    f"{fmt_ratio(r[key]['examples'])} (all valid: {fmt_ratio(r[key]['valid'])})",
                    r[key]["examples"] >= 2,
                )
        inv = ours["invalid_us"] / ours["valid_us"]
        add("invalid no slower than 1.5× valid (median µs)", f"{inv:.2f}×", inv <= 1.5)
        add(
            "100% agreement with the labels",
            f"{ours['agree']}/{ours['covered']} "
            f"({ours['false_accepts']} false accepts, {ours['false_rejects']} false rejects)",
            ours["agree"] == ours["covered"] == ours["total"],
        )
        ts = val.get("schema_ts_agreement")
        if ts:
            add(
                "… of the differences, agreeing with schema.ts (`number`, `JSONValue` with null)",
                f"{ts[0]}/{ts[1]}",
                ts[0] == ts[1],
            )
        rs = r["jsonschema_rs"]
        add(
            "stretch: within 2× of jsonschema-rs (valid examples)",
            f"jsonschema-rs {fmt_ratio(1 / rs['examples'])} faster (all valid: {fmt_ratio(1 / rs['valid'])})"
            if not math.isnan(rs["examples"])
            else "–",
            rs["examples"] >= 0.5,
        )
    elif val:
        add("validation targets", "mcp-codegen bindings not available", False)
    cod = raw.get("codec")
    if cod:
        ops = cod["ops"]
        for op, want, what in (
            ("decode", 1.5, "decode ≥ 1.5× faster than the SDK wire models' `model_validate`"),
            ("encode", 1.5, "encode (validating) ≥ 1.5× faster than `model_dump`"),
            ("encode_novalidate", 1.5, "encode (validate=False) ≥ 1.5× faster than `model_dump`"),
            ("text", 1.0, "JSON text round trip (orjson) at least on par with pydantic's"),
            ("text_none", 1.0, "the same, pydantic dumping with exclude_none (the issue's call)"),
        ):
            if op not in ops:  # orjson not installed: no accelerated rows
                add(what, "orjson not installed", False)
                continue
            r = ops[op]
            add(
                what + " (examples median; tool list)",
                f"{fmt_ratio(r['ratio'])}; {fmt_ratio(r.get('tools_ratio', math.nan))}",
                r["ratio"] >= want and r.get("tools_ratio", want) >= want,
            )
        one = next(
            (i for i in cod["imports"] if i["compiled"] and i["label"].startswith("one version")),
            None,
        )
        if one is not None:
            add(
                "stretch: one version imports in ≤ 50 ms (compiled)",
                f"{one['ms']:.0f} ms",
                one["ms"] <= 50,
            )
    app = raw.get("apptypes")
    if app:
        for kind in ("parse", "serialize"):
            s = app["summary"].get(kind)
            if s:
                add(
                    f"application types: {kind} ≥ 1.0× the SDK's hand-written functions "
                    "(median of messages; total)",
                    f"{fmt_ratio(s['median_ratio'])}; {fmt_ratio(s['total_ratio'])}",
                    s["median_ratio"] >= 1.0,
                )
    gen = raw.get("generation")
    if gen:
        n = len(gen["per_version"])
        rows_ = gen["per_version"]
        slowest = max(rows_, key=lambda v: rows_[v]["mcp_codegen"])
        worst = rows_[slowest]["mcp_codegen"]
        serial = max(row.get("mcp_codegen_serial", math.nan) for row in rows_.values())
        add(
            "every official version ≤ 0.5 s wall, fresh process, cold (every output)",
            f"slowest {slowest} {worst:.3f} s (one process, MCP_CODEGEN_JOBS=1: slowest {serial:.3f} s)",
            worst <= 0.5,
        )
        total = gen["totals"]["mcp_codegen"]
        add(
            f"all {n} schemas < 3 s total wall, cold (separate processes)",
            f"{total:.2f} s (all seven in one Python process: {gen['all_in_one_process_s']:.2f} s)",
            total < 3,
        )
        for key in ("dmcg_pydantic", "dmcg_dataclasses"):
            ratios = [
                row["ratio_" + key] for row in rows_.values() if not math.isnan(row["ratio_" + key])
            ]
            if ratios:
                add(
                    f"≥ 2× faster than datamodel-codegen ({key.split('_')[1]}) per version, cold",
                    f"min {fmt_ratio(min(ratios))}, max {fmt_ratio(max(ratios))}",
                    min(ratios) >= 2,
                )
    sc = raw.get("scaling")
    if sc:
        tf, mf = sc["time_fit"], sc["memory_fit"]
        add(
            "scaling: time linear in schema size",
            f"R² {tf['r2']:.4f}, marginal ratio {tf['marginal_ratio']:.2f} "
            f"(4×→8× ÷ 2×→4×; ÷ 1×→2×: {tf['marginal_ratio_from_1x']:.2f})",
            tf["r2"] >= 0.99 and (math.isnan(tf["marginal_ratio"]) or tf["marginal_ratio"] <= 1.5),
        )
        add(
            "scaling: peak memory linear in schema size",
            f"R² {mf['r2']:.4f}, marginal ratio {mf['marginal_ratio']:.2f} "
            f"(4×→8× ÷ 2×→4×; ÷ 1×→2×: {mf['marginal_ratio_from_1x']:.2f})",
            mf["r2"] >= 0.99 and (math.isnan(mf["marginal_ratio"]) or mf["marginal_ratio"] <= 1.5),
        )
    return table(["target", "measured", "verdict"], rows, "llr")


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0]
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"tiny smoke mode: few instances, 1 round/repeat, {QUICK_VERSION} only, scaling on the example",
    )
    p.add_argument(
        "--only", default=",".join(SECTIONS), help=f"comma-separated subset of {','.join(SECTIONS)}"
    )
    p.add_argument(
        "--rounds", type=int, default=5, help="interleaved validation rounds (default 5)"
    )
    p.add_argument(
        "--processes",
        type=int,
        default=3,
        help="fresh processes the validation and codec rounds run in, pooled (default 3)",
    )
    p.add_argument(
        "--repeats",
        type=int,
        default=5,
        help="process runs per cell for generation/scaling (default 5)",
    )
    p.add_argument(
        "--scaling-repeats",
        type=int,
        default=2,
        help="process runs per size, and of the all-in-one-process run (default 2)",
    )
    p.add_argument(
        "--profile-repeats",
        type=int,
        default=3,
        help="stage-timing runs per version and formatter (default 3)",
    )
    p.add_argument(
        "--cap",
        type=int,
        default=corpus.DEFAULT_CAP,
        help="mutations per example (default %(default)s)",
    )
    p.add_argument(
        "--max-examples", type=int, default=None, help="examples per version (default all)"
    )
    p.add_argument(
        "--results", type=Path, default=BENCH / "results", help="where latest.md/latest.json go"
    )
    p.add_argument(
        "--update-readme",
        action="store_true",
        help="replace the results section of benchmarks/README.md",
    )
    p.add_argument(
        "--readme",
        type=Path,
        default=BENCH / "README.md",
        help="the README --update-readme rewrites",
    )
    p.add_argument(
        "--snapshot",
        action="store_true",
        help="measure the committed HEAD (exported with git archive), not the work tree",
    )
    p.add_argument(
        "--keep-workdir",
        action="store_true",
        help="keep the temporary directory (generated code, profiles)",
    )
    args = p.parse_args(argv)
    if args.quick:
        # two validation processes: the pooling of a second one runs too
        args.rounds, args.repeats, args.cap, args.processes = 1, 1, min(args.cap, 4), 2
        args.scaling_repeats = args.profile_repeats = 1
        args.max_examples = args.max_examples or 3
    if args.processes < 1:
        p.error("--processes must be at least 1")
    unknown = set(args.only.split(",")) - set(SECTIONS)
    if unknown:
        p.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    return args


def run_snapshot(argv: list[str], args: argparse.Namespace) -> int:
    """Re-run this runner on an exported copy of the committed HEAD (`git archive`), so work in
    progress in the shared checkout cannot change the code under measurement mid-run. Results
    and the README are still written here."""
    import io
    import subprocess
    import tarfile

    from .common import REPO

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    dest = Path(tempfile.mkdtemp(prefix="mcp-codegen-bench-src-"))
    tar = subprocess.run(
        ["git", "archive", "--format=tar", "HEAD"], cwd=REPO, capture_output=True, check=True
    )
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as archive:
        archive.extractall(dest, filter="data")
    if (BENCH / "node_modules").is_dir():
        (dest / "benchmarks" / "node_modules").symlink_to(BENCH / "node_modules")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(dest) + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""
    )
    spec = corpus.spec_dir()
    if spec is not None:
        env["MCP_SPEC_DIR"] = str(spec.resolve())
    env["MCP_BENCH_CODE"] = f"commit {commit} (committed HEAD, exported with git archive)"
    rest = [a for a in argv if a != "--snapshot"]
    rest += ["--results", str(args.results.resolve()), "--readme", str(args.readme.resolve())]
    log(f"snapshot: measuring commit {commit} from {dest}")
    try:
        argv2 = [sys.executable, "-m", "benchmarks.run", *rest]
        return subprocess.run(argv2, cwd=dest, env=env, check=False).returncode
    finally:
        shutil.rmtree(dest, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    if args.snapshot:
        return run_snapshot(argv, args)
    if corpus.spec_dir() is None:
        log("official MCP schemas not found: set $MCP_SPEC_DIR or provide ../shared/spec")
        return 2
    started = time.perf_counter()
    workdir = Path(tempfile.mkdtemp(prefix="mcp-codegen-bench-"))
    report: list[str] = []
    raw: dict[str, Any] = {
        "machine": {**common.machine(), "load_average_start": os.getloadavg()},
        "packages": common.package_versions(PACKAGES),
        "args": {k: v for k, v in vars(args).items() if k != "results"},
    }
    try:
        for section in SECTIONS:
            if section in args.only.split(","):
                globals()[f"run_{section}"](args, workdir, report, raw)
    finally:
        if args.keep_workdir:
            log(f"work directory kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    raw["machine"]["load_average_end"] = os.getloadavg()
    m = raw["machine"]
    head = [
        "# Benchmark results\n",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}, {m['os']}; Python {m['python']}, node {m['node']}. "
        f"1-minute load average {m['load_average_start'][0]:.1f} at the start, "
        f"{m['load_average_end'][0]:.1f} at the end (other work shares these cores: interleaving "
        "and medians keep the ratios fair, absolute times may be inflated). "
        f"Run took {time.perf_counter() - started:.0f} s"
        + (" (--quick: smoke mode, not representative)" if args.quick else "")
        + ".\n",
        f"Code: {os.environ.get('MCP_BENCH_CODE') or common.git_state()}.\n",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in raw["packages"].items()) + ".\n",
        "## Targets\n",
        targets(raw) + "\n",
    ]
    text = "\n".join(head + report) + "\n"
    print(text)
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "latest.md").write_text(text, encoding="utf-8")
    (args.results / "latest.json").write_text(
        json.dumps(raw, indent=2, sort_keys=True, default=_json_default) + "\n", encoding="utf-8"
    )
    if args.update_readme:
        update_readme(text, args.readme)
    return 0


def update_readme(text: str, readme: Path) -> None:
    body = readme.read_text(encoding="utf-8")
    if README_BEGIN not in body or README_END not in body:
        raise SystemExit(f"{readme}: no {README_BEGIN} ... {README_END} section")
    pre, rest = body.split(README_BEGIN, 1)
    _, post = rest.split(README_END, 1)
    section = text.replace("# Benchmark results\n", "", 1).replace("\n## ", "\n### ")
    readme.write_text(
        f"{pre}{README_BEGIN}\n{section.strip()}\n{README_END}{post}", encoding="utf-8"
    )


if __name__ == "__main__":
    sys.exit(main())
