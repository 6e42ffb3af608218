"""The error codes of the vectors (and of `check-wire`): a small, documented set
(docs/conformance.md), named after the JSON Schema keyword that fails where there is one."""

from __future__ import annotations

REQUIRED = "required"  # a required member is absent
TYPE = "type"  # the value has a JSON type the member does not accept
CONST = "const"  # a single literal broken
ENUM = "enum"  # a value outside a union of string literals
UNION = "union"  # no member of a union accepts the value (or its discriminator)
MINIMUM = "minimum"
MAXIMUM = "maximum"
MIN_ITEMS = "minItems"
MAX_ITEMS = "maxItems"
JSON_TEXT = "json"  # a JSON-text rule (nesting depth, a key given twice, text that is not JSON)
METHOD = "method"  # check-wire only: a method the message's version does not have (others do)

CODES = (REQUIRED, TYPE, CONST, ENUM, UNION, MINIMUM, MAXIMUM, MIN_ITEMS, MAX_ITEMS, JSON_TEXT,
         METHOD)  # fmt: skip
