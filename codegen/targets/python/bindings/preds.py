"""Checks of one value that need no type resolved: a JSON kind, literals, `unknown`, an array's
length, each a `Pred` (a boolean expression over one variable, `ok` and its negation `bad`, each
an `Expr` that knows where the variable stands (exprs.py), and the statement that explains a
failure by appending `ErrorDetail`s at a JSON path, with what kind of statement it is). The
`Compiler` of checks.py combines them along a type.
"""

from __future__ import annotations

import enum

from .... import ir
from ....analysis.shapes import P
from ....pytext import code_literal
from ....records import record
from .exprs import FALSE, TRUE, Expr, build, joined

# finite: `x - x` is nan for nan and the infinities (no call, as the runtime's walk tests it)
NUMBER_OK = "(type({v}) is int or (type({v}) is float and {v} - {v} == 0.0))"
INTEGER_OK = "(type({v}) is int or (type({v}) is float and {v}.is_integer()))"
_SIMPLE = {
    P.STRING: ("type({v}) is str", "type({v}) is not str"),
    P.BOOLEAN: ("type({v}) is bool", "type({v}) is not bool"),
    P.NULL: ("{v} is None", "{v} is not None"),
    # `object` and `{[key: string]: unknown}`: a JSON object, its members walked (any JSON); the
    # type test and the empty object inline, a call only for members (`{v}` is a variable)
    P.OBJECT: (
        "(type({v}) is dict and (not {v} or _json_members({v})))",
        "not (type({v}) is dict and (not {v} or _json_members({v})))",
    ),
}
_KIND_NAMES = {
    P.STRING: "string",
    P.NUMBER: "number",
    P.INTEGER: "integer",
    P.BOOLEAN: "boolean",
    P.NULL: "null",
    P.OBJECT: "object",
}


class Says(enum.Enum):
    """What a `Pred`'s explanation is, for a caller that words a failure its own way."""

    OTHER = enum.auto()  # a statement appending errors, or a combination of explanations
    CALL = enum.auto()  # one call of an `_explain_` function (`Pred.explainer`)
    JSON = enum.auto()  # one call of the runtime's account of what in the value is not JSON
    ENUM = enum.auto()  # `_unknown_literal`: a string none of an enum's values is


@record
class Pred:
    ok: Expr  # true when the variable passes (safe to combine with and/or)
    bad: Expr  # true when it fails (safe to combine with and/or)
    explain: str  # statement appending errors; run only when `bad`
    anything: bool = False  # accepts every JSON value (unknown/any): only JSON-ness is checked
    says: Says = Says.OTHER
    explainer: str = ""  # says CALL or JSON: the function it calls, `(value, path, errs...)`
    named: str = ""  # the key of the named check whose call alone `ok` is (`is_Tool(x)`)


def anything(v: str, path: str, inline: bool = True) -> Pred:
    """`unknown`/`any`: any JSON value (finite numbers, string keys, nested at most MAX_DEPTH),
    never a Python value that is not JSON. A variable is tested inline first (a scalar by its
    type, a dict by `_json_members`: no call for a scalar or `{}`, one for an object), the rest
    walked by the runtime's `is_json`; `inline` False: the call alone (explanations)."""
    explain = f"_explain_json({v}, {path}, errs)"
    if not inline or not v.isidentifier():
        ok, bad = build("_is_json({v})", v), build("not _is_json({v})", v)
    else:
        ok = build(_ANYTHING, v)
        bad = build("not {ok}", v, ok=ok)
    return Pred(ok, bad, explain, True, Says.JSON, "_explain_json")


_ANYTHING = (
    "(type({v}) in _JSON_SCALARS or (type({v}) is dict and (not {v} or _json_members({v})))"
    " or (type({v}) is not dict and _is_json({v})))"
)


def empty_first(v: str, call: Expr) -> Expr:
    """`call`, a check of an object that takes `{}`, after an inline test of the empty object
    (the usual value of a capability, `"tools": {}`): no call for it."""
    return build("(type({v}) is dict and (not {v} or {call}))", v, call=call)


def prim(kind: P, v: str, path: str, shallow: bool) -> Pred:
    """A primitive kind other than `unknown`/`any` (`shallow`: an `object` is only tested to be
    a dict, its members not walked, as in a JSON Schema payload)."""
    if kind is P.NEVER:
        return Pred(FALSE, TRUE, f"errs.append(_forbidden({path}, {v}))")
    if kind is P.NUMBER or kind is P.INTEGER:
        ok = build(NUMBER_OK if kind is P.NUMBER else INTEGER_OK, v)
        return Pred(ok, build("not {ok}", v, ok=ok), mismatch(path, _KIND_NAMES[kind], v))
    if kind is P.OBJECT and shallow:
        return Pred(build("type({v}) is dict", v), build("type({v}) is not dict", v),
                    mismatch(path, "object", v))  # fmt: skip
    ok_template, bad_template = _SIMPLE[kind]
    ok, bad = build(ok_template, v), build(bad_template, v)
    if kind is P.OBJECT:  # the type, or a member that is not JSON: said by the runtime
        explain = f"_explain_json_object({v}, {path}, errs)"
        return Pred(ok, bad, explain, False, Says.JSON, "_explain_json_object")
    return Pred(ok, bad, mismatch(path, _KIND_NAMES[kind], v))


def literals(lits: list[ir.Lit], v: str, path: str, expected: str) -> Pred:
    """Literal members, grouped by kind (bool is not a number: `True == 1` in Python)."""
    parts: list[Expr] = []
    strings = [lit.value for lit in lits if lit.kind == "string"]
    numbers = [lit.value for lit in lits if lit.kind == "number"]
    bools = [lit.value for lit in lits if lit.kind == "boolean"]
    in_strings = ", ".join(code_literal(s) for s in strings)
    if len(strings) == 1:
        parts.append(build("{v} == {s}", v, s=code_literal(strings[0])))
    elif strings:
        parts.append(build("{v} in ({s})", v, s=in_strings))
    if len(numbers) == 1:
        parts.append(build("({v} == {n} and type({v}) is not bool)", v, n=code_literal(numbers[0])))
    elif numbers:
        n = ", ".join(code_literal(n) for n in numbers)
        parts.append(build("({v} in ({n}) and type({v}) is not bool)", v, n=n))
    for b in bools:
        parts.append(build("{v} is {b}", v, b=code_literal(b)))
    if len(parts) == 1 and len(strings) == 1:
        ok, bad = parts[0], build("{v} != {s}", v, s=code_literal(strings[0]))
    elif len(parts) == 1 and len(strings) > 1:
        ok, bad = parts[0], build("{v} not in ({s})", v, s=in_strings)
    else:
        ok = joined(" or ", parts, v, parens=len(parts) > 1)
        bad = build("not {ok}", v, ok=ok)
    if len(strings) > 1 and len(parts) == 1:  # an enum: a new value is one to tolerate
        return Pred(ok, bad, unknown_literal(path, expected, v), says=Says.ENUM)
    if len(strings) == 1 and len(parts) == 1:  # a constant: in a union, maybe its tag
        return Pred(ok, bad, f"errs.append(_const_mismatch({path}, {code_literal(expected)}, {v}))")
    return Pred(ok, bad, mismatch(path, expected, v))


def length(c: ir.Constraints, v: str, path: str) -> tuple[str, str]:
    parts, words = [], []
    if c.min_items is not None:
        parts.append(f"len({v}) < {c.min_items}")
        words.append(f"at least {c.min_items} items")
    if c.max_items is not None:
        parts.append(f"len({v}) > {c.max_items}")
        words.append(f"at most {c.max_items} items")
    if not parts:
        return "", ""
    return " or ".join(parts), mismatch(path, "array with " + " and ".join(words), v)


def mismatch(path: str, expected: str, v: str) -> str:
    return f"errs.append(_mismatch({path}, {code_literal(expected)}, {v}))"


def unknown_literal(path: str, expected: str, v: str) -> str:
    """A string none of an enum's values is: the one literal error a tolerant reader keeps
    (static/_tolerance.py); said like `_mismatch`."""
    return f"errs.append(_unknown_literal({path}, {code_literal(expected)}, {v}))"
