"""The stdio transport itself, against tiny Python child processes: nothing may hang."""

from __future__ import annotations

import sys
import time

import pytest

from .conftest import Spawn
from .stdio import PeerClosed, PeerProtocolError, PeerTimeout

# Echoes each request back as a response (result = params) after first sending a notification
# and a server->client request; answers to its own requests are printed to stderr.
ECHO = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "method" not in msg:
        print("answer", json.dumps(msg), file=sys.stderr, flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {"n": msg["id"]}}), flush=True)
    print(json.dumps({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"}), flush=True)
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": msg.get("params", {})}), flush=True)
"""


def py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_request_dispatches_interleaved_messages(spawn: Spawn) -> None:
    peer = spawn(py(ECHO), name="echo")
    seen: list[str] = []
    resp = peer.request(
        {"jsonrpc": "2.0", "id": 7, "method": "x", "params": {"a": "é"}},
        timeout=10,
        on_message=lambda p, m: seen.append(m["method"]),
    )
    assert resp == {"jsonrpc": "2.0", "id": 7, "result": {"a": "é"}}
    assert seen == ["notifications/message", "roots/list"]
    assert [m["method"] for m in peer.notifications] == ["notifications/message"]
    assert [m["id"] for m in peer.server_requests] == ["s1"]
    # With no handler, server requests get a -32601 error so the server never waits on us.
    peer.request({"jsonrpc": "2.0", "id": 8, "method": "x"}, timeout=10)
    deadline = time.monotonic() + 10
    while "-32601" not in peer.stderr and time.monotonic() < deadline:
        time.sleep(0.05)
    assert '"id": "s1"' in peer.stderr and "-32601" in peer.stderr
    directions = [e.direction for e in peer.transcript]
    assert directions[0] == "client->server" and "server->client" in directions
    assert peer.transcript[0].raw == '{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"é"}}'


def test_timeout_is_bounded_and_diagnosed(spawn: Spawn) -> None:
    peer = spawn(
        py("import sys, time; print('starting', file=sys.stderr, flush=True); time.sleep(60)")
    )
    with pytest.raises(PeerTimeout, match="starting"):
        peer.request({"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=0.5)
    # The child sleeps 60 s and is still running: the request gave up on its own timeout, it
    # did not wait for the child to exit (no clock read: a loaded machine cannot fail this).
    assert peer.proc.poll() is None


def test_exit_and_garbage_are_errors(spawn: Spawn) -> None:
    peer = spawn(py("print('not json', flush=True)"))
    with pytest.raises(PeerProtocolError, match="not json"):
        peer.recv(timeout=10)
    with pytest.raises(PeerClosed):
        peer.recv(timeout=10)
    with pytest.raises(PeerClosed):  # stays closed
        peer.recv(timeout=10)


def test_close_kills_stubborn_process(spawn: Spawn) -> None:
    stubborn = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('{}', flush=True); time.sleep(60)"
    peer = spawn(py(stubborn))
    assert peer.recv(timeout=10) == {}
    # Killed by SIGKILL (it ignores SIGTERM), not waited for: the 60 s sleep would end in 0.
    assert peer.close(grace=0.2, timeout=0.5) == -9
