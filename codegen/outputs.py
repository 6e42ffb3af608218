"""Everything the main job writes for one schema without --package, as relative path -> text:
the package (its runtime included), its JSON Schema and its IR. Pure: IR in, text out. (With
--package: `distribution.render_distribution`.)"""

from __future__ import annotations

from . import forking, ir
from .bindings import render_package
from .jsonout import dumps
from .jsonschema_out import emit


def render_all(resolved: ir.Resolved, formatter: str = "ruff") -> dict[str, str]:
    """The JSON files first, then the package's files; `formatter` lays out the Python files
    (`codegen.pyformat`)."""
    # the IR's text (the larger JSON file) is made in a second process meanwhile (`forking`)
    ir_json = forking.start(lambda: dumps(ir.to_json(resolved)))
    try:
        package = render_package(resolved, formatter=formatter)
        schema_json = dumps(emit(resolved))
    except BaseException:
        ir_json.discard()
        raise
    return {"ir.json": ir_json.result(), "schema.json": schema_json} | package
