"""The conformance vectors of the seven official versions (`mcp-codegen vectors`): coverage, the
cross-version reasons, agreement with the official schema.json (every label, outside the flagged
known deviations, which are counted), and with the Python and zod targets on every vector.

The official files are applied with jsonschema in the dialect each declares; a vector whose
label differs must carry a deviation flag (`number-as-integer`: the official generator renders
`number` as `integer`; `null-erased`: it drops `null` from a union without @nullable;
`json-text-rule`: a rule of JSON text that a validator of parsed values cannot see), and a
flagged vector must really differ (a flag that no longer applies fails too).
"""

from __future__ import annotations

import functools
import json
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import generate

from codegen.cli import main as cli_main
from codegen.cli.vectors import read_examples
from codegen.conformance import FORMAT, JSON_TEXT_FILE, Version, build
from codegen.conformance.codes import CODES, JSON_TEXT

pytestmark = pytest.mark.spec

Docs = dict[str, dict[str, dict[str, Any]]]
ANY_JSON = {"string", "number", "boolean", "null", "object", "array"}


@pytest.fixture(scope="module")
def vectors(spec_root: Path) -> Docs:
    versions = corpus.versions(spec_root)
    return build(
        [Version(v.name, corpus.resolved(v), read_examples(str(v.schema_ts))) for v in versions]
    )


def _tests(docs: Docs, version: str) -> list[tuple[str, dict[str, Any]]]:
    return [(d["type"], t) for d in docs[version].values() for t in d["tests"]]


def _parsed(test: dict[str, Any]) -> Any:
    return json.loads(test["data"]) if test.get("text") else test["data"]


# -- format and coverage ---------------------------------------------------------------------


def test_every_type_has_valid_and_invalid_vectors(vectors: Docs) -> None:
    """At least one valid vector per type, and one invalid unless the type takes any JSON."""
    from codegen.conformance.check import Checker

    for version, docs in vectors.items():
        resolved = corpus.resolved(version)
        checker = Checker(resolved)
        for td in resolved.types:
            doc = docs[td.name]
            assert doc["format"] == FORMAT and doc["version"] == version and doc["type"] == td.name
            assert any(t["valid"] for t in doc["tests"]), (version, td.name)
            any_json = ANY_JSON <= checker.kinds(td.type)
            assert any_json or any(not t["valid"] for t in doc["tests"]), (version, td.name)
            for t in doc["tests"]:
                assert t["valid"] == (not t["errors"]), (version, td.name, t["description"])
                assert all(e["code"] in CODES for e in t["errors"])
        assert JSON_TEXT_FILE in docs


def test_every_required_member_is_dropped_once(vectors: Docs) -> None:
    from codegen.conformance.check import Checker

    for version, docs in vectors.items():
        resolved = corpus.resolved(version)
        checker = Checker(resolved)
        for td in resolved.types:
            obj = checker.obj_of(td.type)
            if obj is None:
                continue
            dropped = {
                e["path"]
                for t in docs[td.name]["tests"]
                for e in t["errors"]
                if e["code"] == "required"
            }
            for p in obj.properties:
                if not p.optional:
                    assert f"$.{p.name}" in dropped or f'$["{p.name}"]' in dropped, (
                        version,
                        td.name,
                        p.name,
                    )


def test_examples_are_valid_vectors(vectors: Docs) -> None:
    for version in corpus.names_with_examples():
        examples = corpus.examples(version)
        found = [t for _, t in _tests(vectors, version) if t["description"].startswith("official")]
        assert len(found) == len(examples) and all(t["valid"] for t in found)


@pytest.mark.parametrize(
    ("type_name", "member"),
    [("ListToolsResult", "resultType"), ("ListToolsResult", "ttlMs"),
     ("ListToolsResult", "cacheScope")],
)  # fmt: skip
def test_required_since_2026_07_28(vectors: Docs, type_name: str, member: str) -> None:
    tests = vectors["2026-07-28"][type_name]["tests"]
    [dropped] = [t for t in tests if t["description"].startswith(f"`$.{member}` dropped")]
    [error] = dropped["errors"]
    assert (error["path"], error["code"]) == (f"$.{member}", "required")
    assert (
        error["reason"] == f"`{member}` is required since 2026-07-28; 2025-11-25 did not declare it"
    )
    assert error["reason"] in dropped["description"]
    older = vectors["2025-11-25"][type_name]["tests"]
    assert any(t["valid"] and t["data"] == dropped["data"] for t in older)


@pytest.mark.slow
def test_command_writes_checks_and_refuses_out_of_order(spec_root: Path, tmp_path: Path) -> None:
    schemas = [str(v.schema_ts) for v in corpus.versions(spec_root)]
    out = tmp_path / "v"
    start = time.process_time()
    assert cli_main(["vectors", *schemas, "-o", str(out)]) == 0
    assert time.process_time() - start < 10
    assert cli_main(["vectors", *schemas, "-o", str(out), "--check"]) == 0
    doc = json.loads((out / "2026-07-28" / "ListToolsResult.json").read_text("utf-8"))
    assert doc["type"] == "ListToolsResult"
    target = out / "2024-11-05" / "Role.json"
    target.write_text("{}", "utf-8")
    assert cli_main(["vectors", *schemas, "-o", str(out), "--check"]) == 1
    assert cli_main(["vectors", *schemas, "-o", str(out)]) == 0
    (out / "2024-11-05" / "Gone.json").write_text("{}", "utf-8")  # a type no longer there
    assert cli_main(["vectors", *schemas, "-o", str(out), "--check"]) == 1
    assert cli_main(["vectors", schemas[4], schemas[0], "-o", str(tmp_path / "w")]) == 2
    assert not (tmp_path / "w").exists()


def test_an_example_that_is_not_json_is_a_located_error(
    spec_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mine"
    (folder / "examples" / "Role").mkdir(parents=True)
    (folder / "schema.ts").write_bytes((spec_root / "2025-11-25" / "schema.ts").read_bytes())
    (folder / "examples" / "Role" / "bad.json").write_text('"user",\n]', "utf-8")
    assert cli_main(["vectors", str(folder / "schema.ts"), "-o", str(tmp_path / "out")]) == 2
    assert f"{folder / 'examples' / 'Role' / 'bad.json'}:1:7: example is not JSON" in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "out").exists()


# -- agreement -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("version", corpus.version_names())
def test_agreement_with_official_schema(
    vectors: Docs, version: str, capsys: pytest.CaptureFixture[str]
) -> None:
    definitions = corpus.definitions(version)
    counts: Counter[str] = Counter()
    wrong: list[str] = []
    for type_name, t in _tests(vectors, version):
        if type_name not in definitions:
            counts["no official definition"] += 1
            continue
        try:
            value = _parsed(t)
        except ValueError:  # not JSON at all (text after the value): no schema accepts it
            official = False
        else:
            official = corpus.label(version, type_name, value)
        flag = t.get("deviation")
        where = f"{type_name}: {t['description']}"
        if flag:
            counts[flag] += 1
            if official == t["valid"]:
                wrong.append(f"{where}: flagged {flag} but the official verdict agrees")
        elif official != t["valid"]:
            wrong.append(f"{where}: ours {t['valid']}, official {official}")
        else:
            counts["agree"] += 1
    with capsys.disabled():
        print(f"\n[vectors vs schema.json] {version}: {dict(sorted(counts.items()))}")
    assert not wrong, "\n".join(wrong[:40])


@functools.cache
def _package(version: str, root: str) -> ModuleType:
    name = "vec_" + "".join(c if c.isalnum() else "_" for c in version.lower())
    return generate(corpus.resolved(version), Path(root), name)


def _python_errors(m: ModuleType, type_name: str, t: dict[str, Any]) -> list[str]:
    """The Python target's error paths on a vector ([] when it accepts it)."""
    if t.get("text"):
        try:
            value = m._runtime.loads(t["data"])
        except m._runtime.ValidationError as err:
            return [e.path for e in err.errors]
    else:
        value = t["data"]
    return [e.path for e in m.errors(type_name, value)]


@pytest.mark.slow
@pytest.mark.parametrize("version", corpus.version_names())
def test_python_target_agrees(
    vectors: Docs, version: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    m = _package(version, str(tmp_path_factory.getbasetemp() / "vector_packages"))
    wrong = []
    for type_name, t in _tests(vectors, version):
        found = _python_errors(m, type_name, t)
        where = f"{type_name}: {t['description']}"
        if bool(found) == t["valid"]:
            wrong.append(f"{where}: expected valid={t['valid']}, python {found}")
            continue
        expected = [e["path"] for e in t["errors"]]
        json_rule = any(e["code"] == JSON_TEXT for e in t["errors"])
        if found and not any(
            p in expected or (json_rule and p.startswith(tuple(expected))) for p in found
        ):
            wrong.append(f"{where}: python reports {found}, the vector {expected}")
    assert not wrong, "\n".join(wrong[:40])


@pytest.mark.slow
def test_zod_target_agrees(vectors: Docs, tmp_path: Path) -> None:
    """Every vector but the JSON-text ones (zod validates parsed values; JSON.parse is the
    text's reader there), all versions in one node process."""
    import zod_support

    from codegen.targets.zod.module import render_module

    try:
        zod_support.ensure_toolchain()
    except zod_support.ToolchainUnavailable as exc:
        corpus.missing(f"zod toolchain unavailable: {exc}")
    jobs, labels = [], []
    for version in corpus.version_names():
        module = tmp_path / f"m{len(jobs)}.ts"
        module.write_text(render_module(corpus.resolved(version)), "utf-8")
        tests = [(n, t) for n, t in _tests(vectors, version) if not t.get("text")]
        cases = [{"type": n, "instance": t["data"], "seed": False} for n, t in tests]
        jobs.append({"module": str(module), "cases": cases})
        labels.append([(version, n, t) for n, t in tests])
    results = zod_support.run({"jobs": jobs})["results"]
    wrong = [
        f"{version} {n}: {t['description']}: expected valid={t['valid']}"
        for answer, tests in zip(results, labels, strict=True)
        for ok, (version, n, t) in zip(answer["verdicts"], tests, strict=True)
        if ok != t["valid"]
    ]
    assert not wrong, "\n".join(wrong[:40])
