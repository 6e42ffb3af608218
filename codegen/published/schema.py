"""`mcp-codegen model --json-schema`: the JSON Schema (2020-12) of the `mcp-codegen-model/1`
document (docs/model.md). Objects stay open: within format 1 keys are only ever added, and a
reader must ignore keys it does not know."""

from __future__ import annotations

from typing import Any

from ..jsonout import dumps
from . import FORMAT

SCHEMA_ID = "https://github.com/modelcontextprotocol/mcp-codegen/model-format-1.schema.json"
_STRING = {"type": "string"}
_STRINGS = {"type": "array", "items": _STRING}
_EXPR_KINDS = ("primitive", "literal", "ref", "object", "array", "union", "map")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _object(properties: dict[str, Any], required: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "object", "required": list(required), "properties": properties}


def _map(value: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": value}


def schema() -> dict[str, Any]:
    span = {"versions": _STRINGS, "since": _STRING, "until": _STRING, "deprecated": _STRINGS}
    documented = {
        "doc": _STRING,
        "tags": {
            "type": "array",
            "items": _object({"name": _STRING, "value": _STRING}, ("name", "value")),
        },
    }
    constraints = {
        "type": "object",
        "properties": {
            "format": _STRING, "pattern": _STRING, "minimum": {"type": "number"},
            "maximum": {"type": "number"}, "minItems": {"type": "integer", "minimum": 0},
            "maxItems": {"type": "integer", "minimum": 0},
        },
        "additionalProperties": False,
    }  # fmt: skip
    expr = {
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {"enum": list(_EXPR_KINDS)},
            "name": _STRING,
            "value": {"type": ["string", "number", "boolean"]},
            "items": _ref("expr"),
            "members": {"type": "array", "items": _ref("expr")},
            "key": _ref("expr"),
            "additional": _ref("expr"),
        },
    }
    member = _object(
        {**span, **documented, "type": _ref("expr"), "optional": {"type": "boolean"},
         "nullable": {"type": "boolean"}, "readonly": {"type": "boolean"},
         "constraints": _ref("constraints"),
         "lineage": _object({"since": _STRING, "from": _STRING}, ("since", "from"))},
        ("versions", "since", "type", "optional", "nullable"),
    )  # fmt: skip
    present = _object(span, ("versions", "since"))
    type_ = _object(
        {**span, **documented, "declared_as": {"enum": ["interface", "alias"]},
         "kind": {"enum": ["object", "union", "enum", "alias"]}, "type": _ref("expr"),
         "additional": _ref("expr"), "constraints": _ref("constraints"),
         "members": _map(_ref("member")), "variants": _map(_ref("present")),
         "discriminator": {"type": ["string", "null"]},
         "values": {"type": "array", "items": {
             **_object({"value": {"type": ["string", "number", "boolean"]}, **span},
                       ("value", "versions", "since"))}}},
        ("versions", "since", "declared_as", "kind"),
    )  # fmt: skip
    inline = _object(
        {**span, "path": _STRINGS, "additional": _ref("expr"), "members": _map(_ref("member"))},
        ("versions", "since", "path", "members"),
    )
    definition = _object(
        {"kind": {"enum": ["request", "notification"]},
         "direction": {"enum": ["client_to_server", "server_to_client", "both"]},
         "via": {"enum": ["jsonrpc", "input_required"]}, "message": _STRING,
         "params": {"type": ["string", "null"]}, "params_optional": {"type": "boolean"},
         "result": {"type": ["string", "null"]}, "alt_results": _STRINGS},
        ("kind", "direction", "message", "params", "result"),
    )  # fmt: skip
    method = _object(
        {**span, "definitions": _map(definition)}, ("versions", "since", "definitions")
    )
    constant = _object(
        {**span, **documented, "value": {"type": ["string", "number", "boolean"]}},
        ("versions", "since", "value"),
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"mcp-codegen model ({FORMAT})",
        **_object(
            {"format": {"const": FORMAT}, "versions": _STRINGS, "types": _map(_ref("type")),
             "inline_types": _map(_ref("inline")), "constants": _map(_ref("constant")),
             "methods": _map(_ref("method"))},
            ("format", "versions", "types", "inline_types", "methods"),
        ),
        "$defs": {"expr": expr, "constraints": constraints, "member": member, "present": present,
                  "type": type_, "inline": inline, "method": method, "constant": constant},
    }  # fmt: skip


def render_schema() -> str:
    return dumps(schema())
