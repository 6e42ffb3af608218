"""JSON outputs (IR, JSON Schema, JSON diff) are serialised, not templated: sorted keys, stable."""

from __future__ import annotations

import json
from typing import Any


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
