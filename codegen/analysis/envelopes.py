"""Which declared types are the JSON-RPC messages of a schema: the one rule every target's
registry reads (the members of `JSONRPCMessage`: with `method` and `id` a request, with `method`
a notification, with `result` a result response, with `error` an error response; an array
member means batches, as in 2025-03-26). Schema names only; each target spells them."""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from .methods import ENVELOPE_UNION
from .typeindex import TypeIndex


@dataclass(frozen=True)
class Envelopes:
    request: str | None = None  # has `method` and `id`
    notification: str | None = None  # has `method`, no `id`
    result: str | None = None  # has `result`
    error: str | None = None  # has `error`
    batches: bool = False  # an array member (2025-03-26)


def envelopes(index: TypeIndex) -> Envelopes:
    """The envelope types of `index`'s schema (all None when it declares no `JSONRPCMessage`)."""
    if ENVELOPE_UNION not in index.typedefs:
        return Envelopes()
    found: dict[str, str] = {}
    batches = False
    for member in index.members(ir.Ref(ENVELOPE_UNION)):
        if isinstance(index.target(member), ir.Array):
            batches = True
            continue
        name = index.class_of(member)
        if name is None or not isinstance(member, ir.Ref):
            continue
        keys = {p.name for p in index.classes[name].obj.properties}
        role = ("request" if "id" in keys else "notification") if "method" in keys else (
            "result" if "result" in keys else "error" if "error" in keys else None)  # fmt: skip
        if role is not None:
            found.setdefault(role, name)
    return Envelopes(batches=batches, **found)
