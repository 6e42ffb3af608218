"""JSON outputs (IR, JSON Schema, JSON diff) are serialised, not templated: sorted keys, stable.

The text is exactly `json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)`, written by
a recursive function that leaves strings and numbers to the C encoder: the standard library's
indented encoder is pure Python and took longer than parsing the schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_string = json.encoder.encode_basestring  # the C function when available
_scalar = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


def dumps(data: Any) -> str:
    out: list[str] = []
    try:
        _write(data, "\n", out)
    except NotStringKey:
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    out.append("\n")
    return "".join(out)


def write(value: Any, newline: str, out: list[str]) -> None:
    """Append `value`'s text to `out`, nested under `newline` (for writers of their own nodes,
    such as `irjson.to_json_text`); raises TypeError on what JSON cannot hold."""
    _write(value, newline, out)


def array(
    items: list[Any] | tuple[Any, ...],
    newline: str,
    out: list[str],
    item: Callable[[Any, str, list[str]], None],
) -> None:
    """Append an array's text to `out`, each item written by `item(value, newline, out)` (this
    module's writer, or `irjson.to_json_text`'s, which has nodes in its arrays)."""
    if not items:
        out.append("[]")
        return
    inner = newline + "  "
    sep = "[" + inner
    for value in items:
        out.append(sep)
        item(value, inner, out)
        sep = "," + inner
    out.append(newline + "]")


string = _string  # a string's JSON text
scalar = _scalar  # a number's, a boolean's or null's


class NotStringKey(Exception):
    """A key the standard encoder converts first: left to it."""


def _write(value: Any, newline: str, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        sep = "{" + inner
        for key in sorted(value):
            if not isinstance(key, str):
                raise NotStringKey
            out.append(sep + _string(key) + ": ")
            _write(value[key], inner, out)
            sep = "," + inner
        out.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        array(value, newline, out, _write)
    else:
        out.append(_scalar(value))  # numbers, booleans, null: as the standard encoder writes them
