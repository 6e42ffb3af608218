"""The application layer's one-pass conversions (`_conversion.py`: `parse_message`,
`parse_result`, `serialize`): validated once by the negotiated version's validators, no wire
object built, and the same results and errors as the two passes they replace (decode the
version's wire object and `to_app` it; `to_wire` with every field checked, then `to_dict`), on
every official example and valid mutant of every version, converted to every version.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import corpus
import pytest

MUTANT_CAP = 6  # valid mutants per example: the undeclared members and optional fields
LATEST = "2026-07-28"


@pytest.fixture(scope="module")
def dist(official: ModuleType) -> ModuleType:
    """The distribution of every official version (conftest's, shared with the other tests)."""
    return official


def _tree(obj: Any) -> Any:
    """An application object as plain data, its class and every attribute (`extra` too) named,
    lists and dicts in order: what two conversions must agree on exactly."""
    if isinstance(obj, list):
        return ["list", [_tree(x) for x in obj]]
    if isinstance(obj, dict):
        return ["dict", [[k, _tree(v)] for k, v in obj.items()]]
    slots = getattr(type(obj), "__dataclass_fields__", None)
    if slots is None:
        return [type(obj).__name__, obj if not isinstance(obj, float) else repr(obj)]
    return [type(obj).__name__, [[name, _tree(getattr(obj, name))] for name in slots]]


def _text(value: Any) -> str:
    return json.dumps(value)  # key order counts: the bytes a peer receives


def _two_passes_out(pkg: ModuleType, obj: Any, version: str) -> Any:
    """The reference for `serialize(obj, version=...)` of a value: every field checked, the
    version's wire object built and encoded."""
    conv = pkg.app.convert._CONVERTER
    wire, data, problems, _ = conv._converted(obj, version, True, full=True)
    cls = getattr(pkg.versions.bindings(version).models, wire)
    try:
        return cls.from_dict(data).to_dict(validate=False)
    except pkg.ValidationError as err:
        raise pkg.app.convert._refused(problems, err, version) from None


def _refusal(err: Any) -> tuple[Any, ...]:
    return (type(err).__name__, err.kinds, [(e.path, e.message) for e in err.errors])


def _out(fn: Any) -> Any:
    try:
        return ("sent", fn())
    except Exception as err:  # noqa: BLE001 - compared with the reference's
        return ("refused", _refusal(err)) if hasattr(err, "kinds") else ("raised", repr(err))


def _key(pkg: ModuleType, label: str) -> str:
    return next(k for k, lab in pkg.versions.LABELS.items() if lab == label)


def _cases() -> Iterator[tuple[str, corpus.LabelledCase]]:
    for version in corpus.names_with_examples():
        for case in corpus.labelled_corpus(version, cap=MUTANT_CAP):
            if case.expected_valid:
                yield version, case


@pytest.mark.spec
def test_one_pass_agrees_with_two_passes(dist: ModuleType) -> None:
    """Every official example and valid mutant: decoded into application types in one pass as
    the two passes decode it (types, fields, `extra`, order), and sent to every version in one
    pass as the two passes send it (the same JSON, key order included, or the same refusal)."""
    app, versions = dist.app, dist.versions
    conv = app.convert._CONVERTER
    checked = sent = 0
    for label, case in _cases():
        key = _key(dist, label)
        codec = versions.bindings(key).codec
        try:
            wire = codec.decode(case.type_name, case.instance)
        except dist.ValidationError:
            continue  # valid by the official schema.json, not by schema.ts (its known defects)
        if not hasattr(wire, "to_dict"):
            continue  # a value that is no object
        reference = app.to_app(wire)
        mine = conv._decode(key)(case.type_name, case.instance)
        assert _tree(mine) == _tree(reference), case.description
        checked += 1
        for other in versions.SUBPACKAGES:
            expected = _out(lambda o=other, r=reference: _two_passes_out(dist, r, o))
            if expected[0] == "raised":
                continue  # a type the version lacks: `to_wire` says so ("type"), both ways
            got = _out(lambda o=other, a=mine: conv._wire_json(a, o))  # `serialize` of a value
            assert _text(got) == _text(expected), (case.description, other)
            sent += 1
    assert checked > 300 and sent > 1500, (checked, sent)


@pytest.mark.spec
def test_undeclared_members_of_another_version_stay_undeclared(dist: ModuleType) -> None:
    """A 2025-06-18 result carrying 2026-07-28's `resultType` and `ttlMs` as undeclared members:
    one pass keeps them in `extra` as the two passes do, and sends them back as they came."""
    app = dist.app
    data = {"content": [], "resultType": "complete", "ttlMs": 5, "isError": False}
    got = app.parse_result("tools/call", data, version="2025-06-18")
    reference = app.to_app(dist.versions.parse_result("tools/call", data, version="2025-06-18"))
    assert _tree(got) == _tree(reference)
    assert got.extra == {"resultType": "complete", "ttlMs": 5}
    assert app.serialize(got, version="2025-06-18", method="tools/call") == data
    msg = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "c"}}
    parsed = app.parse_message(msg, version="2025-06-18", direction="client_to_server")
    assert app.serialize(parsed.obj, version="2025-06-18") == msg


def _calls(fn: Any) -> list[tuple[str, str]]:
    """(file, function) of every Python function `fn()` calls."""
    seen: list[tuple[str, str]] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            code = frame.f_code
            seen.append((code.co_filename, code.co_name))

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.spec
def test_validated_once_and_no_wire_objects(dist: ModuleType) -> None:
    """`parse_message` and `serialize` of a 2026-07-28 `tools/call` validate with that version's
    validators once, never with the application types' own, and build no wire object."""
    app = dist.app
    base = Path(dist.__file__).parent
    wire_models = str(base / "v2026_07_28" / "models.py")
    app_validators = str(base / "app" / "validators.py")
    version_validators = str(base / "v2026_07_28" / "validators.py")
    found = {ex.type_name: ex.instance for ex in corpus.examples(LATEST)}
    msg = {"jsonrpc": "2.0", "id": 1, **found["CallToolRequest"]}
    result = found["CallToolResult"]
    obj = app.parse_result("tools/call", result, version=LATEST)
    app.serialize(obj, version=LATEST, method="tools/call")  # the passes, made on first use
    app.parse_message(msg, version=LATEST, direction="client_to_server")
    for fn, top in (
        (lambda: app.parse_message(msg, version=LATEST, direction="client_to_server"),
         "is_CallToolRequest"),
        (lambda: app.serialize(obj, version=LATEST, method="tools/call"), "is_CallToolResult"),
    ):  # fmt: skip
        calls = _calls(fn)
        assert not [c for c in calls if c[0] == wire_models], "a wire object was built"
        assert not [c for c in calls if c[0] == app_validators], "validated twice"
        assert calls.count((version_validators, top)) == 1


@pytest.mark.spec
def test_refusals_are_the_two_passes_refusals(dist: ModuleType) -> None:
    """What one pass does not look at itself goes the way of `to_wire`: an undeclared member that
    is not JSON, a required field unset by hand; and a field the version lacks is refused."""
    app = dist.app
    found = {ex.type_name: ex.instance for ex in corpus.examples(LATEST)}
    for change, kind in (
        (lambda r: r.tools[0].extra.update(bad={1, 2}), "invalid"),
        (lambda r: setattr(r.tools[0], "name", app.UNSET), "required"),
    ):
        obj = app.parse_result("tools/list", found["ListToolsResult"], version=LATEST)
        change(obj)
        with pytest.raises(app.ConversionError) as one:
            app.serialize(obj, version=LATEST, method="tools/list")
        with pytest.raises(app.ConversionError) as two:
            app.to_wire(obj, LATEST, defaults=True)
        assert _refusal(one.value) == _refusal(two.value) and one.value.kind == kind
    obj = app.parse_result("tools/list", found["ListToolsResult"], version=LATEST)
    obj.tools[0].execution = app.ToolExecution()  # until 2025-11-25
    with pytest.raises(app.ConversionError) as err:
        app.serialize(obj, version=LATEST, method="tools/list")
    assert err.value.kind == "field" and err.value.errors[0].path == "$.tools[0].execution"
    obj.tools[0].name = app.UNSET  # with a field it lacks: every problem is listed
    with pytest.raises(app.ConversionError) as err:
        app.serialize(obj, version=LATEST, method="tools/list")
    found = sorted(zip(err.value.kinds, (e.path for e in err.value.errors)))
    assert found == [("field", "$.tools[0].execution"), ("required", "$.tools[0].name")]
