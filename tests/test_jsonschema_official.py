"""Our JSON Schema against the official schema.json of every version: the proof that the IR is right.

With `number_as_integer=True` (the official generator's `--defaultNumberType integer`) every
definition must be validation-equivalent to the official one after normalisation
(`tests/jsonschema_compare.py`), or be listed in tests/jsonschema_deviations.json with the
schema.ts line that decides and why the official file is wrong there. The list is kept exact: an
unlisted difference fails, and so does a listed one that no longer occurs.

The faithful mode (TS `number` is JSON `number`) must differ from the official files only by
number/integer, plus the listed deviations. Both modes must accept every official example.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import corpus
import pytest
from jsonschema import Draft7Validator, Draft202012Validator  # type: ignore[import-untyped,unused-ignore]
from jsonschema_compare import (
    Comparison,
    Difference,
    Normaliser,
    compare,
    definitions_of,
    dumps,
)
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7, DRAFT202012

from codegen.targets.jsonschema.emit import default_dialect, emit

pytestmark = pytest.mark.spec

VERSIONS = corpus.version_names()  # from the manifest alone, so collection needs no corpus
DEVIATIONS_FILE = Path(__file__).with_name("jsonschema_deviations.json")
_FIELDS = {"version", "definition", "path", "source", "ts", "ours", "theirs", "why"}
_VALIDATORS: dict[str, Any] = {"draft-07": Draft7Validator, "2020-12": Draft202012Validator}
_SPECS = {"draft-07": DRAFT7, "2020-12": DRAFT202012}


# --------------------------------------------------------------------------- helpers


def deviations() -> list[dict[str, Any]]:
    data = json.loads(DEVIATIONS_FILE.read_text(encoding="utf-8"))
    entries: list[dict[str, Any]] = data["deviations"]
    return entries


def listed(version: str) -> dict[tuple[str, str], dict[str, Any]]:
    return {(d["definition"], d["path"]): d for d in deviations() if d["version"] == version}


@functools.cache
def ours(version: str, number_as_integer: bool) -> dict[str, Any]:
    return emit(corpus.resolved(version), number_as_integer=number_as_integer)


def official(version: str) -> dict[str, Any]:
    v = corpus.get_version(version)
    if v.schema_json is None:
        pytest.skip(f"{version}: no official schema.json")
    return corpus.official_schema(v)


def found(diffs: dict[str, list[Difference]]) -> dict[tuple[str, str], Difference]:
    return {(name, d.path): d for name, ds in diffs.items() for d in ds}


def entry_for(version: str, name: str, d: Difference) -> str:
    """A deviation entry to review and paste into tests/jsonschema_deviations.json."""
    entry = {"version": version, "definition": name, "path": d.path, "source": "<version>/schema.ts:<line>",
             "ts": "<the deciding TypeScript>", "ours": d.ours, "theirs": d.theirs, "why": "<why>"}  # fmt: skip
    return json.dumps(entry, sort_keys=True)


# --------------------------------------------------------------------------- the comparison


@pytest.mark.parametrize("version", VERSIONS)
def test_dialect_matches_manifest(spec_root: Path, version: str) -> None:
    assert default_dialect(corpus.resolved(version)) == corpus.get_version(version).json_dialect
    doc = ours(version, False)
    theirs = official(version)
    assert doc["$schema"] == theirs["$schema"]
    assert definitions_of(doc)[0] == definitions_of(theirs)[0]


@pytest.mark.parametrize("version", VERSIONS)
def test_definitions_match_official(spec_root: Path, version: str) -> None:
    doc, theirs = ours(version, True), official(version)
    our_names, their_names = set(definitions_of(doc)[1]), set(definitions_of(theirs)[1])
    assert our_names == their_names, (
        f"only ours: {sorted(our_names - their_names)}; only official: {sorted(their_names - our_names)}"
    )
    diffs = compare(doc, theirs)
    seen = found(diffs)
    expected = listed(version)
    equal = sum(1 for ds in diffs.values() if not ds)
    print(
        f"\n{version}: {len(diffs)} definitions compared, {equal} equal, {len(expected)} listed deviations"
    )

    unlisted = [
        entry_for(version, name, d)
        for (name, path), d in sorted(seen.items())
        if (name, path) not in expected
    ]
    gone = [
        f"{version} {name}{path}" for (name, path) in sorted(expected) if (name, path) not in seen
    ]
    changed = [
        f"{version} {k[0]}{k[1]}: now ours={dumps(seen[k].ours)} theirs={dumps(seen[k].theirs)}"
        for k, e in sorted(expected.items())
        if k in seen and dumps([seen[k].ours, seen[k].theirs]) != dumps([e["ours"], e["theirs"]])
    ]
    problems = []
    if unlisted:
        problems.append("unlisted differences (fix the IR/emitter, or review and add to "
                        f"{DEVIATIONS_FILE.name}):\n  " + "\n  ".join(unlisted))  # fmt: skip
    if gone:
        problems.append(
            "listed deviations that no longer occur (remove them):\n  " + "\n  ".join(gone)
        )
    if changed:
        problems.append(
            "listed deviations whose schemas changed (re-review):\n  " + "\n  ".join(changed)
        )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("version", VERSIONS)
def test_faithful_differs_only_by_number(spec_root: Path, version: str) -> None:
    """Faithful and compatible output differ in number/integer only; with integer read as number,
    the faithful output differs from the official file exactly where a deviation is listed."""
    faithful, compat, theirs = ours(version, False), ours(version, True), official(version)
    assert all(not ds for ds in compare(faithful, compat, fold_integer=True).values())
    folded = found(compare(faithful, theirs, fold_integer=True))
    assert set(folded) == set(listed(version)), (
        f"faithful vs official, integer read as number: {sorted(folded)}; listed: {sorted(listed(version))}"
    )
    strict = {name for name, ds in compare(faithful, theirs).items() if ds}
    by_number = strict - {name for name, _ in folded}
    print(f"\n{version}: faithful mode differs from official in {len(strict)} definitions, "
          f"{len(by_number)} of them only by number vs integer")  # fmt: skip


def _mutants(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Real changes to a definition: a required name dropped, the object closed, a property's
    type replaced by null."""
    out: list[tuple[str, dict[str, Any]]] = []
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        return out
    for name in schema.get("required", []):
        m = copy.deepcopy(schema)
        m["required"].remove(name)
        out.append((f"optional {name}", m))
    if "additionalProperties" not in schema:
        out.append(("closed", {**schema, "additionalProperties": False}))
    for name, prop in schema["properties"].items():
        if "type" in prop and "const" not in prop and "enum" not in prop and prop["type"] != "null":
            m = copy.deepcopy(schema)
            m["properties"][name] = {**prop, "type": "null"}
            out.append((f"{name} -> null", m))
    return out


@pytest.mark.parametrize("version", VERSIONS)
def test_comparison_sees_mutations(spec_root: Path, version: str) -> None:
    """The comparison is not blind: every mutant of one of our definitions must differ."""
    doc, theirs = ours(version, True), official(version)
    _, defs = definitions_of(doc)
    key = "definitions" if "definitions" in doc else "$defs"
    base = compare(doc, theirs)
    missed, total = [], 0
    for name, schema in defs.items():
        for what, mutant in _mutants(schema):
            total += 1
            mutated = {**doc, key: {**defs, name: mutant}}
            cmp = Comparison(
                Normaliser(*definitions_of(mutated)), Normaliser(*definitions_of(theirs))
            )
            if found({name: cmp.definition(name)}) == found({name: base[name]}):
                missed.append(f"{name}: {what}")
    print(f"\n{version}: {total - len(missed)}/{total} mutants detected")
    assert total > 0 and not missed, missed


# --------------------------------------------------------------------------- the deviation list


def test_deviation_list_is_reviewed(spec_root: Path) -> None:
    """Every entry is complete, unique, names a known version and definition, and its `source`
    line in schema.ts holds its `ts` text."""
    keys = set()
    for d in deviations():
        assert set(d) == _FIELDS, d
        assert d["version"] in VERSIONS, d["version"]
        key = (d["version"], d["definition"], d["path"])
        assert key not in keys, f"duplicate deviation {key}"
        keys.add(key)
        assert d["definition"] in definitions_of(official(d["version"]))[1]
        assert d["why"].strip() and not d["why"].startswith("<"), key
        rel, _, line = d["source"].rpartition(":")
        source = corpus.require_spec_dir() / rel
        assert rel.split("/")[0] == d["version"] and source.is_file(), d["source"]
        lines = source.read_text(encoding="utf-8").splitlines()
        assert d["ts"] in lines[int(line) - 1], f"{d['source']} does not hold {d['ts']!r}"


# --------------------------------------------------------------------------- examples


def _example_cases() -> list[tuple[str, bool]]:
    with_examples = corpus.names_with_examples()
    return [(v, compat) for v in with_examples for compat in (False, True)]


@pytest.mark.parametrize(("version", "number_as_integer"), _example_cases())
def test_examples_accepted(spec_root: Path, version: str, number_as_integer: bool) -> None:
    examples = corpus.examples(version)
    if not examples:
        pytest.skip(f"{version}: no official examples")
    doc = ours(version, number_as_integer)
    dialect, defs = definitions_of(doc)
    key = "definitions" if "definitions" in doc else "$defs"
    uri = f"urn:mcp-codegen:{version}"
    registry: Registry[Any] = Registry().with_resource(
        uri, Resource.from_contents(doc, default_specification=_SPECS[dialect])
    )
    rejected = []
    for ex in examples:
        assert ex.type_name in defs, f"{ex.id}: no definition {ex.type_name}"
        validator = _VALIDATORS[dialect](
            {"$ref": f"{uri}#/{key}/{ex.type_name}"}, registry=registry
        )
        errors = sorted(validator.iter_errors(ex.instance), key=lambda e: list(e.path))
        if errors:
            rejected.append(f"{ex.id}: {errors[0].message[:200]} at {list(errors[0].path)}")
    mode = "compat" if number_as_integer else "faithful"
    print(
        f"\n{version} ({mode}): {len(examples) - len(rejected)}/{len(examples)} examples accepted"
    )
    assert not rejected, "\n".join(rejected)


def _validators(doc: dict[str, Any], uri: str) -> Any:
    dialect, _ = definitions_of(doc)
    key = "definitions" if "definitions" in doc else "$defs"
    registry: Registry[Any] = Registry().with_resource(
        uri, Resource.from_contents(doc, default_specification=_SPECS[dialect])
    )
    return lambda name: _VALIDATORS[dialect]({"$ref": f"{uri}#/{key}/{name}"}, registry=registry)


@pytest.mark.slow
@pytest.mark.parametrize(("version", "number_as_integer"), _example_cases())
def test_mutants_labelled_like_official(
    spec_root: Path, version: str, number_as_integer: bool
) -> None:
    """An independent check of the normaliser: on the corpus's mutants of every example, our
    schema gives the official verdict once the listed deviations are applied to the official file
    (their definitions replaced by ours). Faithful mode may in addition accept non-integral
    numbers where the official file demands integers, and nothing else."""
    doc = ours(version, number_as_integer)
    patched = copy.deepcopy(official(version))
    key = "definitions" if "definitions" in patched else "$defs"
    for name, _ in listed(version):
        patched[key][name] = ours(version, True)[key][name]
    our_validator = _validators(doc, f"urn:mcp-codegen:{version}")
    their_validator = _validators(patched, f"urn:official-patched:{version}")
    total, floats, disagree = 0, 0, []
    for ex in corpus.examples(version):
        mine, theirs = our_validator(ex.type_name), their_validator(ex.type_name)
        for m in corpus.mutations(version, ex.type_name, ex.instance):
            total += 1
            a, b = mine.is_valid(m.instance), theirs.is_valid(m.instance)
            float_only = not number_as_integer and a and not b and m.kind == "wrong_type:number"
            floats += float_only
            if a != b and not float_only:
                disagree.append(f"{ex.id} {m.kind} {m.path} {m.detail}: ours {a}, official {b}")
    mode = "compat" if number_as_integer else "faithful"
    print(f"\n{version} ({mode}): {total - floats - len(disagree)}/{total} mutants labelled like the official "
          f"schema, {floats} non-integral numbers accepted by design")  # fmt: skip
    assert not disagree, "\n".join(disagree[:20])
