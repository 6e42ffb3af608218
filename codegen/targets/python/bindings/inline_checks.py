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
level: the inlined fields keep their calls). Each field's check is its `Expr` (exprs.py) with the
field's read written into its holes: the object's own variable is the result's one hole.
"""

from __future__ import annotations

from collections.abc import Iterable

from .exprs import Expr, build, joined, parenthesized, walrus

MAX_FIELDS = 6
MAX_LENGTH = 600  # characters: longer checks stay calls (module size, readability)
_HOLE_WIDTH = 5  # what each read of the variable counts for in MAX_LENGTH
_TEMP = "_y"


def object_expression(fields: Iterable[tuple[str, bool, str, Expr, Expr]]) -> Expr | None:
    """The inline check of an object, or None when it is not small enough. `fields`: (wire
    literal, optional, kind of its check, its `ok` over `x`, its `.get` read over `v`) for each
    field."""
    parts = [build("type({v}) is dict", "v")]
    count = 0
    for wire, optional, kind, ok, get in fields:
        count += 1
        if count > MAX_FIELDS or kind not in ("expr", "none") or ok.binds:
            return None
        if kind == "none":
            if not optional:
                parts.append(build("{wire} in {v}", "v", wire=wire))
            continue
        read = build("{v}[{wire}]", "v", wire=wire) if optional else get
        if ok.uses == 1:
            check = ok.fill(read)
        else:
            check = ok.fill(_TEMP, first=walrus(_TEMP, read))
        if optional:
            parts.append(build("({wire} not in {v} or {check})", "v", wire=wire, check=check))
        else:
            parts.append(parenthesized(check))
    expr = joined(" and ", parts, "v", parens=len(parts) > 1)
    size = sum(map(len, expr.pieces)) + _HOLE_WIDTH * expr.uses
    return expr if size <= MAX_LENGTH else None
