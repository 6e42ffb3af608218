"""Compiled templates kept like .pyc files (codegen/templating.py TemplateBytecode): read back
instead of compiling, ignored when stale or damaged, never an error when the folder is not
writable, and the output is the same either way."""

from __future__ import annotations

import sys
from pathlib import Path

import jinja2
import pytest

from codegen import templating

TEMPLATE = "python/validators.py.j2"


def _env(cache: templating.TemplateBytecode) -> jinja2.Environment:
    env = templating.environment()
    return env.overlay(bytecode_cache=cache)


def _compiles(env: jinja2.Environment, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def spy(
        self: jinja2.Environment, source: str, name: str | None = None, *a: object, **k: object
    ) -> object:
        compiled.append(str(name))
        return original(self, source, name, *a, **k)  # type: ignore[call-overload]

    monkeypatch.setattr(jinja2.Environment, "compile", spy)
    env.get_template(TEMPLATE)
    return compiled


def test_second_load_reads_the_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _compiles(_env(templating.TemplateBytecode(tmp_path, write=True)), monkeypatch)
    assert TEMPLATE in first and list(tmp_path.glob("*.jinja"))
    again = _compiles(_env(templating.TemplateBytecode(tmp_path, write=True)), monkeypatch)
    assert TEMPLATE not in again  # loaded, not compiled


def test_damaged_or_stale_bytecode_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _compiles(_env(templating.TemplateBytecode(tmp_path, write=True)), monkeypatch)
    for f in tmp_path.glob("*.jinja"):
        f.write_bytes(b"not bytecode")
    assert TEMPLATE in _compiles(
        _env(templating.TemplateBytecode(tmp_path, write=False)), monkeypatch
    )


def test_unwritable_folder_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where the folder would go: mkdir fails
    cache = templating.TemplateBytecode(blocked / "sub", write=True)
    assert TEMPLATE in _compiles(_env(cache), monkeypatch)
    assert not (blocked / "sub").exists()


def test_output_is_the_same_with_bytecode(tmp_path: Path) -> None:
    src = "{% for x in xs %}{{ x }}\n{% endfor %}"
    loader = jinja2.DictLoader({"t.j2": src})
    cache = templating.TemplateBytecode(tmp_path, write=True)
    fresh = jinja2.Environment(loader=loader).get_template("t.j2").render(xs=[1, 2])
    jinja2.Environment(loader=loader, bytecode_cache=cache).get_template("t.j2")
    cached = jinja2.Environment(loader=loader, bytecode_cache=cache).get_template("t.j2")
    assert cached.render(xs=[1, 2]) == fresh == "1\n2\n"


def test_dont_write_bytecode_is_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    # PYTHONDONTWRITEBYTECODE (sys.dont_write_bytecode) stops the writing, as for modules
    for flag in (True, False):
        monkeypatch.setattr(sys, "dont_write_bytecode", flag)
        templating.environment.cache_clear()
        cache = templating.environment().bytecode_cache
        assert isinstance(cache, templating.TemplateBytecode) and cache.write is not flag
    templating.environment.cache_clear()
