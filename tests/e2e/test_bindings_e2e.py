"""The generated bindings on real traffic: a client built only on them drives real MCP servers.

The client's bindings are the versions of one multi-version distribution (``bindings.py``). For
each peer (server-everything on node, the official Python SDK server) and each protocol version
the client asks for, ``Client.connect`` negotiates and picks the bindings of the version
the server answers with, ``scenario.explore`` exercises everything the server offers, and the
audit then checks every line of the transcript in both directions: it must validate, decode and
re-encode to equal JSON with the bindings of the agreed version (a result also as its method's
result type). Every message the client sent was a dataclass encoded by ``registry.encode``.

Each session prints a report (methods, notifications, messages checked) with ``-s``; all of them
are repeated at the end of the run (``e2e bindings report``).

Peer deviations from the schema the audit finds are listed in ``KNOWN_DEVIATIONS`` with the
reason: they must keep occurring exactly there (a fixed peer or a changed binding shows up).
"""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest

from .app_audit import app_audit, record
from .bindings import DIST_PACKAGE, VERSIONS, Bindings
from .client import ROOT_URI, SAMPLED_TEXT, Audit, Client, Rejected
from .conftest import REPORTS, Spawn
from .scenario import Exploration, Plan, explore

pytestmark = pytest.mark.spec

# What each peer agrees to when asked for each version (see test_peers_raw for the probing).
NEGOTIATED = {
    "node": {"2025-06-18": "2025-06-18", "2025-11-25": "2025-11-25",
             "2026-07-28": "2025-11-25", "draft": "2025-11-25"},
    "python": {"2025-06-18": "2025-06-18", "2025-11-25": "2025-11-25",
               "2026-07-28": "2026-07-28", "draft": "2026-07-28"},
}  # fmt: skip

DATA_URI = "data:text/plain;base64," + base64.b64encode(b"mcp-codegen e2e\n").decode()
NODE_PLAN = Plan(
    tool_arguments={
        # Default 10 s; keep it short (progress notifications still come, one per step).
        "trigger-long-running-operation": {"duration": 0.4, "steps": 2},
        # The default input is a URL on the internet; a data: URI keeps the call offline.
        "gzip-file-as-resource": {"data": DATA_URI},
    },
    toggles=frozenset({"toggle-simulated-logging", "toggle-subscriber-updates"}),
    # resource-prompt's resourceId completer offers nothing; it must be a positive integer.
    argument_fallbacks={"resourceId": "1"},
)
PLANS = {"node": NODE_PLAN, "python": Plan()}

# Notifications each session must see (server->client), beyond what the audit checks.
EXPECTED_NOTIFICATIONS = {
    ("node", "2025-06-18"): {"notifications/tools/list_changed", "notifications/message",
                             "notifications/progress", "notifications/resources/updated",
                             "notifications/resources/list_changed"},
    ("node", "2025-11-25"): {"notifications/tools/list_changed", "notifications/message",
                             "notifications/progress", "notifications/resources/updated",
                             "notifications/resources/list_changed", "notifications/tasks/status"},
    ("python", "2025-06-18"): {"notifications/message", "notifications/resources/updated",
                               "notifications/progress"},
    ("python", "2025-11-25"): {"notifications/message", "notifications/resources/updated",
                               "notifications/progress"},
    ("python", "2026-07-28"): {"notifications/subscriptions/acknowledged",
                               "notifications/resources/updated", "notifications/progress"},
}  # fmt: skip
# Notifications a session must not see. 2026-07-28 deprecates logging (SEP-2577) and puts
# nothing in its place; the client opts in per request through the deprecated
# `io.modelcontextprotocol/logLevel`, and without it "the server MUST NOT send any
# notifications/message" (its own test: test_log_level_opt_in).
UNEXPECTED_NOTIFICATIONS = {("python", "2026-07-28"): {"notifications/message"}}

# (peer, bindings label, method, JSON path) -> why the peer is off-spec there. Checked against
# the official schema.json too. The client answers such a request with error -32602.
_MULTI_SELECT = (
    "server-everything sends the same elicitation form whatever the protocol version; its "
    "multi-select enum (type array) exists only from 2025-11-25 (2025-06-18 allows string, "
    "number, integer, boolean properties)"
)
KNOWN_DEVIATIONS: dict[tuple[str, str, str, str], str] = {
    ("node", "2025-06-18", "elicitation/create",
     "$.params.requestedSchema.properties.untitledMultipleSelectEnum.type"): _MULTI_SELECT,
    ("node", "2025-06-18", "elicitation/create",
     "$.params.requestedSchema.properties.titledMultipleSelectEnum.type"): _MULTI_SELECT,
}  # fmt: skip


def report(peer: str, asked: str, client: Client, audit: Audit, known: bool = False) -> str:
    def counts(counter: dict[str, int], arrow: str) -> str:
        items = sorted((k.split(" ", 1)[1], n) for k, n in counter.items() if k.startswith(arrow))
        return ", ".join(f"{k} {n}" if n > 1 else k for k, n in items) or "-"

    b = client.bindings
    mode = "stateless" if client.stateless else "initialize"
    methods = {k.split(" ", 1)[1] for k in audit.requests}
    lines = [
        (
            f"{peer} asked {asked}: {mode}, protocol {b.version}, bindings {b.label}; "
            f"{audit.total} messages checked (sent {audit.checked['client_to_server']}, "
            f"received {audit.checked['server_to_client']}), {len(methods)} request methods, "
            f"{sum(audit.notifications.values())} notifications, {len(audit.failures)} rejected"
            f"{' (known peer deviations)' if audit.failures and known else ''}"
        ),
        f"  requests c2s:      {counts(audit.requests, 'c2s')}",
        f"  requests s2c:      {counts(audit.requests, 's2c')}",
        f"  notifications s2c: {counts(audit.notifications, 's2c')}",
        f"  notifications c2s: {counts(audit.notifications, 'c2s')}",
        (
            f"  error responses:   {counts(audit.errors, 's2c')} (received); "
            f"{counts(audit.errors, 'c2s')} (sent)"
        ),
    ]
    inputs = [m.method for m in client.server_requests if m.id is None]
    if inputs:
        lines.append(f"  input requests (in input-required results): {', '.join(inputs)}")
    return "\n".join(lines)


def deviation_key(peer: str, b: Bindings, err: Rejected) -> Iterator[tuple[str, str, str, str]]:
    method = err.value.get("method", "") if isinstance(err.value, dict) else ""
    for e in err.errors:
        yield (peer, b.label, str(method), e.split(":", 1)[0])


@pytest.mark.slow
@pytest.mark.parametrize("asked", VERSIONS)
def test_session(
    spawn: Spawn, peer_name: str, argv: list[str], asked: str, bindings: dict[str, Bindings]
) -> None:
    peer = spawn(argv, name=peer_name, inherit_env=False)
    client = Client(peer, bindings)
    plan = PLANS[peer_name]
    if peer_name == "node" and asked != "2025-11-25":
        plan = Plan(**{**plan.__dict__, "task_mode": "cancel"})  # the 5 s task once is enough
    exploration = Exploration()
    try:
        agreed = client.connect(asked)
        assert agreed.version == NEGOTIATED[peer_name][asked]
        exploration = explore(client, plan)
    finally:
        peer.close()
        audit = client.audit()
        keys = {k for f in audit.failures for k in deviation_key(peer_name, client.bindings, f)}
        text = report(peer_name, asked, client, audit, known=keys <= KNOWN_DEVIATIONS.keys())
        app = app_audit(client)  # the same transcript in application types (app_audit.py)
        record(client, f"{peer_name}-{asked}")
        text += "\n" + app.summary()
        REPORTS.append(text)
        print("\n" + text)
        for failure in audit.failures:
            print(f"  FAILED {failure}")

    found = {k for f in audit.failures for k in deviation_key(peer_name, client.bindings, f)}
    unexpected = [
        f
        for f in audit.failures
        if not all(k in KNOWN_DEVIATIONS for k in deviation_key(peer_name, client.bindings, f))
    ]
    assert not unexpected, "\n".join(map(str, unexpected))
    assert not app.failures, "\n".join(app.failures[:10])
    known = {k for k in KNOWN_DEVIATIONS if k[:2] == (peer_name, client.bindings.label)}
    assert known <= found, f"known peer deviations no longer seen: {sorted(known - found)}"
    # What the client itself could not read is exactly what the audit rejected.
    assert len(client.rejected) == len(audit.failures)
    check_semantics(peer_name, client, exploration, deviating={k[2] for k in known})


@pytest.mark.slow
def test_log_level_opt_in(
    spawn: Spawn, python_peer: list[str], bindings: dict[str, Bindings]
) -> None:
    """2026-07-28's deprecated per-request `io.modelcontextprotocol/logLevel` (the one test that
    sets it, so the one that expects its DeprecationWarning): the official SDK's server sends the
    tool's `notifications/message` for the request that opts in, and none for one that does not."""
    peer = spawn(python_peer, name="python", inherit_env=False)
    client = Client(peer, bindings)
    try:
        assert client.connect("2026-07-28").version == "2026-07-28"
        log = {"name": "log", "arguments": {"level": "info", "message": "e2e"}}
        client.call("tools/call", **log)
        assert [n.method for n in client.notifications] == []
        with pytest.warns(DeprecationWarning, match="logLevel is deprecated"):
            client.call("tools/call", meta={"io.modelcontextprotocol/logLevel": "debug"}, **log)
        assert [n.method for n in client.notifications] == ["notifications/message"]
    finally:
        peer.close()
    assert not client.audit().failures


def test_one_distribution(bindings: dict[str, Bindings]) -> None:
    """Every version the client uses is a subpackage of the one distribution (one runtime)."""
    tops = {b.package.__name__.rsplit(".", 1)[0] for b in bindings.values()}
    assert tops == {DIST_PACKAGE}, tops
    assert len({id(b.package.UNSET) for b in bindings.values()}) == 1
    assert bindings["draft"].version == bindings["2026-07-28"].version


def check_semantics(peer: str, client: Client, ex: Exploration, deviating: set[str]) -> None:
    seen = {n.method for n in client.notifications}
    want = EXPECTED_NOTIFICATIONS.get((peer, client.bindings.version), set())
    assert want <= seen, f"missing notifications: {sorted(want - seen)}"
    unwanted = UNEXPECTED_NOTIFICATIONS.get((peer, client.bindings.version), set())
    assert not unwanted & seen, f"notifications not asked for: {sorted(unwanted & seen)}"
    answered = {m.method for m in client.server_requests}
    assert {"sampling/createMessage", "elicitation/create", "roots/list"} - deviating <= answered
    ok = ("ok", "task completed", "task cancelled")
    failed = {k: v for k, v in ex.tools.items() if not v.kind.startswith(ok)}
    if peer == "python":
        assert failed.keys() == {"fail"}, failed
        assert ex.tools["add"].structured == {"sum": 2}
        asked = ex.tools["ask_client"].structured
        assert asked["sampling"]["content"]["text"] == SAMPLED_TEXT
        assert asked["roots"]["roots"][0]["uri"] == ROOT_URI
        assert asked["elicitation"]["action"] == "accept"
        assert ex.prompts["greet"].startswith("Greet ")
        assert len(ex.reads) >= 4 and all(n > 0 for n in ex.reads.values()), ex.reads
    else:
        assert ex.tools["echo"].text.startswith("Echo: ")
        assert SAMPLED_TEXT in ex.tools["trigger-sampling-request"].text
        assert ROOT_URI in ex.tools["get-roots-list"].text
        assert ex.tools["get-structured-content"].structured is not None
        assert all(n > 0 for n in ex.reads.values()), ex.reads
