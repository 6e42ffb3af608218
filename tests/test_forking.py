"""The second rendering process gives exactly what one process gives, and its errors arrive."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen import forking
from codegen.errors import Diagnostic, Location, SchemaError
from codegen.pipeline import load
from codegen.targets.python import bindings, outputs
from codegen.targets.python.outputs import render_all

REPO = Path(__file__).resolve().parent.parent
needs_fork = pytest.mark.skipif(not forking.parallel(), reason="forks only on Linux with 2+ CPUs")


@needs_fork
def test_result_comes_back_from_the_child() -> None:
    pending = forking.start(lambda: {"pid": __import__("os").getpid(), "text": "é" * 100_000})
    value = pending.result()
    assert value["text"] == "é" * 100_000
    assert value["pid"] != __import__("os").getpid()  # it really ran elsewhere
    assert pending.result() is value  # asked twice, received once


@needs_fork
def test_errors_of_the_child_are_raised_here() -> None:
    def fails() -> None:
        raise SchemaError([Diagnostic(Location("x.ts", 3, 4), "bad thing")])

    with pytest.raises(SchemaError) as info:
        forking.start(fails).result()
    assert "x.ts:3:4" in str(info.value.diagnostics[0])

    def unpicklable() -> None:
        class Local(Exception):
            pass

        raise Local("cannot be pickled")

    with pytest.raises(RuntimeError, match="cannot be pickled"):
        forking.start(unpicklable).result()


def test_one_process_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_CODEGEN_JOBS", "1")
    assert not forking.parallel()
    assert forking.start(lambda: 42).result() == 42


@needs_fork
def test_package_is_the_same_in_one_process_and_in_two(monkeypatch: pytest.MonkeyPatch) -> None:
    resolved = load(str(REPO / "schemas/example/v2/schema.ts"))
    two = render_all(resolved)
    monkeypatch.setenv("MCP_CODEGEN_JOBS", "1")
    one = render_all(resolved)
    assert list(two) == list(one)
    assert two == one


@needs_fork
def test_a_failure_here_still_reaps_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    resolved = load(str(REPO / "schemas/example/v2/schema.ts"))
    started: list[int] = []
    real_start = forking.start

    def recording_start(fn: object) -> forking.Pending[object]:
        pending = real_start(fn)  # type: ignore[arg-type]
        started.append(pending._pid or 0)
        return pending

    monkeypatch.setattr(forking, "start", recording_start)

    def fails(*args: object, **kwargs: object) -> dict[str, str]:
        raise ValueError("the JSON files failed")

    # made while the package's formatting and its second process run: both are ended
    monkeypatch.setattr(outputs, "_json_files", fails)
    with pytest.raises(ValueError, match="the JSON files failed"):
        outputs.render_all(resolved)
    assert len(started) == 1 and started[0] > 0
    with pytest.raises(ChildProcessError):
        os.waitpid(started[0], os.WNOHANG)  # already reaped: no zombie left behind


@needs_fork
def test_a_failure_beside_validators_still_reaps_their_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os

    resolved = load(str(REPO / "schemas/example/v2/schema.ts"))
    started: list[int] = []
    real_start = forking.start

    def recording_start(fn: object) -> forking.Pending[object]:
        pending = real_start(fn)  # type: ignore[arg-type]
        started.append(pending._pid or 0)
        return pending

    monkeypatch.setattr(forking, "start", recording_start)

    def fails(ctx: object) -> object:
        raise ValueError("a view failed")

    modules = (*bindings.MODULES, bindings.Module("x.py", "python/models.py.j2", fails))
    with pytest.raises(ValueError, match="a view failed"):
        bindings.render_package(resolved, modules)
    assert len(started) == 1 and started[0] > 0
    with pytest.raises(ChildProcessError):
        os.waitpid(started[0], os.WNOHANG)
