"""Numbers written in schema text: the one place that decides what a numeric literal is worth.

TypeScript numbers are IEEE doubles. A literal whose double is infinite (`1e999`, an integer of
hundreds of digits) has no JSON form (JSON has no Infinity) and no Python literal (`inf` is a
bare name), so it is refused where it is written; a bigint (`10n`) is no JSON number either.
Every finite literal is kept exactly: an integer as Python's `int` (never more than 309 digits
once the infinite ones are refused, so Python's 4,300-digit limit never applies), anything with a
fraction or an exponent as `float`.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

# A decimal literal: digits, optional fraction, optional exponent (`_` separators removed first).
_DECIMAL = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_PREFIXED = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")
_LEGACY_OCTAL = re.compile(r"0\d+")
# Longer than this, a decimal integer is far beyond the largest double (about 1.8e308).
_MAX_INT_DIGITS = 400


class NumberError(ValueError):
    """Why a literal cannot be used; the message completes "number literal 'X' ..."."""


def parse_literal(text: str) -> int | float:
    """The value of a TypeScript numeric literal (`1.5`, `0x10`, `1_000`, `.5`, `1e3`)."""
    if text.endswith("n"):
        raise NumberError("is a bigint, which no JSON number can hold")
    clean = text.replace("_", "")
    if _PREFIXED.fullmatch(clean):
        return _finite_int(int(clean, 0))
    if _LEGACY_OCTAL.fullmatch(clean) and clean.strip("0"):
        raise NumberError(_LEGACY)
    if not _DECIMAL.fullmatch(clean):
        raise NumberError("is not a number")
    if clean.isdigit():
        if len(clean.lstrip("0")) > _MAX_INT_DIGITS:
            raise NumberError(_INFINITE)
        return _finite_int(int(clean))
    value = float(clean)
    if math.isinf(value):
        raise NumberError(_INFINITE)
    return value


_LEGACY = "is a legacy octal literal, which TypeScript rejects (write 0o...)"
_INFINITE = "does not fit a double (it is Infinity in JavaScript, and JSON has no Infinity)"


def _finite_int(value: int) -> int:
    try:
        float(value)
    except OverflowError:
        raise NumberError(_INFINITE) from None
    return value


def parse_json_number(text: str) -> int | float:
    """The value of a tag's JSON number (`@minimum -1.5`); refuses what has no finite double."""
    negative = text.startswith("-")
    value = parse_literal(text[1:] if negative else text)
    return -value if negative else value


def clip(text: str) -> str:
    """A literal short enough for a message (a 5,000-digit number is shown by its ends)."""
    return text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text)} characters)"


def property_key(text: str) -> str:
    """The key TypeScript gives a numeric property name: `0x10` is "16", `1e3` "1000", `.5`
    "0.5", `1e999` "Infinity" (JavaScript's Number-to-String of the literal's double; a bigint's
    decimal digits)."""
    clean = text.replace("_", "")
    if clean.endswith("n"):
        return str(int(clean[:-1], 0))
    if _LEGACY_OCTAL.fullmatch(clean) and clean.strip("0"):
        raise NumberError(_LEGACY)
    if _PREFIXED.fullmatch(clean):
        try:
            return js_string(float(int(clean, 0)))
        except OverflowError:
            return "Infinity"
    return js_string(float(clean))


def js_string(x: float) -> str:
    """ECMAScript Number::toString(x) for a finite double (ECMA-262, 6.1.6.1.20)."""
    if x == 0:
        return "0"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x < 0:
        return "-" + js_string(-x)
    _, digit_tuple, exp = Decimal(repr(x)).normalize().as_tuple()
    assert isinstance(exp, int)
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = exp + k  # x = 0.digits x 10^n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return f"{digits[:n]}.{digits[n:]}"
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    e = n - 1
    mantissa = digits if k == 1 else f"{digits[0]}.{digits[1:]}"
    return f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
