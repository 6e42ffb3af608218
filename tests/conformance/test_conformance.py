"""The official MCP conformance suite (pinned in suite/package.json) against the examples:
every active server scenario of 2025-06-18 (server capped there, so the 2025-06-18 bindings are
exercised) and 2025-11-25, the pending ones it already passes, and the client scenarios without
OAuth, each run by the suite's own CLI with the expected-failures baseline (baseline.yml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO
from .suite import Suite, failures, read_results

pytestmark = [pytest.mark.spec, pytest.mark.slow]

BASELINE = Path(__file__).with_name("baseline.yml")
CLIENT_SCENARIOS = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"]
"""Every client scenario of the suite but the auth/ ones (OAuth is out of the examples' scope)."""
TIMEOUT = 600


def listed(suite: Suite, kind: str, version: str) -> list[str]:
    """The scenario names `conformance list` gives for `kind` ("server"/"client") at `version`."""
    out = subprocess.run(
        suite.argv("list", f"--{kind}", "--spec-version", version),
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    return [line.split()[1] for line in out.splitlines() if line.strip().startswith("- ")]


def run(suite: Suite, out: Path, *args: str, env: dict[str, str] | None = None) -> str:
    cmd = suite.argv(*args, "--expected-failures", str(BASELINE), "-o", str(out))
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=REPO, check=False
    )
    results = read_results(out)
    report = "\n".join(
        f"{name}: {'; '.join(failures(checks)) or 'pass'}" for name, checks in results.items()
    )
    assert proc.returncode == 0, f"{' '.join(args)} failed:\n{report}\n{proc.stdout[-6000:]}"
    return report


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
def test_server_scenarios(
    version: str, suite: Suite, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Every active server scenario of `version` passes against examples/server.py."""
    url: str = request.getfixturevalue(f"server_{version.replace('-', '_')}")
    run(suite, tmp_path, "server", "--url", url, "--spec-version", version)
    results = read_results(tmp_path)
    active = [s for s in listed(suite, "server", version) if s not in PENDING]
    assert sorted(results) == sorted(active)  # every one ran
    assert all(not failures(checks) for checks in results.values())


PENDING = ["json-schema-2020-12", "server-sse-polling"]
"""Server scenarios of 2025-11-25 the suite holds back from its active set; they pass too."""


def test_pending_server_scenarios(suite: Suite, tmp_path: Path, server_2025_11_25: str) -> None:
    run(suite, tmp_path, "server", "--url", server_2025_11_25, "--suite", "pending")
    assert sorted(read_results(tmp_path)) == sorted(PENDING)


@pytest.mark.parametrize("scenario", CLIENT_SCENARIOS)
def test_client_scenarios(
    scenario: str, suite: Suite, tmp_path: Path, example_bindings: Path
) -> None:
    """examples/client.py, driven by the suite (`--command`, the URL appended), passes."""
    command = f"{sys.executable} {REPO / 'examples' / 'client.py'}"
    env = {**os.environ, "PYTHONPATH": str(example_bindings)}
    run(suite, tmp_path, "client", "--command", command, "--scenario", scenario, env=env)
    assert list(read_results(tmp_path)) == [scenario]


def test_every_client_scenario_is_run(suite: Suite) -> None:
    """A new non-OAuth client scenario in the pinned suite must be added here."""
    found = {s for v in ("2025-06-18", "2025-11-25") for s in listed(suite, "client", v)}
    assert sorted(s for s in found if not s.startswith("auth/")) == sorted(CLIENT_SCENARIOS)


def test_readme_table_lists_every_scenario(suite: Suite) -> None:
    """The results table of docs/servers-and-clients.md has a row for every scenario run."""
    readme = (REPO / "docs" / "servers-and-clients.md").read_text()
    section = readme.split("## Conformance suite", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ")]
    names = {r.removeprefix("client: ").removesuffix(" (pending)") for r in rows[2:]}
    servers = set(listed(suite, "server", "2025-11-25"))
    assert names == servers | set(CLIENT_SCENARIOS)
    for example in ("server.py", "client.py"):  # the line counts it gives are current
        lines = len((REPO / "examples" / example).read_text().splitlines())
        assert f"`examples/{example}` ({lines} lines)" in section
