"""JSON paths as the Python target writes them: `$.a.b`, `$.a[0]`, `$["x-y"]` for a key that
is not an ASCII identifier."""

from __future__ import annotations

import json
import re

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def key_path(path: str, key: str) -> str:
    if _IDENTIFIER.match(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def index_path(path: str, index: int) -> str:
    return f"{path}[{index}]"
