"""The pydantic target with `--profile python-sdk` against the official Python SDK's type layer
(`../shared/python-sdk`, or `$MCP_PYTHON_SDK_DIR`; skipped when missing, failed under CI=true):
the two wire modules generated from the SDK's pinned schema.ts files into a copy of `mcp-types`,
the SDK's own `tests/types` run unmodified against them (445 tests), a field-by-field comparison
of every class with the SDK's shipped modules (every difference explained, the report printed),
and the type checks the SDK runs (ruff, mypy --strict with the pydantic plugin, pyright strict).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bindings_support import tool
from corpus import REPO, in_ci
from pydantic_support.compare import differences, explain, report

from codegen.cli import main

pytestmark = pytest.mark.spec  # an external corpus, like the official schemas: not in the fast loop
MODULES = {"2025-11-25": "_v2025_11_25", "2026-07-28": "_v2026_07_28"}
SDK_TESTS = 445  # the SDK's tests/types at 57394b0
DESCRIBE = Path(__file__).parent / "pydantic_support" / "describe.py"


def sdk_dir() -> Path:
    env = os.environ.get("MCP_PYTHON_SDK_DIR")
    root = Path(env) if env else REPO.parent / "shared" / "python-sdk"
    if (root / "mcp-types" / "mcp_types").is_dir():
        return root
    msg = f"the Python SDK's type layer not found: set $MCP_PYTHON_SDK_DIR or provide {root}"
    if in_ci():
        pytest.fail(msg, pytrace=False)
    pytest.skip(msg)


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the SDK's type layer whose two wire modules are ours (written by the CLI)."""
    source = sdk_dir()
    root = tmp_path_factory.mktemp("sdk")
    shutil.copytree(source / "mcp-types", root / "mcp-types")
    shutil.copytree(source / "tests", root / "tests")
    for version, module in MODULES.items():
        out = root / "mcp-types" / "mcp_types" / module
        shutil.rmtree(out)  # a folder the generator did not write: the one-time replacement
        schema = source / "spec" / version / "schema.ts"
        args = [str(schema), "--target", "pydantic", "--profile", "python-sdk", "-o", str(out)]
        assert main(args) == 0
        assert sorted(p.name for p in out.iterdir()) == [
            ".mcp-codegen-manifest.json",
            "__init__.py",
        ]
    return root


def _python(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root / "mcp-types"), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, check=False, cwd=root, env=env
    )


def test_the_sdks_own_tests_pass_on_the_generated_modules(sdk: Path) -> None:
    done = _python(sdk, "-m", "pytest", "tests/types", "-q", "-p", "no:cacheprovider")
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    print(summary)
    assert re.search(rf"\b{SDK_TESTS} passed\b", summary) and "failed" not in summary, done.stdout[
        -4000:
    ]


@pytest.fixture(scope="module")
def described(sdk: Path) -> dict[str, dict[str, Any]]:
    """Both modules of each side, described (one process per side)."""
    out: dict[str, dict[str, Any]] = {}
    for side, root in (("shipped", sdk_dir()), ("ours", sdk)):
        done = _python(root, str(DESCRIBE), *(f"mcp_types.{m}" for m in MODULES.values()))
        assert done.returncode == 0, done.stderr
        out[side] = json.loads(done.stdout)
    return out


@pytest.mark.parametrize("version", list(MODULES))
def test_every_class_matches_the_shipped_module_field_by_field(
    described: dict[str, dict[str, Any]], version: str
) -> None:
    """Classes, kinds, extra policies, fields by wire name, their attributes, types,
    requiredness and defaults; each remaining difference must have a reviewed reason."""
    shipped = described["shipped"][f"mcp_types.{MODULES[version]}"]
    ours = described["ours"][f"mcp_types.{MODULES[version]}"]
    found = differences(shipped, ours)
    reasons: dict[str, list[str]] = {}
    unexplained = []
    for d in found:
        why = explain(d, shipped, ours)
        if why is None:
            unexplained.append(d)
        else:
            reasons.setdefault(why, []).append(str(d))
    lines = [f"{version}: {len(found)} differences, {len(unexplained)} unexplained"]
    for why, items in reasons.items():
        lines += [f"-- {len(items)}: {why}", *(f"   {i}" for i in items)]
    print("\n".join(lines))
    assert len(shipped) == len(ours)  # every class and alias, no more
    assert not unexplained, report(unexplained)


@pytest.mark.slow
def test_the_modules_pass_ruff_mypy_strict_and_pyright_strict(sdk: Path, tmp_path: Path) -> None:
    """As the SDK runs them: ruff (defaults, isort, pyupgrade), mypy --strict with the pydantic
    plugin, pyright strict; mypy and pyright run side by side."""
    types = sdk / "mcp-types"
    paths = [str(types / "mcp_types" / m / "__init__.py") for m in MODULES.values()]
    pyright = shutil.which("pyright", path=str(Path(sys.executable).parent)) or shutil.which(
        "pyright"
    )
    if pyright is None and in_ci():
        pytest.fail("pyright not installed (the test extra has it)")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = pydantic.mypy\nstrict = True\n")
    mypy = [tool("mypy"), "--config-file", str(tmp_path / "mypy.ini"), "--follow-imports=silent"]
    running = {"mypy": _start([*mypy, f"--cache-dir={tmp_path / 'mypy'}", *paths], types)}
    if pyright is not None:
        include = [f"mcp_types/{m}" for m in MODULES.values()]  # relative: pyright wants them so
        config = {"typeCheckingMode": "strict", "pythonVersion": "3.10", "include": include}
        (types / "pyrightconfig.json").write_text(json.dumps(config))
        running["pyright"] = _start([pyright, "--pythonpath", sys.executable], types)
    ruff = [tool("ruff"), "check", "--isolated", "--no-cache", "--target-version", "py310"]
    done = subprocess.run(
        [*ruff, "--extend-select", "I,UP", *paths],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout
    for name, proc in running.items():
        out, _ = proc.communicate()
        assert proc.returncode == 0, f"{name}:\n{out[-4000:]}"
    if pyright is None:
        pytest.skip("pyright not installed: ruff and mypy passed")


def _start(cmd: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
