"""Golden output of the example protocol under generated/, compared byte for byte; determinism
across hash seeds; the `--check` drift gate.

`generated/example_v1` and `generated/example_v2` are exactly what
`mcp-codegen schemas/example/vN/schema.ts -o generated/example_vN` writes from the repo root.
A failure prints the diff; `pytest --update-golden tests/test_bindings_golden.py` rewrites them.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bindings_support import REPO, import_package, mypy_strict, ruff_check

from codegen.cli import main
from codegen.outputs import render_all
from codegen.pipeline import load
from codegen.write import MANIFEST, differences, write_tree

EXAMPLES = {
    "example_v1": "schemas/example/v1/schema.ts",
    "example_v2": "schemas/example/v2/schema.ts",
}
UPDATE = "pytest --update-golden tests/test_bindings_golden.py"


def _render(schema: str) -> dict[str, str]:
    """What the CLI writes for `schema` (a path relative to the repo root, run from there)."""
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return render_all(load(schema))
    finally:
        os.chdir(cwd)


def _diff(target: Path, files: dict[str, str], limit: int = 120) -> str:
    out: list[str] = []
    for rel in differences(target, files):
        old = (target / rel).read_text(encoding="utf-8") if (target / rel).is_file() else ""
        lines = difflib.unified_diff(
            old.splitlines(keepends=True),
            files[rel].splitlines(keepends=True),
            f"committed/{rel}",
            f"generated/{rel}",
        )
        out.extend(lines)
    shown = "".join(out[:limit])
    more = f"\n... {len(out) - limit} more diff lines" if len(out) > limit else ""
    return shown + more


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_golden_package(name: str, update_golden: bool) -> None:
    files = _render(EXAMPLES[name])
    target = REPO / "generated" / name
    if update_golden:
        write_tree(target, files)
        return
    stale = differences(target, files)
    manifest = target / MANIFEST
    listed = set(json.loads(manifest.read_text())["files"]) if manifest.is_file() else set()
    gone = sorted(listed - set(files) - {MANIFEST})
    if stale or gone:
        pytest.fail(
            f"generated/{name} is not what mcp-codegen generates now "
            f"(differing: {stale}, no longer generated: {gone}).\n{_diff(target, files)}\n"
            f"If the change is intended, review the diff and run: {UPDATE}",
            pytrace=False,
        )


def test_golden_packages_import_and_pass_checkers(tmp_path: Path) -> None:
    root = REPO / "generated"
    pkgs = [root / name for name in sorted(EXAMPLES)]
    if not all((p / "__init__.py").exists() for p in pkgs):
        pytest.skip(f"golden packages missing: run {UPDATE}")
    for name in sorted(EXAMPLES):
        pkg = import_package(root, name)
        assert pkg.is_valid("Widget", {"name": "n", "id": "n", "kind": "button", "version": 1})
    mypy = mypy_strict(pkgs, tmp_path / "mypy-cache")
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr
    ruff = ruff_check(pkgs)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr


_DIGEST = """
import hashlib, os, sys
sys.path.insert(0, sys.argv[1])
os.chdir(sys.argv[1])
from codegen.bindings import render_package
from codegen.pipeline import load
h = hashlib.sha256()
for schema in sys.argv[2:]:
    for rel, text in sorted(render_package(load(schema)).items()):
        h.update(rel.encode() + b"\\0" + text.encode() + b"\\0")
print(h.hexdigest())
"""


def test_output_is_identical_under_different_hash_seeds() -> None:
    digests = set()
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run(
            [sys.executable, "-c", _DIGEST, str(REPO), *EXAMPLES.values()],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        digests.add(proc.stdout.strip())
    assert len(digests) == 1, digests


def test_check_flag_reports_drift(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "wcp"
    assert main([EXAMPLES["example_v1"], "-o", str(out)]) == 0
    assert main([EXAMPLES["example_v1"], "-o", str(out), "--check"]) == 0
    (out / "validators.py").write_text("# edited by hand\n", encoding="utf-8")
    assert main([EXAMPLES["example_v1"], "-o", str(out), "--check"]) == 1
    shutil.rmtree(out)
    assert main([EXAMPLES["example_v1"], "-o", str(out), "--check"]) == 1


def test_header_names_the_source_and_its_hash() -> None:
    files = _render(EXAMPLES["example_v1"])
    digest = hashlib.sha256((REPO / EXAMPLES["example_v1"]).read_bytes()).hexdigest()
    for rel in ("__init__.py", "models.py", "codec.py", "validators.py", "_runtime.py"):
        first = files[rel].splitlines()[0]
        assert first == f"# Generated by mcp-codegen from schema.ts (sha256 {digest}).", rel
