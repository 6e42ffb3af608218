"""The examples against both peers: examples/call_tools.py (shown in docs/servers-and-clients.md) with one
version's package, examples/client.py with the multi-version distribution, offering each version."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .bindings import VERSIONS
from .test_bindings_e2e import NEGOTIATED

pytestmark = pytest.mark.spec

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "call_tools.py"
CLIENT = EXAMPLE.with_name("client.py")
CALLS = {
    "python": (
        "echo,add",
        ["add({\"a\": 2, \"b\": 2}) -> [{'type': 'text', 'text': '{\"sum\": 4}'}]"],
    ),
    "node": ("echo,get-sum", ["The sum of 2 and 2 is 4.", "Echo: hello"]),
}


@pytest.mark.parametrize("peer_name", sorted(CALLS))
def test_call_tools_example(
    peer_name: str, single_package: Path, request: pytest.FixtureRequest
) -> None:
    argv: list[str] = request.getfixturevalue(f"{peer_name}_peer")
    package = single_package
    tools, expected = CALLS[peer_name]
    cmd = [sys.executable, str(EXAMPLE), str(package), tools, "--", *argv]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].endswith("protocol 2025-11-25")
    assert sum(line.startswith("tool ") for line in lines) >= 5
    for text in expected:
        assert text in proc.stdout, proc.stdout


@pytest.mark.parametrize("offer", VERSIONS)
@pytest.mark.parametrize("peer_name", sorted(CALLS))
def test_client_example(
    peer_name: str, offer: str, distribution: Path, request: pytest.FixtureRequest
) -> None:
    """examples/client.py negotiates (server/discover or initialize, with the fallback) and
    calls tools with the bindings of the version the peer agreed to."""
    argv: list[str] = request.getfixturevalue(f"{peer_name}_peer")
    tools, expected = CALLS[peer_name]
    cmd = [sys.executable, str(CLIENT), offer, tools, "--", *argv]
    env = {**os.environ, "PYTHONPATH": str(distribution)}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    agreed = NEGOTIATED[peer_name][offer]
    key = offer if agreed == "2026-07-28" else agreed  # a draft offered keeps its bindings
    assert lines[0].endswith(f"protocol {agreed} (bindings {key})"), lines[0]
    assert sum(line.startswith("tool ") for line in lines) >= 5
    for text in expected:
        assert text in proc.stdout, proc.stdout


def test_readme_shows_the_example() -> None:
    readme = (EXAMPLE.parents[1] / "docs" / "servers-and-clients.md").read_text()
    section = readme.split("## Talking to a real server", 1)[1].split("\n## ", 1)[0]
    shown = section.split("```python\n", 1)[1].split("```", 1)[0]
    code = EXAMPLE.read_text()
    assert shown == code[code.index('"""', 3) + 4 :].lstrip("\n")


def test_examples_pass_mypy_strict(
    distribution: Path, single_package: Path, tmp_path: Path
) -> None:
    """The examples are what users copy: `mypy --strict` finds nothing in them, with the
    generated packages they import (the distribution and the single package) on MYPYPATH."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    env = {**os.environ, "MYPYPATH": f"{distribution}{os.pathsep}{single_package}"}
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(tmp_path / "cache"), str(examples / "client.py"),
         str(examples / "call_tools.py"), str(examples / "server.py"),
         str(examples / "stdio_server.py"), str(examples / "stdio_client.py")],
        env=env, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
