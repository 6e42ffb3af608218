"""Decoding, encoding and JSON text against the SDK's pydantic wire models; import time and memory.

Cases: the official examples of one version (those the SDK wire models accept, typed by a
pydantic model class on both sides) and one `ListToolsResult` of 50 tools made from that
version's official `Tool` examples (distinct names, every third with annotations). Operations,
each ours against pydantic's nearest call:

| operation | mcp-codegen | SDK wire model |
|---|---|---|
| decode | `codec.decode(TypeName, value)` | `Model.model_validate(value)` |
| encode | `codec.encode(obj)` (validating, the default) | `m.model_dump(by_alias=True, exclude_unset=True)` |
| encode, validate=False | `codec.encode(obj, validate=False)` | the same `model_dump` |
| text round trip | `Type.from_json(text).to_json()` | `Model.model_validate_json(text).model_dump_json(by_alias=True, exclude_unset=True)` |
| text decode | `Type.from_json(text)` | `Model.model_validate_json(text)` |
| text encode | `obj.to_json()` | `m.model_dump_json(by_alias=True, exclude_unset=True)` |

The three text operations run on both JSON text paths of the runtime (issue 28): the accelerated
one (orjson, when installed: the bench extra pins it) and the standard library's
(`MCP_BINDINGS_JSON=stdlib`; the runtime's `_ORJSON` is switched off around each sample). The
two paths and pydantic are three contenders of one operation, interleaved in every round, so
both rows divide by the same pydantic samples. The text is `json.dumps(instance,
ensure_ascii=False)` (Python's default separators). pydantic dumps with `exclude_unset=True`, the
faithful round trip (what was read, explicit nulls included, as ours writes): `exclude_none=True`
also writes every unset field that has a default (`mode: "form"` in an official
`InputRequiredResult` example), so it is not a round trip; pydantic's dump is faster with it
(it skips the set-fields bookkeeping), and the round trip is also timed against it (the
issue's call: `exclude_none=True`), a fourth contender of that operation, its own row.

Timing as in validation.py: rounds, the contender order rotating per round, one sample = k
calls between two `perf_counter_ns` reads ÷ k (k chosen so a batch lasts ~20 µs), right after
an untimed batch of the same k calls (the first calls after switching to another case or
contender run cold: unwarmed, the first operation timed of each case read up to 1.7× slower on
both sides), GC paused inside a batch; a case's time is the median of its rounds; ratios are
pydantic's median µs over the examples ÷ ours (> 1: mcp-codegen is faster).

Import: a fresh interpreter imports the package (wall time around the import statements), with
compiled bytecode (after `compileall`) and without (no __pycache__, `-B`); memory is that
process's peak RSS (VmHWM) minus that of an interpreter that imports nothing. Medians of
`repeats` runs, the two sides interleaved.
"""

from __future__ import annotations

import compileall
import copy
import gc
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import corpus  # tests/corpus.py, on sys.path via benchmarks/__init__.py

from .common import median, rotated, venv_bin
from .procs import child_env

VERSION = "2026-07-28"  # the newest version the SDK ships wire models for
SDK_MODULE = "mcp_types._v2026_07_28"
TEXT_OPS = ("text", "text_decode", "text_encode")  # each also reported as `<op>_stdlib`
TIMED = ("decode", "encode", "encode_novalidate", *TEXT_OPS)  # the operations timed
OPS = (*TIMED, *(f"{op}_stdlib" for op in TEXT_OPS), "text_none")  # the rows reported
OP_LABELS = {
    "decode": "decode (dict → objects)",
    "encode": "encode (objects → dict, validating)",
    "encode_novalidate": "encode (validate=False)",
    "text": "JSON text round trip, orjson",
    "text_decode": "JSON text → objects, orjson",
    "text_encode": "objects → JSON text, orjson",
    "text_stdlib": "JSON text round trip, stdlib json",
    "text_decode_stdlib": "JSON text → objects, stdlib json",
    "text_encode_stdlib": "objects → JSON text, stdlib json",
    "text_none": "JSON text round trip, orjson; pydantic with exclude_none",
}
STDLIB = "ours_stdlib"  # the contender of a text operation on the standard JSON path
NONE = "pydantic_none"  # pydantic's round trip dumping with exclude_none (the call)
TOOLS = 50
DUMP = {"by_alias": True, "exclude_unset": True}  # pydantic's dump options (see the docstring)
DUMP_NONE = {"by_alias": True, "exclude_none": True}


@dataclass
class Case:
    name: str  # type name
    label: str
    instance: Any
    example: bool  # an official example (False: the 50-tool list)
    calls: dict[str, dict[str, Callable[[], Any]]] = field(default_factory=dict)  # op -> side -> fn
    times: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    runtime: Any = None  # our package's _runtime: its JSON text path is set per contender


def _fast(cases: list[Case]) -> bool:
    """Whether the runtime reads and writes JSON text through orjson (it is installed)."""
    return bool(cases) and cases[0].runtime is not None and cases[0].runtime._ORJSON is not None


def ops(cases: list[Case]) -> tuple[str, ...]:
    """The rows reported: the orjson ones only when the runtime has orjson."""
    return OPS if _fast(cases) else tuple(op for op in OPS if op not in (*TEXT_OPS, "text_none"))


def row_sides(op: str) -> tuple[str, str, str]:
    """(operation timed, our contender, pydantic's) of a row: a `_stdlib` row reads the
    standard-path contender of its operation, against the same pydantic samples."""
    if op == "text_none":
        return "text", "ours", NONE
    if op.endswith("_stdlib"):
        return op.removesuffix("_stdlib"), STDLIB, "pydantic"
    return op, "ours", "pydantic"


def tool_list(version: str, n: int = TOOLS) -> dict[str, Any]:
    """A ListToolsResult of `n` tools: the version's official Tool examples, cycled, renamed,
    every third given annotations; the other members from its official ListToolsResult."""
    tools = [e.instance for e in corpus.examples(version) if e.type_name == "Tool"]
    base = next(
        (e.instance for e in corpus.examples(version) if e.type_name == "ListToolsResult"), {}
    )
    assert tools and isinstance(base, dict), f"{version}: no Tool / ListToolsResult examples"
    out = []
    for i in range(n):
        tool = copy.deepcopy(tools[i % len(tools)])
        assert isinstance(tool, dict)
        tool["name"] = f"{tool['name']}_{i}"
        if i % 3 == 0:
            tool["annotations"] = {"title": f"Tool {i}", "readOnlyHint": True}
        out.append(tool)
    return {**base, "tools": out}


def build_cases(codec: Any, models: Any, version: str, max_examples: int | None) -> list[Case]:
    """The cases both sides cover, with their calls; each side's result checked once."""
    import pydantic

    sdk = __import__(SDK_MODULE, fromlist=["_"])
    runtime = __import__(codec.__name__.rsplit(".", 1)[0] + "._runtime", fromlist=["_"])
    pairs = [(e.type_name, e.id, e.instance, True) for e in corpus.examples(version)]
    if max_examples is not None:
        pairs = pairs[:max_examples]
    n_tools = TOOLS if max_examples is None else 5
    pairs.append(
        (
            "ListToolsResult",
            f"ListToolsResult of {n_tools} tools",
            tool_list(version, n_tools),
            False,
        )
    )
    cases = []
    for name, label, instance, example in pairs:
        model = getattr(sdk, name, None)
        cls = getattr(models, name, None)
        if not (isinstance(model, type) and issubclass(model, pydantic.BaseModel)):
            continue
        if not (isinstance(cls, type) and hasattr(cls, "from_json")):
            continue
        try:
            pm = model.model_validate(instance)
        except pydantic.ValidationError:
            continue  # the SDK rejects it: nothing to compare
        obj = codec.decode(name, instance)
        if codec.encode(obj) != instance:
            raise AssertionError(f"{label}: the round trip changed the value")
        text = json.dumps(instance, ensure_ascii=False)
        dump, dump_json = pm.model_dump, pm.model_dump_json
        case = Case(name, label, instance, example, runtime=runtime)
        round_trip = lambda c=cls, t=text: c.from_json(t).to_json()
        text_decode = lambda c=cls, t=text: c.from_json(t)
        text_encode = lambda o=obj: o.to_json()
        case.calls = {
            "decode": {
                "ours": lambda n=name, x=instance: codec.decode(n, x),
                "pydantic": lambda m=model, x=instance: m.model_validate(x),
            },
            "encode": {
                "ours": lambda o=obj: codec.encode(o),
                "pydantic": lambda d=dump: d(**DUMP),
            },
            "encode_novalidate": {
                "ours": lambda o=obj: codec.encode(o, validate=False),
                "pydantic": lambda d=dump: d(**DUMP),
            },
            "text": {
                "ours": round_trip,
                STDLIB: round_trip,
                "pydantic": lambda m=model, t=text: m.model_validate_json(t).model_dump_json(
                    **DUMP
                ),
                NONE: lambda m=model, t=text: m.model_validate_json(t).model_dump_json(**DUMP_NONE),
            },
            "text_decode": {
                "ours": text_decode,
                STDLIB: text_decode,
                "pydantic": lambda m=model, t=text: m.model_validate_json(t),
            },
            "text_encode": {
                "ours": text_encode,
                STDLIB: text_encode,
                "pydantic": lambda d=dump_json: d(**DUMP),
            },
        }
        if runtime._ORJSON is None:  # no accelerated path: the standard one only
            for op in TEXT_OPS:
                del case.calls[op]["ours"]
        case.times = {op: {side: [] for side in case.calls[op]} for op in TIMED}
        cases.append(case)
    return cases


def _inner(fn: Callable[[], Any], target_ns: int = 20_000, calls: int = 5) -> int:
    """Calls per batch so that a batch lasts ~`target_ns`, from the mean of a few warm calls: a
    single first call pays cold caches and lazy set-up, several times a warm one, which made k
    1 for most cases and so timed one cold call per sample instead of a ~20 µs batch."""
    fn()
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        fn()
    per_call = max(1, (time.perf_counter_ns() - t0) // calls)
    return max(1, min(10_000, target_ns // per_call))


def _sample(fn: Callable[[], Any], k: int) -> float:
    """Seconds per call of a batch of `k` calls, after an untimed batch of the same calls."""
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(k):
            fn()
        t0 = time.perf_counter_ns()
        for _ in range(k):
            fn()
        return (time.perf_counter_ns() - t0) / k / 1e9
    finally:
        if gc_was:
            gc.enable()


def time_cases(cases: list[Case], rounds: int) -> None:
    inner = {
        (id(c), op, side): _json_path(c, side, _inner, fn)
        for c in cases
        for op in TIMED
        for side, fn in c.calls[op].items()
    }
    for r in range(rounds):
        for c in cases:
            for op in TIMED:
                for side in rotated(list(c.calls[op]), r):
                    fn = c.calls[op][side]
                    sample = _json_path(c, side, _sample, fn, inner[(id(c), op, side)])
                    c.times[op][side].append(sample)


def pool_processes(
    cases: list[Case],
    extra: int,
    root: Path,
    package: str,
    rounds: int,
    max_examples: int | None,
    log: Callable[[str], None] = print,
) -> None:
    """`time_cases` again in `extra` fresh processes, one after another, their samples added to
    each case's: as for validation (benchmarks/validation.py, "more processes"), one process's
    speed is not the next one's, and this section's ratios moved with it (the examples' JSON
    text round trip against pydantic with exclude_none: 1.14x in one run, 0.93x in the next,
    every time in that run's process about 1.7x the other's)."""
    from .procs import run_worker

    argv = ["--root", str(root), "--package", package, "--rounds", str(rounds)]
    if max_examples is not None:
        argv += ["--max-examples", str(max_examples)]
    for n in range(extra):
        log(f"codec: process {n + 2} of {extra + 1} ...")
        got = run_worker("benchmarks.codec", argv)
        if got["labels"] != [c.label for c in cases]:
            raise RuntimeError("a codec worker timed other cases")
        for case, times in zip(cases, got["times"]):
            for op, sides in times.items():
                for side, samples in sides.items():
                    case.times[op][side].extend(samples)


def _worker(argv: list[str] | None = None) -> None:
    """`python -m benchmarks.codec`: one more process of `time_cases` (see `pool_processes`)."""
    import argparse
    import importlib

    p = argparse.ArgumentParser()
    p.add_argument("--root", type=Path, required=True)
    p.add_argument("--package", required=True)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--max-examples", type=int, default=None)
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)
    sys.path.insert(0, str(a.root))
    ours_codec = importlib.import_module(f"{a.package}.codec")
    ours_models = importlib.import_module(f"{a.package}.models")
    cases = build_cases(ours_codec, ours_models, VERSION, a.max_examples)
    time_cases(cases, a.rounds)
    out = {"labels": [c.label for c in cases], "times": [c.times for c in cases]}
    a.out.write_text(json.dumps(out))


def _json_path(case: Case, side: str, timer: Callable[..., Any], *args: Any) -> Any:
    """`timer(*args)` with the runtime's standard JSON text path for the `ours_stdlib` side."""
    rt = case.runtime
    saved = rt._ORJSON
    if side == STDLIB:
        rt._ORJSON = None
    try:
        return timer(*args)
    finally:
        rt._ORJSON = saved


def summarise(cases: list[Case]) -> dict[str, Any]:
    """Per operation: median µs over the examples for each side and the ratio; the tool list."""
    out: dict[str, Any] = {"examples": sum(c.example for c in cases), "ops": {}}
    if cases and cases[0].runtime is not None:
        out["json_backend"] = cases[0].runtime.json_backend()
    for row in ops(cases):
        op, us, them = row_sides(row)
        ex = [c for c in cases if c.example]
        ours = median([median(c.times[op][us]) for c in ex]) * 1e6 if ex else float("nan")
        theirs = median([median(c.times[op][them]) for c in ex]) * 1e6 if ex else float("nan")
        tools = next((c for c in cases if not c.example), None)
        entry: dict[str, Any] = {"ours_us": ours, "pydantic_us": theirs, "ratio": theirs / ours}
        if tools is not None:
            t_ours = median(tools.times[op][us]) * 1e6
            t_theirs = median(tools.times[op][them]) * 1e6
            entry |= {
                "tools_label": tools.label,
                "tools_ours_us": t_ours,
                "tools_pydantic_us": t_theirs,
                "tools_ratio": t_theirs / t_ours,
            }
        out["ops"][row] = entry
    return out


# --------------------------------------------------------------------------- import time and memory

# VmHWM, not ru_maxrss: the latter survives exec, so a child of this big process would report
# the parent's peak.
_IMPORT = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
t0 = time.perf_counter()
for name in sys.argv[2:]:
    __import__(name)
t = time.perf_counter() - t0
with open("/proc/self/status") as f:
    hwm = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
print(json.dumps({"s": t, "rss_kib": hwm}))
"""


def _import_once(root: Path, modules: list[str], compiled: bool) -> tuple[float, int]:
    argv = [sys.executable] + ([] if compiled else ["-B"]) + ["-c", _IMPORT, str(root), *modules]
    env = child_env()
    if compiled:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    data = json.loads(proc.stdout)
    return float(data["s"]), int(data["rss_kib"])


def _set_bytecode(root: Path, compiled: bool) -> None:
    for cache in root.rglob("__pycache__"):
        shutil.rmtree(cache, ignore_errors=True)
    if compiled:
        compileall.compile_dir(str(root), quiet=1)


def import_rows(subjects: list[tuple[str, Path, list[str]]], repeats: int) -> list[dict[str, Any]]:
    """(label, sys.path root, modules to import) -> median ms and extra peak RSS (MiB), with
    and without bytecode, subjects interleaved within each repeat. A subject rooted in an
    installed tree (the SDK) is measured compiled only: its bytecode is not ours to delete."""
    base_kib = median([_import_once(Path("."), [], True)[1] for _ in range(max(1, repeats))])
    rows = []
    for compiled in (True, False):
        group = [s for s in subjects if compiled or "site-packages" not in s[1].parts]
        for _, root, _ in group:
            if "site-packages" not in root.parts:
                _set_bytecode(root, compiled)
        samples: dict[str, list[tuple[float, int]]] = {label: [] for label, _, _ in group}
        for r in range(repeats):
            for label, root, modules in rotated(group, r):
                samples[label].append(_import_once(root, modules, compiled))
        for label, _, modules in group:
            rows.append(
                {
                    "label": label,
                    "modules": len(modules),
                    "compiled": compiled,
                    "ms": median([s for s, _ in samples[label]]) * 1e3,
                    "mib": (median([k for _, k in samples[label]]) - base_kib) / 1024,
                }
            )
    return rows


def generate(workdir: Path, versions: list[str], package: str | None) -> tuple[Path, list[str]]:
    """Generate one version's package or a multi-version distribution (`package`): the sys.path
    root and the modules that import all of it (the distribution and each version subpackage)."""
    schemas = [str(corpus.get_version(v).schema_ts) for v in versions]
    if package is None:
        name = "one_" + "".join(c if c.isalnum() else "_" for c in versions[0])
        root = workdir / "import_one"
        out = root / name
    else:
        root = out = workdir / "import_multi"
    argv = [venv_bin("mcp-codegen"), *schemas, "-o", str(out)]
    if package is not None:
        argv += ["--package", package]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, env=child_env())
    if proc.returncode != 0:
        raise RuntimeError(f"mcp-codegen exit {proc.returncode}: {proc.stderr[-2000:]}")
    if package is None:
        return root, [name]
    subs = sorted(p.parent.name for p in (out / package).glob("*/models.py"))
    return root, [package] + [f"{package}.{s}" for s in subs]


def sdk_subject() -> tuple[str, Path, list[str]]:
    spec = __import__("mcp_types").__spec__
    root = Path(spec.submodule_search_locations[0]).parent
    return ("SDK wire models (`" + SDK_MODULE + "`, pydantic)", root, [SDK_MODULE])


if __name__ == "__main__":
    _worker()
