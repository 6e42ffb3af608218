"""Everything the main job writes, as relative path -> text. Pure: IR in, text out."""

from __future__ import annotations

from . import ir
from .bindings import render_package
from .jsonout import dumps


def render_all(resolved: ir.Resolved, formatter: str = "ruff") -> dict[str, str]:
    """One schema without --package: the package itself (its runtime included), its JSON
    Schema and its IR; `formatter` lays out the Python files (`codegen.pyformat`)."""
    from .jsonschema_out import emit

    def ir_json() -> dict[str, str]:
        return {"ir.json": dumps(ir.to_json(resolved))}

    def schema_json() -> dict[str, str]:
        return {"schema.json": dumps(emit(resolved))}

    # the Python package (__init__, models, codec, validators...) and the JSON files, made on the
    # way: the IR's (the larger) in the second process, beside validators.py
    files = render_package(resolved, meanwhile=schema_json, alongside=ir_json, formatter=formatter)
    return {"ir.json": files.pop("ir.json"), "schema.json": files.pop("schema.json")} | files


def render_distribution(
    schemas: list[ir.Resolved],
    package: str,
    dist_version: str,
    app_renames: str | None = None,
    formatter: str = "ruff",
) -> dict[str, str]:
    """Schemas with --package: one installable distribution (layout: codegen/distribution.py);
    `app_renames`: the renames file of the application types (default: the repository's)."""
    from pathlib import Path

    from .appmodel import load_renames
    from .distribution import render_distribution as render

    renames = load_renames(Path(app_renames)) if app_renames is not None else None
    return render(schemas, package, dist_version, renames, formatter)
