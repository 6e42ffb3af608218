"""Fixtures for the conformance tests: the installed suite (skips locally, fails under CI=true
when it cannot be installed), the bindings both examples import, and a running example server."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from corpus import missing
from e2e.bindings import generate_distribution

from .suite import Suite, SuiteUnavailable, ensure_suite

REPO = Path(__file__).resolve().parents[2]
VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25"]
"""What the example server generates for itself (examples/server.py SPECS); 2025-03-26 because
the suite's sse-retry server answers `initialize` with it."""


@pytest.fixture(scope="session")
def suite() -> Suite:
    try:
        return ensure_suite()
    except SuiteUnavailable as exc:
        missing(f"conformance suite unavailable: {exc}")


@pytest.fixture(scope="session")
def example_bindings(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The multi-version package both examples import (its directory, for PYTHONPATH)."""
    return generate_distribution(spec_root, tmp_path_factory.mktemp("conformance"), VERSIONS)


def start_server(bindings: Path, *args: str) -> Iterator[str]:
    """Run examples/server.py on a free port; yield its URL, stop it afterwards."""
    env = {**os.environ, "PYTHONPATH": str(bindings)}
    cmd = [sys.executable, "-u", str(REPO / "examples" / "server.py"), "--port", "0", *args]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "MCP server on http://127.0.0.1:PORT/mcp (...)"
        assert "http://127.0.0.1:" in line, f"the example server did not start: {line!r}"
        yield line.split()[3]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def server_2025_11_25(example_bindings: Path) -> Iterator[str]:
    yield from start_server(example_bindings)


@pytest.fixture(scope="session")
def server_2025_06_18(example_bindings: Path) -> Iterator[str]:
    yield from start_server(example_bindings, "--protocol-version", "2025-06-18")
