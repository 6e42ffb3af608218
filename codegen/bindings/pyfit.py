"""Black's split of one long logical line, for the shapes generated code has.

The views write a statement on one line; when it is longer than black's limit (or carries
parentheses black drops), `fit` lays it out the way black would: a call or def whose arguments fit
on one line of their own (`f(\\n    a, b\\n)`), a collection or argument list exploded one element
per line with a trailing comma, a `return`/`if` condition split before each `and`/`or` inside
parentheses. It answers None for anything else. It is a shortcut, never the judge: its result is
used only when `pylayout.stable` accepts it, else black formats the line.
"""

from __future__ import annotations

import ast
import re

from .pylayout import LINE_LENGTH, magic_comma
from .text import py_string

_STRING = re.compile(r"""[a-z]{0,2}("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
_CLOSE = {")": "(", "]": "[", "}": "{"}
# Operators black splits at before brackets (priorities above a call's trailer).
_DELIMITERS = re.compile(
    r" (?:or|and|if|else|not in|in|is not|is|for|lambda|\+|-|\*|/|//|%|@|==|!=|<=|>=|<|>|\||&|\^|<<|>>|\*\*) "
    r"|^not |^lambda"
)
_LOGIC = re.compile(r" (or|and) ")
_UNSPLITTABLE = re.compile(r"""(?:"x*"|'x*'|[\w.]+)(?:: (?:"x*"|'x*'|[\w.]+))?""")


def mask(text: str) -> str | None:
    """The text with every string's content replaced by `x` (same length); None when it holds
    a comment or a quote this simple scan cannot pair."""

    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        q = m.group(1)
        return s[: len(s) - len(q)] + q[0] + "x" * (len(q) - 2) + q[0]

    out = _STRING.sub(blank, text)
    return None if "#" in out else out


def _depths(masked: str) -> list[int] | None:
    """Bracket depth before each character; None when unbalanced."""
    depth = 0
    out = []
    for c in masked:
        if c in ")]}":
            depth -= 1
            if depth < 0:
                return None
        out.append(depth)
        if c in "([{":
            depth += 1
    return out if depth == 0 else None


def _match_open(masked: str, close: int) -> int:
    depth = 0
    for i in range(close, -1, -1):
        c = masked[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _match_close(masked: str, open_: int) -> int:
    depth = 0
    for i in range(open_, len(masked)):
        c = masked[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _top_level(masked: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """Matches of `pattern` outside every bracket (brackets may be left open)."""
    depths, depth = [], 0
    for c in masked:
        if c in ")]}":
            depth -= 1
        depths.append(depth)
        if c in "([{":
            depth += 1
    return [m for m in pattern.finditer(masked) if depths[m.start()] == 0]


def _split_commas(text: str, masked: str) -> list[str]:
    depths = _depths(masked)
    assert depths is not None
    parts, start = [], 0
    for i, c in enumerate(masked):
        if c == "," and depths[i] == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    if last:
        parts.append(last)
    return parts


def _fits(indent: int, text: str) -> bool:
    return indent + len(text) <= LINE_LENGTH and text.isascii()


def _unwrap(body: str, masked: str) -> tuple[str, str]:
    """`return (x)` -> `return x` (and after if/elif/while, before an optional `:`): parentheses
    black makes invisible, when they hold no tuple."""
    for kw in ("return ", "if ", "elif ", "while "):
        if body.startswith(kw + "("):
            end = len(body) - (1 if body.endswith(":") else 0)
            if _match_close(masked, len(kw)) == end - 1:
                inner = masked[len(kw) + 1 : end - 1]
                depths = _depths(inner)
                if depths is not None and not any(
                    c == "," and d == 0 for c, d in zip(inner, depths, strict=True)
                ):
                    body = body[: len(kw)] + body[len(kw) + 1 : end - 1] + body[end:]
                    masked = masked[: len(kw)] + inner + masked[end:]
            break
    return body, masked


_PREFIXED = re.compile(r"""([A-Za-z_]*)('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")


def requote(line: str) -> str:
    """The line with each single-quoted literal spelled as `repr` spells it re-quoted as black
    quotes it (`py_string`); other literals stay as they are (black decides on those)."""
    if "'" not in line or "#" in line:
        return line  # (a comment is black's to leave alone: no guessing where it starts)

    def fix(m: re.Match[str]) -> str:
        prefix, lit = m.group(1), m.group(2)
        if prefix or lit[0] != "'":
            return m.group(0)
        try:
            value = ast.literal_eval(lit)
        except (ValueError, SyntaxError):
            return lit
        return py_string(value) if isinstance(value, str) and repr(value) == lit else lit

    return _PREFIXED.sub(fix, line)


def join(lines: list[str]) -> str:
    """A multi-line logical line on one line (its magic trailing commas kept): no space after an
    opening bracket or before a closing one, one space elsewhere."""
    out = lines[0].rstrip()
    for line in lines[1:]:
        text = line.strip()
        if out[-1:] in "([{" or text[:1] in ")]}":
            out += text
        else:
            out += " " + text
    return out


def fit(line: str) -> list[str] | None:
    """Black's layout of a one-line logical line (lines without newlines), or None."""
    line = requote(line)
    indent = len(line) - len(line.lstrip(" "))
    masked = mask(line[indent:])
    if masked is None or _depths(masked) is None:
        return None
    body, masked = _unwrap(line[indent:], masked)
    if _fits(indent, body) and not magic_comma(masked):
        return [" " * indent + body]
    return _split(indent, body, masked, "")


def _split(indent: int, body: str, masked: str, comma: str) -> list[str] | None:
    """`body` (+ `comma`, an element's delimiter) split as black's right-hand split would."""
    pad = " " * indent
    text, mtext = body + comma, masked + comma
    if _fits(indent, text) and not magic_comma(mtext):
        return [pad + text]
    if body.startswith(("def ", "async def ")):
        return _split_def(indent, body, masked)
    colon = ":" if body.endswith(":") and not comma else ""
    logic_head = body.startswith(("return ", "if ", "elif ", "while "))
    if not comma and logic_head and _top_level(masked, _LOGIC):
        return _split_logic(indent, body, masked, colon)
    end = len(body) - len(colon) - 1
    if end < 0 or masked[end] not in ")]}":
        return None
    start = _match_open(masked, end)
    if start <= 0 and not (start == 0 and body[0] in "[{("):
        return None
    head, inner, tail = body[: start + 1], body[start + 1 : end], body[end:] + comma
    mhead, minner = masked[: start + 1], masked[start + 1 : end]
    if _top_level(mhead, _DELIMITERS):
        return None  # black weighs optional parentheses here
    if not _fits(indent, head) or not _fits(indent, tail):
        return None
    before = body[start - 1] if start else " "
    call = body[start] == "(" and (before.isalnum() or before in "_)]" or body.startswith("from "))
    if body[start] == "[" and (before.isalnum() or before in "_)]"):
        return None  # a subscript: black's rules for its commas differ
    if re.search(r" for |\blambda\b|:=", minner):
        return None  # a comprehension or lambda: its commas are not the elements'
    elements = _split_commas(inner, minner)
    # a one-element tuple's comma is not magic
    trailing = minner.rstrip().endswith(",") and (call or body[start] != "(" or len(elements) > 1)
    exploded = trailing or (not call and len(elements) > 1)
    grouped = body[start] == "(" and not call and len(elements) == 1 and not trailing and comma
    if not exploded and (call or grouped) and _fits(indent + 4, inner.strip()):
        return [pad + head, pad + "    " + inner.strip(), pad + tail]
    if not elements:
        return None
    if len(elements) == 1 and not trailing:
        # one argument too long for a line of its own: split it in turn
        masked_el = mask(elements[0])
        if masked_el is None or not call:
            return None
        inner_lines = _split(indent + 4, elements[0], masked_el, "")
        if inner_lines is None:
            return None
        return [pad + head, *inner_lines, pad + tail]
    out = [pad + head]
    for el in elements:
        masked_el = mask(el)
        if masked_el is None:
            return None
        if _UNSPLITTABLE.fullmatch(masked_el):
            out.append(pad + "    " + el + ",")  # black leaves it as long as it is
            continue
        lines = _split(indent + 4, el, masked_el, ",")
        if lines is None:
            return None
        out += lines
    out.append(pad + tail)
    return out


def _split_def(indent: int, body: str, masked: str) -> list[str] | None:
    """A def too long for a line: black splits at its parameters (the first bracket)."""
    start = masked.find("(")
    end = _match_close(masked, start)
    if start < 0 or end < 0:
        return None
    pad = " " * indent
    head, inner, tail = body[: start + 1], body[start + 1 : end].strip(), body[end:]
    if not _fits(indent, head) or not _fits(indent, tail):
        return None
    minner = masked[start + 1 : end].strip()
    elements = _split_commas(inner, minner)
    if len(elements) > 1 and not minner.endswith(",") and _fits(indent + 4, inner):
        return [pad + head, pad + "    " + inner, pad + tail]
    lines = [pad + head]
    for el in elements:
        if not _fits(indent + 4, el + ","):
            return None
        lines.append(pad + "    " + el + ",")
    return [*lines, pad + tail]


def _split_logic(indent: int, body: str, masked: str, colon: str) -> list[str] | None:
    """`return a or b and c` (or an if/elif condition) too long: inside parentheses, a line per
    operand, each after its `and`/`or`, when there are at least two of them (black keeps the
    parentheses then) and no other operator binds looser."""
    for kw in ("return ", "if ", "elif ", "while "):
        if body.startswith(kw):
            break
    else:
        return None
    expr = body[len(kw) : len(body) - len(colon)]
    mexpr = masked[len(kw) : len(masked) - len(colon)]
    depths = _depths(mexpr)
    if depths is None:
        return None
    ops = [m for m in _LOGIC.finditer(mexpr) if depths[m.start()] == 0]
    if len(ops) < 2 and not (ops and mexpr[-1] not in ")]}"):
        return None
    loose = re.compile(r" (?:if|else|lambda) |^lambda |^not ")
    if any(depths[m.start()] == 0 for m in loose.finditer(mexpr)) or any(
        c == "," and d == 0 for c, d in zip(mexpr, depths, strict=True)
    ):
        return None
    pad = " " * indent
    if _fits(indent + 4, expr):
        return [pad + kw + "(", pad + "    " + expr, pad + ")" + colon]
    out = [pad + kw + "("]
    start = 0
    prefix = ""
    for m in ops:
        part = prefix + expr[start : m.start()]
        if not _fits(indent + 4, part):
            return None
        out.append(pad + "    " + part)
        prefix = m.group(1) + " "
        start = m.end()
    part = prefix + expr[start:]
    if not _fits(indent + 4, part):
        return None
    out.append(pad + "    " + part)
    out.append(pad + ")" + colon)
    return out
