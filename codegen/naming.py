"""Names derived from paths, never from counters or encounter order.

A declared type keeps its TS name. An inline object is named by joining its path in PascalCase:
`("CompleteRequest", "params", "argument")` -> `CompleteRequestParamsArgument`. Array items add
`Item`, map and index values add `Value`, an inline union member adds its discriminating literal
(`...Text`) or its position (`...Variant2`). So a name depends only on where the type stands.
"""

from __future__ import annotations

import keyword
import re

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# Names a generated attribute must not shadow: keywords, soft keywords, and builtins commonly
# used in annotations of the generated modules.
_RESERVED = set(keyword.kwlist) | set(keyword.softkwlist) | {
    "bool", "bytes", "dict", "float", "int", "list", "object", "str", "tuple", "type", "None",
}  # fmt: skip


def pascal(segment: str) -> str:
    """One path segment in PascalCase: `_meta` -> `Meta`, `io.x/related-task` -> `IoXRelatedTask`."""
    words = _WORD.findall(segment)
    return "".join(w[0].upper() + w[1:] for w in words)


def path_name(path: tuple[str, ...]) -> str:
    name = "".join(pascal(p) for p in path)
    if not name or name[0].isdigit():
        name = "T" + name
    return name


def snake(wire: str) -> str:
    """Python attribute for a wire name: `inputSchema` -> `input_schema`, `_meta` -> `meta`,
    `from` -> `from_`, `$ref` -> `ref`, `a-b` -> `a_b`, `1st` -> `_1st`."""
    words: list[str] = []
    for w in _WORD.findall(wire):
        words.extend(part.lower() for part in _CAMEL.split(w) if part)
    name = "_".join(words) or "field"
    if name[0].isdigit():
        name = "_" + name
    if name in _RESERVED:
        name += "_"
    return name
