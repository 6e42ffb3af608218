"""Everything the main job writes for one schema, as relative path -> text. Pure: IR in, text out."""

from __future__ import annotations

from . import ir
from .bindings import render_package
from .jsonout import dumps


def render_all(resolved: ir.Resolved) -> dict[str, str]:
    from .jsonschema_out import emit

    files: dict[str, str] = {
        "ir.json": dumps(ir.to_json(resolved)),
        "schema.json": dumps(emit(resolved)),
    }
    files.update(
        render_package(resolved)
    )  # the Python package: __init__, models, codec, validators
    return files
