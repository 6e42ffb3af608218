"""Issue 23 (decoders on hostile JSON), property-based, over every object type of every official
version: hostile JSON text into `from_json`, hostile Python values into `from_dict`, hostile
attribute values into `to_dict`/`to_json`/`codec.encode`. Only `ValidationError` may come out;
what is accepted encodes as strict JSON text (no `NaN`/`Infinity`, valid UTF-8) that decodes
back to the same object.

The hostile values: nesting past the depth limit and past the parser's stack, cycles, integers of
5,000 digits, `NaN`/`Infinity`/`1e400`, invalid UTF-8 bytes, lone surrogates, a key given twice,
bytes/sets/tuples/complex/objects, non-string keys; placed at a random position (an existing
value replaced, or an undeclared member added) of a valid instance of each type. The decoding tests
of JSON text run on both paths (the standard library's and orjson's, issue 28), and every
`to_json` must give the same text or error on both.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import JSON_PATHS, import_package, json_path, write_package
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_schemas import instance as random_instance

from codegen import ir
from codegen.pipeline import load
from codegen.targets.python.bindings import render_package

pytestmark = pytest.mark.spec

VERSIONS = corpus.version_names()
EXAMPLES = 4  # hypothesis examples per (test, version): each runs every object type once
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,  # no wall-clock limits: the machine may be loaded
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _render(schema: str) -> dict[str, str]:
    return render_package(load(schema))


Case = tuple[type, dict[str, Any]]  # (model class, a valid wire value of it)


class Packages(dict[str, tuple[ModuleType, list[Case]]]):
    """Version -> (package, cases); printed short in Hypothesis' falsifying examples."""

    def __repr__(self) -> str:
        return f"<{len(self)} official packages>"


@pytest.fixture(scope="module")
def packages(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Packages:
    """Every official version's package, and per version every declared object type with a
    valid instance (random, valid by construction, checked by the package's own validators)."""
    root = tmp_path_factory.mktemp("hostile_decoders")
    versions = corpus.versions(spec_root)
    with ProcessPoolExecutor(max_workers=2) as pool:
        rendered = list(pool.map(_render, [str(v.schema_ts) for v in versions]))
    out = Packages()
    for v, files in zip(versions, rendered):
        name = "hd_" + "".join(c if c.isalnum() else "_" for c in v.name.lower())
        write_package(files, root, name)
        m = import_package(root, name)
        resolved = corpus.resolved(v)
        cases: list[Case] = []
        for td in resolved.types:
            cls = getattr(m.models, td.name, None)
            if not (isinstance(cls, type) and hasattr(cls, "from_json")):
                continue
            for k in range(20):  # the first random instance the validators accept
                value = random_instance(resolved, ir.Ref(td.name), random.Random(f"{td.name}/{k}"))
                if isinstance(value, dict) and m.is_valid(td.name, value):
                    cases.append((cls, value))
                    break
            else:
                raise AssertionError(f"{v.name}: no valid instance of {td.name}")
        assert len(cases) > 40, (v.name, len(cases))
        out[v.name] = (m, cases)
    return out


# -- hostile values ---------------------------------------------------------------------------


def _deep(n: int, kind: str) -> Any:
    value: Any = 1
    for _ in range(n):
        value = {"a": value} if kind == "object" else [value]
    return value


def _cycle(kind: str) -> Any:
    if kind == "object":
        d: dict[str, Any] = {}
        d["a"] = d
        return d
    items: list[Any] = [1]
    items.append(items)
    return items


NOT_JSON: list[Any] = [
    math.nan, math.inf, -math.inf, 10**5000, -(10**5000), b"bytes", bytearray(b"x"), {1, 2},
    frozenset(), (1, 2), 1j, object(), {1: "k"}, {("t",): 1}, {"a": {None: 1}}, "\ud800",
    ["\udfff"], [math.nan], {"a": [b"x"]}, {"a": {"b": {3}}}, range(3),
]  # fmt: skip


def _python_hostile() -> st.SearchStrategy[Any]:
    """Python values that are not JSON, or JSON values past the limits."""
    kinds = st.sampled_from(["object", "array"])
    return st.one_of(
        st.sampled_from(NOT_JSON),
        st.builds(_deep, st.sampled_from([257, 300, 1_200, 5_000]), kinds),
        st.builds(_cycle, kinds),
    )


# JSON text tokens that are not JSON or past the limits, with the verdict they must get
# (True: a ValidationError wherever they are; False: may be accepted: a string, or deep nesting
# inside a JSON Schema payload, which the validators check for its declared shape only, as deep
# as the parser goes; elsewhere deep nesting must fail, see DEEP).
DEEP = ['{"a":' * 300 + "1" + "}" * 300, "[" * 1_200 + "]" * 1_200, '{"a":' * 5_000 + "1" + "}" * 5_000]  # fmt: skip
TEXT_HOSTILE: list[tuple[str, bool]] = [
    ("NaN", True), ("Infinity", True), ("-Infinity", True), ("1e400", True), ("-1e400", True),
    ("9" * 5_000, True), ("-" + "9" * 5_000, True), *((d, False) for d in DEEP),
    ('"\\ud800"', False), ('"\\udfff\\ud800"', False), ('{"a":[1,{"b":"\\udc00"}]}', False),
    # where orjson reads otherwise (a float of an integer beyond 64 bits; a float it spells so)
    ("18446744073709551616", False), ("-9223372036854775809", False), ("1e-7", False),
]  # fmt: skip
INVALID_UTF8 = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\xf8\x88\x80\x80\x80", b"\x80"]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _place(value: Any, rnd: random.Random, new: Any) -> Any:
    """`value` with `new` at a random position: replacing a value below the top, or as an
    undeclared member of one of its objects."""
    paths = _paths(value)
    objects = [p for p in paths if isinstance(_get(value, p), dict)]
    if rnd.random() < 0.5 and len(paths) > 1:
        return _set(value, rnd.choice(paths[1:]), new)
    return _set(value, (*rnd.choice(objects), "x-hostile"), new)


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _set(value[path[0]], path[1:], new) if path[0] in _keys(value) else new
    return copy


def _keys(value: Any) -> range | Any:
    return range(len(value)) if isinstance(value, list) else value.keys()


MARK = "\u0000hostile\u0000"


def _text_with(value: Any, rnd: random.Random, token: str) -> str:
    """JSON text of `value` with the raw `token` at a random position."""
    text = json.dumps(_place(value, rnd, MARK), ensure_ascii=False)
    return text.replace(json.dumps(MARK), token)


def _text_with_duplicate(value: Any, rnd: random.Random) -> str:
    """JSON text of `value` with one of its objects giving a key twice."""
    target = rnd.choice([p for p in _paths(value) if isinstance(_get(value, p), dict)])

    def write(v: Any, path: tuple[Any, ...]) -> str:
        if isinstance(v, dict):
            items = [f"{json.dumps(k)}:{write(x, (*path, k))}" for k, x in v.items()]
            if path == target:
                items.append(items[0] if items else '"x":1')
                items.insert(0, items[-1] if items[:-1] else '"x":2')
            return "{" + ",".join(items) + "}"
        if isinstance(v, list):
            return "[" + ",".join(write(x, (*path, i)) for i, x in enumerate(v)) + "]"
        return json.dumps(v)

    return write(value, ())


# -- what may come out ------------------------------------------------------------------------


def _strict(text: str) -> Any:
    """json.loads that refuses what is not JSON: NaN/Infinity, and text that is not UTF-8."""
    text.encode("utf-8")  # a lone surrogate left raw would make the text unsendable

    def refuse(name: str) -> None:
        raise AssertionError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def _encodes(m: ModuleType, obj: Any) -> None:
    """Every way out of an object raises only ValidationError; JSON text is strict JSON."""
    for validate in (True, False):
        for out in (obj.to_dict, lambda validate: m.encode(obj, validate=validate)):
            try:
                out(validate=validate)
            except m.ValidationError as e:
                assert e.errors and all(d.path.startswith("$") for d in e.errors)
        try:
            text = obj.to_json(validate=validate)
        except m.ValidationError as e:
            assert e.errors and all(d.path.startswith("$") for d in e.errors)
        else:
            _strict(text)
            try:  # the same object back, unless a member escaped the checks on the way out
                back = type(obj).from_json(text)  # (undeclared ones are the decoders' to check)
            except m.ValidationError as e:
                assert e.errors
            else:
                assert back.to_json() == text
        if m._runtime._ORJSON is not None:  # (the runs on the standard path: done by the others)
            assert _to_json_on_both_paths(m, obj, validate), "the JSON text paths differ"


def _to_json_on_both_paths(m: ModuleType, obj: Any, validate: bool) -> bool:
    """`to_json` gives the same text, or the same error, on both JSON text paths (NaN in an
    undeclared member, which the validators do not walk, included)."""
    outcomes = []
    for p in JSON_PATHS:
        with json_path(m._runtime, p):
            try:
                outcomes.append(obj.to_json(validate=validate))
            except m.ValidationError as e:
                outcomes.append(str(e))
    return outcomes[0] == outcomes[1]


def _decodes(m: ModuleType, cls: type, decode: Any, arg: Any, must_fail: bool) -> None:
    try:
        obj = decode(arg)
    except m.ValidationError as e:
        assert e.errors and all(d.path.startswith("$") for d in e.errors)
        assert e.type_name == cls.__name__
        return
    assert not must_fail, f"{cls.__name__} accepted {str(arg)[:200]!r}"
    assert isinstance(obj, cls)
    _encodes(m, obj)


# -- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("jpath", JSON_PATHS)
@pytest.mark.parametrize("version", VERSIONS)
@SETTINGS
@given(token=st.sampled_from(TEXT_HOSTILE), seed=st.integers(0, 2**32))
def test_from_json_of_hostile_text_raises_only_validation_error(
    packages: Packages, jpath: str, version: str, token: tuple[str, bool], seed: int
) -> None:
    m, cases = packages[version]
    with json_path(m._runtime, jpath):
        rnd = random.Random(seed)
        for cls, value in cases:
            text = _text_with(value, rnd, token[0])
            _decodes(m, cls, cls.from_json, text, must_fail=token[1])
            _decodes(m, cls, cls.from_json, text.encode("utf-8"), must_fail=token[1])
            if token[0] in DEEP:  # as an undeclared member of the object itself: always too deep
                deep = json.dumps({**value, "x-hostile": MARK}).replace(json.dumps(MARK), token[0])
                with pytest.raises(m.ValidationError, match="nested deeper than 256 levels"):
                    cls.from_json(deep)


@pytest.mark.parametrize("jpath", JSON_PATHS)
@pytest.mark.parametrize("version", VERSIONS)
@SETTINGS
@given(bad=st.sampled_from(INVALID_UTF8), seed=st.integers(0, 2**32), dup=st.booleans())
def test_from_json_of_invalid_utf8_and_repeated_keys_raises_validation_error(
    packages: Packages, jpath: str, version: str, bad: bytes, seed: int, dup: bool
) -> None:
    m, cases = packages[version]
    with json_path(m._runtime, jpath):
        rnd = random.Random(seed)
        for cls, value in cases:
            if dup:
                text = _text_with_duplicate(value, rnd)
                with pytest.raises(m.ValidationError, match="given twice"):
                    cls.from_json(text)
                with pytest.raises(m.ValidationError, match="given twice"):
                    cls.from_json(text.encode("utf-8"))
            else:
                data = _text_with(value, rnd, '"' + MARK + '"').encode("utf-8")
                data = data.replace(MARK.encode("utf-8"), b"ok" + bad)
                with pytest.raises(m.ValidationError, match="invalid UTF-8"):
                    cls.from_json(data)


@pytest.mark.parametrize("version", VERSIONS)
@SETTINGS
@given(new=_python_hostile(), seed=st.integers(0, 2**32))
def test_from_dict_of_hostile_values_raises_only_validation_error(
    packages: Packages, version: str, new: Any, seed: int
) -> None:
    m, cases = packages[version]
    rnd = random.Random(seed)
    for cls, value in cases:
        hostile = _place(value, rnd, new)
        _decodes(m, cls, cls.from_dict, hostile, must_fail=False)
        _decodes(m, cls, lambda v, c=cls: m.decode(c, v), hostile, must_fail=False)


@pytest.mark.parametrize("version", VERSIONS)
@SETTINGS
@given(new=_python_hostile(), seed=st.integers(0, 2**32))
def test_to_json_of_hostile_attribute_values_raises_only_validation_error(
    packages: Packages, version: str, new: Any, seed: int
) -> None:
    m, cases = packages[version]
    rnd = random.Random(seed)
    for cls, value in cases:
        obj = cls.from_dict(value)
        field = rnd.choice(dataclasses.fields(obj))
        if field.name == "extra" or rnd.random() < 0.2:
            obj.extra = {"x-hostile": new}
        else:
            setattr(obj, field.name, obj if rnd.random() < 0.1 else new)  # a cycle, sometimes
        _encodes(m, obj)
