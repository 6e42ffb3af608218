"""The method model (codegen/analysis/methods.py): pairing rules on small schemas, and every official
version checked against its own schema.json unions."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path
from typing import Any

import corpus
import pytest
from cli_support import run_cli

from codegen.analysis.methods import Method, MethodModel, method_model, usage
from codegen.cli import main
from codegen.pipeline import load, load_text

REPO = Path(__file__).resolve().parent.parent
VERSIONS = corpus.version_names()
EXAMPLE = REPO / "schemas" / "example"
UNION_NAMES = ("ClientRequest", "ClientNotification", "ClientResult", "ServerRequest",
               "ServerNotification", "ServerResult")  # fmt: skip


@cache
def model(version: str) -> MethodModel:
    return method_model(corpus.resolved(version))


PRELUDE = """
export interface Result { _meta?: { [key: string]: unknown }; }
export type EmptyResult = Result;
"""


def mm(body: str, prelude: str = PRELUDE) -> MethodModel:
    return method_model(load_text(prelude + body))


# ---------------------------------------------------------------------------------------------
# Rules, one small schema each


def test_kind_direction_params_and_name_pairing() -> None:
    m = mm("""
    export interface PingRequest { method: "ping"; }
    export interface GetThingRequest { method: "things/get"; params: { id: string }; }
    export interface GetThingResult extends Result { thing: string; }
    export interface TickNotification { method: "tick"; params?: { n: number }; }
    export type ClientRequest = PingRequest | GetThingRequest;
    export type ServerRequest = PingRequest;
    export type ClientResult = EmptyResult;
    export type ServerResult = EmptyResult | GetThingResult;
    export type ServerNotification = TickNotification;
    """)
    ping, get, tick = m.get("ping"), m.get("things/get"), m.get("tick")
    assert ping == Method("ping", "request", "both", "PingRequest", None, True, "EmptyResult")
    assert get == Method("things/get", "request", "client_to_server", "GetThingRequest",
                         "GetThingRequestParams", False, "GetThingResult")  # fmt: skip
    assert tick == Method("tick", "notification", "server_to_client", "TickNotification",
                          "TickNotificationParams", True, None)  # fmt: skip
    assert [x.method for x in m.methods] == ["ping", "things/get", "tick"]
    assert m.notes == ()


def test_category_beats_name() -> None:
    """The result with the request's @category wins over one merely named like the request."""
    m = mm("""
    /** @category `things/get` */
    export interface GetThingRequest { method: "things/get"; }
    export interface GetThingResult extends Result { a: string; }
    /** @category `things/get` */
    export interface ThingAnswer extends Result { b: string; }
    export type ClientRequest = GetThingRequest;
    export type ServerResult = EmptyResult | GetThingResult | ThingAnswer;
    """)
    assert m.get("things/get").result_type == "ThingAnswer"  # type: ignore[union-attr]


def test_several_results_with_one_category_fall_back_to_the_name() -> None:
    m = mm("""
    /** @category `x` */
    export interface XRequest { method: "x"; }
    /** @category `x` */
    export interface XResult extends Result { a: string; }
    /** @category `x` */
    export interface XOther extends Result { b: string; }
    export type ClientRequest = XRequest;
    export type ServerResult = XResult | XOther;
    """)
    assert m.get("x").result_type == "XResult"  # type: ignore[union-attr]
    assert m.notes == ()


def test_no_result_of_its_own_is_empty_result_else_result() -> None:
    body = """
    export interface SubscribeRequest { method: "subscribe"; params: { uri: string }; }
    export type ClientRequest = SubscribeRequest;
    """
    assert (
        mm(body + "export type ServerResult = EmptyResult;").get("subscribe").result_type
        == "EmptyResult"
    )  # type: ignore[union-attr]
    plain = mm(
        body + "export type ServerResult = Result;",
        prelude="export interface Result { a?: string; }\n",
    )
    assert plain.get("subscribe").result_type == "Result"  # type: ignore[union-attr]
    none = mm(
        body
        + "export interface Other extends Result { b: string; }\nexport type ServerResult = Other;"
    )
    assert none.get("subscribe").result_type is None  # type: ignore[union-attr]
    assert none.notes == ("subscribe: no result type found",)


def test_both_directions_need_a_result_both_sides_accept() -> None:
    m = mm("""
    export interface PingRequest { method: "ping"; }
    export interface PingResult extends Result { pong: true; }
    export type ClientRequest = PingRequest;
    export type ServerRequest = PingRequest;
    export type ServerResult = EmptyResult | PingResult;
    export type ClientResult = EmptyResult;
    """)
    # PingResult is only in ServerResult: a client could not send it, so the pairing is EmptyResult
    assert m.get("ping").result_type == "EmptyResult"  # type: ignore[union-attr]


def test_explicit_result_response_gives_result_and_alternatives() -> None:
    m = mm("""
    /** @category `tools/call` */
    export interface CallToolRequest { method: "tools/call"; }
    /** @category `tools/call` */
    export interface CallToolResult extends Result { content: string[]; }
    /** @category Multi Round-Trip */
    export interface InputRequiredResult extends Result { requestState?: string; }
    export interface JSONRPCResultResponse { id: string; result: Result; }
    /** @category `tools/call` */
    export interface CallToolResultResponse extends JSONRPCResultResponse {
      result: CallToolResult | InputRequiredResult;
    }
    export type ClientRequest = CallToolRequest;
    export type ServerResult = EmptyResult | CallToolResult | InputRequiredResult;
    """)
    call = m.get("tools/call")
    assert call is not None
    assert (call.result_type, call.alt_result_types) == ("CallToolResult", ("InputRequiredResult",))
    assert call.result_types == ("CallToolResult", "InputRequiredResult")


def test_task_augmented_params_may_be_answered_with_create_task_result() -> None:
    m = mm("""
    export interface RequestParams { _meta?: object; }
    export interface TaskAugmentedRequestParams extends RequestParams { task?: { ttl?: number }; }
    export interface CreateTaskResult extends Result { task: string; }
    export interface CallParams extends TaskAugmentedRequestParams { name: string; }
    export interface FormParams extends TaskAugmentedRequestParams { form: string; }
    export interface UrlParams extends RequestParams { url: string; }
    export type AskParams = FormParams | UrlParams;
    export interface CallRequest { method: "call"; params: CallParams; }
    export interface AskRequest { method: "ask"; params: AskParams; }
    export interface ReadRequest { method: "read"; params: UrlParams; }
    export type ClientRequest = CallRequest | AskRequest | ReadRequest;
    export type ServerResult = EmptyResult;
    """)
    assert m.get("call").alt_result_types == ("CreateTaskResult",)  # type: ignore[union-attr]
    assert m.get("ask").alt_result_types == ("CreateTaskResult",)  # type: ignore[union-attr]
    assert m.get("read").alt_result_types == ()  # type: ignore[union-attr]


def test_input_requests_are_server_requests_carried_in_results() -> None:
    m = mm("""
    export interface SampleRequest { method: "sample"; params: { prompt: string }; }
    export interface SampleResult { text: string; }
    export interface InputRequests { [key: string]: InputRequest; }
    export interface InputRequiredResult extends Result { inputRequests?: InputRequests; }
    export interface CallRequest { method: "call"; params: { inputResponses?: { [key: string]: InputResponse } }; }
    export type InputRequest = SampleRequest;
    export type InputResponse = SampleResult;
    export type ClientRequest = CallRequest;
    export type ServerResult = EmptyResult | InputRequiredResult;
    """)
    sample = m.get("sample")
    assert sample is not None
    assert (sample.kind, sample.direction, sample.via, sample.result_type) == (
        "request", "server_to_client", "input_required", "SampleResult")  # fmt: skip
    assert m.sent_by("SampleRequest") == ("server",)
    assert m.sent_by("SampleResult") == ("client",)
    assert m.sent_by("InputRequiredResult") == ("server",)


def test_ambiguities_are_notes_not_guesses() -> None:
    m = mm("""
    export interface ARequest { method: "same"; }
    export interface BRequest { method: "same"; }
    export interface Loose { method: string; }
    export type ClientRequest = ARequest | BRequest | Loose;
    export type ServerResult = EmptyResult;
    """)
    assert [x.method for x in m.methods] == ["same"]
    assert m.get("same").type_name == "ARequest"  # type: ignore[union-attr]
    assert m.notes == (
        "Loose: listed in a message union but has no string-literal `method`",
        "method 'same': ARequest (request) and BRequest (request) both claim it; keeping ARequest",
    )


def test_senders_follow_references_from_the_unions() -> None:
    m = mm("""
    export interface Thing { id: string; }
    export interface Unused { x: string; }
    export interface GetRequest { method: "get"; params: { id: string }; }
    export interface GetResult extends Result { thing: Thing; }
    export type ClientRequest = GetRequest;
    export type ServerResult = GetResult;
    """)
    assert m.sent_by("GetRequest") == ("client",)
    assert m.sent_by("Thing") == ("server",)
    assert m.sent_by("Unused") == ()
    assert [u.name for u in m.type_uses] == sorted(u.name for u in m.type_uses)


@pytest.mark.spec
def test_model_is_frozen_sorted_and_hashable(spec_root: Path) -> None:
    m = model(VERSIONS[-1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.methods[0].method = "x"  # type: ignore[misc]
    assert list(m.methods) == sorted(m.methods)
    assert hash(m.methods) == hash(model(VERSIONS[-1]).methods)
    assert method_model(corpus.resolved(VERSIONS[-1])) == m


# ---------------------------------------------------------------------------------------------
# Official versions against their schema.json


def _ref(node: dict[str, Any]) -> str:
    return str(node["$ref"]).rsplit("/", 1)[-1]


def json_members(defs: dict[str, Any], union: str) -> set[str]:
    """Members of a message union in schema.json. A one-member union is inlined there: it is
    then the definition whose content it repeats."""
    node = defs.get(union)
    if node is None:
        return set()
    if "anyOf" in node:
        return {_ref(m) for m in node["anyOf"]}
    if "$ref" in node:
        return {_ref(node)}
    strip = {k: v for k, v in node.items() if k != "description"}
    return {
        n
        for n, d in defs.items()
        if n != union and {k: v for k, v in d.items() if k != "description"} == strip
    }


def json_method(defs: dict[str, Any], name: str) -> str:
    return str(defs[name]["properties"]["method"]["const"])


def json_name(defs: dict[str, Any], name: str) -> str:
    """schema.json writes the alias `EmptyResult = Result` as `Result` inside unions."""
    d = defs.get(name, {})
    return _ref(d) if set(d) <= {"$ref", "description"} and "$ref" in d else name


@pytest.mark.spec
@pytest.mark.parametrize("version", VERSIONS)
def test_methods_match_official_unions(spec_root: Path, version: str) -> None:
    defs = corpus.definitions(version)
    members = {u: json_members(defs, u) for u in UNION_NAMES}
    for extra in ("InputRequest", "InputResponse"):
        members[extra] = json_members(defs, extra)
    expected: dict[str, tuple[str, set[str]]] = {}
    for side in ("Client", "Server"):
        for kind, union in (("request", f"{side}Request"), ("notification", f"{side}Notification")):
            for name in members[union]:
                entry = expected.setdefault(json_method(defs, name), (kind, set()))
                entry[1].add(side.lower())
    for name in members["InputRequest"]:
        expected.setdefault(json_method(defs, name), ("request", set()))[1].add("server")
    m = model(version)
    assert {x.method for x in m.methods} == set(expected)
    for x in m.methods:
        kind, sides = expected[x.method]
        assert (x.kind, set(x.senders)) == (kind, sides), x.method
        assert json_method(defs, x.type_name) == x.method
        if x.kind == "notification":
            assert x.result_type is None
            continue
        # the result is in every answering union (InputResponse for input requests)
        answering = (
            ["InputResponse"]
            if x.via == "input_required"
            else ["ServerResult" if s == "client" else "ClientResult" for s in x.senders]
        )
        assert x.result_type is not None
        for union in answering:
            assert json_name(defs, x.result_type) in members[union], (x.method, union)
    assert m.notes == ()


@pytest.mark.spec
@pytest.mark.parametrize("version", VERSIONS)
def test_result_responses_match_official(spec_root: Path, version: str) -> None:
    """Where schema.json has `XResultResponse` definitions (2026-07-28 on), they are the truth."""
    defs = corpus.definitions(version)
    by_type = {x.type_name: x for x in model(version).methods}
    checked = 0
    for name, d in defs.items():
        if not name.endswith("ResultResponse") or name == "JSONRPCResultResponse":
            continue
        result = d["properties"]["result"]
        answers = {_ref(r) for r in result["anyOf"]} if "anyOf" in result else {_ref(result)}
        request = by_type[name[: -len("ResultResponse")] + "Request"]
        assert set(request.result_types) == answers, name
        checked += 1
    assert checked == (10 if version in ("2026-07-28", "draft") else 0)


# Hand-checked pairings (schema.ts prose and categories), version -> method -> result(s)
EXPECTED: dict[str, dict[str, tuple[str, ...]]] = {
    "2024-11-05": {"tools/call": ("CallToolResult",), "ping": ("EmptyResult",),
                   "resources/subscribe": ("EmptyResult",), "logging/setLevel": ("EmptyResult",),
                   "sampling/createMessage": ("CreateMessageResult",), "roots/list": ("ListRootsResult",),
                   "initialize": ("InitializeResult",), "completion/complete": ("CompleteResult",)},
    "2025-06-18": {"elicitation/create": ("ElicitResult",), "ping": ("EmptyResult",)},
    "2025-11-25": {"tools/call": ("CallToolResult", "CreateTaskResult"),
                   "sampling/createMessage": ("CreateMessageResult", "CreateTaskResult"),
                   "elicitation/create": ("ElicitResult", "CreateTaskResult"),
                   "tasks/get": ("GetTaskResult",), "tasks/result": ("GetTaskPayloadResult",),
                   "tasks/list": ("ListTasksResult",), "tasks/cancel": ("CancelTaskResult",),
                   "resources/unsubscribe": ("EmptyResult",), "ping": ("EmptyResult",)},
    "2026-07-28": {"server/discover": ("DiscoverResult",),
                   "tools/call": ("CallToolResult", "InputRequiredResult"),
                   "prompts/get": ("GetPromptResult", "InputRequiredResult"),
                   "resources/read": ("ReadResourceResult", "InputRequiredResult"),
                   "subscriptions/listen": ("SubscriptionsListenResult",),
                   "sampling/createMessage": ("CreateMessageResult",),
                   "roots/list": ("ListRootsResult",), "elicitation/create": ("ElicitResult",)},
}  # fmt: skip


@pytest.mark.spec
@pytest.mark.parametrize("version", sorted(EXPECTED))
def test_hand_checked_pairings(spec_root: Path, version: str) -> None:
    m = model(version)
    for method, results in EXPECTED[version].items():
        x = m.get(method)
        assert x is not None and x.result_types == results, method
    if version == "2026-07-28":
        assert {x.method for x in m.methods if x.via == "input_required"} == {
            "sampling/createMessage", "roots/list", "elicitation/create"}  # fmt: skip
        assert m.get("notifications/cancelled").direction == "both"  # type: ignore[union-attr]


@pytest.mark.spec
@pytest.mark.parametrize("version", VERSIONS)
def test_every_union_member_is_sent_by_its_side(spec_root: Path, version: str) -> None:
    m, types = model(version), corpus.resolved(version).type_map()
    for union in UNION_NAMES:
        side = "client" if union.startswith("Client") else "server"
        td = types.get(union)
        if td is None:
            continue
        for name in json_members(corpus.definitions(version), union):
            name = name if name in types else "EmptyResult"
            assert side in m.sent_by(name), (union, name)
    for x in m.methods:  # a method's own types are used by it
        uses = dict(usage(corpus.resolved(version), m).by_method)[x.method]
        assert {x.type_name, *x.result_types} <= uses


def test_example_schema_methods() -> None:
    v1 = method_model(load(str(EXAMPLE / "v1" / "schema.ts")))
    v2 = method_model(load(str(EXAMPLE / "v2" / "schema.ts")))
    assert v1.get("widgets/reset").result_type == "EmptyResult"  # type: ignore[union-attr]
    assert v2.get("widgets/reset").result_type == "ResetWidgetResult"  # type: ignore[union-attr]
    assert v1.get("notifications/focus_changed").direction == "server_to_client"  # type: ignore[union-attr]
    assert v2.get("notifications/focus_changed").direction == "client_to_server"  # type: ignore[union-attr]
    assert v1.get("ping").direction == "both"  # type: ignore[union-attr]
    assert v1.get("host/confirm").result_type == "ConfirmResult"  # type: ignore[union-attr]
    assert v1.get("widgets/lock") is not None and v2.get("widgets/lock") is None
    assert v2.get("widgets/watch").result_type == "EmptyResult"  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------
# `mcp-codegen registry`


def test_registry_table(capsys: pytest.CaptureFixture[str]) -> None:
    v1, v2 = str(EXAMPLE / "v1" / "schema.ts"), str(EXAMPLE / "v2" / "schema.ts")
    assert main(["registry", v1, v2]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "| method | v1 | v2 |"
    rows = {line.split(" | ")[0].strip("| `"): line for line in out[2:]}
    assert (
        rows["widgets/reset"]
        == "| `widgets/reset` | req c→s EmptyResult | req c→s ResetWidgetResult |"
    )
    assert rows["widgets/lock"] == "| `widgets/lock` | req c→s LockWidgetResult | — |"
    assert rows["notifications/focus_changed"].endswith("| notif s→c | notif c→s |")


def test_registry_json(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    v1 = str(EXAMPLE / "v1" / "schema.ts")
    assert main(["registry", v1, "--format", "json", "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    ping = next(m for m in data["v1"]["methods"] if m["method"] == "ping")
    assert ping == {"method": "ping", "kind": "request", "direction": "both", "via": "jsonrpc",
                    "type": "PingRequest", "params": "RequestParams", "params_optional": True,
                    "result": "EmptyResult", "alt_results": [], "category": "ping"}  # fmt: skip


def test_registry_bad_input_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "schema.ts"
    bad.write_text("export interface {", encoding="utf-8")
    r = run_cli("registry", str(bad))
    assert r.returncode == 2 and str(bad) in r.stderr
