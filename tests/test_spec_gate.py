"""How tests that need the official corpus are gated: without it they skip locally and fail under
CI=true (the full command, `.ci/run`, must never pass by skipping them), and `-m "not spec"`
deselects every one of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import corpus
import pytest

REPO = Path(__file__).resolve().parent.parent
# One spec test, small enough to run in a child pytest.
SPEC_TEST = "tests/test_corpus.py::test_pins_match_manifest"


@pytest.mark.parametrize(
    ("ci", "outcome"),
    [("", pytest.skip.Exception), ("false", pytest.skip.Exception),
     ("true", pytest.fail.Exception), ("1", pytest.fail.Exception),
     ("yes", pytest.fail.Exception)],
)  # fmt: skip
def test_missing_corpus_skips_locally_and_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setenv("MCP_SPEC_DIR", str(tmp_path / "absent"))
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="official MCP schemas not found"):
        corpus.require_spec_dir()


def _pytest(tmp_path: Path, ci: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MCP_SPEC_DIR": str(tmp_path / "absent"), "CI": ci}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_spec_test_fails_under_ci_and_is_deselected_by_not_spec(tmp_path: Path) -> None:
    proc = _pytest(tmp_path, "true", SPEC_TEST)
    # The `spec_root` fixture fails, so pytest counts an error in setup: the run fails.
    ci_failed = proc.returncode == 1 and "1 error" in proc.stdout and "skipped" not in proc.stdout
    assert ci_failed and "official MCP schemas not found" in proc.stdout, proc.stdout[-2000:]
    deselected = _pytest(tmp_path, "true", SPEC_TEST, "-m", "not spec")
    assert deselected.returncode == 5 and "1 deselected" in deselected.stdout, deselected.stdout


def test_every_test_using_spec_root_is_marked_spec(request: pytest.FixtureRequest) -> None:
    """Forgotten markers are added at collection (conftest.py): nothing that asks for the corpus
    survives `-m "not spec"`."""
    unmarked = [
        item.nodeid
        for item in request.session.items
        if "spec_root" in getattr(item, "fixturenames", ())
        and item.get_closest_marker("spec") is None
    ]
    assert unmarked == []
