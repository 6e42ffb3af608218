"""The checkers' findings as text, JSON or GitHub annotations. Every piece of peer text (method,
path, message) goes through `escape_peer_text`: no output line can be forged by a peer."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from .peertext import escape_peer_text as esc
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


def _property(text: str) -> str:
    """A workflow command's property value (GitHub's escaping: %, CR, LF, colon, comma)."""
    for a, b in (("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C")):
        text = text.replace(a, b)
    return text


def _data(text: str) -> str:
    for a, b in (("%", "%25"), ("\r", "%0D"), ("\n", "%0A")):
        text = text.replace(a, b)
    return text


def as_github(name: str, violations: Sequence[Violation]) -> str:
    lines = []
    for v in violations:
        title = _property(f"MCP {esc(v.method or 'message')} ({esc(v.version or '?')})")
        file = _property(esc(name))
        lines.append(f"::error file={file},line={v.line},title={title}::{_data(sentence(v))}")
    return "".join(line + "\n" for line in lines)
