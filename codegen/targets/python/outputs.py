"""Everything the main job writes for one schema without --package, as relative path -> text:
the package (its runtime included), its JSON Schema and its IR. Pure: IR in, text out. (With
--package: `distribution.render_distribution`.)"""

from __future__ import annotations

from ... import ir
from ...jsonout import dumps


def render_all(resolved: ir.Resolved, formatter: str = "ruff") -> dict[str, str]:
    """The JSON files first, then the package's files; `formatter` lays out the Python files
    (`codegen.pyformat`)."""
    from .bindings import start_package

    # The JSON files are made here while ruff lays out the modules this process rendered and
    # the second process renders validators.py (`bindings.start_package`): a third process
    # for them cost more than they do (forking a process this size copies its memory pages
    # as both sides touch them).
    package = start_package(resolved, formatter=formatter)
    try:
        json_files = _json_files(resolved)
    except BaseException:
        package.discard()
        raise
    return json_files | package.result()


def _json_files(resolved: ir.Resolved) -> dict[str, str]:
    from ...jsonschema_out import emit

    return {"ir.json": ir.to_json_text(resolved), "schema.json": dumps(emit(resolved))}
