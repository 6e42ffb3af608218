"""Which inline object types are handed over as plain JSON instead of becoming dataclasses.

The rule (one place, used by `TypeIndex`): a property whose wire name ends in `Schema`
(`inputSchema`, `outputSchema`, `requestedSchema`) and whose type is an inline object declaring at
least one JSON Schema keyword (`type`, `$schema`, `properties`) carries a JSON Schema document.
Its value goes to an LLM, to `jsonschema` or back on the wire as it is, so the bindings keep it a
plain `dict` (no `.schema` for `$schema`, no `encode()` to hand it over); the validators still
check it against the shape the schema declares. A named type (`Ref`) is never caught: naming an
object type is the schema's way to ask for a class.
"""

from __future__ import annotations

from .. import ir
from .shapes import is_class_obj

SCHEMA_KEYWORDS = frozenset({"type", "$schema", "properties"})


def is_schema_payload(prop: ir.Property) -> bool:
    """Whether `prop` carries a JSON Schema document (see the module's rule)."""
    t = prop.type
    if not (prop.name.endswith("Schema") and isinstance(t, ir.Obj) and is_class_obj(t)):
        return False
    return any(p.name in SCHEMA_KEYWORDS for p in t.properties)


def schema_payloads(objects: list[ir.Obj]) -> frozenset[str]:
    """The names of the inline object types that the properties of `objects` hand over as JSON."""
    return frozenset(
        p.type.name for o in objects for p in o.properties
        if is_schema_payload(p) and isinstance(p.type, ir.Obj)
    )  # fmt: skip
