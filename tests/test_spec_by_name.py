"""The issue's acceptance test: from the tracked files alone (what a clean clone has), with no
local copy of the specification, the released versions are named on the command line, fetched
from a mirror on 127.0.0.1, verified, and give exactly the committed bindings and diff report."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from spec_server import serve

REPO = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((REPO / "tests" / "golden" / "bindings_sha256.json").read_text("utf-8"))
REPORTS = REPO / "generated" / "reports"

pytestmark = [pytest.mark.spec, pytest.mark.slow]  # ~10 s: four runs of the command line


def clean_checkout(dest: Path) -> Path:
    """The package's tracked files (codegen/, templates/, pyproject.toml and the data files the
    wheel ships from schemas/: the reviewed names and app renames, the profiles), as a clone has
    them; not the test corpus's manifest."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(REPO), "ls-files", "codegen", "templates", "pyproject.toml"]
            + ["schemas/names.json", "schemas/app-renames.json", "schemas/profiles"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for rel in listed:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, dest / rel)
    return dest


def test_released_versions_by_name_from_a_clean_clone(spec_root: Path, tmp_path: Path) -> None:
    clone = clean_checkout(tmp_path / "clone")
    user = tmp_path / "elsewhere"  # a user's directory: no ../shared/spec, no schemas/
    user.mkdir()
    with serve(spec_root) as mirror:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MCP_SPEC_")}
        env |= {
            "PYTHONPATH": str(clone),
            "MCP_SPEC_BASE_URL": mirror.url,
            "MCP_SPEC_CACHE_DIR": str(tmp_path / "spec-cache"),
        }

        def cli(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "codegen", *args],
                capture_output=True,
                text=True,
                cwd=user,
                env=env,
                timeout=300,
                check=False,
            )

        made = cli("2025-11-25", "-o", "mcp_2025_11_25")
        assert made.returncode == 0, made.stderr
        assert "fetched 2025-11-25 at b0f60ba5409d" in made.stderr
        md = cli("diff", "2025-11-25", "2026-07-28")
        js = cli("diff", "2025-11-25", "2026-07-28", "--format", "json", "--offline")
        table = cli("registry", "2025-11-25", "2026-07-28", "--offline")
    assert codegen_from(clone, user, made.stderr)
    written = user / "mcp_2025_11_25"
    actual = {
        rel: hashlib.sha256((written / rel).read_bytes()).hexdigest()
        for rel in GOLDEN["2025-11-25"]
    }
    assert actual == GOLDEN["2025-11-25"]
    assert (md.returncode, md.stdout) == (
        0,
        (REPORTS / "2025-11-25..2026-07-28.md").read_text("utf-8"),
    )
    assert (js.returncode, js.stdout) == (
        0,
        (REPORTS / "2025-11-25..2026-07-28.json").read_text("utf-8"),
    )
    assert table.returncode == 0
    assert table.stdout.startswith("| method | 2025-11-25 | 2026-07-28 |\n"), table.stderr


def codegen_from(clone: Path, cwd: Path, stderr: str) -> bool:
    """The run used the clone's package (a stray import of the repo's would prove nothing)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import codegen; print(codegen.__file__)"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(clone)},
        check=True,
    )
    return probe.stdout.strip().startswith(str(clone)) and "Traceback" not in stderr
