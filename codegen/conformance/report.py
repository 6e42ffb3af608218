"""The checkers' findings as text, JSON or GitHub annotations. Every piece of peer text (method,
path, message) goes through `console.escape_line` (annotations through GitHub's own escaping): no output line
can be forged by a peer."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from ..console import escape_data, escape_property
from ..console import escape_line as esc
from .wire import Violation


def _where(v: Violation) -> str:
    parts = [v.method or "(unknown method)"]
    if v.version:
        parts.append(v.version)
    if v.direction:
        parts.append(v.direction)
    if v.session:
        parts.append(f"session {v.session}")
    return esc(parts[0]) + " (" + ", ".join(esc(p) for p in parts[1:]) + ")"


def sentence(v: Violation) -> str:
    """`$.result.resultType: required member missing; `resultType` is required since ...`."""
    text = f"{esc(v.path)}: {esc(v.message)}"
    return text + (f"; {esc(v.explanation)}" if v.explanation else "")


def as_text(name: str, violations: Sequence[Violation], messages: int, notes: Sequence[str]) -> str:
    lines = [f"{esc(name)}:{v.line}: {_where(v)}: {sentence(v)}" for v in violations]
    lines += [f"note: {esc(n)}" for n in notes]
    bad = len({v.line for v in violations})
    lines.append(f"{messages} messages, {bad} with violations ({len(violations)} violations)")
    return "\n".join(lines) + "\n"


def as_json(violations: Sequence[Violation], messages: int, notes: Sequence[str]) -> str:
    data: dict[str, Any] = {
        "messages": messages,
        "violations": [dataclasses.asdict(v) for v in violations],
        "notes": list(notes),
    }
    return json.dumps(data, indent=2, sort_keys=True) + "\n"  # JSON escapes what it must


def as_github(name: str, violations: Sequence[Violation]) -> str:
    lines = []
    for v in violations:
        title = escape_property(f"MCP {esc(v.method or 'message')} ({esc(v.version or '?')})")
        file = escape_property(esc(name))
        lines.append(f"::error file={file},line={v.line},title={title}::{escape_data(sentence(v))}")
    return "".join(line + "\n" for line in lines)
