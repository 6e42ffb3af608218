"""Python bindings for a resolved schema: dataclasses, codec and validators.

IR -> views (plain template contexts) -> Jinja2 templates -> black -> files. `render_package`
returns the package's files as relative path -> text; `MODULES` lists them, so adding a module
(a method registry, say) is one more `Module` entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import ir, registry_views
from ..templating import render
from .analysis import TypeIndex
from .pyformat import format_python
from .validator_views import validators_view
from .views import (
    Context,
    codec_view,
    header_view,
    init_view,
    models_view,
    runtime_view,
)


@dataclass(frozen=True)
class Module:
    path: str  # relative to the package directory
    template: str  # under templates/
    view: Callable[[Context], Any]  # the template's `view` variable


MODULES: tuple[Module, ...] = (
    Module("__init__.py", "python/__init__.py.j2", init_view),
    Module("_runtime.py", "python/_runtime.py.j2", runtime_view),
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


def render_package(resolved: ir.Resolved, modules: tuple[Module, ...] = MODULES) -> dict[str, str]:
    """Every file of the generated package, formatted (relative path -> text)."""
    ctx = Context(resolved, TypeIndex(resolved))
    header = header_view(resolved)
    return {
        m.path: format_python(render(m.template, header=header, view=m.view(ctx))) for m in modules
    }
