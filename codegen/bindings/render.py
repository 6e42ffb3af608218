"""The Jinja2 environment for Python output: StrictUndefined, no autoescaping (the output is
Python, and every value reaching a template is already escaped by the views), templates from
the top-level `templates/` of a source checkout or `codegen/templates` in an installed wheel.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jinja2

_PACKAGE = Path(__file__).resolve().parent.parent


def template_dir() -> Path:
    """`codegen/templates` when installed from the wheel, else the checkout's `templates/`."""
    for candidate in (_PACKAGE / "templates", _PACKAGE.parent / "templates"):
        if (candidate / "python").is_dir():
            return candidate
    raise FileNotFoundError(f"templates not found next to {_PACKAGE}")


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
