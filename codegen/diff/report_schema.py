"""`mcp-codegen diff --json-schema`: the JSON Schema (2020-12) of the `mcp-codegen-diff/1`
document (docs/diff-json-format.md), built from the same tables the report is (rule ids, levels,
categories), so the two cannot drift apart.

Objects stay open (`additionalProperties` is not closed): within format 1 keys are only ever
added, and consumers must ignore keys they do not know. Everything the format promises is
checked: the keys that must be there, their types, the level, category and rule values, the
shape of ids."""

from __future__ import annotations

from typing import Any

from ..jsonout import dumps
from . import FORMAT
from .book import RULES
from .levels import CATEGORIES, LEVELS

SCHEMA_ID = "https://github.com/modelcontextprotocol/mcp-codegen/diff-format-1.schema.json"
_ID = {"type": "string", "pattern": "^f[0-9a-f]{10}(_[0-9]+)?$"}
_TEXT_OR_NULL = {"type": ["string", "null"]}
_LINE = {"type": ["integer", "null"], "minimum": 1}
_COUNT = {"type": "integer", "minimum": 0}
_STRINGS = {"type": "array", "items": {"type": "string"}}
_COUNT_KEYS = (*LEVELS, "documentation", "total")


def _object(properties: dict[str, Any], required: tuple[str, ...] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "required": list(required if required is not None else properties),
        "properties": properties,
    }


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _array(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": item}


def schema() -> dict[str, Any]:
    level = {"enum": list(LEVELS)}
    counts = _object({k: _COUNT for k in _COUNT_KEYS})
    method = _object(
        {"method": {"type": "string"}, "id": _ID, "level": level, "sent_by": _STRINGS,
         "before": _TEXT_OR_NULL, "after": _TEXT_OR_NULL, "echoes": _COUNT}
    )  # fmt: skip
    finding = _object(
        {
            "rule": {"enum": list(RULES)},
            "category": {"enum": list(CATEGORIES)},
            "level": level,
            "levels": _object({"sender": level, "receiver": level}),
            "subject": {"type": "string"},
            "before": _TEXT_OR_NULL,
            "after": _TEXT_OR_NULL,
            "why": {"type": "string"},
            "methods": _STRINGS,
            "sent_by": _array({"enum": ["client", "server"]}),
            "inherited_by": _STRINGS,
            "candidates": _STRINGS,
            "id": _ID,
            "echo_of": {"oneOf": [_ID, {"type": "null"}]},
            "lines": _object({"old": _LINE, "new": _LINE}),
            "breaks": _array({"enum": ["api", "wire"]}),
            "deprecated": {"type": "boolean"},
        },
        required=("rule", "category", "level", "levels", "subject", "before", "after", "why",
                  "methods", "sent_by", "inherited_by", "candidates", "id", "echo_of", "lines",
                  "breaks"),
    )  # fmt: skip
    summary = _object(
        {
            **{k: _COUNT for k in _COUNT_KEYS},
            "echoes": _COUNT,
            "roots": _ref("counts"),
            "methods": _object(
                {
                    "added": _array(_ref("method")),
                    "removed": _array(_ref("method")),
                    "moved": _array(_ref("method")),
                    "changed": _array(
                        _object({"method": {"type": "string"}, "level": level, "findings": _COUNT})
                    ),
                }
            ),
            "cross_cutting": _array(
                _object(
                    {
                        "id": _ID,
                        "rule": {"enum": list(RULES)},
                        "level": level,
                        "subject": {"type": "string"},
                        "before": _TEXT_OR_NULL,
                        "after": _TEXT_OR_NULL,
                        "affects": _COUNT,
                    }
                )
            ),
            "deprecations": _array(
                _object(
                    {
                        "id": _ID,
                        "subject": {"type": "string"},
                        "change": {"enum": ["added", "removed"]},
                    }
                )
            ),
            "literals": _array(
                _object(
                    {
                        "subject": {"type": "string"},
                        "value": {"type": "string"},
                        "change": {"enum": ["added", "removed"]},
                        "id": _ID,
                    }
                )
            ),
        },
        required=(*_COUNT_KEYS, "echoes", "roots"),
    )
    side = _object(
        {"label": {"type": "string"}, "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
         "protocol_version": _TEXT_OR_NULL}
    )  # fmt: skip
    # a root cause against the `--baseline` schema, at its worst level
    baselined = _object(
        {"id": _ID, "rule": {"enum": list(RULES)}, "subject": {"type": "string"},
         "level": {"enum": list(LEVELS)}}
    )  # fmt: skip
    entry = {
        "type": "object",
        "required": ["reason"],
        "properties": {
            "id": {"type": "string"},
            "rule": {"type": "string"},
            "subject": {"type": "string"},
            "reason": {"type": "string"},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"mcp-codegen diff report ({FORMAT})",
        "description": "The document `mcp-codegen diff --format json` prints; see"
        " docs/diff-json-format.md.",
        **_object(
            {
                "format": {"const": FORMAT},
                "old": _ref("schema"),
                "new": _ref("schema"),
                "summary": _ref("summary"),
                "findings": _array(_ref("finding")),
                "ignore": _object(
                    {
                        "file": {"type": "string"},
                        "ignored": _array(
                            _object(
                                {
                                    "id": _ID,
                                    "rule": {"enum": list(RULES)},
                                    "subject": {"type": "string"},
                                    "reason": {"type": "string"},
                                }
                            )
                        ),
                        "stale": _array(entry),
                    }
                ),
                "baseline": _object(
                    {
                        "label": {"type": "string"},
                        "added": _array(baselined),
                        "kept": {
                            "type": "object",
                            "properties": {lv: {"type": "integer", "minimum": 0} for lv in LEVELS},
                        },
                        "removed": _array(baselined),
                    }
                ),
            },
            required=("format", "old", "new", "summary", "findings"),
        ),
        "$defs": {
            "schema": side,
            "counts": counts,
            "method": method,
            "finding": finding,
            "summary": summary,
        },
    }


def render_schema() -> str:
    return dumps(schema())
