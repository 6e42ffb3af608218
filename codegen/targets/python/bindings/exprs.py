"""Check expressions as data: the text around the places where the checked variable stands.

The validators' checks are Python expressions over one variable (`type(x) is str`). An `Expr`
keeps the text between the variable's places, its holes, and the variable `text` fills them
with, so a check is written for another variable or expression (a field read inline,
`type(v["k"]) is str`; a value bound once, `(_y := v.get("k")) is None or ...`) by joining the
pieces: nothing looks for the variable in the text. What decides how it combines is recorded as
it is built: how many holes, whether it is one parenthesized whole (`(a or b)`, never wrapped
again: `((a or b))` is a layout black keeps and ruff does not), whether its first hole stands
alone in parentheses (`type(x)`, where a `:=` written there needs no parentheses of its own),
and whether it binds a name with `:=`.

Expressions are built from templates (`build("type({v}) is str", "x")`), the generator's own
constants: `{v}` is a hole, any other field takes text (inserted as it is) or an `Expr` (its
holes become holes of the result). A template is parsed once; the two facts about its
parentheses come from its own text, never from what fills it.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Sequence
from typing import NamedTuple


class Expr(NamedTuple):
    """A boolean (or value) expression over one variable, as the text around its holes. A
    named tuple, not a `record`: a generation builds thousands, and a tuple is built and hashed
    (`build`'s cache) at a fraction of a frozen dataclass's cost."""

    pieces: tuple[str, ...]  # the text around the holes: one more piece than holes
    var: str  # what `text` writes in the holes
    whole: bool = False  # one parenthesized whole: `(a or b)`
    bare: bool = False  # its first hole alone in parentheses: `type(x)`
    binds: bool = False  # it binds a name with `:=`

    @property
    def text(self) -> str:
        """The expression, its holes filled with its variable."""
        return self.var.join(self.pieces)

    @property
    def uses(self) -> int:
        """How many times the expression reads its variable."""
        return len(self.pieces) - 1

    def over(self, var: str) -> Expr:
        """The same expression over the variable `var`."""
        return Expr(self.pieces, var, self.whole, self.bare, self.binds)

    def at(self, value: str, first: str | None = None) -> str:
        """The text with `value` in every hole; `first`, if given, in the first one instead
        (evaluated first in the and/or/comparison expressions checks are made of), in
        parentheses unless the hole already stands in them."""
        if first is None or len(self.pieces) == 1:
            return value.join(self.pieces)
        head = first if self.bare else f"({first})"
        return self.pieces[0] + head + value.join(self.pieces[1:])

    def fill(self, value: str | Expr, first: Expr | None = None) -> Expr:
        """`at` with expressions: the holes of `value` and `first` are the result's."""
        items: list[str | Expr] = [self.pieces[0]]
        for n, piece in enumerate(self.pieces[1:]):
            if n == 0 and first is not None:
                items.append(first if self.bare else concat(("(", first, ")")))
            else:
                items.append(value)
            items.append(piece)
        return concat(items, self.var, self.whole)


FALSE = Expr(("False",), "")
TRUE = Expr(("True",), "")

# A hole written in a template: alone in parentheses there, or not.
_HOLE = Expr(("", ""), "")
_BARE_HOLE = Expr(("", ""), "", bare=True)


def concat(items: Iterable[str | Expr], var: str = "", whole: bool = False) -> Expr:
    """Text and expressions written one after the other, over `var`."""
    pieces: list[str] = []
    current = ""
    bare: bool | None = None  # the first hole's, once met
    binds = False
    for item in items:
        if isinstance(item, str):
            current += item
            continue
        binds |= item.binds
        parts = item.pieces
        if len(parts) == 1:
            current += parts[0]
            continue
        if bare is None:
            bare = item.bare
        pieces.append(current + parts[0])
        pieces.extend(parts[1:-1])
        current = parts[-1]
    pieces.append(current)
    return Expr(tuple(pieces), var, whole, bool(bare), binds)


def joined(sep: str, items: Sequence[Expr], var: str, parens: bool = False) -> Expr:
    """`items` joined by `sep` (`" or "`), in parentheses if `parens`."""
    if len(items) == 1 and not parens:
        return items[0].over(var)
    out: list[str | Expr] = ["("] if parens else []
    for n, item in enumerate(items):
        if n:
            out.append(sep)
        out.append(item)
    if parens:
        out.append(")")
    return concat(out, var, parens)


def parenthesized(e: Expr) -> Expr:
    """`e` in parentheses, unless it already is one parenthesized whole."""
    return e if e.whole else concat(("(", e, ")"), e.var, True)


def walrus(name: str, value: Expr) -> Expr:
    """`name := value`, which binds `name`."""
    bound = concat((name + " := ", value), value.var)
    return Expr(bound.pieces, bound.var, bound.whole, bound.bare, True)


@functools.cache  # most checks are built again and again (two passes, the same field types)
def build(template: str, var: str, **fields: str | Expr) -> Expr:
    """The expression `template` writes over `var`, its other fields filled from `fields`."""
    parsed, whole = _parse(template)
    items: list[str | Expr] = []
    for text, field in parsed:
        items.append(text)
        if type(field) is not str:
            items.append(field)
        elif field:
            items.append(fields[field])
    return concat(items, var, whole)


@functools.cache
def _parse(template: str) -> tuple[tuple[tuple[str, str | Expr], ...], bool]:
    """(literal text, field) pairs, a field being a hole (an `Expr`) or a field's name, and
    whether the template is one parenthesized whole. Read from the template alone: each field
    counts as one operand."""
    raw = [(text, name) for text, name, _, _ in string.Formatter().parse(template)]
    parsed: list[tuple[str, str | Expr]] = []
    for n, (text, name) in enumerate(raw):
        if name == "v":
            after = raw[n + 1][0] if n + 1 < len(raw) else ""
            bare = text.endswith("(") and after.startswith(")")
            parsed.append((text, _BARE_HOLE if bare else _HOLE))
        else:
            parsed.append((text, name or ""))
    skeleton = "".join(text + ("_" if name is not None else "") for text, name in raw)
    return tuple(parsed), _one_whole(skeleton)


def _one_whole(skeleton: str) -> bool:
    """Whether the parenthesis that opens `skeleton` is the one that closes it."""
    depth = 0
    for n, ch in enumerate(skeleton):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return 0 < n == len(skeleton) - 1
    return False
