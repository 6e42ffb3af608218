"""The Schema Reference page (MDX, the official page's HTML-in-Markdown) from the IR, and the
multi-version reference with since/until for every type and member (`mcp-codegen reference`)."""

from __future__ import annotations

from pathlib import Path

from .. import ir
from .model import build
from .render import Badge, EntryRenderer
from .template import Template, fill, read_template, synthesized

__all__ = ["Template", "find_template", "render_page"]

TEMPLATE_NAME = "schema.mdx"


def find_template(schema_path: str, explicit: str | None) -> Template | None:
    """`--template FILE`, else the `schema.mdx` beside the schema (a version's is fetched and
    pinned with it), else None (the page is laid out from the schema's categories or kinds)."""
    if explicit is not None:
        return read_template(explicit)
    beside = Path(schema_path).parent / TEMPLATE_NAME
    if beside.is_file():
        return read_template(str(beside))
    return None


def render_page(
    schema: ir.Schema,
    template: Template | None,
    badge: Badge | None = None,
    earlier: tuple[Path, ...] = (),
) -> str:
    """The page of one declared schema; raises SchemaError (template mismatch, a missing
    `@includeCode` file). `earlier`: the files typedoc's program checks before it
    (`literals.program`), none unless asked for."""
    model = build(schema, earlier)
    base = Path(schema.source).parent
    renderer = EntryRenderer(model, base, badge)
    entries = list(model.entries)
    if template is None:
        template = synthesized(entries, schema.source)
    return fill(template, entries, renderer.entry)
