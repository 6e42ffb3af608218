"""`mcp-codegen check-server`: a server that omits `resultType` at 2026-07-28 (exit 1, naming
the method and the version), one that hangs and one that dies (reported, not waited on), and
the real peers of the e2e tests (the official Python SDK's server, server-everything) in every
version each supports; their tables are printed."""

from __future__ import annotations

import sys
from pathlib import Path

import corpus
import pytest

from codegen.cli import main as cli_main

pytestmark = pytest.mark.spec


@pytest.fixture(autouse=True)
def _spec_dir(spec_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checkers read each version's schema from the official folder (as `--spec-dir`)."""
    monkeypatch.setenv("MCP_SPEC_DIR", str(spec_root))


FAULTY = Path(__file__).resolve().parent / "fixtures" / "conformance" / "faulty_server.py"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = cli_main(["check-server", *args])
    return code, capsys.readouterr().out


@pytest.mark.slow
def test_missing_result_type_is_named_with_method_and_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "--version", "2025-11-25", "--version", "2026-07-28", "--",
                    sys.executable, str(FAULTY), "no-result-type")  # fmt: skip
    assert code == 1
    rows = {line.split(" | ")[0].strip("| "): line for line in out.splitlines()[2:4]}
    assert "violation" not in rows["2025-11-25"]
    assert "2026-07-28: message" in out and "tools/list): $.result.resultType" in out
    assert "`resultType` is required since 2026-07-28" in out


@pytest.mark.slow
def test_a_well_behaved_server_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "--version", "2026-07-28", "--", sys.executable, str(FAULTY), "ok")
    assert code == 0, out


@pytest.mark.slow
@pytest.mark.parametrize(("fault", "said"), [("hang", "no answer within the timeout"),
                                             ("die", "the server exited (status 3)")])  # fmt: skip
def test_hung_or_dead_server_is_reported(
    capsys: pytest.CaptureFixture[str], fault: str, said: str
) -> None:
    code, out = run(capsys, "--version", "2025-11-25", "--timeout", "1", "--",
                    sys.executable, str(FAULTY), fault)  # fmt: skip
    assert code == 1 and f"2025-11-25: stopped: {said}" in out


@pytest.mark.slow
def test_server_text_cannot_forge_output_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "--version", "2025-11-25", "--", sys.executable, str(FAULTY), "hostile")
    assert code == 1 and "not JSON" in out
    for line in out.splitlines():
        assert not line.startswith("::") and "\u2028" not in line and "\x1b" not in line
    assert "::error::" not in out


def test_bad_arguments_are_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "--")[0] == 2
    assert run(capsys, "--timeout", "0", "--", sys.executable)[0] == 2
    assert run(capsys, "--", str(tmp_path / "no-such-server"))[0] == 2


def _peer(kind: str) -> list[str]:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "e2e"))
    from peers import PeerUnavailable, ensure_node_peer, python_peer_argv

    try:
        return ensure_node_peer() if kind == "node" else python_peer_argv()
    except PeerUnavailable as exc:
        corpus.missing(f"{kind} peer unavailable: {exc}")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["python", "node"])
def test_real_servers(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every released version; server-everything refuses 2026-07-28 (no server/discover, its
    initialize answers 2025-11-25), which is reported, not a failure."""
    code, out = run(capsys, "--", *_peer(kind))
    with capsys.disabled():
        print(f"\n[check-server {kind}]\n{out}")
    assert code == 0, out
    refused = [line.split(" | ")[0].strip("| ") for line in out.splitlines() if "refused" in line]
    assert refused == ([] if kind == "python" else ["2026-07-28"])
