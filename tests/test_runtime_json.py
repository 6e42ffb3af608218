"""The runtime's JSON text helpers (`loads`, `dumps`) and the shortcuts in `by_shape` and
`encode_value`: faster paths that must give exactly what the standard library (or the plain
loop) gives, values and errors alike. `loads` and `dumps` are tested on both JSON text paths,
the standard one and orjson's (issue 28): the same values (types included), texts and errors."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import struct
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from bindings_support import JSON_PATHS, REPO, json_path


def _load() -> ModuleType:
    path = REPO / "templates" / "python" / "static" / "_runtime.py"
    spec = importlib.util.spec_from_file_location("_runtime_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks its module up
    spec.loader.exec_module(module)
    return module


rt = _load()


@pytest.fixture(params=JSON_PATHS)
def path(request: pytest.FixtureRequest) -> Iterator[str]:
    with json_path(rt, request.param):
        yield request.param


def _outcome(fn: Any, arg: object) -> tuple[str, object]:
    try:
        return "value", fn(arg)
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return type(e).__name__, str(e)


def _typed(outcome: tuple[str, object]) -> tuple[str, str]:
    """An outcome with its value as `repr` (1 and 1.0, 2**64 and 1.8446744073709552e+19 differ;
    == calls them equal)."""
    kind, value = outcome
    return kind, repr(value) if kind == "value" else str(value)


TEXTS = [
    '{"a":1}', '{"a": [1, 2.5, null, true, "é\\n"]}', ' {"a":1}', '{"a":1} ', '\n[]\n', "",
    "   ", "x", '{"a":1}x', '{"a":1} x', "[1,2", '{"a" 1}', '"s"', "1e400", "NaN", "-Infinity",
    "\ufeff{}", '{"a":1}\ufeff', b'{"a":1}', b' {"a":1} ', bytearray(b"[1]"), "[" * 50 + "]" * 50,
    '{"a":1,"a":2}',
    # where orjson reads otherwise: integers beyond 64 bits (it makes floats), a repeated key
    # (it keeps the last), also behind a colon spelled \u003a, lone surrogates, a byte order mark
    "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
    "1" * 30, '{"a": [1e16, 12345678901234567890]}', '{"a": 1, "a": 2}', '{"a":{"b":1,"b":1}}',
    '{"a":1,"a":"\\u003a"}', '{"a":"x:y","a":1}', b'{"a":1,"a":2}', b'{"a":1,"a":"\\u003A"}',
    '{"a\\u003a":1}', '"\\ud800"', '["\\udc00\\ud800"]', b'\xef\xbb\xbf{"a":1}', b'{"a":"\xff"}',
    "1E400", "[1.5e-7, 0.00001, 1e-05]", "[" * 300 + "]" * 300, "[" * 1100 + "]" * 1100,
    '{"a": "\u00e9", "b": "\\u00e9"}', b'{"a":"\xc3\xa9"}', "-0", "-0.0", "1E2", "9" * 5000,
]  # fmt: skip


# Texts json.loads reads but that are not JSON: Python's constants, a number it makes infinite,
# a key given twice (json keeps the last), a byte order mark in a str.
NOT_JSON = {"1e400", "NaN", "-Infinity", "1E400"}


def _repeats_a_key(text: str | bytes) -> bool:
    found = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found
        found = found or len({k for k, _ in items}) != len(items)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return found


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: repr(t)[:40])
def test_loads_is_json_loads_on_json_and_a_validation_error_otherwise(
    path: str, text: str | bytes
) -> None:
    ours, theirs = _typed(_outcome(rt.loads, text)), _typed(_outcome(json.loads, text))
    not_json = theirs[0] == "value" and (
        (isinstance(text, str) and text in NOT_JSON)
        or _repeats_a_key(bytes(text) if isinstance(text, bytearray) else text)
    )
    if theirs[0] == "value" and not not_json:
        assert ours == theirs
    else:
        assert ours[0] == "ValidationError", ours


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: repr(t)[:40])
def test_loads_gives_the_same_on_both_paths(text: str | bytes) -> None:
    """Values, types and error messages alike: wherever orjson reads otherwise, the standard
    path decides."""
    outcomes = []
    for p in JSON_PATHS:
        with json_path(rt, p):
            outcomes.append(_typed(_outcome(rt.loads, text)))
    assert outcomes[0] == outcomes[1]


def _cyclic() -> list[object]:
    a: list[object] = [1]
    a.append({"b": a})
    return a


def _standard(value: object) -> str:
    """json.dumps, compact and UTF-8; a lone surrogate makes it escape everything (`\\ud800`:
    raw, the text would not encode as UTF-8)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"))
    return text


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
    # where orjson writes otherwise or refuses: floats of 1e-9 <= |x| < 1e-4 (`0.00001`, `1e-7`),
    # integers beyond 64 bits, lone surrogates, nesting past 254 levels; strings that look so
    [1e-5, -1.5e-7, 9.99e-5, 1e-9, 1e-10, 1e-4, 1e16, -1.5e300, 5e-324, 0.1, 100000.00001],
    [2**64, -(2**63) - 1, 2**64 - 1, -(2**63)],
    {"s": "\ud800", "t": "é"},
    json.loads("[" * 255 + "]" * 255),
    ["e-5", "0.00001", "1e-7", "x1e-7y", "type-1", "e+", "1e+16"],
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
def test_dumps_is_json_dumps_on_json_and_a_validation_error_otherwise(
    path: str, value: object
) -> None:
    """`checked` (the value passed the validators: exact JSON types) lets the accelerated path
    write it; the text is the same."""
    assert rt._UNCHECKED is not None, "the C encoder is expected on CPython"
    for checked in (False, True) if rt.is_json(value) else (False,):
        ours = _outcome(lambda v, c=checked: rt.dumps(v, "JSON", c), value)
        if _is_json(value):
            assert ours == _outcome(_standard, value)
        else:
            assert ours[0] == "ValidationError", ours


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_dumps_gives_the_same_on_both_paths(value: object) -> None:
    outcomes = []
    for p in JSON_PATHS:
        with json_path(rt, p):
            outcomes.append(_outcome(lambda v: rt.dumps(v, "JSON", rt.is_json(v)), value))
    assert outcomes[0] == outcomes[1]


def test_dumps_of_checked_values_holding_what_the_validators_do_not_walk() -> None:
    """`checked` values may still hold NaN or infinity in undeclared members and inside JSON
    Schema payloads (not walked): orjson writes `null` for them, the check sees it and the
    standard path refuses them, on both paths alike. An Enum or UUID object there (mypy rejects
    it: not a JSON value) is the one documented difference: orjson writes its value."""
    import enum
    import uuid

    for value in ({"a": math.nan}, {"a": [1, {"b": math.inf}]}, [None, -math.inf]):
        outcomes = []
        for p in JSON_PATHS:
            with json_path(rt, p):
                outcomes.append(_outcome(lambda v: rt.dumps(v, "JSON", True), value))
        assert outcomes[0] == outcomes[1] and outcomes[0][0] == "ValidationError", outcomes
    for odd, text in (
        (enum.Enum("E", {"A": "a"}).A, '["a"]'),
        (uuid.UUID(int=1), f'["{uuid.UUID(int=1)}"]'),
    ):
        with json_path(rt, "orjson"):
            assert rt.dumps([odd], "JSON", True) == text
        with json_path(rt, "stdlib"), pytest.raises(rt.ValidationError, match="not a JSON value"):
            rt.dumps([odd], "JSON", True)


def test_orjson_text_is_read_back_only_for_a_null_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """orjson writes NaN as `null`, so its text is read back where it has a null value; a
    `null` inside a string (a JSON Schema's `"type":"null"`, a description) is not one."""
    with json_path(rt, "orjson"):
        reads: list[bytes] = []
        loads = rt._ORJSON.loads

        def counted(data: bytes) -> Any:
            reads.append(data)
            return loads(data)

        monkeypatch.setattr(rt, "_ORJSON", rt._ORJSON._replace(loads=counted))
        schema = {"type": "null", "description": "nullable, or null", "enum": ["null"]}
        assert rt.dumps(schema, "JSON", True) == _standard(schema) and reads == []
        for value in ({"a": None}, [None], None, {"s": "null", "b": [1, None]}):
            reads.clear()
            assert rt.dumps(value, "JSON", True) == _standard(value) and len(reads) == 1
        with pytest.raises(rt.ValidationError, match="not JSON"):
            rt.dumps({"s": "null", "b": math.nan}, "JSON", True)


def test_dumps_of_a_cycle_is_a_located_validation_error() -> None:
    with pytest.raises(rt.ValidationError, match="nested deeper than 256 levels") as info:
        rt.dumps(_cyclic())
    assert info.value.errors[0].path.startswith("$[1].b[1].b[1].b")


def _floats(n: int) -> list[float]:
    """Random doubles (random bits) and decimal ones at every exponent."""
    rnd = random.Random(28)
    out = [struct.unpack("<d", rnd.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(n)]
    out += [float(f"{m}e{e}") for e in range(-324, 309) for m in (1, 1.5, 9.999999999999999)]
    return [x for x in out if math.isfinite(x)]


def test_orjson_writes_and_reads_every_float_as_the_standard_path() -> None:
    """orjson spells floats as Python does except for 1e-9 <= |x| < 1e-4, exactly where the
    check sends them to the standard path; it reads every spelling to the same float, except
    that the check rereads values holding floats of 1e16 and more (what integers beyond 64 bits
    become: `e+`) unless the text is exactly what orjson writes back."""
    with json_path(rt, "orjson"):
        for x in _floats(10_000):
            fast = rt._fast_dumps(rt._ORJSON, [x])
            assert (fast is None) == (1e-9 <= abs(x) < 1e-4), x
            assert rt.dumps([x], "JSON", True) == _standard([x])
            for text in (repr(x), f"{x:.17e}", f"{x:.17g}", f"{x:E}"):
                value = rt._fast_loads(rt._ORJSON, f"[{text}]")
                if value is rt._REREAD:  # (the text orjson writes back is taken as it is)
                    assert abs(float(text)) >= 1e16, text
                assert repr(rt.loads(f"[{text}]")) == repr(json.loads(f"[{text}]"))


def test_orjson_is_used_only_where_it_gives_the_same_and_the_environment_turns_it_off() -> None:
    """`MCP_BINDINGS_JSON`: unset or `auto` use orjson when importable, `stdlib` never,
    `orjson` requires it; any other value, and `orjson` without it, stop the import."""
    script = (
        "import importlib.util, sys\n"
        "if sys.argv[1] == 'missing': sys.modules['orjson'] = None\n"
        f"spec = importlib.util.spec_from_file_location('rt', {str(rt.__file__)!r})\n"
        "m = importlib.util.module_from_spec(spec); sys.modules['rt'] = m\n"
        "spec.loader.exec_module(m); print(m.json_backend())\n"
    )

    def run(env_value: str | None, orjson: str = "present") -> str:
        env = {k: v for k, v in os.environ.items() if k != "MCP_BINDINGS_JSON"}
        if env_value is not None:
            env["MCP_BINDINGS_JSON"] = env_value
        argv = [sys.executable, "-c", script, orjson]
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
        return proc.stdout.strip() or proc.stderr.strip().splitlines()[-1]

    assert run(None) == run("auto") == run(" ORJSON ") == "orjson"
    assert run("stdlib") == run("stdlib", "missing") == run(None, "missing") == "stdlib"
    assert run("orjson", "missing") == (
        "ImportError: MCP_BINDINGS_JSON=orjson, but orjson is not installed"
    )
    assert run("simdjson").startswith("ImportError: MCP_BINDINGS_JSON='simdjson': expected")


def test_an_orjson_that_writes_otherwise_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    class Other:  # writes floats the JavaScript way
        OPT_PASSTHROUGH_SUBCLASS = OPT_PASSTHROUGH_DATACLASS = OPT_PASSTHROUGH_DATETIME = 0
        loads = staticmethod(json.loads)

        @staticmethod
        def dumps(value: object, option: int = 0) -> bytes:
            return _standard(value).replace("e+", "e").encode()

    monkeypatch.setattr(rt.importlib, "import_module", lambda name: Other)
    monkeypatch.delenv("MCP_BINDINGS_JSON", raising=False)
    assert rt._accelerator() is None
    monkeypatch.setenv("MCP_BINDINGS_JSON", "orjson")
    with pytest.raises(ImportError, match="reads or writes unlike json"):
        rt._accelerator()


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


def _nest(levels: int, shape: str, inner: object) -> object:
    """`inner` inside `levels` containers: objects, arrays, or the two alternating."""
    value = inner
    for n in range(levels):
        as_dict = shape == "dict" or (shape == "mixed" and n % 2 == 0)
        value = {"k": value, "s": "x"} if as_dict else [1.5, value]
    return value


@pytest.mark.parametrize("shape", ["dict", "list", "mixed"])
def test_json_walks_keep_the_depth_limit_across_their_hand_off(shape: str) -> None:
    """`is_json` (and so the validators' `json_members`) and the encoders' `_is_plain` recurse
    through the first levels and walk a stack below: at MAX_DEPTH levels of containers a value
    is JSON, one more is not (an empty container one deeper still is), and a non-JSON leaf or
    NaN is found at any depth; `dumps` agrees."""
    limit = rt.MAX_DEPTH
    for levels, leaf, ok in [
        (limit, 1, True),
        (limit + 1, 1, False),
        (limit, {}, True),
        (limit + 1, [], False),
        (3, b"x", False),
        (12, math.nan, False),
        (limit - 1, {1: 2}, False),
    ]:
        value = _nest(levels, shape, leaf)
        assert rt.is_json(value) is ok, (levels, leaf)
        assert (rt.not_json(value) is None) is ok, (levels, leaf)
    for levels in (2, 9, limit - 1, limit, limit + 1):  # plain: exact types, depth included
        value = _nest(levels, shape, [1])
        assert (rt.plain(value) is value) is (levels < limit), levels
