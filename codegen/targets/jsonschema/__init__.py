"""JSON Schema documents: one schema -> `schema.json`; several -> `<label>/schema.json` for each,
laid out as the specification's own folders are (`2025-11-25/schema.json`). `mcp-codegen
jsonschema SCHEMA` prints one document to stdout. The emitter is `emit.py` in this folder; another target embeds its documents through the
registry (`requires=("jsonschema",)`, `Request.output_of`), as the python target does."""

from __future__ import annotations

from ...errors import Diagnostic, Location, SchemaError
from ..base import Files, Option, Request, Target


def _render(request: Request) -> Files:
    from ...jsonout import dumps
    from .emit import emit

    chosen = request.option("dialect")
    dialect = None if chosen is None else str(chosen)
    integer = bool(request.option("number_as_integer"))

    def document(index: int) -> str:
        schema = request.schemas[index]
        return dumps(emit(schema, number_as_integer=integer, dialect=dialect))

    if len(request.schemas) == 1:
        return {"schema.json": document(0)}
    files: Files = {}
    for i, (label, schema) in enumerate(zip(request.labels, request.schemas)):
        path = f"{label}/schema.json"
        if path in files:
            message = f"two schemas would write {path}: give each version a folder of its own"
            raise SchemaError([Diagnostic(Location(schema.source, 1, 1), message)])
        files[path] = document(i)
    return files


TARGET = Target(
    name="jsonschema",
    summary="JSON Schema: schema.json for one schema, or <version>/schema.json for each of several",
    render=_render,
    options=(
        Option(
            "--number-as-integer",
            "render bare TS `number` as `integer`, like the official schema.json files",
            switch=True,
        ),
        Option(
            "--dialect",
            "the JSON Schema dialect (default: chosen from the protocol version)",
            choices=("draft-07", "2020-12"),
        ),
    ),
    several=True,
)
