"""The one Jinja2 environment every template is rendered with (StrictUndefined: a missing view
field is an error, never an empty string)."""

from __future__ import annotations

import ast
import functools
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import jinja2

_PACKAGE = Path(__file__).resolve().parent


def template_dir() -> Path:
    """`codegen/templates` when installed from the wheel, else the checkout's `templates/`."""
    for candidate in (_PACKAGE / "templates", _PACKAGE.parent / "templates"):
        if (candidate / "python").is_dir():
            return candidate
    raise FileNotFoundError(f"templates not found next to {_PACKAGE}")


class TemplateBytecode(jinja2.BytecodeCache):
    """Compiled templates kept as Python keeps compiled modules: in `codegen/__pycache__/`, one
    file per template and environment flavour, read when its header matches this Python and the
    template's source checksum (Jinja checks both, so a changed template is compiled again and
    the output never depends on the cache), written unless `PYTHONDONTWRITEBYTECODE` is set or
    the folder is not writable (then every run compiles, as before). Compiling the templates
    from source took about a quarter of a cold generation; `python -m codegen.templating`
    fills it, like `compileall` for the modules. Nothing is ever written in the user's folders."""

    def __init__(self, directory: Path, write: bool) -> None:
        self.directory = directory
        self.write = write

    def _file(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.directory / f"{bucket.key}.jinja"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            with self._file(bucket).open("rb") as f:
                bucket.load_bytecode(f)
        except OSError:
            pass  # none yet (or unreadable): compiled from source

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if not self.write:
            return
        target = self._file(bucket)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    bucket.write_bytecode(f)
                os.replace(tmp, target)  # atomic: a concurrent reader sees all or nothing
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            pass  # a read-only install: compiled again next time


def bytecode_dir(autoescape: bool) -> Path:
    """Where `environment(autoescape)` keeps its compiled templates (the two flavours compile
    the same template differently)."""
    return _PACKAGE / "__pycache__" / ("templates-html" if autoescape else "templates")


@functools.lru_cache(maxsize=4)
def environment(autoescape: bool = False, write: bool | None = None) -> jinja2.Environment:
    """Code and Markdown templates escape nothing (their views quote for their language); HTML
    pages autoescape, since they carry names and literals from the schema. `write`: store the
    compiled templates (default: unless `PYTHONDONTWRITEBYTECODE`)."""
    cache = TemplateBytecode(
        bytecode_dir(autoescape), not sys.dont_write_bytecode if write is None else write
    )
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=cache,
    )
    return env


def compile_all() -> int:
    """Compile every template into both flavours' bytecode folders; the number of templates."""
    names: list[str] = []
    for autoescape in (False, True):
        env = environment(autoescape, write=True)
        names = env.list_templates(extensions=["j2"])
        for name in names:
            env.get_template(name)
    return len(names)


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


@functools.lru_cache(maxsize=8)
def static_source(name: str) -> str:
    """The text of a file under the templates folder that is copied, not rendered (real source,
    checked as such by the tests)."""
    return (template_dir() / name).read_text(encoding="utf-8")


_JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|(\{\{.*?\}\})", re.DOTALL)
_SPELLED = re.compile(r"\{\{-?\s*g\.(\w+)\s*-?\}\}")  # `{{ g.NAME }}`: a name of the table
PLACEHOLDER = "_J"  # what a `{{ ... }}` reads as in `module_names`: a name no template defines


def _read(match: re.Match[str]) -> str:
    if not match.group(1):
        return ""  # a tag or a comment
    spelled = _SPELLED.fullmatch(match.group(1))
    return spelled.group(1) if spelled else PLACEHOLDER


@functools.cache
def module_names(name: str) -> frozenset[str]:
    """The module-level names a Python template writes itself: what it defines (`X = ...`,
    `X: T = ...`, `def`, `class`) and imports (`import a as b`, `from m import x as y`), also
    under a module-level `if` (`if TYPE_CHECKING:`), read from its own text with the Jinja tags
    taken out. A `{{ g.NAME }}` reads as NAME: the generator's name as the table spells it
    (`codegen/pynaming.py`), written so where no schema name took it; so `import warnings as
    {{ g.warnings }}` (the other branch of an `{% if %}`) counts `warnings`. Any other `{{ ... }}`
    reads as one name no template defines (what a view spells is not counted; included
    templates are not followed). The one list of a module's own names: the name tables read it."""
    text = _JINJA.sub(_read, static_source(name))
    names: set[str] = set()
    todo = list(ast.parse(text, name).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If):
            todo += [*node.body, *node.orelse]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names - {PLACEHOLDER})


if __name__ == "__main__":  # python -m codegen.templating: like compileall, for the templates
    from . import console

    console.say(f"compiled {compile_all()} templates into {bytecode_dir(False).parent}")
