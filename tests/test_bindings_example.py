"""The generated bindings of the example protocol (schemas/example): dataclasses, codec and
validators behave as issue #3 says — exact round trips with unknown keys, absent vs null, JSON
number rules, discriminated and shape-decoded unions, located errors, only `ValidationError` on
bad input, deep nesting and huge arrays handled."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bindings_support import REPO, generate_file
from cpu_cost import cpu_seconds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

V1 = REPO / "schemas" / "example" / "v1" / "schema.ts"
V2 = REPO / "schemas" / "example" / "v2" / "schema.ts"


@pytest.fixture(scope="module")
def wcp(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return generate_file(V1, tmp_path_factory.mktemp("wcp1"), "wcp_v1")


@pytest.fixture(scope="module")
def wcp2(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return generate_file(V2, tmp_path_factory.mktemp("wcp2"), "wcp_v2")


WIDGET: dict[str, Any] = {
    "name": "volume",
    "title": "Volume",
    "id": "volume",
    "kind": "slider",
    "version": 3,
    "value": 0.5,
    "class": "big",
    "io.example/related": ["mute"],
    "labels": {"room": "kitchen"},
    "settings": {"layout": {"grid": {"columns": 2, "rows": 1}, "x-future": [1]}},
    "annotations": {"priority": 0.25, "readOnlyHint": False},
    "_meta": {"io.example/owner": {"anything": [None, 1.5]}},
    "x-unknown": {"kept": True},
}

# Valid v1 messages, by type: each must decode to the right class and encode back exactly.
VALID: list[tuple[str, Any]] = [
    ("InitializeRequest", {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"protocolVersion": "1.0",
                                      "clientInfo": {"name": "c", "version": "1", "x": 1},
                                      "_meta": {"progressToken": "t", "other": [1, 2]}}}),
    ("ListWidgetsResult", {"widgets": [WIDGET, {"name": "b", "id": "b", "kind": "button",
                                                "version": 1.0}], "nextCursor": "c2"}),
    ("GetWidgetResult", {"widget": WIDGET,
                         "actions": [{"name": "reset", "inputSchema": {
                             "type": "object", "properties": {"force": {"type": "boolean"}},
                             "required": ["force"]}, "layoutVersion": 2}],
                         "content": [{"type": "text", "text": "hi"},
                                     {"type": "image", "data": "AAAA", "mimeType": "image/png"}]}),
    ("FocusChangedNotification", {"jsonrpc": "2.0", "method": "notifications/focus_changed",
                                  "params": {"from": None, "to": "volume"}}),
    ("WidgetLockedError", {"jsonrpc": "2.0", "id": "r1",
                           "error": {"code": -32010, "message": "locked",
                                     "data": {"holder": "bob", "until": "2030-01-01T00:00:00Z",
                                              "reason": "maintenance"}}}),
    ("GaugeWidget", {"name": "g", "id": "g", "kind": "gauge", "version": 0,
                     "thresholds": {"low": 1, "high": 9.5}}),
    ("ButtonWidget", {"name": "b", "id": "b", "kind": "button", "version": 2, "pressed": True}),
    ("RangedGauge", {"name": "g", "id": "g", "kind": "gauge", "version": 0,
                     "thresholds": {"low": 1, "high": 2}, "from": -1, "to": 1e300}),
    ("JSONValue", {"a": [1, 2.5, None, True, "s", {"b": []}]}),
    ("ClientRequest", {"jsonrpc": "2.0", "id": 7, "method": "widgets/update",
                       "params": {"id": "volume", "value": 1}}),
    ("ServerResult", {"widget": WIDGET}),
    ("ServerResult", {}),
    ("JSONRPCMessage", {"jsonrpc": "2.0", "id": 3, "method": "ping"}),
    ("JSONRPCMessage", {"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ("JSONRPCMessage", {"jsonrpc": "2.0", "id": 3, "result": {"confirmed": True}}),
    ("WidgetContent", {"type": "chart", "series": [1, 2, 3]}),
    ("ProgressNotification", {"jsonrpc": "2.0", "method": "notifications/progress",
                              "params": {"progressToken": 5, "progress": 0.5, "total": 1}}),
]  # fmt: skip


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON text (so True and 1, or 1 and 1.0, are not confused)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize(
    ("type_name", "value"), VALID, ids=[f"{t}-{i}" for i, (t, _) in enumerate(VALID)]
)
def test_valid_values_round_trip_exactly(wcp: ModuleType, type_name: str, value: Any) -> None:
    original = copy.deepcopy(value)
    assert wcp.is_valid(type_name, value), wcp.errors(type_name, value)
    assert getattr(wcp.validators, f"is_{type_name}")(value)
    obj = wcp.decode(type_name, value)
    assert _same(wcp.encode(obj), original)
    assert _same(value, original), "decoding must not change its input"


def test_decode_picks_classes(wcp: ModuleType) -> None:
    assert type(wcp.decode("ClientRequest", VALID[9][1])) is wcp.UpdateWidgetRequest
    assert type(wcp.decode("WidgetContent", VALID[15][1])) is wcp.ChartContent
    assert type(wcp.decode("ServerResult", {"widget": WIDGET})) is wcp.UpdateWidgetResult
    assert type(wcp.decode("ServerResult", {"granted": True})) is wcp.LockWidgetResult
    assert type(wcp.decode("ServerResult", {})) is wcp.Result
    assert type(wcp.decode("JSONRPCMessage", VALID[12][1])) is wcp.JSONRPCRequest
    assert type(wcp.decode("JSONRPCMessage", VALID[13][1])) is wcp.JSONRPCNotification
    content = wcp.decode("GetWidgetResult", VALID[2][1]).content
    assert [type(c) for c in content] == [wcp.TextContent, wcp.ImageContent]


def test_classes_and_attributes(wcp: ModuleType) -> None:
    widget = wcp.Widget.from_dict(WIDGET)
    assert isinstance(widget, wcp.Widget)
    assert dataclasses.is_dataclass(widget) and not hasattr(widget, "__dict__")  # slots
    assert widget.class_ == "big"  # a keyword gets a trailing underscore
    assert widget.io_example_related == ["mute"]
    assert widget.meta == WIDGET["_meta"]  # `_meta` -> `meta`
    assert widget.extra == {"x-unknown": {"kept": True}}
    assert widget.settings.layout.extra == {"x-future": [1]}
    assert widget.description if False else widget.tags is wcp.UNSET
    assert _same(widget.to_dict(), WIDGET)
    action = wcp.decode("GetWidgetResult", VALID[2][1]).actions[0]
    assert action.input_schema["type"] == "object"  # a JSON Schema payload stays a dict
    fields = [f.name for f in dataclasses.fields(wcp.Widget)]
    assert fields[:4] == ["name", "title", "annotations", "id"]  # schema order
    assert fields[-1] == "extra"
    with pytest.raises(TypeError):
        wcp.Widget("volume")  # keyword-only


def test_constants_and_aliases(wcp: ModuleType, wcp2: ModuleType) -> None:
    assert wcp.LATEST_PROTOCOL_VERSION == "1.0" and wcp2.LATEST_PROTOCOL_VERSION == "2.0"
    assert wcp.WIDGET_LOCKED == -32010 and wcp2.WIDGET_LOCKED == -32011
    assert wcp.MAX_PAGE_SIZE == 50
    assert wcp.EmptyResult is wcp.Result


def test_absent_and_null_are_distinct(wcp2: ModuleType) -> None:
    # v2: UpdateWidgetRequestParams.value is `number | null` (required, nullable)
    params = wcp2.decode("UpdateWidgetRequestParams", {"id": "a", "value": None})
    assert params.value is None and params.note is wcp2.UNSET
    assert wcp2.encode(params) == {"id": "a", "value": None}
    assert not wcp2.is_valid("UpdateWidgetRequestParams", {"id": "a"})
    # v2: Implementation.version became optional: absent stays absent, null is not allowed
    impl = wcp2.Implementation.from_dict({"name": "n"})
    assert impl.version is wcp2.UNSET and impl.to_dict() == {"name": "n"}
    assert not wcp2.is_valid("Implementation", {"name": "n", "version": None})


@pytest.mark.parametrize(
    ("value", "ok"),
    [(1, True), (-2.5, True), (10**30, True), (True, False), (False, False), (None, False),
     ("1", False), (math.nan, False), (math.inf, False), (-math.inf, False)],
)  # fmt: skip
def test_number_accepts_json_numbers_only(wcp: ModuleType, value: Any, ok: bool) -> None:
    assert wcp.is_valid("Widget", {**WIDGET, "value": value}) is ok


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        (3, True),
        (3.0, True),
        (0, True),
        (3.5, False),
        (-1, False),
        (True, False),
        (math.nan, False),
    ],
)
def test_integer_with_minimum(wcp: ModuleType, value: Any, ok: bool) -> None:
    assert (
        wcp.is_valid("Widget", {**WIDGET, "version": value}) is ok
    )  # @TJS-type integer, @minimum 0


def test_literals_constraints_and_patterns(wcp: ModuleType) -> None:
    assert not wcp.is_valid("Widget", {**WIDGET, "kind": "Slider"})
    assert not wcp.is_valid("Widget", {**WIDGET, "id": "Volume"})  # @TJS-pattern ^[a-z]+$
    assert not wcp.is_valid("WidgetAnnotations", {"priority": 1.5})  # @maximum 1
    assert wcp.is_valid("WidgetAnnotations", {"priority": 1})
    content = VALID[2][1]["content"]
    assert not wcp.is_valid(
        "GetWidgetResult", {**VALID[2][1], "content": content * 2}
    )  # @maxItems 3
    assert not wcp.is_valid("ButtonWidget", {**VALID[6][1], "pressed": False})  # literal true
    assert not wcp.is_valid("ButtonWidget", {**VALID[6][1], "value": 1})  # `value?: never`
    assert not wcp.is_valid(
        "WidgetAction", {"name": "a", "inputSchema": {"type": "object"}, "layoutVersion": 3}
    )
    assert not wcp.is_valid(
        "WidgetAction", {"name": "a", "inputSchema": {"type": "object"}, "layoutVersion": True}
    )
    assert not wcp.is_valid("GaugeWidget", {**VALID[5][1], "thresholds": {"low": 1}})  # Record keys
    assert not wcp.is_valid(
        "WidgetLockedError", {**VALID[4][1], "error": {"code": -1, "message": "m"}}
    )


def test_errors_carry_paths_and_messages(wcp: ModuleType) -> None:
    bad = copy.deepcopy(VALID[0][1])
    bad["params"]["clientInfo"]["name"] = 5
    del bad["params"]["protocolVersion"]
    bad["id"] = True
    with pytest.raises(wcp.ValidationError) as info:
        wcp.decode(wcp.InitializeRequest, bad)
    found = {(e.path, e.message) for e in info.value.errors}
    assert ("$.id", "expected RequestId (string | number), got true") in found
    assert ("$.params.clientInfo.name", "expected string, got integer 5") in found
    assert ("$.params.protocolVersion", "required property missing (expected string)") in found
    assert isinstance(info.value, ValueError)
    assert "$.params.clientInfo.name" in str(info.value)

    bad = copy.deepcopy(VALID[2][1])
    bad["content"][1]["type"] = "video"
    bad["widget"]["io.example/related"] = ["ok", 3]
    errors = {(e.path, e.message) for e in wcp.errors("GetWidgetResult", bad)}
    assert ('$.widget["io.example/related"][1]', "expected string, got integer 3") in errors
    # every member of the (inline) union refuses the tag: the union is named, not one member
    message = 'expected TextContent | ImageContent, got string "video"'
    assert ("$.content[1].type", message) in errors

    errors = wcp.errors("ClientRequest", {"jsonrpc": "2.0", "id": 1, "method": "nope"})
    assert [e.path for e in errors] == ["$.method"]
    assert "expected one of" in errors[0].message and '"nope"' in errors[0].message
    assert wcp.errors("ClientRequest", VALID[9][1]) == []


def test_unknown_type_names(wcp: ModuleType) -> None:
    with pytest.raises(LookupError):
        wcp.validate("NoSuchType", {})
    with pytest.raises(LookupError):
        wcp.decode("NoSuchType", {})


def test_encode_rejects_what_is_not_json(wcp: ModuleType) -> None:
    with pytest.raises(wcp.ValidationError):
        wcp.encode({1, 2})
    assert wcp.encode([wcp.TextContent(type_="text", text="t")]) == [{"type": "text", "text": "t"}]


def test_deep_nesting_is_a_validation_error(wcp: ModuleType) -> None:
    deep: Any = "leaf"
    for _ in range(100_000):
        deep = [deep]
    assert not wcp.is_valid("JSONValue", deep)
    with pytest.raises(wcp.ValidationError) as info:
        wcp.validate("JSONValue", deep)
    assert "nested deeper than" in str(info.value)
    with pytest.raises(wcp.ValidationError):
        wcp.decode("JSONValue", deep)
    deep_obj: Any = {}
    for _ in range(100_000):
        deep_obj = {"k": deep_obj}
    with pytest.raises(wcp.ValidationError):
        wcp.decode("HostCapabilities", {"experimental": {"x": deep_obj}})
    shallow: Any = 1
    for _ in range(100):
        shallow = {"k": [shallow]}
    assert wcp.is_valid("JSONValue", shallow)


@pytest.mark.slow
def test_large_arrays_take_linear_time(wcp: ModuleType) -> None:
    def params(n: int) -> dict[str, Any]:
        return {"kinds": ["button"] * n}

    small, big = params(100_000), params(1_000_000)
    assert wcp.is_valid("ListWidgetsRequestParams", big)
    # 10x the items: linear costs ~10x, quadratic ~100x. Only costs of the same run are compared.
    cost_small = cpu_seconds(lambda: wcp.is_valid("ListWidgetsRequestParams", small), repeat=3)
    cost_big = cpu_seconds(lambda: wcp.is_valid("ListWidgetsRequestParams", big), repeat=3)
    assert cost_big / cost_small < 30, (cost_small, cost_big)
    assert len(wcp.decode("ListWidgetsRequestParams", big).kinds) == 1_000_000
    # One bad item at the end costs about as much as none: the errors pass is linear too.
    bad = {"kinds": ["button"] * 999_999 + ["nope"]}
    cost_bad = cpu_seconds(lambda: wcp.errors("ListWidgetsRequestParams", bad), repeat=3)
    assert [e.path for e in wcp.errors("ListWidgetsRequestParams", bad)] == ["$.kinds[999999]"]
    assert cost_bad / cost_big < 30, (cost_big, cost_bad)


# -- only ValidationError on bad input ------------------------------------------------------------

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5) | st.sampled_from(["2.0", "text", "image", "button", "ping", "initialize"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "name", "kind", "type", "method", "params", "jsonrpc",
                                       "version", "widget", "_meta", "x", "from", "to"]), inner, max_size=6),
    max_leaves=25,
)  # fmt: skip


@settings(
    max_examples=150,
    deadline=None,  # no wall-clock limits: the machine may be loaded
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(value=JSONISH, data=st.data())
@pytest.mark.slow
def test_bad_input_raises_only_validation_error(
    wcp: ModuleType, value: Any, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(wcp.validators.TYPES)))
    ok = wcp.is_valid(name, value)
    errors = wcp.errors(name, value)
    assert ok == (not errors)
    try:
        obj = wcp.decode(name, value)
    except wcp.ValidationError as err:
        # The fast checks leave undeclared members to the decoder, which refuses those that are
        # not JSON (NaN, infinity): the one case where a valid-checked value does not decode.
        assert not ok or wcp._runtime.not_json(value) is not None
        assert err.errors and all(e.path.startswith("$") for e in err.errors)
    else:
        assert ok and _same(wcp.encode(obj), value)


@pytest.mark.parametrize(
    "junk", [object(), {1: 2}, {"name": b"x"}, float("nan"), [set()], {"widgets": range(3)}]
)
def test_non_json_values_are_rejected_cleanly(wcp: ModuleType, junk: Any) -> None:
    for name in wcp.validators.TYPES:
        try:
            wcp.decode(name, junk)
        except wcp.ValidationError:
            pass


def test_generated_sources_compile_and_are_documented() -> None:
    pkg = REPO / "generated" / "example_v1"
    if not (pkg / "models.py").exists():
        pytest.skip("golden package not generated yet")
    text = (pkg / "models.py").read_text(encoding="utf-8")
    assert '"""A single control on a widget board.' in text
    assert "Deprecated: Use Widget.color instead." in text
    assert "sha256" in text.splitlines()[0] and "/work/" not in text
    for path in sorted(Path(pkg).glob("*.py")):
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
