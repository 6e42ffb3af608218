"""Helpers for the tests of the generated Python bindings (tests/test_bindings_*.py): generate a
package from a schema into a directory, import it under a unique name, run the checkers."""

from __future__ import annotations

import contextlib
import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from codegen import ir
from codegen.pipeline import load, load_text
from codegen.targets.python.bindings import render_package

REPO = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def write_package(files: dict[str, str], root: Path, name: str) -> Path:
    pkg = root / name
    pkg.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        (pkg / rel).write_bytes(text.encode("utf-8"))
    return pkg


def import_package(root: Path, name: str) -> ModuleType:
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[mod]
    importlib.invalidate_caches()
    return importlib.import_module(name)


JSON_PATHS = ("stdlib", "orjson")
"""The two ways the runtime reads and writes JSON text (orjson: in the test extra)."""


@contextlib.contextmanager
def json_path(runtime: ModuleType, path: str) -> Iterator[None]:
    """Run with a generated package's `_runtime` reading and writing JSON text the `path` way,
    whatever `MCP_BINDINGS_JSON` says."""
    saved = runtime._ORJSON
    orjson = importlib.import_module("orjson")
    runtime._ORJSON = runtime._orjson_of(orjson) if path == "orjson" else None
    try:
        yield
    finally:
        runtime._ORJSON = saved


def unformatted(resolved: ir.Resolved) -> dict[str, str]:
    """The package as the views write it, for tests of behaviour only (the formatter changes
    layout, never the syntax tree); the static checks and pins run on formatted output."""
    return render_package(resolved, formatter=None)


def generate(resolved: ir.Resolved, root: Path, name: str) -> ModuleType:
    write_package(render_package(resolved), root, name)
    return import_package(root, name)


def generate_file(schema: Path, root: Path, name: str) -> ModuleType:
    return generate(load(str(schema)), root, name)


def generate_text(text: str, root: Path, name: str) -> ModuleType:
    return generate(load_text(text, f"{name}.ts"), root, name)


def tool(name: str) -> str:
    path = VENV_BIN / name
    return str(path) if path.exists() else name


def mypy_strict(paths: list[Path], cache: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """`mypy --strict` over the packages in one run (with its own cache directory)."""
    cmd = [tool("mypy"), "--strict", "--no-color-output", f"--cache-dir={cache}", *flags]
    cmd += map(str, paths)
    return subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=paths[0].parent)


def ruff_check(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    """`ruff check` with ruff's own default rules (no project configuration), for Python 3.10."""
    cmd = [tool("ruff"), "check", "--isolated", "--target-version", "py310", "--no-cache"]
    return subprocess.run([*cmd, *map(str, paths)], capture_output=True, text=True, check=False)
