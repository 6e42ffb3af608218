"""What a cold generation skips, and that skipping it changes nothing: the program ends without
the interpreter's teardown (output flushed, exit code kept), a command runs without the cyclic
garbage collector, ruff formats each group of modules as soon as it is rendered (the static
modules not at all), and a generation imports none of the other commands' modules."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from cli_support import REPO, run_cli

from codegen import cli, pyformat, templating
from codegen.cli import main
from codegen.cli.exits import EXIT_BAD_INPUT, EXIT_OK
from codegen.pipeline import load
from codegen.targets.python import bindings

EXAMPLE = str(REPO / "schemas/example/v2/schema.ts")


class _Ended(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def _program(monkeypatch: pytest.MonkeyPatch, *argv: str) -> int:
    """`main()` as the console script calls it; the code it ends the process with."""

    def ended(code: int) -> None:
        raise _Ended(code)

    monkeypatch.setattr(cli, "os", SimpleNamespace(_exit=ended))  # only the CLI's, not a child's
    monkeypatch.setattr(sys, "argv", ["mcp-codegen", *argv])
    with pytest.raises(_Ended) as info:
        main()
    return info.value.code


def test_the_program_ends_at_once_with_its_exit_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert _program(monkeypatch, EXAMPLE, "-o", str(tmp_path / "out")) == EXIT_OK
    assert (tmp_path / "out" / "models.py").is_file()
    assert _program(monkeypatch, str(tmp_path / "missing.ts"), "-o", str(tmp_path / "x")) == (
        EXIT_BAD_INPUT
    )
    assert not (tmp_path / "x").exists()
    assert main([EXAMPLE, "-o", str(tmp_path / "out")]) == EXIT_OK  # a caller's main returns


def test_piped_output_is_whole_and_the_code_kept_when_the_program_ends() -> None:
    buffered = {"PYTHONUNBUFFERED": ""}  # stdout to a pipe is block-buffered: the flush counts
    proc = run_cli("ir", EXAMPLE, env=buffered)
    assert proc.returncode == EXIT_OK, proc.stderr
    assert json.loads(proc.stdout)["types"]
    proc = run_cli("ir", "no/such/schema.ts", env=buffered)
    assert proc.returncode == EXIT_BAD_INPUT
    assert "schema.ts" in proc.stderr


def test_a_command_runs_without_the_collector_and_gives_it_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[bool] = []
    real = bindings.start_package

    def recording(*args: object, **kwargs: object) -> bindings.Package:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bindings, "start_package", recording)
    assert gc.isenabled()
    assert main([EXAMPLE, "-o", str(tmp_path / "out")]) == EXIT_OK
    assert seen == [False]
    assert gc.isenabled()


def test_each_group_is_formatted_as_soon_as_it_is_rendered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events: list[str] = []
    real_start = pyformat._start_ruff
    real_render = templating.render

    def start(root: Path, args: tuple[str, ...], paths: list[str]) -> subprocess.Popen[str]:
        if args[0] == "check":  # the run's first step: `format` follows when it is waited for
            events.append("ruff " + " ".join(paths))
        return real_start(root, args, paths)

    def render(template: str, **context: object) -> str:
        events.append(template.removeprefix("python/"))
        return real_render(template, **context)

    monkeypatch.setenv("MCP_CODEGEN_JOBS", "1")  # one process: every event is seen here
    monkeypatch.setattr(pyformat, "_start_ruff", start)
    monkeypatch.setattr("codegen.targets.python.bindings.render", render)
    files = bindings.render_package(load(EXAMPLE))
    rendered = [e for e in events if not e.startswith("_header")]
    assert rendered == [
        "models.py.j2",
        "ruff models.py",
        "__init__.py.j2",
        "codec.py.j2",
        "validators.py.j2",
        "registry.py.j2",
        "ruff __init__.py codec.py registry.py validators.py",
    ]
    assert list(files) == [m.path for m in bindings.MODULES]
    monkeypatch.delenv("MCP_CODEGEN_JOBS")
    assert bindings.render_package(load(EXAMPLE)) == files  # two processes: the same files


def test_a_generation_imports_no_other_command(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom codegen.cli import main\n"
        f"assert main([{EXAMPLE!r}, '-o', sys.argv[1]]) == 0\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    loaded = set(proc.stdout.split())
    assert "codegen.targets.python.bindings" in loaded and "jinja2" in loaded
    assert "codegen.targets.python" in loaded  # the registry imports the chosen plugin
    assert "codegen.targets.jsonschema" in loaded  # and the one it requires (schema.json)
    unneeded = {
        "traceback",
        "http.client",
        "codegen.spec.fetch",
        "codegen.diff",
        "codegen.reference",
        "codegen.targets.python.distribution",
        "codegen.targets.zod",
        "codegen.targets.pydantic",
        "black",
    }
    assert sorted(loaded & unneeded) == []


def test_the_ir_text_is_the_dump_of_its_json() -> None:
    from codegen import ir
    from codegen.jsonout import dumps
    from codegen.pipeline import declared

    for model in (
        load(EXAMPLE),
        declared(EXAMPLE),
        load(str(REPO / "tests/fixtures/hostile/injection.ts")),
    ):
        assert ir.to_json_text(model) == dumps(ir.to_json(model))
    assert ir.to_json_text((ir.Ref("X"), {"k": [1.5, None]})) == dumps(
        [{"loc": None, "name": "X", "node": "Ref"}, {"k": [1.5, None]}]
    )
