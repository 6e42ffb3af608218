"""The generated bindings of the seven official MCP schemas: generate into a temp dir, import,
`mypy --strict` and `ruff` (one run each over all packages), round-trip every example, agree
with the official schema.json, and match the pinned file hashes.

Agreement: for every official example and its mutations (tests/corpus.py), and for versions
without examples a synthetic corpus (random valid-by-construction instances from the IR, and
their mutations), our validators' verdict must equal the official schema.json's (through
jsonschema). A disagreement is accepted only when our verdict is also that of our own faithful
JSON Schema (`codegen.targets.jsonschema.emit`, schema.ts semantics) and the official file is wrong for a
reviewed reason:
- number-as-integer: the official generator renders TS `number` as `integer`; the official
  verdict is exactly that of our schema emitted with `number_as_integer` (see
  tests/test_jsonschema_official.py), and ours follows schema.ts;
- a definition listed in tests/jsonschema_deviations.json (kept by the JSON Schema tests), which
  the official validator's errors for the instance go through.
The test prints the counts per version.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import (
    JSON_PATHS,
    REPO,
    import_package,
    json_path,
    mypy_strict,
    ruff_check,
    write_package,
)
from jsonschema import Draft7Validator, Draft202012Validator  # type: ignore[import-untyped,unused-ignore]
from random_schemas import instance as random_instance
from referencing import Registry, Resource

from codegen import ir
from codegen.pipeline import load
from codegen.pynaming import PyIndex as TypeIndex
from codegen.targets.jsonschema.emit import emit
from codegen.targets.python.bindings import render_package

pytestmark = pytest.mark.spec

PINS = REPO / "tests" / "golden" / "bindings_sha256.json"
DEVIATIONS = REPO / "tests" / "jsonschema_deviations.json"
UPDATE = "pytest --update-golden tests/test_bindings_official.py"
VERSIONS = corpus.version_names()
SYNTHETIC_PER_TYPE = 2  # random instances per definition, for versions without examples
SYNTHETIC_MUTATIONS = 40  # mutations kept per synthetic instance


def package_name(version: str) -> str:
    return "mcp_" + "".join(c if c.isalnum() else "_" for c in version.lower())


def _render(schema: str) -> dict[str, str]:
    return render_package(load(schema))


@dataclass(frozen=True)
class Generated:
    version: str
    root: Path
    name: str
    files: dict[str, str]
    resolved: ir.Resolved

    @property
    def path(self) -> Path:
        return self.root / self.name

    @functools.cached_property
    def module(self) -> ModuleType:
        return import_package(self.root, self.name)


@pytest.fixture(scope="session")
def official(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Generated]:
    """Every official version's package, generated once (two processes: black dominates)."""
    root = tmp_path_factory.mktemp("official_bindings")
    versions = corpus.versions(spec_root)
    with ProcessPoolExecutor(max_workers=2) as pool:
        rendered = list(pool.map(_render, [str(v.schema_ts) for v in versions]))
    out = {}
    for v, files in zip(versions, rendered):
        write_package(files, root, package_name(v.name))
        out[v.name] = Generated(v.name, root, package_name(v.name), files, corpus.resolved(v))
    return out


# -- static checks ---------------------------------------------------------------------------------


def test_hash_pins(official: dict[str, Generated], update_golden: bool) -> None:
    actual = {
        v: {
            rel: hashlib.sha256(text.encode("utf-8")).hexdigest()
            for rel, text in sorted(g.files.items())
        }
        for v, g in official.items()
    }
    if update_golden:
        PINS.write_text(json.dumps(actual, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        return
    pinned = json.loads(PINS.read_text(encoding="utf-8")) if PINS.is_file() else {}
    changed = [
        f"{v}/{rel}"
        for v in sorted(set(actual) | set(pinned))
        for rel in sorted(set(actual.get(v, {})) | set(pinned.get(v, {})))
        if actual.get(v, {}).get(rel) != pinned.get(v, {}).get(rel)
    ]
    assert not changed, (
        f"generated bindings changed for {changed}; inspect the output (e.g. mcp-codegen "
        f"../shared/spec/<version>/schema.ts -o /tmp/out) and if intended run: {UPDATE}"
    )


@pytest.mark.slow
def test_mypy_strict(official: dict[str, Generated], tmp_path: Path) -> None:
    proc = mypy_strict([g.path for g in official.values()], tmp_path / "mypy-cache")
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]


def test_ruff(official: dict[str, Generated]) -> None:
    proc = ruff_check([g.path for g in official.values()])
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]


def test_every_named_type_has_a_class_or_alias_and_a_validator(
    official: dict[str, Generated],
) -> None:
    for g in official.values():
        m, index = g.module, TypeIndex(g.resolved)
        for td in g.resolved.types:
            assert hasattr(m, td.name), (g.version, td.name)
            assert td.name in m.validators.TYPES, (g.version, td.name)
        for c in index.dataclasses():
            assert isinstance(getattr(m, c.name), type), (g.version, c.name)
        for c in g.resolved.consts:
            assert getattr(m, c.name) == c.value.value, (g.version, c.name)


# -- round trips and agreement ----------------------------------------------------------------------


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("version", VERSIONS)
def test_examples_round_trip(official: dict[str, Generated], version: str) -> None:
    m = official[version].module
    examples = corpus.examples(version)
    for ex in examples:
        assert m.is_valid(ex.type_name, ex.instance), (ex.id, m.errors(ex.type_name, ex.instance))
        obj = m.decode(ex.type_name, ex.instance)
        assert _json(m.encode(obj)) == _json(ex.instance), ex.id
        if isinstance(ex.instance, dict) and isinstance(getattr(m, ex.type_name, None), type):
            cls = getattr(m, ex.type_name)
            assert type(obj) is cls and _json(cls.from_dict(ex.instance).to_dict()) == _json(
                ex.instance
            )
            assert cls.from_json(obj.to_json()) == obj, ex.id  # JSON text both ways
            _same_on_both_json_paths(m, cls, ex)


def _same_on_both_json_paths(m: ModuleType, cls: type, ex: corpus.Example) -> None:
    """Issue 28: the accelerated JSON text path (orjson) reads every official example to the
    same value (types included) and writes the same text as the standard path, and takes
    every one of them itself (no silent fallback)."""
    compact = json.dumps(ex.instance, ensure_ascii=False, separators=(",", ":"))
    texts = (json.dumps(ex.instance, ensure_ascii=False), compact, json.dumps(ex.instance).encode())
    rt = m._runtime
    for text in texts:
        out: dict[str, tuple[str, str]] = {}
        for p in JSON_PATHS:
            with json_path(rt, p):
                obj = cls.from_json(text)
                out[p] = (repr(rt.loads(text)), obj.to_json())
        assert out["orjson"] == out["stdlib"], ex.id
        with json_path(rt, "orjson"):
            assert rt._fast_loads(rt._ORJSON, text) is not rt._REREAD, ex.id
            assert rt._fast_dumps(rt._ORJSON, cls.from_json(text).to_dict()) == out["stdlib"][1], (
                ex.id
            )


def _validator(doc: dict[str, Any], type_name: str) -> Any:
    defs = "$defs" if "$defs" in doc else "definitions"
    cls = Draft202012Validator if defs == "$defs" else Draft7Validator
    registry: Registry[Any] = Registry().with_resource("urn:ours", Resource.from_contents(doc))
    return cls({"$ref": f"urn:ours#/{defs}/{type_name}"}, registry=registry)


@functools.cache
def _ours(version: str, number_as_integer: bool) -> dict[str, Any]:
    return emit(corpus.resolved(version), number_as_integer=number_as_integer)


def _our_schema_verdict(version: str, number_as_integer: bool, type_name: str, value: Any) -> bool:
    return bool(_validator(_ours(version, number_as_integer), type_name).is_valid(value))


def _deviation_definitions(version: str) -> frozenset[str]:
    if not DEVIATIONS.is_file():
        return frozenset()
    entries = json.loads(DEVIATIONS.read_text(encoding="utf-8")).get("deviations", [])
    return frozenset(e["definition"] for e in entries if e.get("version") == version)


def _errors(err: Any) -> Iterator[Any]:
    yield err
    for sub in err.context or ():
        yield from _errors(sub)


def explain(version: str, type_name: str, value: Any, ours: bool) -> str | None:
    """Why the official schema.json's verdict differs from ours, or None if nothing explains it."""
    if _our_schema_verdict(version, False, type_name, value) != ours:
        return None  # our faithful JSON Schema (schema.ts semantics) disagrees with us
    official = not ours
    if _our_schema_verdict(version, True, type_name, value) == official:
        return "number-as-integer"
    defs = corpus.definitions(version)
    for name in sorted(_deviation_definitions(version)):
        target = defs.get(name)
        for top in corpus.official_validator(version, type_name).iter_errors(value):
            if any(e.schema is target or e.schema == target for e in _errors(top)):
                return f"deviation:{name}"
    return None


def synthetic_corpus(
    version: str, resolved: ir.Resolved, types: set[str]
) -> list[corpus.LabelledCase]:
    """Random instances of every official definition we also name (IR-driven, seeded by name),
    and their mutations, each labelled by the official schema."""
    out: list[corpus.LabelledCase] = []
    for name in sorted(set(corpus.definitions(version)) & types):
        for k in range(SYNTHETIC_PER_TYPE):
            value = random_instance(resolved, ir.Ref(name), random.Random(f"{version}/{name}/{k}"))
            label = corpus.label(version, name, value)
            out.append(corpus.LabelledCase(name, value, label, f"{name}#{k}: synthetic"))
            for mut in corpus.mutations(version, name, value, cap=SYNTHETIC_MUTATIONS):
                desc = f"{name}#{k}: {mut.kind} at {mut.path}"
                out.append(
                    corpus.LabelledCase(
                        name, mut.instance, corpus.label(version, name, mut.instance), desc
                    )
                )
    return out


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_agreement_with_official_schema(
    official: dict[str, Generated], version: str, capsys: pytest.CaptureFixture[str]
) -> None:
    g = official[version]
    m = g.module
    cases = corpus.labelled_corpus(version)
    source = "examples"
    if not cases:
        cases = synthetic_corpus(version, g.resolved, set(m.validators.TYPES))
        source = "synthetic"
    reasons: Counter[str] = Counter()
    unexplained: list[str] = []
    round_trips = 0
    for case in cases:
        ours = m.is_valid(case.type_name, case.instance)
        assert ours == (not m.errors(case.type_name, case.instance)), case.description
        if ours and case.description.endswith((": example", ": synthetic")):
            assert _json(m.encode(m.decode(case.type_name, case.instance))) == _json(case.instance)
            round_trips += 1
        if ours == case.expected_valid:
            reasons["agree"] += 1
            continue
        why = explain(version, case.type_name, case.instance, ours)
        if why is None:
            unexplained.append(f"{case.description}: ours={ours} official={case.expected_valid}")
        else:
            reasons[why] += 1
    seeds = sum(1 for c in cases if c.description.endswith((": example", ": synthetic")))
    line = (
        f"{version}: {source} {seeds}, mutations {len(cases) - seeds}, round trips {round_trips}, "
        f"agree {reasons.pop('agree', 0)}/{len(cases)}, explained disagreements "
        f"{dict(sorted(reasons.items()))}, unexplained {len(unexplained)}"
    )
    with capsys.disabled():
        print(f"\n[bindings agreement] {line}")
    assert not unexplained, line + "\n" + "\n".join(unexplained[:40])
    if source == "examples":
        assert all(
            m.is_valid(c.type_name, c.instance)
            for c in cases
            if c.description.endswith(": example")
        )
