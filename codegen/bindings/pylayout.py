"""A module's top-level statements, black's blank lines between them, and black's line width.

The templates and views emit code in black's layout (double-quoted strings, every multi-line
bracket exploded one element per line with a magic trailing comma, no parentheses black drops,
black's blank lines; held to by the fixed-point tests), except for width: names and literals of
unbounded length can push a line past the limit. `split` reads a module as its statements,
`within_width` says which need a look, and `blank_lines` gives black's blank lines between the
statements for the usual kinds of statement, so a run needs no black call for them either.

Nothing here imports black: a run whose lines all fit never loads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE_LENGTH = 100  # black's limit: pyformat's Mode reads it from here

# A one-line string literal (prefix, quote, body); triple quotes are handled as docstrings.
_STRING = re.compile(r"""([a-zA-Z]{0,2})("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
_DEF = re.compile(r" *(?:async def|def|class) ")
_DECORATOR = re.compile(r" *@")


def _width(line: str) -> int:
    """An upper bound of black's width of the line (black.strings.str_width counts East Asian wide
    characters two columns): every non-ASCII character counts two. A non-ASCII line over the limit
    by this count goes to black, which measures it exactly."""
    if line.isascii():
        return len(line)
    return len(line) + sum(1 for c in line if not c.isascii())


def within_width(lines: list[str]) -> bool:
    """Whether every line fits black's limit: all a run checks of a statement, since the views
    guarantee the rest of black's layout."""
    for line in lines:
        if len(line) > LINE_LENGTH or (not line.isascii() and _width(line) > LINE_LENGTH):
            return False
    return True


def fits(line: str) -> bool:
    """`within_width` of one line."""
    return len(line) <= LINE_LENGTH and (line.isascii() or _width(line) <= LINE_LENGTH)


_COMMA_CLOSE = re.compile(r",[)\]}]")


def magic_comma(code: str) -> bool:
    """Whether the (string-blanked) code has a comma before a closing bracket other than a
    one-element tuple's: a magic trailing comma, which makes black explode the brackets."""
    if not _COMMA_CLOSE.search(code):
        return False
    if code.lstrip().startswith("from "):
        return True  # an import's parentheses are no tuple: its trailing comma is magic
    return _COMMA_CLOSE.search(_without_one_tuples(code)) is not None


def _without_one_tuples(code: str) -> str:
    """The code with each one-element tuple `(x,)` (not a call's parentheses) blanked to `()`."""
    opened: list[tuple[int, int]] = []  # (position, top-level commas inside so far)
    cut: list[tuple[int, int]] = []
    for i, c in enumerate(code):
        if c in "([{":
            opened.append((i, 0))
        elif c in ")]}":
            if not opened:
                return code
            start, commas = opened.pop()
            before = code[start - 1] if start else " "
            is_call = before.isalnum() or before in "_)]"
            if (
                c == ")"
                and code[start] == "("
                and commas == 1
                and code[i - 1] == ","
                and not is_call
            ):
                cut.append((start, i))
        elif c == "," and opened:
            opened[-1] = (opened[-1][0], opened[-1][1] + 1)
    outermost = [(a, b) for a, b in cut if not any(c < a and b < d for c, d in cut)]
    out = code
    for start, end in sorted(outermost, reverse=True):
        out = out[: start + 1] + out[end:]
    return out


# -- top-level statements and the blank lines between them ---------------------------------------


@dataclass
class Statement:
    kind: str  # def (def, class, decorated), import, assign (other simple), string, comment, other
    start: int  # first line (0-based)
    end: int  # one past the last line
    before: int  # blank lines before it in the source


_SIMPLE_START = re.compile(r"[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?::| =| \+=|\(|$)")
_KEYWORDS = frozenset(
    {"if", "elif", "else", "for", "while", "try", "except", "finally", "with", "match", "case"}
    | {"return", "raise", "assert", "del", "global", "nonlocal", "pass", "break", "continue"}
    | {"yield", "lambda", "not", "await", "async"}
)


def split(source: str) -> list[Statement] | None:
    """The top-level statements of a module in black's bracket layout (or near it), by line;
    None when the text is not simple enough to split without a parser."""
    lines = source.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out: list[Statement] = []
    blanks = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line:
            blanks += 1
            i += 1
            continue
        if line[0] == " ":
            return None
        first = line.split(" ", 1)[0].rstrip(":")
        end: int | None
        if line.startswith("#"):
            kind, end = "comment", i + 1
        elif line.startswith('"""'):
            kind = "string"
            end = _string_end(lines, i)
            if end is None:
                return None
        elif line.startswith(("@", "async def ")) or first in ("def", "class"):
            kind = "def"
            end = _block_end(lines, i)
        elif first in ("import", "from"):
            kind = "import"
            end = _block_end(lines, i)
        elif first in _KEYWORDS or not _SIMPLE_START.match(line):
            kind = "other"
            end = _block_end(lines, i)
        else:
            kind = "assign"
            end = _block_end(lines, i)
        if end is None:
            return None
        # a trailing block of blank lines belongs to the next statement
        last = end
        while last > i and not lines[last - 1]:
            last -= 1
        out.append(Statement(kind, i, last, blanks))
        blanks = end - last
        i = end
    return out


def _string_end(lines: list[str], i: int) -> int | None:
    line = lines[i]
    if line.count('"""') == 2 and line.endswith('"""') and len(line) > 6:
        return i + 1
    if line.count('"""') != 1:
        return None
    for j in range(i + 1, len(lines)):
        if '"""' in lines[j]:
            return j + 1 if lines[j].count('"""') == 1 and lines[j].endswith('"""') else None
    return None


def _block_end(lines: list[str], i: int) -> int | None:
    """One past the last line of the statement starting at line i: the next line at column 0 that
    does not close a bracket or continue a decorator, outside triple-quoted strings."""
    j = i + 1
    decorated = lines[i].startswith("@")
    in_doc = lines[i].count('"""') % 2 == 1
    while j < len(lines):
        line = lines[j]
        if in_doc:
            if line.count('"""') % 2 == 1:
                in_doc = False
            j += 1
            continue
        if line and line[0] != " ":
            if line[0] in ")]}":
                j += 1
                continue
            if decorated and (line.startswith(("def ", "class ", "async def ", "@"))):
                decorated = line.startswith("@")
                j += 1
                continue
            if line.startswith(("else", "elif", "except", "finally")):
                return None
            break
        if line.count('"""') % 2 == 1:
            in_doc = True
        j += 1
    return j if not in_doc else None


def blank_lines(statements: list[Statement], texts: list[str]) -> list[int] | None:
    """Black's blank lines before each top-level statement (texts: their final text); None when a
    transition is one this model does not cover (then black lays out a skeleton)."""
    out: list[int] = []
    prev: Statement | None = None
    prev_text = ""
    for st, text in zip(statements, texts, strict=True):
        before = min(st.before, 2)
        if prev is None:
            if st.before:
                return None
            n = 0
        elif st.kind == "def" and prev.kind == "comment":
            # black keeps a comment block on its def; the blank lines go before the block
            k = len(out) - 1
            while k > 0 and statements[k - 1].kind == "comment" and not statements[k].before:
                k -= 1
            if st.before:
                n = 2
            elif out[k] < 2:
                return None
            else:
                n = 0
        elif st.kind == "def":
            stub = (
                prev.kind == "def"
                and prev_text.endswith(": ...")
                and _last_def_line_is_stub(prev_text)
            )
            n = 0 if stub and before == 0 else 2
        elif prev.kind == "def":
            if st.kind == "other" and text.startswith(("else", "elif", "except", "finally")):
                return None
            n = 2
        elif prev.kind == "import":
            n = before if st.kind == "import" else 1
        elif prev.kind == "string" and all(s.kind == "comment" for s in statements[: len(out) - 1]):
            n = 1  # after the module docstring
        elif st.kind in ("other",) or prev.kind == "other":
            return None
        else:
            n = before
        out.append(n)
        prev, prev_text = st, text
    return out


def _last_def_line_is_stub(text: str) -> bool:
    """The statement is a def whose body is `...` on its own (logical) line: black's stub def."""
    last = text.rsplit("\n", 1)[-1]
    return not last.startswith(" ") and (last.startswith(("def ", "async def ", ")")))
