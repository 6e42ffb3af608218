"""`mcp-codegen check-wire`: the project's recorded real traffic, reproductions of go-sdk#1032
(2026-07-28 results without `resultType`) and kaibo#142 (a 2026-07-28 `tools/list` without
`ttlMs`/`cacheScope`), the ways a session's version is learned, and peer text that tries to
forge output lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codegen.cli import main as cli_main

pytestmark = pytest.mark.spec

RECORDED = Path(__file__).resolve().parent / "e2e" / "recorded" / "sessions.jsonl"
# The one real deviation in the recording (also KNOWN_DEVIATIONS of tests/e2e): server-everything
# sends its multi-select enums (2025-11-25) in a 2025-06-18 session.
KNOWN = {("node-2025-06-18", "elicitation/create", "2025-06-18")}


@pytest.fixture(autouse=True)
def _spec_dir(spec_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checkers read each version's schema from the official folder (as `--spec-dir`)."""
    monkeypatch.setenv("MCP_SPEC_DIR", str(spec_root))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = cli_main(["check-wire", *args])
    return code, capsys.readouterr().out


def violations(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> list[dict[str, Any]]:
    code, out = run(capsys, str(path), "--format", "json", *args)
    found: list[dict[str, Any]] = json.loads(out)["violations"]
    assert code == (1 if found else 0)
    return found


def session(name: str) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in RECORDED.read_text("utf-8").splitlines()]
    return [r for r in records if r["session"] == name]


def write(tmp_path: Path, lines: list[Any]) -> Path:
    path = tmp_path / "traffic.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    return path


def test_recorded_traffic_has_only_the_known_deviation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    found = violations(capsys, RECORDED)
    assert {(v["session"], v["method"], v["version"]) for v in found} == KNOWN
    assert all("MultipleSelectEnum" in v["path"] for v in found)


def _short(records: list[dict[str, Any]], change: Any) -> list[dict[str, Any]]:
    """The records in the short spelling (`dir`, no session or version), `change` applied to
    each server result."""
    out = []
    for r in records:
        m = json.loads(json.dumps(r["message"]))
        if r["direction"] == "server_to_client" and isinstance(m.get("result"), dict):
            change(m)
        out.append({"dir": "s2c" if r["direction"] == "server_to_client" else "c2s", "message": m})
    return out


def test_go_sdk_1032_results_without_result_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _short(session("python-2026-07-28"), lambda m: m["result"].pop("resultType", None))
    found = violations(capsys, write(tmp_path, records))
    assert found and all(v["path"] == "$.result.resultType" for v in found)
    assert all(v["version"] == "2026-07-28" and v["code"] == "required" for v in found)
    explained = [v for v in found if v["method"] == "tools/list"]
    assert explained[0]["explanation"] == (
        "`resultType` is required since 2026-07-28; 2025-11-25 did not declare it: this is a "
        "2025-11-25-shaped result"
    )
    # the same traffic as bare messages: the version comes from each request's `_meta`
    bare = write(tmp_path, [r["message"] for r in records])
    assert {v["path"] for v in violations(capsys, bare)} == {"$.result.resultType"}
    code, out = run(capsys, str(bare))
    assert code == 1 and "tools/list (2026-07-28): $.result.resultType" in out


def test_kaibo_142_tools_list_without_cache_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def drop(m: dict[str, Any]) -> None:
        if "tools" in m["result"]:
            m["result"].pop("ttlMs", None)
            m["result"].pop("cacheScope", None)

    found = violations(capsys, write(tmp_path, _short(session("python-2026-07-28"), drop)))
    assert {(v["method"], v["path"], v["version"]) for v in found} == {
        ("tools/list", "$.result.cacheScope", "2026-07-28"),
        ("tools/list", "$.result.ttlMs", "2026-07-28"),
    }
    assert all("required since 2026-07-28" in v["explanation"] for v in found)


def test_version_from_initialize_and_pairing_by_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}}}  # fmt: skip
    answer = {"jsonrpc": "2.0", "id": 1, "result": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}}}  # fmt: skip
    lines = [init, answer, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
             {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": 1}]}}]  # fmt: skip
    found = violations(capsys, write(tmp_path, lines))
    assert {(v["line"], v["method"], v["version"], v["path"]) for v in found} == {
        (4, "tools/list", "2025-06-18", "$.result.tools[0].name"),
        (4, "tools/list", "2025-06-18", "$.result.tools[0].inputSchema"),
    }
    assert violations(capsys, write(tmp_path, lines[:2])) == []


def test_not_json_is_invalid_and_unreadable_input_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"jsonrpc": "2.0", "method": "ping", "id": 1, "id": 2}\nnot json\n\xff\n')
    code, out = run(capsys, str(path), "--version", "2025-11-25")
    assert code == 1
    assert ":1: " in out and 'key "id" given twice' in out and ":2: " in out and ":3: " in out
    assert cli_main(["check-wire", str(tmp_path / "missing.jsonl")]) == 2
    assert cli_main(["check-wire", str(path), "--version", "1999-01-01"]) == 2


@pytest.mark.parametrize("form", ["text", "json", "github"])
def test_peer_text_cannot_forge_output_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    hostile = "x\n::error::forged\r\u2028::warning::x\x1b[2J"
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {hostile: 1}},
        {"dir": "s2c", "session": hostile, "message": {"jsonrpc": "2.0", "id": hostile,
                                                        "method": hostile}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": hostile, "arguments": {hostile: [1]}, hostile: {}}},
    ]  # fmt: skip
    path = write(tmp_path, lines)
    code, out = run(capsys, str(path), "--version", "2025-11-25", "--format", form)
    assert code == 1
    for line in out.splitlines():
        assert not any(ord(c) < 0x20 or c in "\u2028\u2029\x85" for c in line)
        if form == "github":
            assert line.startswith("::error file=") and line.count("::") == 2
        else:
            assert "::" not in line


def _handshake(version: str) -> list[dict[str, Any]]:
    return [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": version, "capabilities": {},
            "serverInfo": {"name": "s", "version": "1"}}},
    ]  # fmt: skip


def test_a_method_the_version_lacks_names_the_versions_that_have_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tasks/get` (2025-11-25 only) in a 2025-06-18 session, its task notification, and
    `elicitation/create` (since 2025-06-18) sent by a 2024-11-05 server: each reported once, at
    `$.method`, with the versions that have it; the answers to them are not findings again."""
    tasks = [*_handshake("2025-06-18"),
             {"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"taskId": "t"}},
             {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}},
             {"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": {
                 "taskId": "t", "status": "working", "createdAt": "x", "lastUpdatedAt": "x",
                 "ttl": None}}]  # fmt: skip
    found = violations(capsys, write(tmp_path, tasks))
    assert [(v["line"], v["method"], v["version"], v["path"], v["code"]) for v in found] == [
        (3, "tasks/get", "2025-06-18", "$.method", "method"),
        (5, "notifications/tasks/status", "2025-06-18", "$.method", "method"),
    ]
    assert {v["explanation"] for v in found} == {"it is a method of 2025-11-25"}
    code, out = run(capsys, str(write(tmp_path, tasks)))
    assert code == 1 and out.splitlines()[0].endswith(
        "/traffic.jsonl:3: tasks/get (2025-06-18): $.method: `tasks/get` is not a method of "
        "2025-06-18; it is a method of 2025-11-25"
    )

    ask = {"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {
        "message": "name?", "requestedSchema": {"type": "object", "properties": {}}}}  # fmt: skip
    records = [{"dir": "c2s", "message": m} for m in _handshake("2024-11-05")[:1]]
    records += [{"dir": "s2c", "message": _handshake("2024-11-05")[1]},
                {"dir": "s2c", "message": ask},
                {"dir": "c2s", "message": {"jsonrpc": "2.0", "id": 7,
                                           "result": {"action": "decline"}}}]  # fmt: skip
    found = violations(capsys, write(tmp_path, records))
    assert [(v["line"], v["direction"], v["version"], v["explanation"]) for v in found] == [
        (3, "server_to_client", "2024-11-05",
         "it is a method of 2025-06-18, 2025-11-25, 2026-07-28 and draft"),
    ]  # fmt: skip
    # the same message in a session of a version that has it: valid
    later = [{"dir": r["dir"], "message": r["message"]} for r in records]
    for r in later[:2]:
        r["message"] = json.loads(json.dumps(r["message"]).replace("2024-11-05", "2025-06-18"))
    assert violations(capsys, write(tmp_path, later)) == []


def test_methods_a_2026_07_28_session_no_longer_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2026-07-28 has no handshake and no `ping`: said with the versions that had them. An
    `initialize` whose only version is its own proposal is a client trying the handshake (the
    fallback of check-server), not a finding; under `--version 2026-07-28` it is one."""
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    ping = {"jsonrpc": "2.0", "id": 5, "method": "ping", "params": meta}
    found = violations(capsys, write(tmp_path, [ping]))
    assert [(v["method"], v["version"], v["explanation"]) for v in found] == [
        (
            "ping",
            "2026-07-28",
            "it is a method of 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25",
        )
    ]
    probe = _handshake("2026-07-28")[:1]
    assert violations(capsys, write(tmp_path, probe)) == []
    fixed = violations(capsys, write(tmp_path, probe), "--version", "2026-07-28")
    assert [(v["method"], v["code"]) for v in fixed] == [("initialize", "method")]


def test_a_method_no_version_has_is_not_a_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An extension's method (in no version) keeps the envelope check only, as before."""
    custom = {"jsonrpc": "2.0", "id": 9, "method": "x-vendor/frobnicate", "params": {"a": 1}}
    assert violations(capsys, write(tmp_path, [custom]), "--version", "2025-06-18") == []
    broken = {"jsonrpc": "1.0", "id": 9, "method": "x-vendor/frobnicate"}
    found = violations(capsys, write(tmp_path, [broken]), "--version", "2025-06-18")
    assert found and all(v["code"] != "method" for v in found)
