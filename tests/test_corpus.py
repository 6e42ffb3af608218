"""The official corpus itself: pins, files, examples vs the official schema, mutations."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import corpus
import pytest

pytestmark = pytest.mark.spec

VERSIONS = corpus.version_names()  # from the manifest alone, so collection needs no corpus
WITH_EXAMPLES = ["2026-07-28", "draft"]
RELEASED = corpus.released_names()  # the pins own the list; the manifest must agree (below)

# Official examples the official schema rejects, per version, as "<Type>/<file>.json".
# Kept exact (not a subset) so that a fix upstream or a new failure both show up here.
KNOWN_INVALID_EXAMPLES: dict[str, list[str]] = {}

MUTATION_KINDS = {"drop_key", "wrong_literal", "bad_item", "root"} | {
    f"wrong_type:{t}" for t, _ in corpus.TYPE_SAMPLES
}


def test_pins_match_manifest(spec_root: Path) -> None:
    assert corpus.verify_pins() == []


def test_manifest_agrees_with_pinned_json(spec_root: Path) -> None:
    """The pins (codegen/spec/pins.json, through schemas/manifest.json) agree with the corpus's
    own PINNED.json on every version it lists."""
    pinned_path = spec_root / "PINNED.json"
    if not pinned_path.is_file():
        pytest.skip("no PINNED.json in the spec directory")
    pinned = {p["version"]: p for p in json.loads(pinned_path.read_text(encoding="utf-8"))}
    for v in corpus.versions():
        p = pinned[v.name]
        assert (p["schema.ts"], p.get("schema.json"), p["json_dialect"]) == (
            v.sha256,
            v.schema_json_sha256,
            v.json_dialect,
        ), v.name
        assert len(corpus.examples(v)) == p.get("examples", 0), v.name
        released = "at commit " in p["source"] and v.name != "draft"
        assert released == (v.name in RELEASED), v.name


def test_pins_cover_every_released_version() -> None:
    """Every released version of the corpus is fetchable by name, and its pins name the
    commit of the specification repository it comes from."""
    from codegen.spec.pins import pins

    fetchable = pins()
    assert list(fetchable) == [*RELEASED, "draft"] and RELEASED == sorted(RELEASED)  # by date
    assert {fetchable[n].ref for n in RELEASED} == {"b0f60ba5409db7a6582440a7b473cc0398890f15"}
    assert all(h is None for _, h in fetchable["draft"].files)  # the draft floats


def test_examples_read_are_the_pinned_ones(spec_root: Path) -> None:
    for v in corpus.versions():
        pinned = {rel for rel, _ in v.files if rel.startswith("examples/")}
        assert {f"examples/{e.type_name}/{e.path.name}" for e in corpus.examples(v)} == pinned


@pytest.mark.parametrize("name", VERSIONS)
def test_version_has_schema_files(spec_root: Path, name: str) -> None:
    v = corpus.get_version(name)
    assert v.schema_ts.is_file() and v.schema_ts.stat().st_size > 0
    assert v.schema_json is not None and v.schema_json.is_file()
    if v.examples_dir is not None:
        assert v.examples_dir.is_dir()


@pytest.mark.parametrize("name", VERSIONS)
def test_dialect_matches_document(spec_root: Path, name: str) -> None:
    v = corpus.get_version(name)
    schema = corpus.official_schema(v)
    expected = {
        "draft-07": ("http://json-schema.org/draft-07/schema#", "definitions", "Draft7Validator"),
        "2020-12": (
            "https://json-schema.org/draft/2020-12/schema",
            "$defs",
            "Draft202012Validator",
        ),
    }[v.json_dialect]
    validator = corpus.official_validator(v, "JSONRPCRequest")
    assert (schema["$schema"], corpus.defs_key(v), type(validator).__name__) == expected
    assert len(corpus.definitions(v)) > 50


@pytest.mark.parametrize("name", VERSIONS)
def test_official_validator_resolves_refs_without_formats(spec_root: Path, name: str) -> None:
    ok = {"jsonrpc": "2.0", "id": 1, "method": "x"}
    assert corpus.label(name, "JSONRPCRequest", ok)
    assert not corpus.label(name, "JSONRPCRequest", {**ok, "jsonrpc": "1.0"})
    assert not corpus.label(name, "JSONRPCRequest", {**ok, "id": None})
    # "format": "uri" is an annotation only, as when the official schema is applied.
    assert corpus.label(name, "Resource", {"uri": "::: not a uri", "name": "n"})
    assert not corpus.label(name, "Resource", {"uri": "file:///a"})  # name is required
    assert corpus.official_validator(name, "Resource") is corpus.official_validator(
        name, "Resource"
    )


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_versions_with_examples_have_many(spec_root: Path, name: str) -> None:
    assert len(corpus.examples(name)) > 100


@pytest.mark.parametrize("name", VERSIONS)
def test_every_example_validates(spec_root: Path, name: str) -> None:
    exs = corpus.examples(name)
    defs = corpus.definitions(name)
    assert [e.id for e in exs] == sorted(e.id for e in exs)  # deterministic order
    assert [e.type_name for e in exs if e.type_name not in defs] == []
    rejected = []
    for e in exs:
        errors = list(corpus.official_validator(name, e.type_name).iter_errors(e.instance))
        if errors:
            rejected.append(e.id)
            print(f"  {name} {e.id} REJECTED: " + "; ".join(err.message for err in errors[:3]))
    print(
        f"{name}: {len(exs)} examples, {len(exs) - len(rejected)} valid, {len(rejected)} rejected"
    )
    assert rejected == KNOWN_INVALID_EXAMPLES.get(name, [])


def _text(value: object) -> str:
    if isinstance(value, list) and value and isinstance(value[0], corpus.Mutation):
        return json.dumps([(m.kind, m.path, m.detail, m.instance) for m in value])
    return json.dumps(value)


@pytest.mark.parametrize("name", VERSIONS)
def test_mutations_are_deterministic(spec_root: Path, name: str) -> None:
    for e in corpus.examples(name):
        before = copy.deepcopy(e.instance)
        first = corpus.mutations(name, e.type_name, e.instance)
        second = corpus.mutations(name, e.type_name, e.instance)
        # Compared as JSON text too: in Python True == 1 and 0 == False.
        assert first == second and _text(first) == _text(second), e.id
        assert _text(e.instance) == _text(before), f"{e.id}: mutations() modified its input"
        assert 0 < len(first) <= corpus.DEFAULT_CAP
        assert {m.kind for m in first} <= MUTATION_KINDS
        assert all(m.path.startswith("$") for m in first)
        assert all(_text(m.instance) != _text(e.instance) for m in first)
        # The cap keeps an evenly spread, order-preserving subset of the full list.
        full = corpus.mutations(name, e.type_name, e.instance, cap=None)
        small = corpus.mutations(name, e.type_name, e.instance, cap=10)
        assert len(small) == min(10, len(full))
        assert small == [full[i] for i in corpus.select_evenly(len(full), 10)]


@pytest.mark.slow
@pytest.mark.parametrize("name", VERSIONS)
def test_mutations_are_mostly_invalid(spec_root: Path, name: str) -> None:
    cases = corpus.labelled_corpus(name)
    c = corpus.counts(cases)
    print(f"{name}: {c['examples']} examples, {c['mutations']} mutations, {c['invalid']} invalid")
    assert c["examples"] == len(corpus.examples(name))
    assert all(x.expected_valid for x in cases if x.description.endswith(": example"))
    assert len({x.description for x in cases}) == len(cases)  # descriptions identify cases
    if c["examples"] == 0:
        return
    assert c["invalid"] >= 0.5 * c["mutations"]
    by_kind = Counter(x.description.split(": ", 1)[1].split(" at ")[0] for x in cases)
    invalid_by_kind = Counter(
        x.description.split(": ", 1)[1].split(" at ")[0] for x in cases if not x.expected_valid
    )
    print("  " + ", ".join(f"{k} {invalid_by_kind[k]}/{n}" for k, n in sorted(by_kind.items())))
    # Every example is an object type: a non-object root is never valid.
    assert invalid_by_kind["root"] == by_kind["root"] > 0
    assert set(by_kind) - {"example"} == MUTATION_KINDS


def test_released_versions_are_listed_once() -> None:
    """The pins are the one list of released versions: the manifest names none of them as an
    entry, a version the pins gain joins the corpus (before the floating draft) without a
    manifest edit, and an entry placed after a version that is not there is refused."""
    manifest = json.loads(corpus.MANIFEST.read_text(encoding="utf-8"))
    pins = json.loads((corpus.MANIFEST.parent / manifest["pins"]).read_text(encoding="utf-8"))
    listed = [e["name"] for e in manifest["corpus"]]
    assert not set(listed) & set(RELEASED) and "versions" not in manifest
    assert corpus.version_names() == [*RELEASED[:3], "DRAFT-2025-v3", *RELEASED[3:], "draft"]

    newer = copy.deepcopy(pins)
    newer["released"].append({**pins["released"][-1], "name": "2027-01-01"})
    names = [e["name"] for e in corpus.ordered(manifest, newer)]
    assert names[-2:] == ["2027-01-01", "draft"] and names.index("DRAFT-2025-v3") == 3

    for bad in ({"after": "2099-01-01"}, {"name": RELEASED[0]}):
        broken = copy.deepcopy(manifest)
        broken["corpus"][0].update(bad)
        with pytest.raises(ValueError, match="follows|listed twice"):
            corpus.ordered(broken, pins)
