"""TypeScript source text for untrusted schema text: string literals, identifiers-or-keys and
comments. Everything from schema.ts goes through here, so it lands in the module inertly.

Strings are written the way prettier writes them (double quotes unless that needs more escapes
than single quotes), so prettier leaves the generated module unchanged. Every character outside
printable ASCII is escaped, which keeps line terminators, bidi controls and `</script>`-style
text out of the raw source.
"""

from __future__ import annotations

import json
import re

_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# Unquoted property names prettier leaves as they are; anything else is quoted.
_SAFE_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _escape(ch: str, quote: str) -> str:
    if ch == "\\":
        return "\\\\"
    if ch == quote:
        return "\\" + ch
    if ch == "\n":
        return "\\n"
    if ch == "\t":
        return "\\t"
    if ch == "\r":
        return "\\r"
    code = ord(ch)
    if 0x20 <= code < 0x7F:
        return ch
    if code > 0xFFFF:  # a surrogate pair, as JSON writes it
        return json.dumps(ch)[1:-1]
    return f"\\u{code:04x}"


def ts_string(value: str) -> str:
    """A TS string literal with value `value`, quoted as prettier quotes it."""
    quote = "'" if value.count('"') > value.count("'") else '"'
    return quote + "".join(_escape(c, quote) for c in value) + quote


def ts_key(name: str) -> str:
    """An object-literal key: bare when it is a plain identifier, else a string literal;
    `__proto__` computed (`["__proto__"]`), since written plain it sets the literal's
    prototype instead of making a key."""
    if name == "__proto__":
        return f"[{ts_string(name)}]"
    return name if _SAFE_KEY.fullmatch(name) else ts_string(name)


def ts_number(value: float) -> str:
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, int) or value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value).replace("e+", "e")


def is_identifier(name: str) -> bool:
    return bool(_IDENT.fullmatch(name))


def comment_text(text: str) -> str:
    """Text safe inside a block comment: `*/` cannot close it and no character outside
    printable ASCII (line terminators, bidi controls) reaches the source raw."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch == "\n" or 0x20 <= code < 0x7F:
            out.append(ch)
        elif ch == "\t":
            out.append("    ")
        elif code > 0xFFFF:
            out.append(json.dumps(ch)[1:-1])
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out).replace("*/", "*\\/").replace("/*", "/\\*")


def doc_comment(text: str, indent: str = "") -> list[str]:
    """A JSDoc block (`/** ... */`) for `text`, as lines at `indent`; [] for no text."""
    lines = [ln.rstrip() for ln in comment_text(text.strip()).split("\n")]
    if not any(lines):
        return []
    body = [f"{indent} *" + (f" {ln}" if ln else "") for ln in lines]
    return [f"{indent}/**", *body, f"{indent} */"]
