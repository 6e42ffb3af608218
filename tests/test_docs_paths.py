"""Every module and file of the generator that the docs name exists: a `codegen/...py` path or
folder, a `codegen.x.y` module (with an attribute after it: `codegen.pyformat.start_format`).
The code moves (the targets became plugins under codegen/targets/); the prose must follow.

The benchmark README's results block is a recorded run of the commit it names, so its profile
tables keep that commit's module names; each such former name must be explained in the README's
own prose, written as `OLD` (now `NEW`) or `OLD` (gone: why), and NEW must exist. The comments
and docstrings of codegen/, benchmarks/ and tests/ are held to the same."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = REPO / "benchmarks" / "README.md"
PAGES = [REPO / "README.md", BENCHMARKS, *sorted((REPO / "docs").glob("*.md"))]
SOURCES = [
    path
    for folder in ("codegen", "benchmarks", "tests")
    for path in sorted((REPO / folder).rglob("*.py"))
    if path != Path(__file__).resolve()  # its examples name old paths on purpose
]
PATH = re.compile(r"(?<![\w/.-])codegen/[\w/.-]*")
MODULE = re.compile(r"(?<![\w/.-])codegen(?:\.\w+)+")
FORMER = re.compile(r"`(codegen(?:\.\w+)+)`\s+\((?:now `(codegen(?:\.\w+)+)`|gone\b)")
RESULTS = re.compile(r"<!-- results:begin -->.*?<!-- results:end -->", re.DOTALL)


@functools.cache
def defined(module: Path) -> frozenset[str]:
    """The top-level names a module defines or imports."""
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            for target in ast.walk(node):
                if isinstance(target, ast.Name) and isinstance(target.ctx, ast.Store):
                    names.add(target.id)
    return frozenset(names)


def module_exists(dotted: str) -> bool:
    """`codegen.a.b[.attr]`: packages and modules down the path, then at most one attribute
    that the module (or the package's __init__) defines."""
    folder = REPO / "codegen"
    parts = dotted.split(".")[1:]
    for i, part in enumerate(parts):
        if (folder / part / "__init__.py").is_file():
            folder = folder / part
            continue
        module = folder / f"{part}.py"
        if module.is_file():
            rest = parts[i + 1 :]
            return not rest or rest[0] in defined(module) or rest[0].startswith("__")
        return part in defined(folder / "__init__.py") or part.startswith("__")
    return True


def path_exists(path: str) -> bool:
    """A `.py` file or a folder (written with its trailing `/`); placeholders (`NAME`) and
    caches are not paths of the tree."""
    if "__pycache__" in path or any(seg.isupper() for seg in path.split("/")):
        return True
    if path.endswith(".py"):
        return (REPO / path).is_file()
    if path.endswith("/"):
        return (REPO / path).is_dir()
    return True  # `codegen/targets/zod/layout.WIDTH`: a module's constant, read as prose


def stale(text: str) -> Iterator[str]:
    """The paths and modules of `text` the tree does not have."""
    for found in PATH.finditer(text):
        if not path_exists(found.group(0).rstrip(".")):
            yield found.group(0)
    for found in MODULE.finditer(text):
        if not module_exists(found.group(0)):
            yield found.group(0)


def formers(text: str) -> dict[str, str | None]:
    """The former names a page explains: OLD -> NEW (None when gone)."""
    return {m.group(1): m.group(2) for m in FORMER.finditer(text)}


def test_the_check_sees_old_paths() -> None:
    old = "`codegen/analysis/pynaming.py`, `codegen.bindings.views`, `codegen.analysis.pynaming`"
    assert list(stale(old)) == [
        "codegen/analysis/pynaming.py",
        "codegen.bindings.views",
        "codegen.analysis.pynaming",
    ]
    now = "`codegen/pynaming.py`, `codegen.targets.python.bindings.views`, `codegen.cli.main`"
    assert list(stale(now)) == []
    assert list(stale("`codegen.pyformat.start_format`, `codegen.pyformat.no_such`")) == [
        "codegen.pyformat.no_such"
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_named_paths_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    explained = formers(text)
    text = RESULTS.sub("", FORMER.sub("", text))
    assert list(stale(text)) == [], page.relative_to(REPO)
    for old, new in explained.items():
        assert new is None or module_exists(new), f"{old} (now {new}): {new} does not exist"


def test_comments_name_existing_paths() -> None:
    """The docstrings and comments of the generator, the benchmarks and the tests."""
    found = {str(p.relative_to(REPO)): list(stale(p.read_text(encoding="utf-8"))) for p in SOURCES}
    assert {path: names for path, names in found.items() if names} == {}


def test_recorded_profiles_name_explained_modules() -> None:
    """The results block may name the measured commit's modules, each explained in the prose."""
    text = BENCHMARKS.read_text(encoding="utf-8")
    results = RESULTS.search(text)
    assert results, "benchmarks/README.md has no results block"
    explained = formers(text[: results.start()] + text[results.end() :])
    unexplained = {
        name
        for name in set(stale(results.group(0)))
        if not any(name == old or name.startswith(old + ".") for old in explained)
    }
    assert not unexplained, f"say what these are now: {sorted(unexplained)}"
