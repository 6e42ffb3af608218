"""Shared pytest configuration: markers, the --update-golden option, the official corpus."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

# Make `import corpus` work whatever the import mode and whether tests/ is a package.
_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

from corpus import require_spec_dir

# Property-based tests draw the same examples on every run (CI must not be flaky); set
# HYPOTHESIS_PROFILE=explore to draw new ones locally.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        dest="update_golden",
        help="rewrite golden files from the current output instead of comparing against them",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "spec: needs the official MCP schemas ($MCP_SPEC_DIR or ../shared/spec); "
        "skipped without them, failed under CI=true",
    )
    config.addinivalue_line(
        "markers",
        "slow: takes about a second or more on a quiet 2-core machine (deselect with -m 'not slow'); "
        "the fast loop is -m 'not spec and not slow'",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A test that gets the corpus through `spec_root`, however indirectly, is a `spec` test even
    # if its marker was forgotten: `-m "not spec"` must deselect every test that needs it.
    for item in items:
        if "spec_root" in getattr(item, "fixturenames", ()) and not item.get_closest_marker("spec"):
            item.add_marker(pytest.mark.spec)


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when run with --update-golden: golden-file tests then rewrite their files."""
    return bool(request.config.getoption("update_golden"))


@pytest.fixture(scope="session")
def spec_root() -> Path:
    """The official spec directory; skips (fails under CI=true) when it is missing."""
    return require_spec_dir()


# The versions of the dispatch, wire-type and registry-typing tests: the three the SDK speaks.
SESSION_VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")


@pytest.fixture(scope="session")
def session_distribution(
    spec_root: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], Path]:
    """Package name -> a folder holding the distribution of `SESSION_VERSIONS` under that name
    (what `mcp-codegen V1 V2 V3 --package NAME` writes), generated once per run and name."""
    import corpus

    from codegen.targets.python.distribution import render_distribution
    from codegen.write import write_tree

    made: dict[str, Path] = {}

    def root(name: str) -> Path:
        if name not in made:
            out = tmp_path_factory.mktemp(name)
            schemas = [corpus.resolved(v) for v in SESSION_VERSIONS]
            write_tree(out, render_distribution(schemas, name))
            made[name] = out
        return made[name]

    return root


@pytest.fixture(scope="session")
def official(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """One distribution of every official version (package `mcp_appoff`, what `mcp-codegen
    A.ts B.ts ... --package mcp_appoff` writes) with its `app` imported, once per run."""
    import importlib

    import corpus
    from bindings_support import import_package

    from codegen.targets.python.distribution import render_distribution
    from codegen.write import write_tree

    root = tmp_path_factory.mktemp("appofficial")
    schemas = [corpus.resolved(n) for n in corpus.version_names()]
    write_tree(root, render_distribution(schemas, "mcp_appoff"))
    pkg = import_package(root, "mcp_appoff")
    importlib.import_module("mcp_appoff.app")
    return pkg


# How many tests a whole-suite run collected (None for a partial run: -m, -k, paths, deselection);
# tests/test_docs.py holds the figure in docs/testing.md to it.
WHOLE_SUITE: dict[str, int | None] = {"collected": None}


def pytest_collection_finish(session: pytest.Session) -> None:
    config, opt = session.config, session.config.option
    whole = config.args_source == pytest.Config.ArgsSource.TESTPATHS
    narrowed = (
        getattr(opt, name, None)
        for name in ("markexpr", "keyword", "deselect", "lf", "failedfirst")
    )
    if whole and not any(narrowed):  # (`lf`, `failedfirst`: absent without the cacheprovider)
        WHOLE_SUITE["collected"] = len(session.items)
