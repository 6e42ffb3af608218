"""`check-wire`: a request or notification sent by the side its version does not let send it
(code `direction`, at `$.method`, naming the side that does), in 2024-11-05, 2025-11-25 and
2026-07-28, and a 2026-07-28 input request sent on its own; methods both sides send never are;
the answer to a flagged request is checked as before; a bare message (no sender) is not judged;
check-server reports a server sending a client's request."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from codegen.analysis.methods import method_model
from codegen.cli import main as cli_main
from codegen.pipeline import load

pytestmark = pytest.mark.spec

FAULTY = Path(__file__).resolve().parent / "fixtures" / "conformance" / "faulty_server.py"
C2S, S2C = "client_to_server", "server_to_client"
VERSIONS = ("2024-11-05", "2025-11-25", "2026-07-28")


@pytest.fixture(autouse=True)
def _spec_dir(spec_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checkers read each version's schema from the official folder (as `--spec-dir`)."""
    monkeypatch.setenv("MCP_SPEC_DIR", str(spec_root))


def check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, records: list[Any], *args: str
) -> list[dict[str, Any]]:
    path = tmp_path / "traffic.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    code = cli_main(["check-wire", str(path), "--format", "json", *args])
    found: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["violations"]
    assert code == (1 if found else 0)
    return found


def sent(direction: str, method: str, ident: int | None = 7, params: Any = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if ident is not None:
        message["id"] = ident
    if params is not None:
        message["params"] = params
    return {"direction": direction, "message": message}


def directions(found: list[dict[str, Any]]) -> list[tuple[int, str, str, str, str]]:
    return [(v["line"], v["method"], v["direction"], v["path"], v["message"] + "; " +
             v["explanation"]) for v in found if v["code"] == "direction"]  # fmt: skip


CLIENTS, SERVERS = "clients (client_to_server)", "servers (server_to_client)"
INSIDE = ", inside an input-required result"


@pytest.mark.parametrize(
    ("version", "direction", "method", "ident", "senders"),
    [
        ("2025-11-25", S2C, "tools/list", 3, CLIENTS),
        ("2025-11-25", C2S, "sampling/createMessage", 3, SERVERS),
        ("2025-11-25", C2S, "notifications/tools/list_changed", None, SERVERS),
        ("2024-11-05", S2C, "initialize", 3, CLIENTS),
        ("2024-11-05", C2S, "roots/list", 3, SERVERS),
        ("2024-11-05", S2C, "notifications/initialized", None, CLIENTS),
        ("2026-07-28", S2C, "server/discover", 3, CLIENTS),
        ("2026-07-28", C2S, "elicitation/create", 3, SERVERS + INSIDE),
        # both sides send progress before 2026-07-28; from then on only servers do
        ("2026-07-28", C2S, "notifications/progress", None, SERVERS),
    ],
)
def test_wrong_direction_is_named_at_method(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    version: str,
    direction: str,
    method: str,
    ident: int | None,
    senders: str,
) -> None:
    wrong = "servers" if direction == S2C else "clients"
    said = f"`{method}` is not sent by {wrong} in {version}; it is sent by {senders}"
    record = sent(direction, method, ident)
    found = check(capsys, tmp_path, [record], "--version", version)
    assert directions(found) == [(1, method, direction, "$.method", said)]
    assert all(v["version"] == version for v in found)
    # the same message from the other side is no direction finding (an input request aside)
    if senders.endswith(INSIDE):
        return
    other = C2S if direction == S2C else S2C
    assert (
        directions(check(capsys, tmp_path, [sent(other, method, ident)], "--version", version))
        == []
    )


def test_text_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "traffic.jsonl"
    path.write_text(json.dumps({"dir": "s2c", "message": sent(S2C, "tools/list")["message"],
                                "version": "2025-11-25"}) + "\n", "utf-8")  # fmt: skip
    assert cli_main(["check-wire", str(path)]) == 1
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .endswith(
            "traffic.jsonl:1: tools/list (2025-11-25, server_to_client): $.method: `tools/list` is "
            "not sent by servers in 2025-11-25; it is sent by clients (client_to_server)"
        )
    )


@pytest.mark.parametrize("version", VERSIONS)
def test_every_one_sided_method_of_the_version(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, spec_root: Path, version: str
) -> None:
    """Each method of the version, sent by each side: a finding exactly when the registry's
    direction does not include that side, or the method is an input request (2026-07-28);
    `both` methods (ping, cancelled, ...) never."""
    model = method_model(load(spec_root / version / "schema.ts"))
    records, expected = [], []
    for m in model.methods:
        for direction, side in ((C2S, "client"), (S2C, "server")):
            ident = len(records) + 1 if m.kind == "request" else None
            records.append(sent(direction, m.method, ident))
            if side not in m.senders or m.via == "input_required":
                expected.append((len(records), m.method, direction))
    found = check(capsys, tmp_path, records, "--version", version)
    assert [(line, method, d) for line, method, d, _, _ in directions(found)] == expected
    inputs = {m.method for m in model.methods if m.via == "input_required"}
    assert len(expected) == sum(len(m.senders) == 1 for m in model.methods) + len(inputs)
    assert inputs == ({"elicitation/create", "roots/list", "sampling/createMessage"}
                      if version == "2026-07-28" else set())  # fmt: skip
    both = {m.method for m in model.methods if m.direction == "both"}
    assert "notifications/cancelled" in both and not both & {v["method"] for v in found
                                                             if v["code"] == "direction"}  # fmt: skip
    if version != "2026-07-28":
        assert {"ping", "notifications/progress"} <= both


def test_answer_to_a_flagged_request_is_checked_as_before(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A server's `tools/list`, answered by the client: one direction finding on the request;
    the answer is paired with it and checked against `ListToolsResult`, no finding of its own
    about the direction."""
    ask = sent(S2C, "tools/list", 4)
    good = {"direction": C2S, "message": {"jsonrpc": "2.0", "id": 4, "result": {"tools": []}}}
    bad = {"direction": C2S, "message": {"jsonrpc": "2.0", "id": 4, "result": {"tools": [{}]}}}
    assert [v["line"] for v in check(capsys, tmp_path, [ask, good], "--version", "2025-11-25")] == [
        1
    ]
    found = check(capsys, tmp_path, [ask, bad], "--version", "2025-11-25")
    assert [(v["line"], v["code"]) for v in found if v["line"] == 1] == [(1, "direction")]
    assert {(v["line"], v["method"], v["path"]) for v in found if v["line"] == 2} == {
        (2, "tools/list", "$.result.tools[0].name"),
        (2, "tools/list", "$.result.tools[0].inputSchema"),
    }


def test_an_input_request_on_its_own_in_2026_07_28(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A 2026-07-28 server asks for sampling as earlier versions did, in a request of its own
    (and a bare one, whose sender is not said): a finding; in 2025-11-25 the same is right."""
    params = {"messages": [], "maxTokens": 1}
    ask = sent(S2C, "sampling/createMessage", 5, params)
    said = (
        "`sampling/createMessage` is not sent on its own in 2026-07-28; it is sent by servers "
        "(server_to_client), inside an input-required result"
    )
    found = check(capsys, tmp_path, [ask, ask["message"]], "--version", "2026-07-28")
    assert directions(found) == [
        (1, "sampling/createMessage", S2C, "$.method", said),
        (2, "sampling/createMessage", "", "$.method", said),
    ]
    assert check(capsys, tmp_path, [ask, ask["message"]], "--version", "2025-11-25") == []


def test_a_message_without_a_sender_is_not_judged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bare = [sent(S2C, "tools/list")["message"], sent(S2C, "roots/list", 8)["message"]]
    assert check(capsys, tmp_path, bare, "--version", "2025-11-25") == []


def test_a_method_the_version_lacks_is_no_direction_finding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`notifications/roots/list_changed` from a 2026-07-28 server: the version lacks it (code
    `method`), which says enough."""
    found = check(capsys, tmp_path, [sent(S2C, "notifications/roots/list_changed", None)],
                  "--version", "2026-07-28")  # fmt: skip
    assert [v["code"] for v in found] == ["method"]


@pytest.mark.slow
def test_check_server_reports_a_server_sending_clients_methods(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The faulty server sends `tools/list`, `notifications/roots/list_changed` and `ping`
    before answering `tools/list`: two findings, counted in the `other` column (the
    `tools/list` call itself was answered correctly); `ping` is no finding."""
    code = cli_main(["check-server", "--version", "2025-11-25", "--",
                     sys.executable, str(FAULTY), "wrong-direction"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1, out
    head, _, row = out.splitlines()[:3]
    cells = dict(zip(head.split(" | "), row.split(" | "), strict=True))
    assert cells["`tools/list`"] == "ok" and cells["other"] == "2 violations"
    found = [line for line in out.splitlines() if "$.method" in line]
    assert found == [
        (
            "2025-11-25: message 7 (server_to_client, tools/list): $.method: `tools/list` is not "
            "sent by servers in 2025-11-25; it is sent by clients (client_to_server)"
        ),
        (
            "2025-11-25: message 9 (server_to_client, notifications/roots/list_changed): "
            "$.method: `notifications/roots/list_changed` is not sent by servers in 2025-11-25; "
            "it is sent by clients (client_to_server)"
        ),
    ]
