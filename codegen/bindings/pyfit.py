"""Black's split of one long logical line, for the shapes generated code has.

The views write a statement on one line; when it is longer than black's limit, `fit` lays it out
the way black would: a call or def whose arguments fit on one line of their own (`f(\\n    a, b\\n)`),
a collection or argument list exploded one element per line with a trailing comma, a condition
split before each `and`/`or` inside parentheses, a right-hand side black wraps in parentheses of
its own (split at its operators when it does not fit either), a comprehension, a long
annotation before an exploded collection. It answers None for anything else, and black lays the
line out. What it returns is used as written: tests/test_black_layout.py holds it to black on
every generated module and on lines of each shape.
"""

from __future__ import annotations

import ast
import itertools
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


def mask(text: str, comments: bool = False) -> str | None:
    """The text with every string's content replaced by `x` (same length); None when it holds
    a comment (unless `comments`: then the text before it)."""

    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        q = m.group(1)
        return s[: len(s) - len(q)] + q[0] + "x" * (len(q) - 2) + q[0]

    out = _STRING.sub(blank, text)
    if comments and "#" in out:
        out = out[: out.index("#")].rstrip()
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


def _depth_at(masked: str, pos: int) -> int:
    """Bracket depth before `masked[pos]` (counted in C: cheaper than a walk for a few positions)."""
    head = masked[:pos]
    return sum(head.count(c) for c in "([{") - sum(head.count(c) for c in ")]}")


def _match_open(masked: str, close: int) -> int:
    """The position of the bracket that `masked[close]` closes (-1: none)."""
    return _match(masked, close, -1)


def _match_close(masked: str, open_: int) -> int:
    """The position of the bracket that closes `masked[open_]` (-1: none)."""
    return _match(masked, open_, 1)


def _match(masked: str, start: int, step: int) -> int:
    inward, outward = ("([{", ")]}") if step > 0 else (")]}", "([{")
    depth = 0
    end = len(masked) if step > 0 else -1
    for i in range(start, end, step):
        c = masked[i]
        if c in inward:
            depth += 1
        elif c in outward:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _top_level(masked: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """Matches of `pattern` outside every bracket (brackets may be left open)."""
    return [m for m in pattern.finditer(masked) if _depth_at(masked, m.start()) == 0]


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


def bare(expr: str) -> str:
    """`expr` without parentheses around the whole of it (unless they make a tuple): what black
    drops after `return`, `if` and `=`, so the views write `return {{ ok | bare }}`."""
    masked = mask(expr)
    if masked is None or not masked.startswith("(") or _match_close(masked, 0) != len(masked) - 1:
        return expr
    inner = masked[1:-1]
    depths = _depths(inner)
    if depths is None or any(c == "," and d == 0 for c, d in zip(inner, depths, strict=True)):
        return expr
    return bare(expr[1:-1])


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


def fit_element(line: str) -> list[str] | None:
    """Black's layout of one element line (ending in its comma) of an exploded bracket, or None
    when the line is not a whole element."""
    indent = len(line) - len(line.lstrip(" "))
    body = line[indent:-1]
    masked = mask(body)
    if masked is None or _depths(masked) is None or _top_level_commas(masked):
        return None
    if _UNSPLITTABLE.fullmatch(masked):
        return [line]  # black leaves it as long as it is
    return _split(indent, body, masked, ",")


def _split(indent: int, body: str, masked: str, comma: str) -> list[str] | None:
    """`body` (+ `comma`, an element's delimiter) split as black's right-hand split would."""
    pad = " " * indent
    text, mtext = body + comma, masked + comma
    if _fits(indent, text) and not magic_comma(mtext):
        return [pad + text]
    if body.startswith(("def ", "async def ")):
        return _split_def(indent, body, masked)
    omitted = False  # black splits at the last bracket, not at parentheses of its own
    if not comma:
        wrapped = _split_rhs(indent, body, masked)
        if wrapped is _LAST_BRACKET:
            omitted = True
        elif wrapped is not None:
            return wrapped or None
    colon = ":" if body.endswith(":") and not comma else ""
    logic_head = body.startswith(("return ", "if ", "elif ", "while "))
    if not comma and logic_head and not omitted and _top_level(masked, _LOGIC):
        return _split_logic(indent, body, masked, colon)
    end = len(body) - len(colon) - 1
    if end < 0 or masked[end] not in ")]}":
        return None
    start = _match_open(masked, end)
    if start <= 0 and not (start == 0 and body[0] in "[{("):
        return None
    head, inner, tail = body[: start + 1], body[start + 1 : end], body[end:] + comma
    mhead, minner = masked[: start + 1], masked[start + 1 : end]
    if _top_level(mhead, _DELIMITERS) and not omitted:
        return None  # black weighs optional parentheses here
    heads = [pad + head]
    if not _fits(indent, head) and trailing_comma(minner):
        # `NAME: dict[K, V] = {` too long before an exploded collection: black splits the
        # annotation's brackets
        m = _ANNOTATION.fullmatch(mhead)
        if m is not None:
            heads = [pad + head[: m.end(1)], pad + "    " + head[m.end(1) : m.start(3)]]
            heads.append(pad + head[m.start(3) :])
    if not all(_fits(0, h) for h in heads) or not _fits(indent, tail):
        return None
    before = body[start - 1] if start else " "
    call = body[start] == "(" and (before.isalnum() or before in "_)]" or body.startswith("from "))
    single = not trailing_comma(minner) and not _top_level_commas(minner)
    if body[start] == "[" and (before.isalnum() or before in "_)]"):
        if not trailing_comma(minner) and _fits(indent + 4, inner.strip()):
            return [*heads, pad + "    " + inner.strip(), pad + tail]  # `Literal[...]`
        return None  # a subscript: black's rules for its commas differ
    comprehension = not trailing_comma(minner) and _top_level(minner, _FOR)
    if comprehension and _fits(indent + 4, inner.strip()):
        return [*heads, pad + "    " + inner.strip(), pad + tail]  # a comprehension
    if comprehension and len(_top_level(minner, _FOR)) == 1 and not _top_level(minner, _IF):
        cut = _top_level(minner, _FOR)[0].start()  # a line for the element, one for its `for`
        parts = [inner[:cut].strip(), inner[cut:].strip()]
        if all(_fits(indent + 4, part) for part in parts):
            return [*heads, *(pad + "    " + part for part in parts), pad + tail]
    if re.search(r" for |\blambda\b|:=", minner):
        return None  # a comprehension or lambda: its commas are not the elements'
    if single and not call and body[start] == "(" and start > 0:
        # `or (a or b)`, `not (...)`: the group's content on a line of its own, else a line per
        # operand (inside brackets black splits at operators first)
        lines = _delimiter_split(indent + 4, inner.strip(), minner.strip())
        return None if lines is None else [*heads, *lines, pad + tail]
    elements = _split_commas(inner, minner)
    # a one-element tuple's comma is not magic
    trailing = minner.rstrip().endswith(",") and (call or body[start] != "(" or len(elements) > 1)
    exploded = trailing or (not call and len(elements) > 1)
    grouped = body[start] == "(" and not call and len(elements) == 1 and not trailing and comma
    if not exploded and (call or grouped) and _fits(indent + 4, inner.strip()):
        return [*heads, pad + "    " + inner.strip(), pad + tail]
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
        return [*heads, *inner_lines, pad + tail]
    out = [*heads]
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
        if _fits(indent + 4, el + ","):
            lines.append(pad + "    " + el + ",")
            continue
        # `name: Literal["x"] = "x"`: black splits at the annotation's bracket
        m = _PARAM_SUBSCRIPT.fullmatch(mask(el) or "")
        parts = (el[: m.end(1)], el[m.end(1) : m.start(3)], el[m.start(3) :] + ",") if m else ()
        if not parts or not all(_fits(indent + 4 + 4 * (k == 1), p) for k, p in enumerate(parts)):
            return None
        lines += [pad + "    " + parts[0], pad + "        " + parts[1], pad + "    " + parts[2]]
    return [*lines, pad + tail]


_ANNOTATION = re.compile(r"(\w+: [\w.]+\[)([^=]+)(\] = [\[{(])")
_PARAM_SUBSCRIPT = re.compile(r'(\w+: [\w.]+\[)([^\[\]]+)(\] = (?:"x*"|\w+))')


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


def trailing_comma(masked: str) -> bool:
    return masked.rstrip().endswith(",")


def _top_level_commas(masked: str) -> bool:
    depths = _depths(masked)
    return depths is None or any(c == "," and d == 0 for c, d in zip(masked, depths, strict=True))


# Black's delimiter priorities (black.brackets), for the operators generated code has.
_OPERATORS = re.compile(
    r" (if|else|or|and|not in|is not|in|is|==|!=|<=|>=|<|>|\||\^|&|<<|>>|\+|-|\*|/|//|%) "
)
_PRIORITY = {"if": 16, "else": 16, "or": 14, "and": 14, "|": 9, "^": 8, "&": 7, "<<": 6, ">>": 6,
             "+": 5, "-": 5, "*": 4, "/": 4, "//": 4, "%": 4}  # fmt: skip
_COMPARATOR = 10


def _delimiters(masked: str) -> tuple[int, list[int]]:
    """The highest priority among the operators outside brackets and where each one of that
    priority starts (0, [] when there is none)."""
    found = [
        (_PRIORITY.get(m.group(1), _COMPARATOR), m.start()) for m in _top_level(masked, _OPERATORS)
    ]
    if not found:
        return 0, []
    top = max(p for p, _ in found)
    return top, [pos for p, pos in found if p == top]


def _delimiter_split(indent: int, expr: str, masked: str) -> list[str] | None:
    """`expr` on one line at `indent` if it fits, else a line per operand, each after its
    operator of the highest priority (black's delimiter split); None when an operand does not
    fit either."""
    pad = " " * indent
    if _fits(indent, expr):
        return [pad + expr]
    _, starts = _delimiters(masked)
    if not starts:
        return None
    cuts = [0, *(pos + 1 for pos in starts), len(expr)]
    parts = [expr[a:b].strip() for a, b in itertools.pairwise(cuts)]
    if not all(_fits(indent, part) for part in parts):
        return None
    return [pad + part for part in parts]


_FOR = re.compile(r" for ")
_IF = re.compile(r" if ")
_ASSIGN = re.compile(r'(?:return |(?:if|elif|while) |[\w.]+(?:\["x*"\])? = |[\w.]+: [^=]+ = )')
_LAST_BRACKET: list[str] = ["<split at the last bracket>"]


def _split_rhs(indent: int, body: str, masked: str) -> list[str] | None:
    """`return X` or `target = X` too long, where black wraps X in parentheses of its own: X
    with two or more operators of its highest priority, or one and no bracket at its end, or
    ending in no bracket / an empty call (`x._to_dict()`). Its lines; `_LAST_BRACKET` when black
    omits those parentheses and splits at X's last bracket; [] when black would do something
    else here (the caller gives up); None when this is not such a statement."""
    head = _ASSIGN.match(masked)
    if head is None or _top_level(masked[: head.end()], _OPERATORS):
        return None
    condition = head.group(0) in ("if ", "elif ", "while ")
    if condition != body.endswith(":"):
        return None
    end = len(body) - 1 if condition else len(body)
    rhs, mrhs = bare(body[head.end() : end]), mask(bare(body[head.end() : end]))
    if mrhs is None or _depths(mrhs) is None or not mrhs:
        return None
    brackets = re.search(r"[(\[{]", mrhs.replace("()", "")) is not None
    target = re.split(r": | = ", masked[: head.end()], maxsplit=1)[0]
    if "[" in target and brackets:
        return []  # `out["k"] = f(...)`: black weighs splitting inside the target's brackets
    _, starts = _delimiters(mrhs)
    if mrhs[-1] in ")]}" and not mrhs.endswith("()") and len(starts) < 2:
        if not starts:
            return None  # no operator: black splits at the last bracket
        opening = _match_open(mrhs, len(mrhs) - 1)
        if _fits(indent, body[: head.end() + opening + 1]):
            return _LAST_BRACKET  # one operator and the line fits up to the last bracket
    if condition:
        return None  # the and/or split of conditions is `_split_logic`'s
    if brackets and not starts:
        return []
    pad = " " * indent
    lines = _delimiter_split(indent + 4, rhs, mrhs)
    if lines is None:
        return []
    return [pad + body[: head.end()] + "(", *lines, pad + ")"]
