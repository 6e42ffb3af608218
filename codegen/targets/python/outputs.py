"""Everything the main job writes for one schema without --package, as relative path -> text:
the package (its runtime included), its JSON Schema (the jsonschema target's document, which
this target `requires`) and its IR. Pure: IR in, text out. (With --package:
`distribution.render_distribution`.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ... import ir
from ..base import Request
from . import JSON_SCHEMA


def render_all(
    resolved: ir.Resolved, formatter: str = "ruff", request: Request | None = None
) -> dict[str, str]:
    """The JSON files first, then the package's files; `formatter` lays out the Python files
    (`codegen.pyformat`); `request`: the command line's, for `resolved` (default: one made by
    `own_request`)."""
    from .bindings import start_package

    # The JSON files are made here while ruff lays out the modules this process rendered and
    # the second process renders validators.py (`bindings.start_package`): a third process
    # for them cost more than they do (forking a process this size copies its memory pages
    # as both sides touch them).
    package = start_package(resolved, formatter=formatter)
    try:
        json_files = _json_files(resolved, request or own_request([resolved]))
    except BaseException:
        package.discard()
        raise
    return json_files | package.result()


def _json_files(resolved: ir.Resolved, request: Request) -> dict[str, str]:
    schema = request.output_of(JSON_SCHEMA)["schema.json"]
    return {"ir.json": ir.to_json_text(resolved), "schema.json": schema}


def own_request(schemas: Sequence[ir.Resolved]) -> Request:
    """A request of this target for `schemas`, labelled as the command line labels them: what
    `render_all` and `render_distribution` use when their caller (a test, a program) gives
    none."""
    from ...analysis.versions import label_for

    return Request(tuple(schemas), {}, tuple(label_for(r.source) for r in schemas), "python")


def schema_documents(request: Request, folders: Sequence[str]) -> list[str]:
    """The jsonschema target's document of each schema of `request`, in order. That target lays
    several out as `<label>/schema.json`, so they are asked for under `folders` as labels (a
    distribution's subpackages: distinct, where two schemas' folders may share a name); one
    schema is `schema.json`."""
    files = replace(request, labels=tuple(folders)).output_of(JSON_SCHEMA)
    if len(request.schemas) == 1:
        return [files["schema.json"]]
    return [files[f"{folder}/schema.json"] for folder in folders]
