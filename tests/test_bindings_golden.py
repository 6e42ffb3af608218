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
from golden_files import load_from_repo

from codegen.cli import main
from codegen.targets.python.outputs import render_all
from codegen.write import MANIFEST, differences, write_tree

EXAMPLES = {
    "example_v1": "schemas/example/v1/schema.ts",
    "example_v2": "schemas/example/v2/schema.ts",
}
UPDATE = "pytest --update-golden tests/test_bindings_golden.py"


def _render(schema: str) -> dict[str, str]:
    """What the CLI writes for `schema` (a path relative to the repo root, run from there)."""
    return render_all(load_from_repo(schema))


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


@pytest.mark.slow
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


# Runs the CLI's entry point on each (schema, output dir) pair: one interpreter per hash seed.
_GENERATE = """
import sys
from codegen.cli import main
args = sys.argv[1:]
sys.exit(max(main([schema, "-o", out]) for schema, out in zip(args[::2], args[1::2])))
"""


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_output_is_identical_under_different_hash_seeds(tmp_path: Path) -> None:
    """Every file the CLI writes (manifest included), for both examples, byte for byte."""
    trees = []
    for seed in ("0", "4242"):
        outs = {name: tmp_path / seed / name for name in sorted(EXAMPLES)}
        pairs = [arg for name, out in outs.items() for arg in (EXAMPLES[name], str(out))]
        proc = subprocess.run(
            [sys.executable, "-c", _GENERATE, *pairs],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        trees.append({name: _tree(out) for name, out in outs.items()})
    assert all(trees[0].values()) and trees[0] == trees[1]


def test_check_flag_reports_drift(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "wcp"
    generate = [EXAMPLES["example_v1"], "-o", str(out)]
    assert main(generate) == 0
    assert main([*generate, "--check"]) == 0
    # One added line is drift, and --check only reports it: the edit stays.
    validators = out / "validators.py"
    edited = validators.read_text(encoding="utf-8") + "\n# edited\n"
    validators.write_text(edited, encoding="utf-8")
    assert main([*generate, "--check"]) == 1
    assert validators.read_text(encoding="utf-8") == edited
    validators.write_text("# replaced by hand\n", encoding="utf-8")
    assert main([*generate, "--check"]) == 1
    shutil.rmtree(out)
    assert main([*generate, "--check"]) == 1


def test_header_names_the_source_and_its_hash() -> None:
    files = _render(EXAMPLES["example_v1"])
    digest = hashlib.sha256((REPO / EXAMPLES["example_v1"]).read_bytes()).hexdigest()
    for rel in ("__init__.py", "models.py", "codec.py", "validators.py", "_runtime.py"):
        first = files[rel].splitlines()[0]
        assert first == f"# Generated by mcp-codegen from schema.ts (sha256 {digest}).", rel
