"""Fixtures for the stdio e2e tests.

``node_peer`` / ``python_peer`` (session scope) give a peer's argv, installing it on first use;
an unavailable peer skips locally and fails under ``CI=true``; ``argv`` gives it for each
``peer_name`` in turn. ``spawn`` starts ``StdioPeer``s that are closed after the test; when a
test fails, their transcripts and stderr join the report.
``bindings`` (session scope) generates the packages the bindings-driven client uses;
``distribution`` (session scope) the one multi-version distribution examples/client.py imports.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from corpus import in_ci

from .bindings import VERSIONS, Bindings, generate_all, generate_distribution
from .peers import PeerUnavailable, ensure_node_peer, python_peer_argv
from .stdio import StdioPeer

_SPAWNED = pytest.StashKey[list[StdioPeer]]()
Spawn = Callable[..., StdioPeer]
REPORTS: list[str] = []  # per-session reports of test_bindings_e2e, repeated at the end of the run


def _require(get_argv: Callable[[], list[str]]) -> list[str]:
    try:
        return get_argv()
    except PeerUnavailable as exc:
        if in_ci():
            pytest.fail(f"e2e peer unavailable under CI=true: {exc}", pytrace=False)
        pytest.skip(f"e2e peer unavailable: {exc}")


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
def bindings(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Bindings]:
    """Generated packages for every version in ``bindings.VERSIONS``, once per run (temp dir)."""
    return generate_all(spec_root, tmp_path_factory.mktemp("e2e_bindings"), VERSIONS)


@pytest.fixture(scope="session")
def distribution(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One multi-version distribution for every version in ``bindings.VERSIONS`` (package
    ``bindings.DIST_PACKAGE``), once per run; the directory to put on ``sys.path``."""
    return generate_distribution(spec_root, tmp_path_factory.mktemp("e2e_dist"), VERSIONS)


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
