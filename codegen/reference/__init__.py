"""The Schema Reference page (MDX, the official page's HTML-in-Markdown) from the IR, and the
multi-version reference with since/until for every type and member (`mcp-codegen reference`)."""

from __future__ import annotations

from pathlib import Path

from .. import ir
from ..errors import Diagnostic, Location, SchemaError
from ..reading import text_of
from .folder import DiskFolder, Folder, Refused
from .model import build
from .render import Badge, EntryRenderer
from .template import Template, fill, read_template, synthesized

__all__ = ["DiskFolder", "Folder", "Template", "find_template", "render_page"]

TEMPLATE_NAME = "schema.mdx"


def find_template(
    schema_path: str, explicit: str | None, folder: Folder | None = None
) -> Template | None:
    """`--template FILE`, else the `schema.mdx` in the schema's folder (a version's is fetched
    and pinned with it; like an included file, only a regular file under that folder), else
    None (the page is laid out from the schema's categories or kinds)."""
    if explicit is not None:
        return read_template(explicit)
    folder = folder or DiskFolder(Path(schema_path).parent)
    if not folder.exists(TEMPLATE_NAME):
        return None
    name = f"{folder.label.rstrip('/')}/{TEMPLATE_NAME}"
    try:
        data = folder.read(TEMPLATE_NAME, "the template")
    except Refused as err:
        raise SchemaError([Diagnostic(Location(name, 1, 1), f"template: {err}")]) from None
    return Template(text_of(data, name, "the template"), name)


def render_page(
    schema: ir.Schema,
    template: Template | None,
    badge: Badge | None = None,
    folder: Folder | None = None,
    earlier: tuple[ir.Schema, ...] = (),
) -> str:
    """The page of one declared schema, its includes read from `folder` (default: the schema
    file's own); raises SchemaError (template mismatch, an `@includeCode` file that cannot or
    may not be read). `earlier`: the schemas typedoc's program checks before it
    (`literals.program`), none unless asked for."""
    model = build(schema, earlier)
    renderer = EntryRenderer(model, folder or DiskFolder(Path(schema.source).parent), badge)
    entries = list(model.entries)
    if template is None:
        template = synthesized(entries, schema.source)
    return fill(template, entries, renderer.entry)
