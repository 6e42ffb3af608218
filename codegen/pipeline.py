"""schema.ts -> declared IR -> resolved IR. The only place that reads a schema file."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from . import ir
from .errors import Diagnostic, Location, SchemaError
from .lower import lower
from .parse import parse_source, read_source
from .resolve import resolve


def load_overrides(path: str | None) -> dict[str, str]:
    """A reviewed JSON file mapping inline-type paths (`A.b.c`) to the class names to use."""
    if path is None:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise SchemaError(
            [Diagnostic(Location(path, 1, 1), f"cannot read name overrides: {err}")]
        ) from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise SchemaError(
            [Diagnostic(Location(path, 1, 1), "name overrides must map path strings to names")]
        )
    return data


def declared(path: str) -> ir.Schema:
    return lower(read_source(path))


def load(path: str, overrides: Mapping[str, str] | None = None) -> ir.Resolved:
    """Parse, lower and resolve one schema file; raises SchemaError with every problem found."""
    return resolve(declared(path), overrides)


def load_text(
    text: str | bytes, name: str = "<schema>", overrides: Mapping[str, str] | None = None
) -> ir.Resolved:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return resolve(lower(parse_source(name, data)), overrides)
