"""The zod target (codegen/targets/zod, templates/zod) on the seven official schemas and the hostile
fixtures, checked with the pinned node toolchain in tests/zod (skipped without node/npm locally,
failed under CI=true):

- `tsc --strict --noEmit` passes on every generated module (one run over all of them), and the
  pinned prettier leaves every module unchanged (the judge of the layout);
- every official example and its mutations, or for versions without examples the IR-derived
  instances and mutations of tests/test_bindings_official.py, gets the same verdict from the
  zod schema as from the generated Python validators; every example (and every valid
  synthetic instance) round-trips exactly (`parse`, then JSON text equal modulo key order);
- random schemas (tests/random_schemas.py) give modules that pass the same checks;
- hostile schema text (tests/fixtures/hostile plus `*/`, backticks, `${...}`, `</script>`)
  yields a module that type-checks and whose constants carry the text as data;
- the committed drift reports (generated/reports/drift, tests/zod_drift.py) are up to date.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import corpus
import pytest
import random_schemas
import zod_drift
import zod_support
from bindings_support import REPO, generate
from hypothesis import HealthCheck, given, settings

from codegen import ir
from codegen.cli import main as cli_main
from codegen.errors import SchemaError
from codegen.pipeline import load, load_text
from codegen.targets.zod.module import render_module
from codegen.targets.zod.tstext import comment_text, ts_string

VERSIONS = corpus.version_names()
HOSTILE = REPO / "tests" / "fixtures" / "hostile" / "injection.ts"
BREAKOUT = r"""
/**
 * Tries to end the comment early: *\/ and /* nested, then code: globalThis.PWNED = "doc";
 * `${(globalThis.PWNED = "template")}` </script><script>globalThis.PWNED = 1</script>
 */
export const BREAKOUT = "*/ `${(globalThis.PWNED = 'const')}` </script><script>";

/** A property doc with a backtick ` and ${x}. */
export interface Breakout {
  /** `${(globalThis.PWNED = "property")}` */
  "*/": "`${x}`" | "</script>";
  "${a}"?: string;
  "`"?: number;
}
"""


@pytest.fixture(scope="session")
def node() -> str:
    try:
        return zod_support.ensure_toolchain()
    except zod_support.ToolchainUnavailable as exc:
        corpus.missing(f"zod toolchain unavailable: {exc}")


def module_file(version: str) -> str:
    return "m_" + "".join(c if c.isalnum() else "_" for c in version) + ".ts"


@pytest.fixture(scope="session")
def modules(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every official version's zod module, in one directory."""
    root = tmp_path_factory.mktemp("zod_official")
    for v in corpus.versions(spec_root):
        (root / module_file(v.name)).write_text(render_module(corpus.resolved(v)), "utf-8")
    return root


def test_tsc_strict(node: str, modules: Path) -> None:
    proc = zod_support.tsc(modules)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def test_prettier_leaves_modules_unchanged(node: str, modules: Path) -> None:
    proc = zod_support.prettier_check(sorted(modules.glob("*.ts")))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_agreement_with_python_validators(
    node: str,
    modules: Path,
    tmp_path: Path,
    version: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    resolved = corpus.resolved(version)
    py = generate(resolved, tmp_path, "py_" + module_file(version)[:-3])
    cases = zod_support.cases(version, resolved, set(py.validators.TYPES))
    answer = zod_support.run(
        {"module": str(modules / module_file(version)), "cases": cases, "sdk": None}
    )
    differ = []
    round_trips = 0
    for case, zod_ok, trip in zip(cases, answer["verdicts"], answer["roundTrips"], strict=True):
        python_ok = py.is_valid(case["type"], case["instance"])
        if python_ok != zod_ok:
            differ.append(f"{case['description']}: python={python_ok} zod={zod_ok}")
        if case["seed"] and python_ok:
            assert trip is True, f"{case['description']}: no exact round trip"
            round_trips += 1
    examples = [c for c in cases if c["description"].endswith(": example")]
    assert all(answer["verdicts"][cases.index(c)] for c in examples)
    seeds = sum(1 for c in cases if c["seed"])
    line = (
        f"{version}: {'examples' if examples else 'synthetic'} {seeds}, mutations "
        f"{len(cases) - seeds}, agree {len(cases) - len(differ)}/{len(cases)}, "
        f"round trips {round_trips}"
    )
    with capsys.disabled():
        print(f"\n[zod agreement] {line}")
    assert not differ, line + "\n" + "\n".join(differ[:40])


def _hostile_resolved() -> list[tuple[str, ir.Resolved]]:
    return [("injection", load(str(HOSTILE))), ("breakout", load_text(BREAKOUT, "breakout.ts"))]


@pytest.mark.slow
def test_hostile_text_is_inert(node: str, tmp_path: Path) -> None:
    resolved = _hostile_resolved()
    for name, r in resolved:
        (tmp_path / f"{name}.ts").write_text(render_module(r), "utf-8")
    proc = zod_support.tsc(tmp_path)
    assert proc.returncode == 0, proc.stdout[-6000:]
    proc = zod_support.prettier_check(sorted(tmp_path.glob("*.ts")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name, r in resolved:
        answer: dict[str, Any] = zod_support.run(
            {"module": str(tmp_path / f"{name}.ts"), "cases": [], "sdk": None}
        )
        assert answer["constants"] == {c.name: c.value.value for c in r.consts}
        assert answer["pwned"] is None


@pytest.mark.slow
def test_breakout_instance_verdicts(node: str, tmp_path: Path) -> None:
    """The hostile property names and literals work as data: a valid instance passes."""
    r = load_text(BREAKOUT, "breakout.ts")
    path = tmp_path / "breakout.ts"
    path.write_text(render_module(r), "utf-8")
    good = {"*/": "`${x}`", "${a}": "x", "`": 1}
    cases = [
        {"type": "Breakout", "instance": good, "seed": True, "description": "good"},
        {"type": "Breakout", "instance": {**good, "*/": "x"}, "seed": False, "description": "bad"},
        {"type": "Breakout", "instance": {"*/": "</script>"}, "seed": True, "description": "min"},
    ]
    answer = zod_support.run({"module": str(path), "cases": cases, "sdk": None})
    assert answer["verdicts"] == [True, False, True]
    assert answer["roundTrips"] == [True, None, True]


@pytest.mark.slow
def test_drift_reports_are_up_to_date(node: str, spec_root: Path) -> None:
    files = zod_drift.reports()
    stale = [
        n
        for n, text in files.items()
        if not (zod_drift.REPORTS / n).is_file()
        or (zod_drift.REPORTS / n).read_text(encoding="utf-8") != text
    ]
    assert not stale, f"drift reports out of date: {stale}; run {zod_drift.REGENERATE}"
    seed = json.loads(files[f"sdk-{zod_drift.sdk_version('sdk-seed')}..2025-06-18.json"])
    reject = [
        f for f in seed["findings"] if f["type"] == "ElicitResult" and f["path"] == "$.action"
    ]
    assert any(f["sdk"] and not f["schema"] and "reject" in f["values"] for f in reject), reject


RANDOM_SCHEMAS = 25  # random schemas of tests/random_schemas.py, in one batch
_SAMPLES: tuple[Any, ...] = (None, True, 0, 1.5, "x", [], {})


def _random_texts(n: int) -> list[str]:
    texts: list[str] = []

    @settings(max_examples=n, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(text=random_schemas.schemas())
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    return texts


def _mutants(value: Any) -> list[Any]:
    """The root replaced by a value of each JSON type; each key dropped or replaced."""
    out = list(_SAMPLES)
    if isinstance(value, dict):
        for k in value:
            out.append({key: v for key, v in value.items() if key != k})
            out += [{**value, k: s} for s in _SAMPLES]
    return out


@pytest.mark.slow
def test_random_schemas(node: str, tmp_path: Path) -> None:
    """Random schemas (the fuzzing tests' generator) give modules that type-check, that prettier
    leaves unchanged and whose verdicts equal the Python validators' on random valid instances
    (round-tripping exactly) and their mutants: one tsc, one prettier and one node run."""
    jobs, packages = [], []
    for i, text in enumerate(_random_texts(RANDOM_SCHEMAS)):
        try:
            r = load_text(text, f"r{i}.ts")
        except SchemaError:
            continue  # rejected input is the hostile tests' subject
        (tmp_path / f"r{i}.ts").write_text(render_module(r), "utf-8")
        py = generate(r, tmp_path / "py", f"zod_random_{i}")
        rnd = random.Random(i)
        cases = []
        for td in r.types:
            if td.name not in py.validators.TYPES:
                continue
            value = random_schemas.instance(r, td.type, rnd)
            cases.append({"type": td.name, "instance": value, "seed": True})
            cases += [{"type": td.name, "instance": m, "seed": False} for m in _mutants(value)]
        jobs.append({"module": str(tmp_path / f"r{i}.ts"), "cases": cases})
        packages.append(py)
    assert len(jobs) >= RANDOM_SCHEMAS // 2
    proc = zod_support.tsc(tmp_path)
    assert proc.returncode == 0, proc.stdout[-6000:]
    proc = zod_support.prettier_check(sorted(tmp_path.glob("*.ts")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = zod_support.run({"jobs": jobs})["results"]
    for job, py, answer in zip(jobs, packages, results, strict=True):
        for case, ok, trip in zip(job["cases"], answer["verdicts"], answer["roundTrips"]):
            python_ok = py.is_valid(case["type"], case["instance"])
            assert ok == python_ok, (job["module"], case)
            if case["seed"] and python_ok:
                assert trip is True, (job["module"], case)


# -- the command line (no node needed) ---------------------------------------------------------


@pytest.mark.spec
def test_cli_target_zod(spec_root: Path, tmp_path: Path) -> None:
    one = [str(v.schema_ts) for v in corpus.versions(spec_root)]
    assert cli_main([one[2], "--target", "zod", "-o", str(tmp_path / "one")]) == 0
    assert (tmp_path / "one" / "index.ts").read_text("utf-8") == render_module(load(one[2]))
    assert cli_main([one[2], "--target", "zod", "-o", str(tmp_path / "one"), "--check"]) == 0
    out = tmp_path / "many"
    assert cli_main([*one[:2], "--target", "zod", "--package", "mcp_zod", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.glob("*.ts")) == ["v2024_11_05.ts", "v2025_03_26.ts"]


@pytest.mark.spec
def test_drift_reports_carry_names_and_structure_only(spec_root: Path) -> None:
    """No sentence of any description of the compared schemas appears in a drift report."""
    for path in sorted(zod_drift.REPORTS.glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        text = path.read_text(encoding="utf-8") + path.with_suffix(".md").read_text("utf-8")
        for t in corpus.resolved(report["protocol_version"]).types:
            docs = [t.doc.text]
            if isinstance(t.type, ir.Obj):
                docs += [p.doc.text for p in t.type.properties]
            for d in docs:
                for sentence in re.split(r"(?<=[.!?])\s+|\n", d):
                    assert len(sentence) < 24 or sentence not in text, (path.name, t.name)


# -- pure checks (no node) ------------------------------------------------------------------------


def test_names_declared_twice_are_schema_errors() -> None:
    text = "export const FooSchema = 1;\nexport interface Foo { a: string }\nexport const z = 2;\n"
    with pytest.raises(SchemaError) as err:
        render_module(load_text(text, "clash.ts"))
    messages = [str(d) for d in err.value.diagnostics]
    assert messages == [
        "clash.ts:1:14: 'FooSchema' would be declared twice in the zod module; rename the constant",
        "clash.ts:3:14: 'z' would be declared twice in the zod module; rename the constant",
    ]


def test_text_helpers_are_inert() -> None:
    assert ts_string('a"b') == "'a\"b'"  # prettier's choice: fewer escapes
    assert ts_string("it's") == '"it\'s"'
    assert ts_string("</script>\u2028`${x}`") == '"</script>\\u2028`${x}`"'
    assert comment_text("a */ b /* c \u202e") == "a *\\/ b /\\* c \\u202e"


INHERITED_KEYS = """
export interface P { __proto__: string; constructor?: string; toString?: number }
export interface Q { valueOf?: boolean; name: string; [key: string]: unknown }
export interface R { __proto__?: { a: number }; x: string; [key: string]: string | { a: number } }
export type M = Record<"constructor" | "hasOwnProperty", string>;
"""


@pytest.mark.slow
def test_inherited_and_proto_keys_are_checked_as_own_keys(node: str, tmp_path: Path) -> None:
    """Keys every JS object inherits (`constructor`, `toString`, `valueOf`...) are checked as
    the value's own keys, so an optional one does not reject every value; a `__proto__` key
    (which zod's objects skip) is checked too. The verdicts equal the Python validators'."""
    r = load_text(INHERITED_KEYS, "inherited.ts")
    (tmp_path / "inherited.ts").write_text(render_module(r), "utf-8")
    proc = zod_support.tsc(tmp_path)
    assert proc.returncode == 0, proc.stdout[-6000:]
    proc = zod_support.prettier_check([tmp_path / "inherited.ts"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    values: list[tuple[str, Any, bool]] = [
        ("P", {"__proto__": "x"}, True),
        ("P", {"__proto__": "x", "constructor": "c", "toString": 1}, True),
        ("P", {}, False),  # the required __proto__ is missing
        ("P", {"__proto__": 5}, False),  # ... or not a string
        ("P", {"__proto__": "x", "constructor": 5}, False),
        ("P", {"__proto__": "x", "toString": "s"}, False),
        ("Q", {"name": "n"}, True),
        ("Q", {"name": "n", "valueOf": True}, True),
        ("Q", {"name": "n", "valueOf": "no"}, False),
        ("R", {"x": "y"}, True),
        ("R", {"x": "y", "__proto__": {"a": 1}}, True),
        ("R", {"x": "y", "__proto__": {"a": "no"}}, False),
        ("R", {"x": "y", "other": 3}, False),
        ("M", {"constructor": "a", "hasOwnProperty": "b"}, True),
        ("M", {"constructor": "a"}, False),
        ("M", {}, False),
    ]
    py = generate(r, tmp_path / "py", "inherited_keys")
    assert [py.is_valid(t, v) for t, v, _ in values] == [ok for _, _, ok in values]
    # JSON text, as a real message arrives: JSON.parse makes `__proto__` an own key
    cases = [{"type": t, "instance": v, "seed": False, "description": ""} for t, v, _ in values]
    answer = zod_support.run(
        {"module": str(tmp_path / "inherited.ts"), "cases": cases, "sdk": None}
    )
    assert answer["verdicts"] == [ok for _, _, ok in values]
