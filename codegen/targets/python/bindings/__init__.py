"""Python bindings for a resolved schema: dataclasses, codec, validators and method registry.

IR -> views (plain template contexts) -> Jinja2 templates -> a formatter -> files; the modules
that do not depend on the schema are real source under templates/python/static/, copied under
the generated-file header. `render_package` returns the package's files as relative path -> text;
`MODULES` lists them, so adding a module is one more `Module` or `StaticModule` entry.

The static modules are the runtime: a distribution of several versions (`distribution.py`)
writes them once at its top and renders each version's other modules with `runtime=".."`, so
every generated module imports the runtime through that one prefix.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .... import forking, ir
from ....pyformat import Formatting, prepare, start_format
from ....pynaming import PyIndex
from ....records import record
from ....templating import render, static_source
from . import registry_views
from .models_views import models_view
from .validator_views import validators_view
from .views import Context, codec_view, header_view, init_view

if TYPE_CHECKING:  # the application types load only for a distribution that has them
    from ..appmodel import AppModel
    from ..subpackages import PyVersion


@record
class Module:
    path: str  # relative to the package directory
    template: str  # under templates/
    view: Callable[[Context], Any]  # the template's `view` variable


@record
class StaticModule:
    """A module that is the same for every schema: copied as it is (it is already formatted;
    tests check that, and run ruff and mypy --strict on it as source)."""

    path: str  # relative to the package directory
    source: str  # under templates/


HEADER = "python/_header.j2"  # the generated-file header, on top of every module

MODULES: tuple[Module | StaticModule, ...] = (
    Module("__init__.py", "python/__init__.py.j2", init_view),
    StaticModule("_runtime.py", "python/static/_runtime.py"),
    StaticModule("_protocol.py", "python/static/_protocol.py"),
    StaticModule("_tolerance.py", "python/static/_tolerance.py"),
    Module("models.py", "python/models.py.j2", models_view),
    Module("codec.py", "python/codec.py.j2", codec_view),
    Module(
        "validators.py",
        "python/validators.py.j2",
        lambda ctx: validators_view(ctx.index),
    ),
    Module(
        "registry.py",
        "python/registry.py.j2",
        lambda ctx: registry_views.package_view(ctx),
    ),
)


RUNTIME_MODULES: tuple[StaticModule, ...] = tuple(m for m in MODULES if isinstance(m, StaticModule))
"""The modules shared by every version of a distribution."""
DISTRIBUTION_MODULES: tuple[StaticModule, ...] = (
    StaticModule("_versioning.py", "python/static/_versioning.py"),
    StaticModule("_conversion.py", "python/static/_conversion.py"),
)
"""The code of a distribution's versions.py and (with application types) app/convert.py, at its
top beside the runtime."""
VERSION_MODULES: tuple[Module, ...] = tuple(m for m in MODULES if isinstance(m, Module))
"""The modules of one version (a distribution's version subpackage)."""


def app_modules(model: AppModel, versions: tuple[PyVersion, ...]) -> tuple[Module, ...]:
    """The modules of a distribution's application types: the wire modules' dataclasses, codec
    and validators for the merged schema, and their own `__init__` and conversions."""
    from .app_views import app_init_view, convert_view

    wire = tuple(m for m in VERSION_MODULES if m.path in ("models.py", "codec.py", "validators.py"))
    return (
        Module("__init__.py", "python/app/__init__.py.j2", app_init_view),
        *wire,
        Module(
            "convert.py", "python/app/convert.py.j2", lambda ctx: convert_view(model, versions, ctx)
        ),
    )


def render_package(
    resolved: ir.Resolved,
    modules: tuple[Module | StaticModule, ...] = MODULES,
    *,
    runtime: str = ".",
    regenerate: str | None = None,
    formatter: str | None = "ruff",
) -> dict[str, str]:
    """Every file of the generated package (relative path -> text), in `modules`' order.
    `runtime`: the relative import prefix of the package holding _runtime.py and _protocol.py;
    `regenerate`: the command the headers name (default: the one-schema command); `formatter`:
    what lays out the Python files (`pyformat.FORMATTERS`; None: the views' text, for a caller
    that formats a larger whole, or tests about behaviour only)."""
    return start_package(
        resolved, modules, runtime=runtime, regenerate=regenerate, formatter=formatter
    ).result()


def start_package(
    resolved: ir.Resolved,
    modules: tuple[Module | StaticModule, ...] = MODULES,
    *,
    runtime: str = ".",
    regenerate: str | None = None,
    formatter: str | None = "ruff",
) -> Package:
    """`render_package`'s work, returned once this process has rendered its modules: their
    formatting (and the second process's module) may still be running; `result()` waits for
    them. A caller does its own work meanwhile (`outputs.render_all`: the JSON files)."""
    ctx = Context(resolved, PyIndex(resolved), runtime)
    ctx.index.names.check()  # Python-name collisions: a located error before anything renders
    header = header_view(resolved, regenerate)

    def one(m: Module | StaticModule) -> str:
        if isinstance(m, StaticModule):
            return render(HEADER, header=header) + static_source(m.source)
        return render(m.template, header=header, view=m.view(ctx), runtime=runtime)

    def laid_out(group: list[Module]) -> Formatting:
        """`group` rendered, its formatting begun (it runs while the next group renders)."""
        return start_format({m.path: one(m) for m in group}, formatter)

    # The static modules are copied as they are (already formatted); the others render in
    # groups, each formatted as soon as it is rendered: models.py (the largest) first, so ruff
    # lays it out while the rest renders. validators.py and the small modules render and are
    # formatted (one ruff run) in a second process meanwhile (`forking`).
    rendered = [m for m in modules if isinstance(m, Module)]
    separate = [m for m in rendered if m.path in _SEPARATE]
    pending = None
    if forking.parallel() and separate and len(separate) < len(rendered):
        prepare(formatter)  # found once, here, rather than in each process
        pending = forking.start(lambda: laid_out(separate).result())
    groups = [[m for m in rendered if m.path in _FIRST]]
    groups += [] if pending is not None else [separate]
    groups += [[m for m in rendered if m.path not in _FIRST | _SEPARATE]]
    package = Package([m.path for m in modules], pending)
    try:
        package.texts = {m.path: one(m) for m in modules if isinstance(m, StaticModule)}
        for group in groups:
            if group:
                package.runs.append(laid_out(group))
    except BaseException:
        package.discard()
        raise
    return package


class Package:
    """A package being formatted (`start_package`)."""

    def __init__(self, paths: list[str], pending: forking.Pending[dict[str, str]] | None) -> None:
        self._paths, self._pending = paths, pending
        self.texts: dict[str, str] = {}
        self.runs: list[Formatting] = []

    def result(self) -> dict[str, str]:
        """Every file, in the modules' order; raises what the formatter or the second process
        raised (and leaves no process behind)."""
        try:
            for run in self.runs:
                self.texts |= run.result()
        except BaseException:
            self.discard()
            raise
        if self._pending is not None:
            self.texts |= self._pending.result()
        return {path: self.texts[path] for path in self._paths}

    def discard(self) -> None:
        """Stop the formatting, wait for the second process and drop everything (the caller
        failed)."""
        for run in self.runs:
            run.discard()
        if self._pending is not None:
            self._pending.discard()


# The modules rendered in a second process: validators.py (about half of a package's rendering
# time) and the small ones, whose own ruff run would cost more than formatting them there.
_SEPARATE = frozenset({"validators.py", "__init__.py", "codec.py", "registry.py"})
# The module rendered (and formatted) first: the largest, so its formatting overlaps the most.
_FIRST = frozenset({"models.py"})
