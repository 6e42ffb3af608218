"""The bindings-driven client against a scripted server that breaks the schema on purpose.

The audit in test_bindings_e2e is only worth something if it catches bad traffic: here a tiny
stdio server answers ``initialize`` properly, then sends an invalid notification, an invalid
server->client request and an invalid result, and echoes what the client sent back to it on
stderr. Each must be reported with the JSON path of the problem, and the client must answer the
request it cannot read with a JSON-RPC error built from the bindings.
"""

from __future__ import annotations

import sys

import pytest

from .bindings import Bindings
from .client import Client, Rejected, json_diff, same_json
from .conftest import Spawn

pytestmark = pytest.mark.spec

SERVER = r"""
import json, sys
def send(msg):
    print(json.dumps(msg), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    print("got", line.strip(), file=sys.stderr, flush=True)
    method = msg.get("method")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "scripted", "version": "1"}, "futureKey": [1.5, True]}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "method": "notifications/progress",
              "params": {"progressToken": "t", "progress": "half"}})
        send({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
              "params": {"messages": [], "maxTokens": "ten"}})
        send({"jsonrpc": "2.0", "id": "s2", "method": "no/such/method"})
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": [{"name": "t"}]}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
"""


def test_bad_traffic_is_reported_with_json_paths(
    spawn: Spawn, bindings: dict[str, Bindings]
) -> None:
    peer = spawn([sys.executable, "-c", SERVER], name="scripted")
    client = Client(peer, bindings)
    assert client.connect("2025-11-25").version == "2025-11-25"
    # Unknown members ride along in `extra` and come back out unchanged.
    with pytest.raises(Rejected) as caught:
        client.call("tools/list")
    assert "$.result.tools[0].inputSchema" in str(caught.value)
    client.call("ping")
    peer.close()

    assert [r.errors[0].split(":")[0] for r in client.rejected] == [
        "$.params.progress",
        "$.params.maxTokens",
        "$.method",
    ]
    sent = [e.message for e in peer.transcript if e.direction == "client->server"]
    answers = {m["id"]: m for m in sent if "id" in m and "method" not in m}
    assert answers["s1"]["error"]["code"] == -32602
    assert "$.params." in answers["s1"]["error"]["message"]
    assert answers["s2"]["error"]["code"] == -32601

    audit = client.audit()
    paths = {e.split(":")[0] for f in audit.failures for e in f.errors}
    assert {"$.params.progress", "$.params.maxTokens", "$.method",
            "$.result.tools[0].inputSchema"} <= paths  # fmt: skip
    assert len(audit.failures) == 4
    # Everything else checked out: initialize (with an unknown member), the client's answers.
    assert audit.total == len(peer.transcript) == 12
    assert audit.requests["c2s initialize"] == 1 and audit.results["s2c initialize"] == 1
    assert audit.errors["c2s sampling/createMessage"] == 1
    report = "\n".join(map(str, audit.failures))
    assert '"maxTokens": "ten"' in report and "expected" in report


def test_json_diff_names_paths() -> None:
    assert json_diff({"a": [1, {"b": True}]}, {"a": [1, {"b": 1}]}) == [
        "$.a[1].b: re-encoded true, received 1"
    ]
    assert json_diff({"a": 1}, {"a": 1, "z": 2}) == ["$.z: only in received"]
    assert not same_json(1, 1.0) and not same_json(True, 1) and same_json({"a": 1}, {"a": 1})
