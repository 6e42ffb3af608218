"""Fixtures for the stdio e2e tests.

``node_peer`` / ``python_peer`` (session scope) give a peer's argv, installing it on first use;
an unavailable peer skips locally and fails under ``CI=true``; ``argv`` gives it for each
``peer_name`` in turn. ``spawn`` starts ``StdioPeer``s that are closed after the test; when a
test fails, their transcripts and stderr join the report.
``distribution`` (session scope) generates the one multi-version distribution; ``bindings``
imports each version of it for the bindings-driven client; ``single_package`` is one version's
package for examples/call_tools.py.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from corpus import missing

from .bindings import (
    VERSIONS,
    Bindings,
    generate_distribution,
    generate_package,
    load_distribution,
)
from .peers import PeerUnavailable, ensure_node_peer, python_peer_argv
from .stdio import StdioPeer

_SPAWNED = pytest.StashKey[list[StdioPeer]]()
Spawn = Callable[..., StdioPeer]
REPORTS: list[str] = []  # per-session reports of test_bindings_e2e, repeated at the end of the run


def _require(get_argv: Callable[[], list[str]]) -> list[str]:
    try:
        return get_argv()
    except PeerUnavailable as exc:
        missing(f"e2e peer unavailable: {exc}")


@pytest.fixture(scope="session")
def node_peer() -> list[str]:
    return _require(ensure_node_peer)


@pytest.fixture(scope="session")
def python_peer() -> list[str]:
    return _require(python_peer_argv)


@pytest.fixture(params=["node", "python"])
def peer_name(request: pytest.FixtureRequest) -> str:
    """Each peer in turn, for the tests that run against both."""
    return str(request.param)


@pytest.fixture
def argv(peer_name: str, request: pytest.FixtureRequest) -> list[str]:
    """The argv of the peer named by ``peer_name``."""
    value: list[str] = request.getfixturevalue(f"{peer_name}_peer")
    return value


@pytest.fixture(scope="session")
def distribution(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One multi-version distribution for every version in ``bindings.VERSIONS`` (package
    ``bindings.DIST_PACKAGE``), once per run; the directory to put on ``sys.path``."""
    return generate_distribution(spec_root, tmp_path_factory.mktemp("e2e_dist"), VERSIONS)


@pytest.fixture(scope="session")
def bindings(distribution: Path) -> dict[str, Bindings]:
    """Every version of ``distribution``, imported, by spec label."""
    return load_distribution(distribution, VERSIONS)


@pytest.fixture(scope="session")
def single_package(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 2025-11-25 single package (``mcp-codegen SCHEMA.ts -o``) examples/call_tools.py takes."""
    out = tmp_path_factory.mktemp("e2e_single")
    return generate_package(spec_root, out, "2025-11-25", "e2e_mcp_2025_11_25")


@pytest.fixture
def spawn(request: pytest.FixtureRequest) -> Iterator[Spawn]:
    peers = request.node.stash.setdefault(_SPAWNED, [])

    def start(argv: Sequence[str], **kwargs: Any) -> StdioPeer:
        peer = StdioPeer(argv, **kwargs)
        peers.append(peer)
        return peer

    yield start
    for peer in peers:
        peer.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        for peer in item.stash.get(_SPAWNED, []):
            report.sections.append((f"stdio peer {peer.name}", peer.describe(last=200)))
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if REPORTS:
        terminalreporter.section("e2e bindings report")
        for text in REPORTS:
            terminalreporter.write_line(text)
