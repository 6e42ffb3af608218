"""Build large schemas from real ones: `replicate(text, n)` concatenates n copies of a schema
with every declared name suffixed per copy, so the result is one valid schema n times the size.
Used by the hostile-input tests (a 10 MB schema) and the scaling benchmark."""

from __future__ import annotations

import re

_DECL = re.compile(r"^export\s+(?:interface|type|const)\s+([A-Za-z_$][\w$]*)", re.MULTILINE)


def declared_names(text: str) -> list[str]:
    return sorted(set(_DECL.findall(text)), key=len, reverse=True)


def replicate(text: str, copies: int) -> str:
    names = declared_names(text)
    if not names:
        return text * copies
    pattern = re.compile(r"(?<![\w$\"'/.-])(" + "|".join(map(re.escape, names)) + r")(?![\w$])")
    parts = []
    for k in range(copies):
        suffix = f"_{k}"
        parts.append(pattern.sub(lambda m, s=suffix: m.group(1) + s, text) if k else text)
    return "\n".join(parts)


def replicate_to_size(text: str, size: int) -> str:
    copies = max(1, -(-size // max(1, len(text.encode("utf-8")))))
    return replicate(text, copies)
