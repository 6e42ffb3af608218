"""Small object checks written inline, as one expression, where a parent checks such a value.

A call to `is_<Type>` costs a Python frame, about as much as the checks of a few fields. A
named object whose fields are all checked by expressions (no loops, no typed index signature, not
on a type cycle, at most `MAX_FIELDS` fields) is therefore checked where it is used by an
expression over the same variable: `type(x) is dict and ("listChanged" not in x or
type(x["listChanged"]) is bool)`. Its own `is_` and `_explain_` functions stay (the tables, the
error paths); only the fast checks of its parents change.

The expression reads a required field with `.get` (never a subscript, whose KeyError would leave
the expression, e.g. a union member that fails, through the parent); a value used more than once
is bound once with `:=` to `_y`. An expression that already binds `_y` is not inlined again (one
level: the inlined fields keep their calls).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

PLACEHOLDER = "__V__"  # the checked variable in a stored expression
MAX_FIELDS = 6
MAX_LENGTH = 600  # characters: longer checks stay calls (module size, readability)
_TEMP = "_y"


# A string literal (skipped) or the name: the checks' expressions hold only one-line literals as
# `code_literal` writes them, and a name is not an attribute (`x.y` is `x`, `y.x` is not).
_LITERAL = r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""


@functools.cache
def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")


@functools.cache
def _literal_or_word(name: str) -> re.Pattern[str]:
    return re.compile(rf"{_LITERAL}|((?<![\w.]){re.escape(name)}(?!\w))")


def _names(expr: str, name: str) -> list[re.Match[str]]:
    if name not in expr:
        return []
    if '"' not in expr and "'" not in expr:  # no literal to skip
        return list(_word(name).finditer(expr))
    return [m for m in _literal_or_word(name).finditer(expr) if m.group(2)]


@functools.cache  # the two passes and the two checks of a field repeat them
def rename(expr: str, name: str, value: str, first: str | None = None) -> str:
    """`expr` with the variable `name` replaced by `value` (names only: never inside a string
    literal); `first`, if given, replaces its first occurrence (evaluated first in the
    and/or/comparison expressions checks are made of), parenthesized unless it already stands
    in parentheses (`type(x)`)."""
    out = expr
    for n, m in reversed(list(enumerate(_names(expr, name)))):  # right to left: offsets hold
        start, end = m.span()
        new = value
        if n == 0 and first is not None:
            bare = expr[start - 1 : start] == "(" and expr[end : end + 1] == ")"
            new = first if bare else f"({first})"
        out = out[:start] + new + out[end:]
    return out


@functools.cache
def uses(expr: str, name: str) -> int:
    """How many times the variable `name` occurs in `expr`."""
    return len(_names(expr, name))


def object_expression(fields: Iterable[tuple[str, bool, str, str, str]]) -> str | None:
    """The inline check of an object over `PLACEHOLDER`, or None when it is not small enough.
    `fields`: (wire literal, optional, kind of its check, its `ok` over `x`, its `.get` read over
    `v`) for each field."""
    parts = [f"type({PLACEHOLDER}) is dict"]
    count = 0
    for wire, optional, kind, ok, get in fields:
        count += 1
        if count > MAX_FIELDS or kind not in ("expr", "none") or ":=" in ok:
            return None
        if kind == "none":
            if not optional:
                parts.append(f"{wire} in {PLACEHOLDER}")
            continue
        read = f"{PLACEHOLDER}[{wire}]" if optional else rename(get, "v", PLACEHOLDER)
        if uses(ok, "x") == 1:
            check = rename(ok, "x", read)
        else:
            check = rename(ok, "x", _TEMP, first=f"{_TEMP} := {read}")
        parts.append(f"({wire} not in {PLACEHOLDER} or {check})" if optional else _parens(check))
    expr = "(" + " and ".join(parts) + ")" if len(parts) > 1 else parts[0]
    return expr if len(expr) <= MAX_LENGTH else None


def _parens(expr: str) -> str:
    """`expr` in parentheses, unless it already is one parenthesized whole: `((a or b))` is a
    layout that black keeps and ruff does not, so the text must not have it."""
    if expr.startswith("(") and expr.endswith(")"):
        depth = 0
        bare = re.sub(_LITERAL, '""', expr)  # parentheses inside a literal do not count
        for i, ch in enumerate(bare):
            depth += (ch == "(") - (ch == ")")
            if depth == 0:
                if i == len(bare) - 1:
                    return expr
                break
    return f"({expr})"


def at(expr: str, var: str) -> str:
    """A stored expression checking the variable `var`."""
    return rename(expr, PLACEHOLDER, var)
