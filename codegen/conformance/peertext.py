"""Text a peer sent (method names, keys, values), made safe to print: no character that ends or
breaks a line (control characters, U+2028/9, NEL), no invisible format character, no lone
surrogate, and no `::` (what starts a GitHub workflow command), so that no output line can be
forged by a peer. Escapes are JSON's (`\\u000a`)."""

from __future__ import annotations

import unicodedata

_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def escape_peer_text(text: str) -> str:
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif unicodedata.category(ch) in _UNSAFE:
            out.append("".join(f"\\u{u:04x}" for u in _utf16(ch)))
        else:
            out.append(ch)
    return "".join(out).replace("::", ":\\u003a")


def _utf16(ch: str) -> list[int]:
    code = ord(ch)
    if code < 0x10000:
        return [code]
    code -= 0x10000
    return [0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)]
