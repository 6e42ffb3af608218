"""Everything the main job writes, as relative path -> text. Pure: IR in, text out."""

from __future__ import annotations

from . import ir
from .bindings import render_package
from .jsonout import dumps


def render_all(resolved: ir.Resolved) -> dict[str, str]:
    """One schema without --package: the package itself (its runtime included), its JSON
    Schema and its IR."""
    from .jsonschema_out import emit

    files: dict[str, str] = {
        "ir.json": dumps(ir.to_json(resolved)),
        "schema.json": dumps(emit(resolved)),
    }
    files.update(
        render_package(resolved)
    )  # the Python package: __init__, models, codec, validators
    return files


def render_distribution(
    schemas: list[ir.Resolved], package: str, dist_version: str
) -> dict[str, str]:
    """Schemas with --package: one installable distribution (layout: codegen/distribution.py)."""
    from .distribution import render_distribution as render

    return render(schemas, package, dist_version)
