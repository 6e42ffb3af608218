"""The runtime's JSON text helpers (`loads`, `dumps`) and the shortcuts in `by_shape` and
`encode_value`: faster paths that must give exactly what the standard library (or the plain
loop) gives, values and errors alike."""

from __future__ import annotations

import importlib.util
import json
import sys
from types import ModuleType
from typing import Any

import pytest
from bindings_support import REPO


def _load() -> ModuleType:
    path = REPO / "templates" / "python" / "static" / "_runtime.py"
    spec = importlib.util.spec_from_file_location("_runtime_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks its module up
    spec.loader.exec_module(module)
    return module


rt = _load()


def _outcome(fn: Any, arg: object) -> tuple[str, object]:
    try:
        return "value", fn(arg)
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return type(e).__name__, str(e)


TEXTS = [
    '{"a":1}', '{"a": [1, 2.5, null, true, "é\\n"]}', ' {"a":1}', '{"a":1} ', '\n[]\n', "",
    "   ", "x", '{"a":1}x', '{"a":1} x', "[1,2", '{"a" 1}', '"s"', "1e400", "NaN", "-Infinity",
    "\ufeff{}", '{"a":1}\ufeff', b'{"a":1}', b' {"a":1} ', bytearray(b"[1]"), "[" * 50 + "]" * 50,
    '{"a":1,"a":2}',
]  # fmt: skip


# Texts json.loads reads but that are not JSON: Python's constants, a number it makes infinite,
# a key given twice (json keeps the last), a byte order mark in a str.
NOT_JSON = {"1e400", "NaN", "-Infinity", '{"a":1,"a":2}'}


@pytest.mark.parametrize("text", TEXTS, ids=repr)
def test_loads_is_json_loads_on_json_and_a_validation_error_otherwise(text: str | bytes) -> None:
    ours, theirs = _outcome(rt.loads, text), _outcome(json.loads, text)
    if theirs[0] == "value" and not (isinstance(text, str) and text in NOT_JSON):
        assert ours == theirs
    else:
        assert ours[0] == "ValidationError", ours


def _cyclic() -> list[object]:
    a: list[object] = [1]
    a.append({"b": a})
    return a


def _standard(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


VALUES: list[object] = [
    {"a": [1, 2.5, None, True, False, "é\n\u2028", {"": {}}]},
    [],
    "text",
    1e400,
    float("nan"),
    -0.0,
    10**30,
    {1: "int key", 2.5: "float key", None: "null key", False: "bool key"},
    _cyclic(),
    {"a": {1, 2}},  # not JSON
    [object()],
    {("t",): 1},  # a key json refuses
]


def _is_json(value: object) -> bool:
    """What json.dumps writes without NaN (keys that are numbers, bools or None are written as
    strings, as json.dumps writes them)."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_dumps_is_json_dumps_on_json_and_a_validation_error_otherwise(value: object) -> None:
    assert rt._UNCHECKED is not None, "the C encoder is expected on CPython"
    ours = _outcome(rt.dumps, value)
    if _is_json(value):
        assert ours == _outcome(_standard, value)
    else:
        assert ours[0] == "ValidationError", ours


def test_dumps_of_a_cycle_is_a_located_validation_error() -> None:
    with pytest.raises(rt.ValidationError, match="nested deeper than 256 levels") as info:
        rt.dumps(_cyclic())
    assert info.value.errors[0].path.startswith("$[1].b[1].b[1].b")


def test_by_shape_picks_as_the_full_loop() -> None:
    """Of the accepting members, the most declared keys, the earlier on a tie; the key count
    is checked before the validator, which is then not called for a member that cannot win."""
    calls: list[str] = []

    def accepts(name: str, ok: bool) -> Any:
        def check(value: object) -> bool:
            calls.append(name)
            return ok

        return check

    members = (
        (accepts("a", True), frozenset({"x"}), lambda v: "a"),
        (accepts("b", False), frozenset({"x", "y", "z"}), lambda v: "b"),
        (accepts("c", True), frozenset({"x", "y"}), lambda v: "c"),
        (accepts("d", True), frozenset({"y", "x"}), lambda v: "d"),
        (accepts("e", True), frozenset(), lambda v: "e"),
    )
    assert rt.by_shape({"x": 1, "y": 2, "z": 3}, members) == "c"
    assert calls == ["a", "b", "c"]  # d ties c, e has fewer keys: neither validated
    assert rt.by_shape([1], members) == "a"  # no keys: the first accepting member
    assert rt.by_shape({"q": 1}, members[1:2], lambda v: "fallback") == "fallback"
