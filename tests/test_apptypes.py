"""Version-free application types (codegen/targets/python/appmodel.py, a distribution's `app` subpackage): the
merge rules, the reviewed renames, the conversions on the example protocol (every refusal kind),
and on the official versions: every example and every valid mutant goes wire -> app -> the same
version's wire exactly, and to every other version either converts (the result valid by the
JSON Schema the distribution ships for that version, emitted from its schema.ts) or fails with a `ConversionError`; a property test over random
application objects; the generated code under mypy --strict and ruff.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import importlib
import itertools
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import REPO, import_package, mypy_strict, ruff_check
from golden_files import load_from_repo
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator  # type: ignore[import-untyped,unused-ignore]

from codegen import ir
from codegen.diff.algebra import detect_renames
from codegen.pipeline import load_text
from codegen.targets.python import appmerge, appmodel, appnotes
from codegen.targets.python.distribution import render_distribution
from codegen.write import write_tree

EXAMPLES = ["schemas/example/v1/schema.ts", "schemas/example/v2/schema.ts"]


# -- the merge rules --------------------------------------------------------------------------


def test_span_and_required_notes() -> None:
    keys = ["a", "b", "c", "d"]
    assert appnotes.span(keys, keys) == ""
    assert appnotes.span(["c", "d"], keys) == "since c"
    assert appnotes.span(["a", "b"], keys) == "until b"
    assert appnotes.span(["b", "c"], keys) == "b to c"
    assert appnotes.span(["a", "c"], keys) == "in a, c"
    assert appnotes.required_note(["a", "b", "c"], ["b", "c"]) == "required from b"
    assert appnotes.required_note(["a", "b", "c"], ["a"]) == "required until a"
    assert appnotes.required_note(["a", "b"], ["a", "b"]) == ""


def test_merge_type_accepts_both() -> None:
    s, n, i = (ir.Prim(k) for k in (ir.PrimKind.STRING, ir.PrimKind.NUMBER, ir.PrimKind.INTEGER))
    a, b = ir.Lit("a", "string"), ir.Lit("b", "string")
    assert appmerge.merge_type(i, n) == n  # integer values are numbers
    assert appmerge.merge_type(a, s) == s  # a literal is a string
    assert appmerge.merge_type(ir.Union_((a,)), ir.Union_((b,))) == ir.Union_((b, a))
    merged = appmerge.merge_type(ir.Array(a), ir.Array(b))
    assert merged == ir.Array(ir.Union_((b, a)))


def test_renames_file_reviews_every_candidate(spec_root: Path) -> None:
    """The diff's rename candidates between consecutive official versions are suggestions:
    each must be accepted in schemas/app-renames.json or rejected there with a reason."""
    renames = appmodel.load_renames()
    names = corpus.version_names()
    for old, new in itertools.pairwise(names):
        found, ambiguous = detect_renames(corpus.resolved(old), corpus.resolved(new))
        for o, n in found.items():
            assert renames.accepted.get(o) == n or f"{o} -> {n}" in renames.rejected, (old, o, n)
        for o, ns in ambiguous.items():
            for n in ns:
                assert f"{o} -> {n}" in renames.rejected or renames.accepted.get(o) == n, (o, n)


def test_a_rename_of_two_present_types_is_refused() -> None:
    schemas = [load_from_repo(p) for p in EXAMPLES]
    with pytest.raises(appmodel.SchemaError, match="has both types"):
        appmodel.build(["1.0", "2.0"], schemas, appmodel.Renames({"Widget": "WidgetHints"}, {}))


OLD_RESPONSE = "export interface Response { id: string; result: object }"
NEW_RESPONSE = """
export type Response = ResultResponse | ErrorResponse;
export interface ResultResponse { id: string; result: object }
export interface ErrorResponse { id: string; error: string }
"""


def test_object_forms_rename_only_where_the_type_is_an_object() -> None:
    """`object_forms`: the old version's object `Response` is the new `ResultResponse`, while
    the new `Response` (a union) keeps its name; one version declaring both is refused."""
    old, new = (load_text(t, f"{n}.ts") for n, t in (("v1", OLD_RESPONSE), ("v2", NEW_RESPONSE)))
    forms = appmodel.Renames({}, {}, {"Response": "ResultResponse"})
    model = appmodel.build(["1", "2"], [old, new], forms)
    facts = {f.name: dict(f.wire_names) for f in model.facts}
    assert facts["ResultResponse"] == {"1": "Response", "2": "ResultResponse"}
    assert facts["Response"] == {"2": "Response"} and "ResponseObject" not in facts
    both = load_text(OLD_RESPONSE + "\nexport interface ResultResponse { id: string }", "v3.ts")
    with pytest.raises(appmodel.SchemaError, match="object form Response -> ResultResponse"):
        appmodel.build(["3", "2"], [both, new], forms)


# -- the example protocol ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def example_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("appdist")
    write_tree(root, render_distribution([load_from_repo(p) for p in EXAMPLES], "mcp_appex"))
    return root


@pytest.fixture(scope="module")
def example(example_root: Path) -> ModuleType:
    pkg = import_package(example_root, "mcp_appex")
    importlib.import_module("mcp_appex.app")  # not imported by the package itself (its size)
    return pkg


WIDGET = {"name": "a", "id": "wa", "kind": "chart", "version": 1, "legacyColor": 3,
          "annotations": {"readOnly": True}}  # fmt: skip


def test_example_model_and_docstrings(example: ModuleType) -> None:
    app = example.app
    assert (
        app.WidgetHints.__doc__ and "Named WidgetAnnotations until 1.0." in app.WidgetHints.__doc__
    )
    assert "WidgetAnnotations" not in app.__all__
    assert app.WIRE_NAMES["WidgetHints"] == {"1.0": "WidgetAnnotations", "2.0": "WidgetHints"}
    source = Path(app.models.__file__).read_text(encoding="utf-8")
    assert (
        '"""Longer explanation of what the widget controls.\n\n    Available since 2.0.' in source
    )
    facts = {f.wire: f for f in app.FIELDS["Widget"]}
    assert facts["legacyColor"].present == (0,) and facts["description"].present == (1,)
    assert facts["kind"].literals == {0: frozenset({"button", "slider", "gauge", "chart"}),
                                      1: frozenset({"button", "slider", "gauge", "toggle"})}  # fmt: skip


def test_example_round_trip_and_refusals(example: ModuleType) -> None:
    app, v1 = example.app, example.versions.bindings("1.0")
    wire = v1.Widget.from_dict({**WIDGET, "description": "undeclared in 1.0"})
    a = app.to_app(wire)
    assert type(a) is app.Widget and a.legacy_color == 3 and type(a.annotations) is app.WidgetHints
    assert a.description is app.UNSET and a.extra == {"description": "undeclared in 1.0"}
    back = app.to_wire(a, "1.0")
    assert type(back) is v1.Widget and back.to_dict() == wire.to_dict()
    with pytest.raises(app.ConversionError) as err:
        app.to_wire(a, "2.0")
    assert err.value.kinds == ("literal", "field") and err.value.protocol_version == "2.0"
    assert [e.path for e in err.value.errors] == ["$.kind", "$.legacyColor"]
    assert "2.0 cannot express $.kind: 'chart' is not a value this version knows" in str(err.value)
    odd = v1.Widget.from_dict({**WIDGET, "description": 5})  # not even 2.0's type: kept as is
    assert app.to_app(odd).extra == {"description": 5}
    assert app.to_wire(app.to_app(odd), "1.0").to_dict() == odd.to_dict()
    a.kind, a.legacy_color = "gauge", app.UNSET
    assert type(app.to_wire(a, "2.0")).__module__.endswith("v2_0.models")
    a.kind = "toggle"
    with pytest.raises(app.ConversionError) as err:
        app.to_wire(a, "1.0")
    assert err.value.kind == "literal"


def test_example_required_and_type_refusals(example: ModuleType) -> None:
    app = example.app
    a = app.to_app(example.versions.bindings("1.0").Widget.from_dict(WIDGET))
    a.name = app.UNSET  # required by both versions
    with pytest.raises(app.ConversionError) as err:
        app.to_wire(a, "1.0")
    assert err.value.kind == "required" and err.value.errors[0].path == "$.name"
    only_new = [n for n, w in app.WIRE_NAMES.items() if list(w) == ["2.0"]]
    assert "AudioContent" in only_new
    audio = app.AudioContent(data="AA==", mime_type="audio/wav")
    with pytest.raises(app.ConversionError) as err:
        app.to_wire(audio, "1.0")
    assert err.value.kind == "type" and "AudioContent does not exist" in str(err.value)


def test_example_entry_points(example: ModuleType) -> None:
    app = example.app
    request = {"jsonrpc": "2.0", "id": 1, "method": "widgets/list"}
    message = app.parse_message(request, version="1.0", direction="client_to_server")
    assert type(message.obj).__module__.endswith("app.models")
    assert app.serialize(message.obj, version="2.0") == request
    built = app.ListWidgetsRequest(id=7)  # jsonrpc: a constant, filled in
    assert app.serialize(built, version="1.0") == {**request, "id": 7}
    gated = [m for m, vs in example.versions.METHOD_VERSIONS.items() if vs == ("2.0",)]
    assert gated  # a method only 2.0 has: 1.0 refuses to send it
    with pytest.raises(example.ProtocolError, match="not defined in protocol version 1.0"):
        app.serialize(message.obj, version="1.0", method=gated[0])


@pytest.mark.slow
def test_example_app_passes_mypy_and_ruff(example_root: Path, tmp_path: Path) -> None:
    pkg = example_root / "mcp_appex"
    proc = mypy_strict([pkg / "app"], tmp_path / "mypy")
    assert proc.returncode == 0, proc.stdout[-3000:]
    proc = ruff_check([pkg / "app"])
    assert proc.returncode == 0, proc.stdout[-3000:]


# -- the official versions --------------------------------------------------------------------


# `official` (tests/conftest.py): the distribution of every official version, once per run.


@functools.cache
def _our_schema(pkg: ModuleType, key: str) -> dict[str, Any]:
    """The JSON Schema the distribution ships for `key` (emitted from its schema.ts: it says
    `number` where the official schema.json of some versions says `integer`)."""
    sub = Path(pkg.__file__).parent / pkg.versions.SUBPACKAGES[key] / "schema.json"
    loaded: dict[str, Any] = json.loads(sub.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def _validator(pkg: ModuleType, key: str, name: str) -> Any:
    doc = _our_schema(pkg, key)
    defs = "$defs" if "$defs" in doc else "definitions"
    if name not in doc[defs]:
        return None  # a type the JSON Schema does not define (an inline object)
    cls = Draft7Validator if defs == "definitions" else Draft202012Validator
    return cls({**doc, "$ref": f"#/{defs}/{name}"})


def valid_in(pkg: ModuleType, key: str, name: str, value: Any) -> bool:
    """Whether `value` is a valid `name` by the version's shipped JSON Schema (jsonschema)."""
    validator = _validator(pkg, key, name)
    return validator is None or bool(validator.is_valid(value))


FIGURES: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
MUTANT_CAP = 40  # valid mutants per example (the whole corpus: ~10 minutes on 2 cores)


def _cases(version: str) -> list[corpus.LabelledCase]:
    return [c for c in corpus.labelled_corpus(version, cap=MUTANT_CAP) if c.expected_valid]


def _exchange(pkg: ModuleType, key: str, type_name: str, instance: Any) -> None:
    """wire -> app -> same wire exactly; app -> every other version converts and validates, or
    is refused with a ConversionError (counted by kind in FIGURES)."""
    app, versions = pkg.app, pkg.versions
    before = json.dumps(instance, sort_keys=True)  # conversions must not change their input
    wire = versions.bindings(key).decode(type_name, instance)
    if not hasattr(wire, "to_dict"):
        return  # a value that is no object (an alias of a primitive)
    a = app.to_app(wire)
    back = app.to_wire(a, key).to_dict()
    assert json.dumps(back, sort_keys=True) == before == json.dumps(instance, sort_keys=True)
    FIGURES[key]["round trip"] += 1
    for other in versions.SUBPACKAGES:
        if other == key:
            continue
        try:
            out = app.to_wire(a, other)
        except app.ConversionError as err:
            assert err.protocol_version == other and err.errors and err.kinds
            FIGURES[key][f"refused by {other}: {err.kind}"] += 1
            FIGURES[other]["refusals: " + err.kind] += 1
            continue
        assert valid_in(pkg, other, type(out).__name__, out.to_dict()), (other, type(out))
        FIGURES[other]["converted in"] += 1


@pytest.mark.spec
@pytest.mark.slow
@pytest.mark.parametrize("version", corpus.names_with_examples())
def test_official_examples_and_mutants(official: ModuleType, version: str) -> None:
    key = next(k for k, label in official.versions.LABELS.items() if label == version)
    cases = _cases(version)
    assert cases
    for case in cases:
        _exchange(official, key, case.type_name, case.instance)
    assert FIGURES[key]["round trip"] >= len(cases) // 2
    print(f"\n{version}:", dict(sorted(FIGURES[key].items())), file=sys.stderr)


@pytest.mark.spec
@pytest.mark.slow
def test_official_app_passes_mypy(official: ModuleType, tmp_path: Path) -> None:
    app_dir = Path(official.app.__file__).parent
    proc = mypy_strict([app_dir], tmp_path / "mypy")
    assert proc.returncode == 0, proc.stdout[-3000:]
    proc = ruff_check([app_dir])
    assert proc.returncode == 0, proc.stdout[-3000:]


def _drop_optional(obj: Any, unset: Any, data: st.DataObject) -> None:
    """Unset a random choice of the optional fields (default UNSET) of `obj`, nested ones too."""
    if isinstance(obj, list):
        for item in obj:
            _drop_optional(item, unset, data)
        return
    if not dataclasses.is_dataclass(obj):
        return
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.default is unset and value is not unset and data.draw(st.booleans()):
            setattr(obj, f.name, unset)
        else:
            _drop_optional(value, unset, data)


@pytest.mark.spec
@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_application_objects(official: ModuleType, data: st.DataObject) -> None:
    """Random application objects (an official example with a random choice of its optional
    fields, at every depth, left unset): every version either converts them, the result valid by its official
    schema, or refuses with a ConversionError naming the path."""
    version = data.draw(st.sampled_from(corpus.names_with_examples()))
    key = next(k for k, label in official.versions.LABELS.items() if label == version)
    cases = [c for c in corpus.examples(version)]
    case = data.draw(st.sampled_from(cases))
    wire = official.versions.bindings(key).decode(case.type_name, case.instance)
    if not hasattr(wire, "to_dict"):
        return
    a = official.app.to_app(wire)
    _drop_optional(a, official.app.UNSET, data)
    for other in official.versions.SUBPACKAGES:
        try:
            out = official.app.to_wire(a, other)
        except official.app.ConversionError as err:
            assert err.errors[0].path.startswith("$")
            continue
        assert valid_in(official, other, type(out).__name__, out.to_dict()), other


@pytest.mark.spec
@pytest.mark.slow
def test_bench_smoke(official: ModuleType) -> None:
    """benchmarks/apptypes.py runs (one call per round; its numbers mean nothing here)."""
    try:
        import mcp_types  # noqa: F401  (the official SDK: the bench extra)
    except ImportError:
        corpus.missing("the official SDK (mcp) is not installed")
    root = Path(official.__file__).parent.parent
    cmd = [sys.executable, "-m", "benchmarks.apptypes", "--dist", str(root), "--package",
           "mcp_appoff", "-n", "1"]  # fmt: skip
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "parse: " in proc.stdout and "serialize: " in proc.stdout


def test_repo_renames_file_is_valid() -> None:
    data = json.loads((REPO / "schemas" / "app-renames.json").read_text(encoding="utf-8"))
    assert set(data) <= {"comment", "renames", "rejected", "object_forms"}
