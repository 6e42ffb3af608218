"""Benchmark 1: validation and decoding throughput on the labelled official corpus.

Corpus: every official example (all versions that ship examples) and its deterministic mutations,
each labelled by the official schema.json through jsonschema (`tests/corpus.labelled_corpus`).

Method, the same for every contender:
- each contender's check is built once per (version, type name) before any timing;
- a verdict pass records every contender's answer on every instance (agreement with the labels);
  a warm pass (GC paused, one call per instance) calibrates an inner repeat count k per
  contender from the median call, so one timed batch lasts ~BATCH_S;
- then `rounds` rounds; in each, every instance is timed for every contender back to back, in an
  order rotated by round and instance (interleaving); one timing = `k` calls between two
  perf_counter_ns reads, divided by k; the cyclic GC is paused inside a round, as timeit does;
- the whole measurement runs in `processes` fresh processes (see `pool_processes`), and an
  instance's time is the median of all their rounds; a column's "median µs" is the median over its
  instances; "per second" is the number of instances divided by the sum of their times.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import corpus

from .common import fmt_rate, fmt_ratio, fmt_us, median, rotated, table
from .contenders import Check, Contender

BATCH_S = 20e-6  # target duration of one timed batch (keeps timer overhead ~1%)
MAX_INNER = 2000


@dataclass(frozen=True)
class Case:
    version: str
    type_name: str
    instance: Any
    valid: bool  # the official label
    example: bool  # an official example (not a mutation)
    description: str


def build_corpus(cap: int | None, max_examples: int | None) -> list[Case]:
    """The labelled corpus of every version that ships examples; `max_examples` per version and
    `cap` mutations per example shrink it (smoke mode)."""
    cases: list[Case] = []
    for v in corpus.versions():
        if v.examples_dir is None:
            continue
        labelled = corpus.labelled_corpus(v, cap=cap)
        seen = 0
        for c in labelled:
            is_example = c.description.endswith(": example")
            if is_example:
                seen += 1
            if max_examples is not None and seen > max_examples:
                break
            cases.append(
                Case(v.name, c.type_name, c.instance, c.expected_valid, is_example, c.description)
            )
    return cases


@dataclass
class Column:
    contender: Contender
    checks: list[Check | None]  # aligned with the cases
    verdicts: list[bool | None]
    errors: int = 0  # unexpected exceptions (counted as rejections)
    inner: int = 1
    samples: list[list[float]] | None = None

    def times(self) -> list[float | None]:
        assert self.samples is not None
        return [median(s) if s else None for s in self.samples]


def _safe(fn: Check) -> Check:
    def check(instance: Any) -> bool:
        try:
            return fn(instance)
        except Exception:  # noqa: BLE001 - a crash is a rejection, counted in `errors`
            return False

    return check


def prepare(contenders: Sequence[Contender], cases: Sequence[Case]) -> list[Column]:
    columns = []
    for c in contenders:
        checks: list[Check | None] = []
        cache: dict[tuple[str, str], Check | None] = {}
        for case in cases:
            key = (case.version, case.type_name)
            if key not in cache:
                cache[key] = c.check_for(*key)
            checks.append(cache[key])
        columns.append(Column(c, checks, [None] * len(cases)))
    return columns


def verdict_pass(columns: Sequence[Column], cases: Sequence[Case]) -> None:
    """Every contender's answer on every instance (a check that raises is wrapped)."""
    for col in columns:
        for i, case in enumerate(cases):
            fn = col.checks[i]
            if fn is None:
                continue
            try:
                col.verdicts[i] = bool(fn(case.instance))
            except Exception:  # noqa: BLE001
                col.errors += 1
                col.verdicts[i] = False
                col.checks[i] = _safe(fn)


def calibrate(columns: Sequence[Column], cases: Sequence[Case]) -> None:
    """Each contender's inner repeat count, from the median time of one warm call per instance
    (GC paused, as in the rounds). It used to be the mean over the verdict pass, which holds
    every check's first call, the collections the corpus's allocations set off and any time the
    process was preempted: on a loaded machine the contender that went first (mcp-codegen) got
    k = 1 or 2 in some runs, so its samples were mostly timer overhead (1.5 µs instead of 0.8 per
    example, its ratio to fastjsonschema 6.6x in one run and 9.7x in another)."""
    instances = [c.instance for c in cases]
    clock = time.perf_counter_ns
    for col in columns:
        spent: list[float] = []
        gc.collect()
        gc.disable()
        try:
            for i, fn in enumerate(col.checks):
                if fn is not None:
                    x = instances[i]
                    t0 = clock()
                    fn(x)
                    spent.append((clock() - t0) / 1e9)
        finally:
            gc.enable()
        per_call = median(spent) if spent else BATCH_S
        col.inner = max(1, min(MAX_INNER, math.ceil(BATCH_S / max(per_call, 1e-9))))


def timed_rounds(columns: Sequence[Column], cases: Sequence[Case], rounds: int) -> None:
    """Interleaved per instance: in each round every instance is timed for every contender back
    to back, in an order rotated by round and instance, so a slow spell of the machine (this
    2-core VM has spells of a second or more at half speed) falls on every contender alike.
    Timed column by column, as before, one spell could double one contender's medians and not
    another's: fastjsonschema's median example ranged 5.3-10.8 µs over four runs of one tree
    while ours stayed at 0.75-0.80, so the ratio between them was mostly noise (7.1x-13.5x)."""
    instances = [c.instance for c in cases]
    for col in columns:
        col.samples = [[] for _ in cases]
    clock = time.perf_counter_ns
    plan = [(col.checks, col.samples, range(col.inner), col.inner) for col in columns]
    for r in range(rounds):
        gc.collect()
        gc.disable()  # paused inside a round, as timeit does; collected between rounds
        try:
            for i, x in enumerate(instances):
                for checks, samples, reps, k in rotated(plan, r + i):
                    fn = checks[i]
                    if fn is None:
                        continue
                    t0 = clock()
                    for _ in reps:
                        fn(x)
                    samples[i].append((clock() - t0) / k / 1e9)
        finally:
            gc.enable()


def run(contenders: Sequence[Contender], cases: Sequence[Case], rounds: int) -> list[Column]:
    columns = prepare(contenders, cases)
    verdict_pass(columns, cases)
    calibrate(columns, cases)
    timed_rounds(columns, cases, rounds)
    return columns


# --------------------------------------------------------------------------- more processes
#
# A process's speed is not the next one's: over runs of one tree on this VM, fastjsonschema's
# median example took 5.3-10.8 µs, jsonschema-rs's 0.55-0.99 and pydantic's 3.5-7.7, each
# steady within its process (the rounds of one process agree), while ours moved by 15%; no hash
# seed, page-fault count or load figure told the slow processes apart. One process's ratio is
# therefore a draw (7.1x-13.5x to fastjsonschema over four runs); the rounds of `processes`
# fresh processes, pooled, give every instance's median over all of them.


def _fingerprint(cases: Sequence[Case]) -> str:
    import hashlib

    h = hashlib.sha256()
    for c in cases:
        h.update(f"{c.version}\0{c.type_name}\0{c.description}\0".encode())
    return h.hexdigest()


def pool_processes(
    columns: Sequence[Column],
    cases: Sequence[Case],
    extra: int,
    worker_args: Sequence[str],
    log: Any = print,
) -> None:
    """Run the same measurement in `extra` more processes, one after another, and add their
    samples to `columns` (aligned by contender key and instance; the corpus is checked to be the
    same one)."""
    from .procs import run_worker

    want = _fingerprint(cases)
    for n in range(extra):
        log(f"validation: process {n + 2} of {extra + 1} ...")
        got = run_worker("benchmarks.validation", list(worker_args))
        if got["fingerprint"] != want:
            raise RuntimeError("a validation worker measured another corpus")
        for col in columns:
            theirs = got["samples"].get(col.contender.key)
            assert col.samples is not None and theirs is not None
            for mine, more in zip(col.samples, theirs):
                mine.extend(more)


def _worker(argv: Sequence[str] | None = None) -> None:
    """`python -m benchmarks.validation`: one more process of `run` (see `pool_processes`)."""
    import argparse
    import json
    from pathlib import Path

    from . import contenders

    p = argparse.ArgumentParser()
    p.add_argument("--cap", type=int, required=True)
    p.add_argument("--max-examples", type=int, default=None)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--bindings", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)
    cases = build_corpus(cap=a.cap, max_examples=a.max_examples)
    columns = run(contenders.lineup(contenders.GeneratedBindings(a.bindings)), cases, a.rounds)
    samples = {c.contender.key: c.samples for c in columns}
    a.out.write_text(json.dumps({"fingerprint": _fingerprint(cases), "samples": samples}))


if __name__ == "__main__":
    _worker()


# --------------------------------------------------------------------------- summaries


def _subset(times: Sequence[float | None], cases: Sequence[Case], pick: Any) -> list[float]:
    return [t for t, c in zip(times, cases) if t is not None and pick(c)]


def summarise(col: Column, cases: Sequence[Case]) -> dict[str, Any]:
    times = col.times()
    covered = [i for i, fn in enumerate(col.checks) if fn is not None]
    agree = sum(1 for i in covered if col.verdicts[i] == cases[i].valid)
    ex = _subset(times, cases, lambda c: c.example)
    va = _subset(times, cases, lambda c: c.valid)
    inv = _subset(times, cases, lambda c: not c.valid)
    false_accepts = sum(1 for i in covered if col.verdicts[i] and not cases[i].valid)
    false_rejects = sum(1 for i in covered if not col.verdicts[i] and cases[i].valid)
    return {
        "key": col.contender.key,
        "label": col.contender.label,
        "covered": len(covered),
        "total": len(cases),
        "agree": agree,
        "false_accepts": false_accepts,
        "false_rejects": false_rejects,
        "errors": col.errors,
        "inner": col.inner,
        "example_us": median(ex) * 1e6,
        "valid_us": median(va) * 1e6,
        "invalid_us": median(inv) * 1e6,
        "valid_per_s": len(va) / sum(va) if va else float("nan"),
        "invalid_per_s": len(inv) / sum(inv) if inv else float("nan"),
        "unmapped": sorted(col.contender.unmapped),
    }


def ratio(base: Column, other: Column, cases: Sequence[Case], pick: Any) -> float:
    """How many times faster `base` is than `other`: median over the instances both cover."""
    bt, ot = base.times(), other.times()
    pairs = [
        (b, o) for b, o, c in zip(bt, ot, cases) if b is not None and o is not None and pick(c)
    ]
    if not pairs:
        return float("nan")
    return median([o for _, o in pairs]) / median([b for b, _ in pairs])


def disagreements(
    col: Column, cases: Sequence[Case], examples: int = 3
) -> list[tuple[str, int, list[str]]]:
    """The column's answers that differ from the labels, grouped by mutation kind and value put
    there (e.g. `false accept: wrong_type:number = 1.5`), biggest group first."""
    groups: dict[str, list[str]] = {}
    for i, case in enumerate(cases):
        verdict = col.verdicts[i]
        if col.checks[i] is None or verdict == case.valid:
            continue
        what = case.description.split(": ", 1)[1]
        kind = what.split(" at ", 1)[0]
        value = what.split(" = ", 1)[1] if " = " in what else ""
        key = (
            ("false accept" if verdict else "false reject")
            + f": {kind}"
            + (f" = {value}" if value else "")
        )
        groups.setdefault(key, []).append(case.description)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return [(k, len(v), v[:examples]) for k, v in ordered]


PICKS = {
    "examples": lambda c: c.example,
    "valid": lambda c: c.valid,
    "invalid": lambda c: not c.valid,
}


def ratios(
    base: Column, columns: Sequence[Column], cases: Sequence[Case]
) -> dict[str, dict[str, float]]:
    return {
        col.contender.key: {name: ratio(base, col, cases, pick) for name, pick in PICKS.items()}
        for col in columns
        if col is not base
    }


def results_table(summaries: Sequence[dict[str, Any]]) -> str:
    rows = []
    for s in summaries:
        if not s["covered"]:
            rows.append([s["label"], f"0/{s['total']}", "–", "–", "–", "–", "–", "–", "–"])
            continue
        inv_over_valid = s["invalid_us"] / s["valid_us"] if s["valid_us"] else float("nan")
        rows.append(
            [
                s["label"],
                f"{s['covered']}/{s['total']}",
                fmt_us(s["example_us"] / 1e6),
                fmt_us(s["valid_us"] / 1e6),
                fmt_us(s["invalid_us"] / 1e6),
                fmt_rate(s["valid_per_s"]),
                fmt_rate(s["invalid_per_s"]),
                fmt_ratio(inv_over_valid),
                f"{100 * s['agree'] / s['covered']:.2f}% ({s['covered'] - s['agree']} off)",
            ]
        )
    return table(
        [
            "contender",
            "instances",
            "µs/example",
            "µs/valid",
            "µs/invalid",
            "valid/s",
            "invalid/s",
            "invalid÷valid",
            "agreement with labels",
        ],
        rows,
    )


def ratio_table(base_label: str, rs: dict[str, dict[str, float]], labels: dict[str, str]) -> str:
    rows = [
        [labels[k], fmt_ratio(v["examples"]), fmt_ratio(v["valid"]), fmt_ratio(v["invalid"])]
        for k, v in rs.items()
    ]
    return table([f"{base_label} is faster than", "examples", "valid", "invalid"], rows)


def schema_ts_labels(
    col: Column, cases: Sequence[Case], documents: dict[str, Any]
) -> tuple[int, int]:
    """Of the column's answers that differ from the official labels, how many agree with the
    meaning of schema.ts: each relabelled by `jsonschema` against `mcp-codegen jsonschema` of that
    version (`number` a number, `JSONValue` with null; `documents`: version -> that document).
    The official schema.json renders `number` as `integer` and drops `null` from `JSONValue`
    (typescript-json-schema's defaults), which the validators do not follow. -> (agree, off)."""
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped,unused-ignore]

    validators: dict[tuple[str, str], Any] = {}
    agree = off = 0
    for i, case in enumerate(cases):
        verdict = col.verdicts[i]
        if col.checks[i] is None or verdict == case.valid:
            continue
        key = (case.version, case.type_name)
        if key not in validators:
            doc = documents[case.version]
            defs = "$defs" if "$defs" in doc else "definitions"
            validators[key] = Draft202012Validator(
                {defs: doc[defs], "$ref": f"#/{defs}/{case.type_name}"}
            )
        off += 1
        agree += validators[key].is_valid(case.instance) == verdict
    return agree, off
