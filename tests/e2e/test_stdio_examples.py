"""examples/stdio_client.py, built on the generated client session, against the official SDK's
server, server-everything and examples/stdio_server.py, in 2025-06-18, 2025-11-25 and
2026-07-28: it negotiates the version it offers, calls every tool (with progress), reads every
resource, gets every prompt, and answers the server's sampling, elicitation and roots requests
(JSON-RPC requests up to 2025-11-25, an input-required result from 2026-07-28)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.spec, pytest.mark.slow]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CLIENT, SERVER = EXAMPLES / "stdio_client.py", EXAMPLES / "stdio_server.py"
OFFERS = ["2025-06-18", "2025-11-25", "2026-07-28"]
ANSWERS = ['"elicitation": {"action": "decline"}', '"roots": {"roots": [{"name": "tmp"',
           '"sampling": {"content": {"text": "42"']  # fmt: skip


def run_client(distribution: Path, offer: str, server: list[str], *tools: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(distribution)}
    cmd = [sys.executable, str(CLIENT), offer, *([",".join(tools)] if tools else []), "--", *server]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.parametrize("offer", OFFERS)
def test_with_the_sdk_server(distribution: Path, python_peer: list[str], offer: str) -> None:
    out = run_client(distribution, offer, python_peer)
    assert out.splitlines()[0] == f"protocol {offer}"
    assert "tool add: [{'type': 'text', 'text': '{\"sum\": 4}'}]" in out
    assert all(answer in out for answer in ANSWERS), out  # ask_client: the handlers answered
    assert "  1/2\n  2/2\ntool progress:" in out
    assert (
        "resource demo://static/logo: 1 content(s)" in out and "prompt greet: 1 message(s)" in out
    )


@pytest.mark.parametrize("offer", OFFERS)
def test_with_server_everything(distribution: Path, node_peer: list[str], offer: str) -> None:
    tools = ("echo", "get-sum", "trigger-sampling-request", "get-roots-list")  # not the slow ones
    out = run_client(distribution, offer, node_peer, *tools)
    assert out.splitlines()[0] == f"protocol {'2025-11-25' if offer == '2026-07-28' else offer}"
    assert "tool echo: [{'type': 'text', 'text': 'Echo: hello'}]" in out
    assert "tool get-sum: [{'type': 'text', 'text': 'The sum of 2 and 2 is 4.'}]" in out
    assert '"text": "42"' in out and "1. tmp" in out  # sampling and roots answered
    assert out.count("\nresource ") >= 1 and out.count("\nprompt ") >= 1


@pytest.mark.parametrize("offer", OFFERS)
def test_with_the_example_server(distribution: Path, offer: str) -> None:
    out = run_client(distribution, offer, [sys.executable, str(SERVER)])
    assert out.splitlines()[0] == f"protocol {offer}"
    assert "tool add: [{'type': 'text', 'text': '4'}]" in out
    assert '  1/3\n  log info: {"step": 1}\n' in out and "tool count: [" in out
    assert "resource demo://readme: 1 content(s)\nprompt greet: 1 message(s)" in out
