"""Every supported Python (issue 39): the tool and the packages it generates work on each CPython
the project claims, not only the one the suite runs on.

- The generated packages of the seven official versions and of a three-version distribution are
  imported module by module, and the official examples round-trip, under every supported
  interpreter (`SUPPORTED`, the classifiers in pyproject.toml).
- The tool itself, run from this checkout under the oldest and the newest supported interpreter
  (with its pinned dependencies in a cached venv), writes the same bytes as under the default one.
- Every docstring of every generated and static module encodes as UTF-8: a lone surrogate there
  is what kept the packages from importing on 3.13 (its compiler encodes docstrings).

Interpreters are looked up in pyenv's folder, then on PATH; under CI=true a claimed interpreter
that the machine lacks fails the test (`corpus.missing`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import corpus
import pytest
import tomllib
from cli_support import REPO, run_cli

SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
# The extremes run the tool itself (each needs a venv with the pinned dependencies).
TOOL_PYTHONS = (SUPPORTED[0], SUPPORTED[-1])
DIST_VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mcp-codegen-tests"


def interpreter(minor: str) -> Path:
    """The newest CPython `minor` (e.g. "3.13") on this machine; fails under CI when missing."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(
        pyenv.glob(f"{minor}.*/bin/python{minor}"),
        key=lambda p: tuple(int(x) for x in re.findall(r"\d+", p.parts[-3])),
    )
    if found:
        return found[-1]
    for folder in ("/usr/local/bin", "/usr/bin"):
        candidate = Path(folder) / f"python{minor}"
        if candidate.is_file():
            return candidate
    corpus.missing(f"Python {minor} not found (pyenv's versions/ or PATH): the project claims it")


def test_classifiers_name_exactly_the_tested_pythons() -> None:
    meta = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    claimed = sorted(
        c.rsplit(" :: ", 1)[1]
        for c in meta["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert claimed == sorted(SUPPORTED, key=lambda v: int(v.split(".")[1]))
    assert meta["requires-python"] == f">={SUPPORTED[0]}"
    assert f"Python {SUPPORTED[0]} to {SUPPORTED[-1]}" in (REPO / "README.md").read_text("utf-8")


@pytest.fixture(scope="module")
def packages(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seven official versions (one package each, `v<n>`) and a three-version distribution
    (`mcp_pythons`), written by the command line into one folder."""
    root = tmp_path_factory.mktemp("pythons")
    for n, version in enumerate(corpus.version_names()):
        proc = run_cli(str(spec_root / version / "schema.ts"), "-o", str(root / f"v{n}"))
        assert proc.returncode == 0, proc.stderr
    schemas = [str(spec_root / v / "schema.ts") for v in DIST_VERSIONS]
    proc = run_cli(*schemas, "-o", str(root / "dist"), "--package", "mcp_pythons")
    assert proc.returncode == 0, proc.stderr
    examples = [
        {"version": n, "type": ex.type_name, "instance": ex.instance}
        for n, version in enumerate(corpus.version_names())
        for ex in corpus.examples(version)
    ]
    assert examples, "the official examples are missing"
    (root / "examples.json").write_text(json.dumps(examples), encoding="utf-8")
    return root


# Run by each interpreter: import every module, round-trip every example through decode/encode
# and the JSON text codec, and print what it did.
_CHECK = r"""
import importlib, json, pkgutil, sys
root = sys.argv[1]
sys.path[:0] = [root, root + "/dist"]
names = sorted(p.name for p in __import__("pathlib").Path(root).glob("v[0-9]*"))
modules = 0
for name in names + ["mcp_pythons"]:
    pkg = importlib.import_module(name)
    modules += 1
    for info in pkgutil.walk_packages(pkg.__path__, name + "."):
        importlib.import_module(info.name)
        modules += 1
trips = 0
for ex in json.load(open(root + "/examples.json", encoding="utf-8")):
    m = importlib.import_module("v%d" % ex["version"])
    obj = m.decode(ex["type"], ex["instance"])
    key = lambda v: json.dumps(v, sort_keys=True)
    assert key(m.encode(obj)) == key(ex["instance"]), ex["type"]
    cls = getattr(m, ex["type"], None)
    if isinstance(cls, type) and type(obj) is cls:
        assert cls.from_json(obj.to_json()) == obj, ex["type"]
    trips += 1
print(json.dumps({"python": "%d.%d" % sys.version_info[:2], "modules": modules, "trips": trips}))
"""


def _run_everywhere(packages: Path) -> dict[str, dict[str, object]]:
    """Every supported interpreter checks the packages at once (two cores: the waits overlap)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    procs = {
        minor: subprocess.Popen(
            [str(interpreter(minor)), "-I", "-c", _CHECK, str(packages)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for minor in SUPPORTED
    }
    out = {}
    for minor, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, f"Python {minor}:\n{stderr[-4000:]}"
        out[minor] = json.loads(stdout)
    return out


@pytest.mark.spec
@pytest.mark.slow
def test_generated_packages_import_and_round_trip_on_every_python(packages: Path) -> None:
    results = _run_everywhere(packages)
    expected = len(json.loads((packages / "examples.json").read_text("utf-8")))
    modules = {r["modules"] for r in results.values()}
    assert len(modules) == 1, results  # every interpreter imported the same modules
    assert {r["python"] for r in results.values()} == set(SUPPORTED)
    assert all(r["trips"] == expected for r in results.values()), results
    # seven packages and the distribution, each with its submodules
    assert modules.pop() > 8 * 5


def _docstrings(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=True)
            if doc is not None:
                out.append((getattr(node, "lineno", 1), doc))
    return out


def _unencodable_docstrings(files: list[Path]) -> list[str]:
    bad = []
    for path in files:
        for line, doc in _docstrings(ast.parse(path.read_text(encoding="utf-8"))):
            try:
                doc.encode("utf-8")
            except UnicodeEncodeError as err:
                bad.append(f"{path}:{line}: {err.reason} ({doc[err.start : err.end]!r})")
    return bad


def test_static_modules_have_encodable_docstrings() -> None:
    files = sorted((REPO / "templates").rglob("*.py")) + sorted((REPO / "generated").rglob("*.py"))
    assert files
    assert _unencodable_docstrings(files) == []


@pytest.mark.spec
def test_generated_modules_have_encodable_docstrings(packages: Path) -> None:
    files = sorted(packages.rglob("*.py"))
    assert len(files) > 40
    assert _unencodable_docstrings(files) == []


def test_the_scan_finds_a_lone_surrogate(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('def f():\n    """a \\ud800 b"""\n', encoding="utf-8")
    assert _unencodable_docstrings([bad]) == [f"{bad}:1: surrogates not allowed ('\\ud800')"]


def _tool_venv(minor: str) -> Path:
    """A venv of Python `minor` holding the tool's pinned runtime dependencies (not the tool: the
    checkout runs from PYTHONPATH), cached by the dependency list."""
    deps = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    key = hashlib.sha256(json.dumps(sorted(set(deps))).encode()).hexdigest()[:12]
    venv = CACHE / f"venv-{minor}-{key}"
    python = venv / "bin" / "python"
    if not (venv / "ok").is_file():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([str(interpreter(minor)), "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, *sorted(set(deps))], check=True, timeout=600)
        (venv / "ok").write_text("", encoding="utf-8")
    return python


def _tree(folder: Path) -> dict[str, bytes]:
    """The files the tool wrote (the interpreters' bytecode caches left out)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.mark.spec
@pytest.mark.slow
@pytest.mark.parametrize("minor", TOOL_PYTHONS)
def test_the_tool_writes_the_same_bytes_on(
    minor: str, spec_root: Path, packages: Path, tmp_path: Path
) -> None:
    python = _tool_venv(minor)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    schemas = [str(spec_root / v / "schema.ts") for v in DIST_VERSIONS]
    proc = subprocess.run(
        [str(python), "-m", "codegen", *schemas, "-o", str(tmp_path / "dist")]
        + ["--package", "mcp_pythons"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    mine, theirs = _tree(packages / "dist"), _tree(tmp_path / "dist")
    assert sorted(mine) == sorted(theirs)
    assert [rel for rel in sorted(mine) if mine[rel] != theirs[rel]] == []
