"""Statement-wise formatting with caches must give exactly what black gives on the whole module."""

from __future__ import annotations

from pathlib import Path

import pytest
import random_schemas
from hypothesis import HealthCheck, given, settings

from codegen import bindings
from codegen.bindings import pyformat
from codegen.pipeline import load, load_text

REPO = Path(__file__).resolve().parent.parent


def unformatted(resolved: object) -> dict[str, str]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bindings, "format_python", lambda text: text)
        return bindings.render_package(resolved)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def no_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_CODEGEN_CACHE_DIR", "")
    monkeypatch.setattr(pyformat, "_memory", {})


@pytest.mark.slow
@pytest.mark.parametrize(
    "schema",
    [
        "schemas/example/v1/schema.ts",
        "schemas/example/v2/schema.ts",
        "schemas/fixtures/hostile/injection.ts",
    ],
)
def test_statement_wise_equals_whole_module(schema: str) -> None:
    for name, text in unformatted(load(str(REPO / schema))).items():
        assert pyformat._format_module(text) == pyformat.format_whole(text), name


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=random_schemas.schemas())
def test_statement_wise_equals_whole_module_on_random_schemas(text: str) -> None:
    for name, source in unformatted(load_text(text, "r.ts")).items():
        assert pyformat._format_module(source) == pyformat.format_whole(source), name


def test_disk_cache_holds_blacks_results_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_CODEGEN_CACHE_DIR", str(tmp_path))
    # one statement too long whose shape pyfit leaves to black (a call assigned to a subscript:
    # black weighs splitting inside the target), one within the limit
    source = 'd["key"] = f(' + ", ".join(f"argument_{i}" for i in range(12)) + ")\ny = 1\n"
    calls = dict(pyformat.BLACK_CALLS)
    first = pyformat.format_python.__wrapped__(source)
    assert first == pyformat.format_whole(source)
    assert sum(pyformat.BLACK_CALLS.values()) > sum(calls.values())
    assert len([p for p in tmp_path.rglob("*") if p.is_file()]) == 1
    monkeypatch.setattr(pyformat, "_memory", {})
    before = dict(pyformat.BLACK_CALLS)
    assert pyformat.format_python.__wrapped__(source) == first
    assert pyformat.BLACK_CALLS == before  # the second run read black's result from disk


def test_a_run_that_needs_no_black_never_touches_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_CODEGEN_CACHE_DIR", str(tmp_path))
    for text in unformatted(load(str(REPO / "schemas/example/v2/schema.ts"))).values():
        pyformat.format_python.__wrapped__(text)
    assert not list(tmp_path.rglob("*"))


def test_syntax_errors_in_a_long_line_come_from_black() -> None:
    import black

    with pytest.raises(black.parsing.InvalidInput):
        pyformat.format_python.__wrapped__("x = (" + "a + " * 40 + ")]\n")
