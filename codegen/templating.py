"""The one Jinja2 environment every template is rendered with (StrictUndefined: a missing view
field is an error, never an empty string)."""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=2)
def environment(autoescape: bool = False) -> jinja2.Environment:
    """Code and Markdown templates escape nothing (their views quote for their language); HTML
    pages autoescape, since they carry names and literals from the schema."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


@functools.lru_cache(maxsize=8)
def static_source(name: str) -> str:
    """The text of a file under the templates folder that is copied, not rendered (real source,
    checked as such by the tests)."""
    return (template_dir() / name).read_text(encoding="utf-8")
