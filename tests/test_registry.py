"""The generated method registry (registry.py, issue #4) on the example protocol and on two small
inline schemas (the 2024 style, where messages extend `Request` and the JSON-RPC envelope is
separate, with batches and a task-augmented request; and the 2026 style, with requests carried
inside an input-required result and an explicit `XResultResponse`): the table, parse_message /
parse_result / encode round trips, exact error messages, only `ValidationError` on bad input,
and mypy --strict and ruff on the output (with a typed client). The cross-version tables are
the distribution's (tests/test_distribution.py).

The official versions are in tests/test_registry_official.py.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bindings_support import (
    REPO,
    generate_text,
    import_package,
    mypy_strict,
    ruff_check,
    unformatted,
    write_package,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_schemas import instance as random_instance

from codegen import ir
from codegen.analysis.methods import method_model
from codegen.pipeline import load, load_text
from codegen.targets.python.bindings import render_package

V1 = REPO / "schemas" / "example" / "v1" / "schema.ts"
V2 = REPO / "schemas" / "example" / "v2" / "schema.ts"

# A 2024-style protocol: messages extend Request/Notification, the envelope is separate,
# JSONRPCMessage has a batch member, `call` is task-augmented (CreateTaskResult instead).
OLD_STYLE = """
export const LATEST_PROTOCOL_VERSION = "2024-01-01";
export const JSONRPC_VERSION = "2.0";
export type RequestId = string | number;
export type JSONRPCMessage =
  | JSONRPCRequest | JSONRPCNotification | JSONRPCBatchRequest | JSONRPCResponse | JSONRPCError;
export type JSONRPCBatchRequest = (JSONRPCRequest | JSONRPCNotification)[];
export interface Request { method: string; params?: { [key: string]: unknown }; }
export interface Notification { method: string; params?: { [key: string]: unknown }; }
export interface Result { _meta?: { [key: string]: unknown }; [key: string]: unknown; }
export type EmptyResult = Result;
export interface JSONRPCRequest extends Request { jsonrpc: typeof JSONRPC_VERSION; id: RequestId; }
export interface JSONRPCNotification extends Notification { jsonrpc: typeof JSONRPC_VERSION; }
export interface JSONRPCResponse { jsonrpc: typeof JSONRPC_VERSION; id: RequestId; result: Result; }
export interface JSONRPCError {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  error: { code: number; message: string; data?: unknown };
}
export interface TaskAugmentedRequestParams { task?: { ttl?: number }; }
export interface CallRequestParams extends TaskAugmentedRequestParams { name: string; }
export interface CallRequest extends Request { method: "call"; params: CallRequestParams; }
export interface CallResult extends Result { value: string; count: number; }
export interface CreateTaskResult extends Result { task: { id: string }; }
export interface PingRequest extends Request { method: "ping"; }
export interface AskRequest extends Request { method: "ask"; params: { question: string }; }
export interface AskResult extends Result { answer: string; }
export interface TickNotification extends Notification { method: "tick"; params: { n: number }; }
export interface ByeNotification extends Notification { method: "bye"; }
export type ClientRequest = PingRequest | CallRequest;
export type ServerRequest = PingRequest | AskRequest;
export type ClientNotification = TickNotification | ByeNotification;
export type ServerNotification = TickNotification;
export type ClientResult = EmptyResult | AskResult;
export type ServerResult = EmptyResult | CallResult;
"""

# A 2026-style protocol: no ServerRequest; `roots/list` travels inside an InputRequiredResult;
# `tools/call` has an explicit response type whose result may be the InputRequiredResult.
NEW_STYLE = """
export const LATEST_PROTOCOL_VERSION = "2026-01-01";
export const JSONRPC_VERSION = "2.0";
export type RequestId = string | number;
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;
export interface Request { method: string; params?: { [key: string]: any }; }
export interface Notification { method: string; params?: { [key: string]: any }; }
export interface Result { resultType?: string; [key: string]: unknown; }
export type EmptyResult = Result;
export interface JSONRPCRequest extends Request { jsonrpc: typeof JSONRPC_VERSION; id: RequestId; }
export interface JSONRPCNotification extends Notification { jsonrpc: typeof JSONRPC_VERSION; }
export interface JSONRPCResultResponse { jsonrpc: typeof JSONRPC_VERSION; id: RequestId; result: Result; }
export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id?: RequestId;
  error: { code: number; message: string };
}
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
export type InputRequest = ListRootsRequest;
export type InputResponse = ListRootsResult;
export interface InputRequiredResult extends Result {
  resultType: "input_required";
  inputRequests?: { [key: string]: InputRequest };
}
/** @category `roots/list` */
export interface ListRootsRequest { method: "roots/list"; params?: { cursor?: string }; }
/** @category `roots/list` */
export interface ListRootsResult extends Result { roots: string[]; }
/** @category `tools/call` */
export interface CallToolRequest extends JSONRPCRequest {
  method: "tools/call";
  params: { name: string };
}
/** @category `tools/call` */
export interface CallToolResult extends Result { content: string[]; }
/** @category `tools/call` */
export interface CallToolResultResponse extends JSONRPCResultResponse {
  result: CallToolResult | InputRequiredResult;
}
export interface CancelledNotification extends JSONRPCNotification {
  method: "notifications/cancelled";
  params: { requestId: RequestId };
}
export type ClientRequest = CallToolRequest;
export type ClientNotification = CancelledNotification;
export type ServerNotification = CancelledNotification;
export type ClientResult = EmptyResult;
export type ServerResult = EmptyResult | CallToolResult | InputRequiredResult;
"""

# No methods, no JSON-RPC types, no protocol version: the registry is empty but works.
NONE = "export interface Thing { name: string; }\n"

# Hostile text where the registry writes it: method strings and the protocol version.
HOSTILE = r"""
export const LATEST_PROTOCOL_VERSION = "1\"\"\" ; raise SystemExit #";
export interface Result { [key: string]: unknown; }
export type EmptyResult = Result;
export interface WeirdRequest { method: "a\"b'c\\d\n{{ x }}{% y %}#"; params?: { "x-y": string }; }
export interface OddNotification { method: "é/名前\u2028"; }
export type ClientRequest = WeirdRequest;
export type ServerNotification = OddNotification;
export type ServerResult = EmptyResult;
"""
WEIRD = "a\"b'c\\d\n{{ x }}{% y %}#"

SOURCES = {"v1": V1, "v2": V2}
TEXTS = {"old": OLD_STYLE, "new": NEW_STYLE, "none": NONE, "hostile": HOSTILE}


def same_json(a: object, b: object) -> bool:
    """JSON equality that keeps true and 1 apart."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def resolved(name: str) -> ir.Resolved:
    if name in SOURCES:
        return load(str(SOURCES[name]))
    return load_text(TEXTS[name], f"reg_{name}.ts")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every package of this module, generated once: reg_v1, reg_v2, reg_old, reg_new, reg_none."""
    out = tmp_path_factory.mktemp("registry")
    for name in [*SOURCES, *TEXTS]:
        write_package(unformatted(resolved(name)), out, f"reg_{name}")
    return out


@pytest.fixture(scope="module")
def reg(root: Path) -> dict[str, ModuleType]:
    """name -> the generated registry module."""
    out = {}
    for name in [*SOURCES, *TEXTS]:
        import_package(root, f"reg_{name}")
        out[name] = importlib.import_module(f"reg_{name}.registry")
    return out


# -- the table ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*SOURCES, *TEXTS])
def test_table_is_the_method_model(reg: dict[str, ModuleType], name: str) -> None:
    r = reg[name]
    models = importlib.import_module(f"reg_{name}.models")
    model = method_model(resolved(name))
    assert list(r.METHODS) == [m.method for m in model.methods]
    assert r.PROTOCOL_VERSION == model.protocol_version
    for m in model.methods:
        info = r.METHODS[m.method]
        assert (info.method, info.kind, info.direction, info.via, info.message_type, info.params_type,
                info.params_optional, info.result_type, info.alt_result_types) == (
            m.method, m.kind, m.direction, m.via, m.type_name, m.params_type, m.params_optional,
            m.result_type, m.alt_result_types)  # fmt: skip
        assert info.result_types == m.result_types
        assert info.message_class is getattr(models, m.type_name)
        assert (info.params_class is None) == (m.params_type is None)
        assert len(info.alt_result_classes) == len(m.alt_result_types)


def test_table_details(reg: dict[str, ModuleType]) -> None:
    v2, old, new = reg["v2"], reg["old"], reg["new"]
    m2 = importlib.import_module("reg_v2.models")
    info = v2.METHODS["widgets/get"]
    assert info == v2.MethodInfo(
        method="widgets/get", kind="request", direction="client_to_server", via="jsonrpc",
        message_type="GetWidgetRequest", message_class=m2.GetWidgetRequest,
        params_type="GetWidgetRequestParams", params_class=m2.GetWidgetRequestParams,
        params_optional=False, result_type="GetWidgetResult", result_class=m2.GetWidgetResult,
        alt_result_types=(), alt_result_classes=(),
    )  # fmt: skip
    assert v2.METHODS["widgets/watch"].result_type == "EmptyResult"
    assert v2.METHODS["widgets/watch"].result_class is m2.Result  # EmptyResult is Result
    assert v2.METHODS["notifications/progress"].direction == "both"
    assert v2.METHODS["notifications/progress"].result_class is None
    mo = importlib.import_module("reg_old.models")
    assert old.METHODS["call"].alt_result_types == ("CreateTaskResult",)
    assert old.METHODS["call"].alt_result_classes == (mo.CreateTaskResult,)
    assert old.METHODS["ask"].params_class is mo.AskRequestParams  # an inline object's class
    # inherited from Request: `{ [key: string]: unknown }` has no class, it decodes to a dict
    assert (old.METHODS["ping"].params_type, old.METHODS["ping"].params_class) == (
        "RequestParams",
        dict,
    )
    mn = importlib.import_module("reg_new.models")
    assert new.METHODS["roots/list"].via == "input_required"
    assert new.METHODS["roots/list"].direction == "server_to_client"
    assert new.METHODS["tools/call"].result_types == ("CallToolResult", "InputRequiredResult")
    assert new.METHODS["tools/call"].alt_result_classes == (mn.InputRequiredResult,)
    with pytest.raises(TypeError):
        v2.METHODS["x"] = info  # read-only


# -- round trips ----------------------------------------------------------------------------------

# (package, message): each must parse and encode back identically
MESSAGES: list[tuple[str, dict[str, Any]]] = [
    ("v2", {"jsonrpc": "2.0", "id": 1, "method": "widgets/get", "params": {"id": "abc", "x": [1]}}),
    ("v2", {"jsonrpc": "2.0", "id": "p", "method": "ping"}),
    ("v2", {"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 3, "progress": 0.5, "total": 1}}),
    ("v2", {"jsonrpc": "2.0", "id": 1, "result": {"widget": {"id": "a"}, "x": True}}),
    ("v2", {"jsonrpc": "2.0", "id": 1, "error": {"code": -32011, "message": "locked",
                                                  "data": {"holder": "bob"}}}),
    ("v2", {"jsonrpc": "2.0", "error": {"code": -32700, "message": "parse error"}}),
    ("old", {"jsonrpc": "2.0", "id": 9, "method": "call",
             "params": {"name": "n", "task": {"ttl": 5}}, "x-extra": 1}),
    ("old", {"jsonrpc": "2.0", "method": "bye"}),
    ("old", {"jsonrpc": "2.0", "id": 9, "result": {}}),
    ("old", {"jsonrpc": "2.0", "id": 9, "error": {"code": 1, "message": "m", "data": None}}),
    ("new", {"method": "roots/list", "params": {"cursor": "c"}}),
    ("new", {"method": "roots/list", "id": "not-an-envelope"}),
    ("new", {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t"}}),
    ("hostile", {"id": 1, "method": WEIRD, "params": {"x-y": "{{ z }}"}}),
    ("hostile", {"method": "é/名前\u2028"}),
    ("new", {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "message"), MESSAGES)
def test_parse_message_round_trip(
    reg: dict[str, ModuleType], name: str, message: dict[str, Any]
) -> None:
    r = reg[name]
    before = copy.deepcopy(message)
    msg = r.parse_message(message)
    assert message == before  # not modified
    assert same_json(r.encode(msg), message)
    assert r.parse_message(r.encode(msg)) == msg
    if "method" in message:
        info = r.METHODS[message["method"]]
        assert (msg.kind, msg.method) == (info.kind, info.method)
        assert isinstance(msg.obj, info.message_class)
        assert msg.id == (message.get("id") if info.via == "jsonrpc" else None)
    else:
        assert msg.kind == ("result" if "result" in message else "error")
        assert msg.method is None and msg.id == message.get("id")


def test_message_classes_and_ids(reg: dict[str, ModuleType]) -> None:
    v2 = reg["v2"]
    m2 = importlib.import_module("reg_v2.models")
    msg = v2.parse_message(
        {"jsonrpc": "2.0", "id": 1, "method": "widgets/get", "params": {"id": "abc"}}
    )
    assert msg == v2.Message("request", "widgets/get", 1, msg.obj)
    assert isinstance(msg.obj, m2.GetWidgetRequest) and msg.obj.params.id == "abc"
    res = v2.parse_message({"jsonrpc": "2.0", "id": "r", "result": {}})
    assert (res.kind, res.method, res.id) == ("result", None, "r")
    assert isinstance(res.obj, m2.JSONRPCResultResponse)
    err = v2.parse_message({"jsonrpc": "2.0", "error": {"code": 1, "message": "m"}})
    assert (err.kind, err.id) == ("error", None) and isinstance(err.obj, m2.JSONRPCErrorResponse)


def test_parse_result(reg: dict[str, ModuleType]) -> None:
    v2, old, new = reg["v2"], reg["old"], reg["new"]
    m2 = importlib.import_module("reg_v2.models")
    widget = {"id": "a", "name": "a", "kind": "button", "version": 1}
    value = {"widget": widget, "actions": [], "content": [], "x-more": 1}
    got = v2.parse_result("widgets/get", value)
    assert isinstance(got, m2.GetWidgetResult) and same_json(v2.encode(got), value)
    assert isinstance(v2.parse_result("widgets/watch", {"_meta": {}}), m2.Result)
    # a result Message is accepted too
    msg = v2.parse_message({"jsonrpc": "2.0", "id": 4, "result": value})
    assert v2.parse_result("widgets/get", msg) == got
    # the result class first, then the alternatives
    mo = importlib.import_module("reg_old.models")
    assert isinstance(old.parse_result("call", {"value": "v", "count": 1}), mo.CallResult)
    assert isinstance(old.parse_result("call", {"task": {"id": "t"}}), mo.CreateTaskResult)
    mn = importlib.import_module("reg_new.models")
    assert isinstance(new.parse_result("tools/call", {"content": ["x"]}), mn.CallToolResult)
    assert isinstance(new.parse_result("tools/call", {"resultType": "input_required"}),
                      mn.InputRequiredResult)  # fmt: skip
    assert isinstance(new.parse_result("roots/list", {"roots": []}), mn.ListRootsResult)


def test_encode_adds_the_envelope(reg: dict[str, ModuleType]) -> None:
    old, new = reg["old"], reg["new"]
    mo = importlib.import_module("reg_old.models")
    req = mo.CallRequest(method="call", params=mo.CallRequestParams(name="n"))
    assert old.encode(old.Message("request", "call", 5, req)) == {
        "jsonrpc": "2.0", "id": 5, "method": "call", "params": {"name": "n"}}  # fmt: skip
    assert old.encode(req) == {"method": "call", "params": {"name": "n"}}  # a model object
    note = mo.ByeNotification(method="bye")
    assert old.encode(old.Message("notification", "bye", None, note)) == {
        "jsonrpc": "2.0",
        "method": "bye",
    }
    mn = importlib.import_module("reg_new.models")
    roots = mn.ListRootsRequest(method="roots/list")
    assert new.encode(new.Message("request", "roots/list", None, roots)) == {"method": "roots/list"}


# -- errors ---------------------------------------------------------------------------------------

# (package, value, direction, exception class name, str(exception), error path); for the
# ValidationErrors of the package's validators, whose wording is theirs, the type name instead
# of the text
ERRORS: list[tuple[str, object, str | None, str, str, str]] = [
    ("v2", {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}, None, "UnknownMethodError",
     'unknown method "tools/call" in protocol version 2.0', "$.method"),
    ("v1", {"jsonrpc": "2.0", "id": 1, "method": "widgets/watch"}, None, "UnknownMethodError",
     'unknown method "widgets/watch" in protocol version 1.0', "$.method"),
    ("v2", {"jsonrpc": "2.0", "id": 1, "method": "host/confirm", "params": {"prompt": "?"}},
     "client_to_server", "WrongDirectionError",
     'method "host/confirm" is sent server to client in protocol version 2.0, not client to server',
     "$.method"),
    ("v2", {"jsonrpc": "2.0", "id": 1, "method": "widgets/get", "params": {"id": "a"}},
     "server_to_client", "WrongDirectionError",
     'method "widgets/get" is sent client to server in protocol version 2.0, not server to client',
     "$.method"),
    ("v1", {"jsonrpc": "2.0", "method": "notifications/focus_changed", "params": {"to": "a"}},
     "client_to_server", "WrongDirectionError",
     ('method "notifications/focus_changed" is sent server to client in protocol version 1.0, '
      "not client to server"), "$.method"),
    ("new", {"jsonrpc": "2.0", "id": 1, "method": "roots/list"}, None, "ProtocolError",
     ('"roots/list" travels inside an input-required result in protocol version 2026-01-01, '
      "not as a JSON-RPC message"), "$.jsonrpc"),
    ("new", {"method": "roots/list"}, "client_to_server", "WrongDirectionError",
     'method "roots/list" is sent server to client in protocol version 2026-01-01, not client to server',
     "$.method"),
    ("v2", {"jsonrpc": "2.0", "method": "widgets/get", "params": {"id": "a"}}, None, "ProtocolError",
     '"widgets/get" is a request in protocol version 2.0, but the message has no "id"', "$"),
    ("v2", {"jsonrpc": "2.0", "id": 3, "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 1}}, None, "ProtocolError",
     '"notifications/progress" is a notification in protocol version 2.0, but the message has an "id"',
     "$.id"),
    ("v2", [], None, "ProtocolError", "expected a JSON-RPC message (an object), got array of 0 items", "$"),
    ("v2", "{}", None, "ProtocolError", 'expected a JSON-RPC message (an object), got string "{}"', "$"),
    ("old", [{"jsonrpc": "2.0", "method": "bye"}], None, "ProtocolError",
     "a JSON-RPC batch (1 messages): parse each with parse_message", "$"),
    ("v2", {"jsonrpc": "2.0", "id": 1}, None, "ProtocolError",
     'not a JSON-RPC message: it has no "method", "result" or "error"', "$"),
    ("v2", {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "m"}}, None,
     "ProtocolError", 'a response has "result" or "error", not both', "$"),
    ("v2", {"jsonrpc": "2.0", "id": 1, "method": 7}, None, "ProtocolError",
     '"method" must be a string, got integer 7', "$.method"),
    ("v2", {"jsonrpc": "2.0", "id": 1, "method": ["ping"]}, None, "ProtocolError",
     '"method" must be a string, got array of 1 item', "$.method"),
    ("none", {"jsonrpc": "2.0", "id": 1, "method": "ping"}, None, "UnknownMethodError",
     'unknown method "ping" in the protocol of reg_none.ts', "$.method"),
    ("none", {"jsonrpc": "2.0", "id": 1, "result": {}}, None, "ProtocolError",
     "no JSON-RPC result response type is declared in the protocol of reg_none.ts", "$"),
    ("hostile", {"id": 1, "method": "x" * 100}, None, "UnknownMethodError",
     'unknown method "' + "x" * 35 + '..." in protocol version 1""" ; raise SystemExit #', "$.method"),
    ("hostile", {"id": 1, "method": "é/名前\u2028"}, None, "ProtocolError",
     ('"é/名前\\u2028" is a notification in protocol version 1""" ; raise SystemExit #, but the '
     'message has an "id"'), "$.id"),
    ("v2", {"jsonrpc": "2.0", "id": None, "method": "ping"}, None, "ValidationError",
     "JSONRPCRequest", "$.id"),
    ("v2", {"id": 1, "method": "ping"}, None, "ValidationError",
     "JSONRPCRequest", "$.jsonrpc"),
    ("v2", {"jsonrpc": "2.0", "id": 1, "method": "widgets/get", "params": {}}, None,
     "ValidationError",
     "GetWidgetRequest", "$.params.id"),
    ("old", {"method": "ping", "id": 1}, None, "ValidationError",
     "JSONRPCRequest", "$.jsonrpc"),
    ("old", {"jsonrpc": "2.0", "error": {"code": 1, "message": "m"}}, None, "ValidationError",
     "JSONRPCError", "$.id"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "value", "direction", "exc", "text", "path"), ERRORS)
def test_parse_message_errors(reg: dict[str, ModuleType], name: str, value: object,
                              direction: str | None, exc: str, text: str, path: str) -> None:  # fmt: skip
    r = reg[name]
    with pytest.raises(r.ValidationError) as info:
        r.parse_message(value, direction=direction)
    err = info.value
    assert type(err).__name__ == exc
    assert (str(err) if isinstance(err, r.ProtocolError) else err.type_name) == text
    assert err.errors[0].path == path
    if isinstance(err, r.ProtocolError):
        assert err.protocol_version == r.PROTOCOL_VERSION
        if isinstance(value, dict) and isinstance(value.get("method"), str):
            assert err.method == value["method"]


def test_parse_result_errors(reg: dict[str, ModuleType]) -> None:
    v2, old = reg["v2"], reg["old"]
    cases: list[tuple[ModuleType, object, object, str, str]] = [
        (v2, "tools/call", {}, "UnknownMethodError", 'unknown method "tools/call" in protocol version 2.0'),
        (v2, None, {}, "ProtocolError", '"method" must be a string, got null'),
        (v2, "notifications/progress", {}, "ProtocolError",
         '"notifications/progress" is a notification in protocol version 2.0; it has no result'),
        (v2, "widgets/update", {"widget": 1}, "ValidationError", "UpdateWidgetResult"),
        # neither the result nor its alternative: the errors of the closer one
        (old, "call", {"task": {}}, "ValidationError", "CallResult | CreateTaskResult"),
    ]  # fmt: skip
    for r, method, value, exc, text in cases:
        with pytest.raises(r.ValidationError) as info:
            r.parse_result(method, value)
        err = info.value
        assert (type(err).__name__, str(err) if exc != "ValidationError" else err.type_name) == (
            exc,
            text,
        )
    with pytest.raises(old.ValidationError) as closest:
        old.parse_result("call", {"task": {}})
    assert [e.path for e in closest.value.errors] == ["$.task.id"]  # CreateTaskResult's error
    msg = v2.parse_message({"jsonrpc": "2.0", "method": "notifications/widgets/list_changed"})
    with pytest.raises(v2.ProtocolError, match="^a notification message has no result$"):
        v2.parse_result("widgets/get", msg)


def test_bad_direction_argument(reg: dict[str, ModuleType]) -> None:
    with pytest.raises(
        ValueError,
        match="^direction must be 'client_to_server' or 'server_to_client' or None, not 'both'$",
    ):
        reg["v2"].parse_message({}, direction="both")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)


@pytest.mark.slow
@settings(
    max_examples=300,
    deadline=None,  # no wall-clock limits: the machine may be loaded
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_only_validation_errors(reg: dict[str, ModuleType], data: st.DataObject) -> None:
    """Anything at all, message-shaped or not: a Message or a ValidationError, nothing else."""
    name = data.draw(st.sampled_from([*SOURCES, *TEXTS]))
    r = reg[name]
    methods = st.sampled_from([*r.METHODS, "nope"]) | JSON_VALUES
    keys = {
        "jsonrpc": st.just("2.0") | JSON_VALUES,
        "id": st.integers() | JSON_VALUES,
        "method": methods,
        "params": JSON_VALUES,
        "result": JSON_VALUES,
        "error": JSON_VALUES,
    }
    shaped = st.fixed_dictionaries({}, optional=keys)
    value = data.draw(shaped | JSON_VALUES)
    direction = data.draw(st.sampled_from([None, "client_to_server", "server_to_client"]))
    try:
        msg = r.parse_message(value, direction=direction)
    except r.ValidationError:
        pass
    else:
        assert same_json(r.encode(msg), value)
    try:
        r.parse_result(data.draw(methods), value)
    except r.ValidationError:
        pass


@pytest.mark.parametrize("name", [*SOURCES, *TEXTS])
def test_synthetic_messages(reg: dict[str, ModuleType], name: str) -> None:
    """Random valid instances of every method's message (with the envelope when it travels as
    JSON-RPC) and of its results round-trip through parse_message / parse_result."""
    r, res = reg[name], resolved(name)
    validators = importlib.import_module(f"reg_{name}.validators")
    checked = 0
    for info in r.METHODS.values():
        for k in range(4):
            rnd = random.Random(f"{name}/{info.method}/{k}")
            value = random_instance(res, ir.Ref(info.message_type), rnd)
            assert isinstance(value, dict)
            if info.via == "jsonrpc":
                value = {"jsonrpc": "2.0", **({"id": k} if info.kind == "request" else {}), **value}
            if not validators.is_valid(info.message_type, value):
                continue  # random instances ignore @pattern (the example's WidgetId)
            checked += 1
            msg = r.parse_message(
                value, direction=None if info.direction == "both" else info.direction
            )
            assert (msg.kind, msg.method) == (info.kind, info.method)
            assert same_json(r.encode(msg), value)
            for result_type in info.result_types:
                result = random_instance(res, ir.Ref(result_type), rnd)
                if not validators.is_valid(result_type, result):
                    continue
                assert same_json(r.encode(r.parse_result(info.method, result)), result)
    assert checked >= 2 * len(r.METHODS)


# -- static checks --------------------------------------------------------------------------------

CLIENT = """
from __future__ import annotations

from reg_v2 import models, registry


def handle(raw: object) -> str:
    msg = registry.parse_message(raw, direction="client_to_server")
    if isinstance(msg.obj, models.GetWidgetRequest):
        return msg.obj.params.id
    return msg.kind


def result(raw: object) -> models.Widget:
    got: models.GetWidgetResult = registry.parse_result("widgets/get", raw)
    return got.widget


def anything(method: str, raw: object) -> registry.ResultObject:
    return registry.parse_result(registry.lookup_method(method), raw)  # a str: looked up first


info: registry.MethodInfo = registry.METHODS["ping"]
version: str = registry.PROTOCOL_VERSION
"""


@pytest.mark.slow
def test_mypy_strict_and_ruff(tmp_path: Path) -> None:
    """The registries pass mypy --strict (with a client that relies on parse_result's
    per-method return types) and ruff, the other modules with them: the committed example
    packages (kept current by tests/test_bindings_golden.py) and the two inline schemas."""
    for name in SOURCES:
        shutil.copytree(REPO / "generated" / f"example_{name}", tmp_path / f"reg_{name}",
                        ignore=shutil.ignore_patterns("*.json"))  # fmt: skip
    for name in TEXTS:
        write_package(render_package(resolved(name)), tmp_path, f"reg_{name}")
    (tmp_path / "client.py").write_text(CLIENT, encoding="utf-8")
    packages = [tmp_path / f"reg_{n}" for n in [*SOURCES, *TEXTS]]
    proc = mypy_strict([*packages, tmp_path / "client.py"], tmp_path / ".mypy-cache")
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    proc = ruff_check(packages)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]


# A request type whose schema name the generated modules use themselves (`Literal` is
# `typing.Literal` there): the schema's name wins (`typing.Literal` yields, codegen/pynaming.py),
# and the registry must name the schema's class, not `typing.Literal`.
RENAMED = """
export interface Result { [key: string]: unknown; }
/** @category `things/get` */
export interface Literal { method: "things/get"; params: { id: string }; }
/** @category `things/get` */
export interface GetThingResult extends Result { thing: string; }
export type ClientRequest = Literal;
export type ServerResult = GetThingResult;
"""


def test_registry_names_classes_by_their_python_names(tmp_path: Path) -> None:
    pkg = generate_text(RENAMED, tmp_path, "renamed")
    registry = importlib.import_module("renamed.registry")
    info = registry.METHODS["things/get"]
    assert info.message_class is pkg.models.Literal
    msg = registry.parse_message(
        {"id": 1, "method": "things/get", "params": {"id": "a"}}, direction="client_to_server"
    )
    assert type(msg.obj) is pkg.models.Literal and msg.obj.params.id == "a"
