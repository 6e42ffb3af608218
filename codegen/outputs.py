"""Everything the main job writes for one schema without --package, as relative path -> text:
the package (its runtime included), its JSON Schema and its IR. Pure: IR in, text out. (With
--package: `distribution.render_distribution`.)"""

from __future__ import annotations

from . import forking, ir
from .jsonout import dumps


def render_all(resolved: ir.Resolved, formatter: str = "ruff") -> dict[str, str]:
    """The JSON files first, then the package's files; `formatter` lays out the Python files
    (`codegen.pyformat`)."""
    # The JSON files are made in a second process meanwhile (`forking`), started before the
    # package's modules (Jinja and the views: half of a run's imports) load, so that it runs
    # while they do.
    json_files = forking.start(lambda: _json_files(resolved))
    try:
        from .bindings import render_package

        package = render_package(resolved, formatter=formatter)
    except BaseException:
        json_files.discard()
        raise
    return json_files.result() | package


def _json_files(resolved: ir.Resolved) -> dict[str, str]:
    from .jsonschema_out import emit

    return {"ir.json": ir.to_json_text(resolved), "schema.json": dumps(emit(resolved))}
