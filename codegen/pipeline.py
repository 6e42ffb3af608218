"""schema.ts -> declared IR -> resolved IR. The only place that reads a schema file."""

from __future__ import annotations

from collections.abc import Sequence

from . import ir
from .analysis.versions import check_order
from .lower import lower
from .naming import NO_OVERRIDES, Overrides, read_overrides
from .parse import parse_source, read_source
from .resolve import resolver

__all__ = ["declared", "load", "load_many", "load_text", "read_overrides", "resolve_many"]


def declared(path: str) -> ir.Schema:
    return lower(read_source(path))


def load(path: str, overrides: Overrides = NO_OVERRIDES) -> ir.Resolved:
    """Parse, lower and resolve one schema file; raises SchemaError with every problem found
    (a names-file entry that names nothing in it included)."""
    return load_many([path], overrides)[0]


def load_many(paths: Sequence[str], overrides: Overrides = NO_OVERRIDES) -> list[ir.Resolved]:
    """Several schemas read with one names file: each entry must name something in one of them.
    Released versions must come oldest first (`analysis.versions.check_order`)."""
    return resolve_many([declared(path) for path in paths], overrides)


def resolve_many(
    schemas: Sequence[ir.Schema], overrides: Overrides = NO_OVERRIDES
) -> list[ir.Resolved]:
    """Declared schemas resolved with one names file, as `load_many` (order checked too)."""
    out, used = [], set()
    for schema in schemas:
        r = resolver(schema, overrides)
        out.append(r.run())
        used |= r.namer.used
    overrides.check_used(used)
    check_order(out)
    return out


def load_text(
    text: str | bytes, name: str = "<schema>", overrides: Overrides = NO_OVERRIDES
) -> ir.Resolved:
    data = text.encode("utf-8") if isinstance(text, str) else text
    r = resolver(lower(parse_source(name, data)), overrides)
    resolved = r.run()
    overrides.check_used(r.namer.used)
    return resolved
