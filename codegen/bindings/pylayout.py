"""Which statements of a module are already in black's layout, read from the text alone.

The templates and views emit code in black's layout (double-quoted strings, lines within the
limit, every multi-line bracket exploded one element per line with a magic trailing comma, black's
blank lines), so at run time black only has to see what they cannot guarantee. This module
decides that per statement, whatever template it came from, and is deliberately conservative:
`stable(lines)` answers True only for a layout it knows black keeps as it is (token spacing is the
templates' job, held to by the fixed-point tests); anything unusual goes to black. It also gives
black's blank lines between top-level statements (`blank_lines`) for the usual kinds of statement,
so a cold run needs no black call for them either.

Nothing here imports black: a run whose statements all pass never loads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE_LENGTH = 100  # keep in step with pyformat's Mode

# A one-line string literal (prefix, quote, body); triple quotes are handled as docstrings.
_STRING = re.compile(r"""([a-zA-Z]{0,2})("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
_PREFIXES = frozenset({"", "f", "r", "b", "rb", "br", "fr", "rf"})
# Text (strings blanked) black would change on a line that fits: spacing around brackets and
# commas, a space before a colon (slices black spaces on its own), statements joined by `;`, numeric
# literals black rewrites, a comma before a closing bracket (magic trailing comma) other than a
# one-element tuple's, parentheses black removes after a keyword or `=`.
_SUSPECT = re.compile(
    r"\S  +\S|[(\[{] | [,)\]}:]|,[^ ]|;|\t"
    r"|\b0[xXoObB]|\b\d[\d_.]*[EJL]"
    r"|^(?:return|if|elif|while|for|with|del|assert) \("
    r"| = \(|-> \(|\bawait \(|\bprint\(\("
    # operators black spaces (or, for `**`, hugs): written any other way, black respaces them
    r"|\S->|->\S|\*\*|[\w)\]](?:[+*/%|&^<>]|-(?![\d.]))|[+/%|&^<>][\w(\[]"
    r"|[\w)\]]==|==[\w(\[]|\b(?:if|elif|while|return|and|or|not|in|is|else)[(\[{\"]"
)
_DEF = re.compile(r" *(?:async def|def|class) ")
_DECORATOR = re.compile(r" *@")
# The head of an exploded bracket: what may stand before the opening bracket that ends a line.
_HEAD = re.compile(
    r'(?:(?:return|raise|yield) |[\w.]+(?:\[""\])? = |[\w.]+: [^=]+ = |\w+=|"": |\w+: |@)?'
    r"[\w.]*[(\[{]"
    r"|(?:async )?def \w+\("
    r"|class \w+\("
    r"|from [\w.]+ import \("
)
# What may follow the closing bracket of an explode on its line.
_TAIL = re.compile(r'(?:|,|(?: -> [\w.\[\], |"]+)?:(?: \.\.\.)?)')
_OPEN = {"(": ")", "[": "]", "{": "}"}


def _blank_strings(line: str) -> tuple[str, bool]:
    """The line with every one-line string literal replaced by `""`, and whether each literal is
    in black's preferred form (prefix lower case, double quotes unless they need more escapes)."""
    ok = True

    def blank(m: re.Match[str]) -> str:
        nonlocal ok
        prefix, lit = m.group(1), m.group(2)
        if prefix not in _PREFIXES:
            ok = False  # upper case or `u`: black rewrites it
        body = lit[1:-1]
        if lit[0] == "'":
            # black keeps single quotes only when double ones would need more escapes
            if '"' not in body or "\\" in body:
                ok = False
        elif "\\'" in body:
            ok = False  # an escape black removes
        return '""'

    if "'" not in line and '"' not in line:
        return line, True
    out = _STRING.sub(blank, line)
    return out, ok


def _width(line: str) -> int:
    """Black's width: wide characters count double (conservatively, every non-ASCII one)."""
    if line.isascii():
        return len(line)
    return len(line) + sum(1 for c in line if not c.isascii())


def _code_part(blanked: str) -> str | None:
    """The line without its comment; None when the comment is not as black writes it."""
    pos = blanked.find("#")
    if pos < 0:
        return blanked
    code, comment = blanked[:pos], blanked[pos:]
    if comment != "#" and not comment.startswith("# "):
        return None
    if code.strip() and not (code.endswith("  ") and not code.endswith("   ")):
        return None
    return code.rstrip()


@dataclass
class _Bracket:
    char: str
    indent: int  # of the line that opened it
    head: int  # width of that line without its indentation
    bare: bool  # a parenthesized tuple/group, not a call or subscript
    is_def: bool  # the parameters of a def
    elements: int = 0  # element lines so far
    sole: bool = False  # its one element ended without a comma: it must close next
    # Whether black must explode it whatever the width: a magic trailing comma inside. An explode
    # that does not have to (content on one line, or the sole explode inside it does not have to)
    # is black's only if the joined line would be too long.
    must: bool = True
    content: int = 0  # width of the joined content, for `must` False
    # `return (` / `if (`...: black's split inside the parentheses it adds around an and/or chain
    logic: list[str] | None = None  # the content lines so far


def within_width(lines: list[str]) -> bool:
    """Whether every line fits black's limit: all a run checks of a statement, since the views
    guarantee the rest of black's layout for every statement that fits (quoting, spacing, exploded
    brackets with magic trailing commas, no parentheses black drops; held to by the fixed-point
    tests). Only names and literals of unbounded length can push a line past the limit."""
    return all(len(line) <= LINE_LENGTH for line in lines) and all(
        line.isascii() or _width(line) <= LINE_LENGTH for line in lines
    )


def stable(lines: list[str]) -> bool:
    """Whether black leaves this statement (a top-level statement's lines) as it is."""
    return first_problem(lines) is None


def first_problem(lines: list[str]) -> int | None:
    """The index of the first line black might change (len(lines) for an unfinished statement),
    or None when the statement is in black's layout."""
    found = problem(lines)
    return None if found is None else found[0]


def problem_in(lines: list[str]) -> bool:
    """Whether some line of `lines` (a logical line laid out again) is not black's layout."""
    return problem(lines) is not None


def problem(lines: list[str]) -> tuple[int, int] | None:
    """(first line black might change, first line of its logical line, or -1 when the problem is
    not in one logical line: blank lines, docstrings), or None when it is all black's layout."""
    start = 0
    stack: list[_Bracket] = []
    docstring: str | None = None  # the indentation of an open triple-quoted string
    doc_min: int | None = None  # least indentation of a docstring's continuation lines
    prev = ""  # previous non-blank code line (outside brackets and strings)
    blank_run = 0
    def_indents: list[int] = []  # indentation of enclosing/previous nested def and class lines
    closed_def = False  # a nested def/class body has ended: the next line needs one blank line
    after_class_doc = False  # a class docstring ended: the next line needs one blank line
    class_line = False
    for n, line in enumerate(lines):
        if docstring is not None:
            if line.rstrip() != line or "\t" in line:
                return n, -1
            if line and not line.startswith(docstring):
                return n, -1
            content = line.removesuffix('"""')
            if content.strip():
                lead = len(content) - len(content.lstrip(" "))
                doc_min = lead if doc_min is None else min(doc_min, lead)
            if line.endswith('"""'):
                body = line[:-3].strip()
                if body.endswith(("\\", '"')) or (not body and line != docstring + '"""'):
                    return n, -1
                if body and _width(line) > LINE_LENGTH:
                    return n, -1  # black moves the closing quotes to a line of their own
                if line.count('"""') != 1:
                    return n, -1
                if doc_min is not None and doc_min != len(docstring):
                    return n, -1  # black re-indents the docstring
                docstring = None
                after_class_doc = class_line
                class_line = False
            elif '"""' in line or "'''" in line:
                return n, -1
            continue
        if not line:
            if stack or n == 0:
                return n, -1
            blank_run += 1
            continue
        if line != line.rstrip() or line.endswith("\\"):
            return n, -1
        indent = len(line) - len(line.lstrip(" "))
        text = line[indent:]
        if not stack:
            # blank lines between the statements of a block
            if blank_run > 1 or (blank_run and prev.endswith(":")):
                return n, -1
            if blank_run and (
                prev.lstrip().startswith(("@", "#"))
                or text.startswith(("else", "elif", "except", "finally", "#"))
            ):
                return n, -1
            while def_indents and def_indents[-1] >= indent:
                def_indents.pop()
                closed_def = True
            is_def = bool(_DEF.match(line) or _DECORATOR.match(line))
            if n and (closed_def or after_class_doc) and blank_run != 1:
                return n, -1
            if n and is_def and not prev.lstrip().startswith("@"):
                opener = prev.endswith(":") and not prev.lstrip().startswith("#")
                if blank_run != (0 if opener else 1):
                    return n, -1
                if prev.lstrip().startswith("#"):
                    return n, -1
            if text.startswith(("else", "elif", "except", "finally")) and closed_def:
                return n, -1
            closed_def = after_class_doc = False
            if _DEF.match(line):
                def_indents.append(indent)
            blank_run = 0
        if text.startswith(('"""', "'''")):
            if stack or text.startswith("'''"):
                return n, -1
            if not prev.endswith(":") and prev and not class_line and n:
                pass  # an attribute docstring: black treats it like any string
            rest = text[3:]
            if not rest or rest[0].isspace():
                return n, -1
            if text.count('"""') == 2 and text.endswith('"""') and len(text) > 6:
                body = text[3:-3]
                if body.endswith(("\\", '"')) or body != body.strip() or '"""' in body:
                    return n, -1
                after_class_doc = class_line
                class_line = False
                prev = line
                continue
            if text.count('"""') != 1 or "\\" in text:
                return n, -1
            docstring = " " * indent
            doc_min = None
            prev = line
            continue
        class_line = False
        if not stack:
            start = n
        if text.startswith("#"):
            if text != "#" and not text.startswith("# ") or stack:
                return n, -1
            prev = line  # black leaves a comment line as it is, long or not
            continue
        blanked, strings_ok = _blank_strings(line)
        if _width(line) > LINE_LENGTH and not (stack and _UNSPLITTABLE.fullmatch(blanked.strip())):
            return n, start  # (an element black cannot split stays as long as it is)
        if not strings_ok or '"""' in blanked or "'''" in blanked:
            return n, start
        code = _code_part(blanked)
        if code is None:
            return n, start
        if stack and code != blanked.rstrip():
            return n, start  # a comment inside brackets
        # widths for "too long to join" checks: unknown (never too long) when not ASCII
        width = len(line) - indent if line.isascii() else -LINE_LENGTH * 10
        if code.strip() and not _bracket_line(code, indent, stack, width):
            return n, start
        if not stack:
            if code.strip():
                prev = line
                class_line = text.startswith("class ") and code.endswith(":")
            else:
                prev = line  # a comment
    return None if not stack and docstring is None else (len(lines), -1)


def _bracket_line(code: str, indent: int, stack: list[_Bracket], width: int) -> bool:
    """Check one physical line's brackets against the explode rules, updating `stack` (`code`:
    the line with strings blanked; `width`: the real line's, without indentation)."""
    if indent % 4:
        return False
    body = code[indent:]
    top = stack[-1] if stack else None
    if not stack and body in _LOGIC_HEADS:
        stack.append(_Bracket("(", indent, width, True, False, logic=[]))
        return True
    # a one-element tuple `(x,)` is the only comma black keeps before a closing bracket
    if _SUSPECT.search(body) and not _only_one_tuples(body):
        return False
    if top is not None and top.logic is not None:
        if body.startswith(")"):
            return _close_logic(body, indent, stack)
        if indent != top.indent + 4:
            return False
        top.logic.append(body)
        top.content += width + (1 if top.content else 0)  # joined with spaces
        return True
    if top is not None:
        if body.startswith(_OPEN[top.char]):
            return _close(body, indent, stack, width)
        if indent != top.indent + 4 or top.sole:
            return False
        top.elements += 1
    depth = 0
    commas = 0
    opened: list[tuple[str, int]] = []
    inner = top.char if top is not None else ""
    for m in _SPECIAL.finditer(body):  # only the characters that matter, not every one
        i, c = m.start(), m.group()
        if c == ":" and i + 1 < len(body) and body[i + 1] not in " ]":
            # no space after a colon: only in a slice (or a walrus, which is rejected anyway)
            if (opened[-1][0] if opened else inner) != "[" or body[i + 1] == "=":
                return False
        elif (
            c == "=" and body[i - 1 : i + 2].count("=") == 1 and body[i - 1] not in "<>!+-*/%|&^:@"
        ):
            spaced = body[i - 1 : i + 2] == " = "
            if spaced != (depth == 0 and not opened and inner == "") and not (inner or opened):
                return False  # a statement's `=` is spaced
            if (
                (inner or opened)
                and not spaced
                and body[i - 1 : i + 2].strip() != body[i - 1 : i + 2]
            ):
                return False  # a keyword argument's is not: half-spaced is wrong either way
        if c in "([{":
            opened.append((c, i))
            depth += 1
        elif c in ")]}":
            if not opened:
                return False  # closes a bracket of an earlier line mid-line: not black's
            o, _ = opened.pop()
            if _OPEN[o] != c:
                return False
            depth -= 1
        elif c == "," and depth == 0:
            commas += 1
    if opened:
        # the line ends with an opening bracket: an explode
        if len(opened) != 1 or opened[0][1] != len(body) - 1:
            return False
        if not _HEAD.fullmatch(body) or (top is not None and commas):
            return False
        char = opened[0][0]
        before = body[-2] if len(body) > 1 else " "
        is_import = body.startswith("from ")
        bare = char == "(" and not (before.isalnum() or before in "_)]" or is_import)
        if char == "[" and (before.isalnum() or before in "_)]"):
            return False  # a subscript: black's trailing-comma rules differ
        is_def = body.startswith(("def ", "async def "))
        stack.append(_Bracket(char, indent, width, bare, is_def))
        return True
    if top is None:
        return True
    if _COMPREHENSION.search(body):
        return False  # `for` binds looser than the commas: not one element per line
    if commas == 1 and body.endswith(","):
        return True  # a complete element
    # The whole content on one line, no trailing comma: black's split of a call or def that
    # does not fit (a def's parameters get a trailing comma unless there are several).
    if top.elements != 1 or top.char != "(" or body.endswith(","):
        return False
    if top.bare and (commas or stack[0] is top):
        return False  # a tuple; or parentheses black may drop (`return (`, `x = (`)
    if top.is_def and not commas:
        return False
    top.sole, top.must, top.content = True, False, width
    return True


def _close(body: str, indent: int, stack: list[_Bracket], width: int) -> bool:
    """The closing line of an explode: closer at the head's indentation, a simple tail."""
    top = stack.pop()
    tail = body[1:]
    if indent != top.indent or not _TAIL.fullmatch(tail) or top.elements == 0:
        return False
    if top.bare and top.elements < 2:
        return False  # a one-element tuple's trailing comma is not magic
    if not top.must and indent + top.head + top.content + width <= LINE_LENGTH:
        return False  # it fits on one line: black joins it
    outer = stack[-1] if stack else None
    if outer is None:
        return tail != ","
    if tail.startswith((":", " ->")):
        return False
    if tail == "":
        # the sole content of a call that black explodes because its one argument is
        if outer.bare or outer.elements != 1:
            return False
        outer.sole, outer.must = True, top.must
        outer.content = top.head + top.content + width
    return True


_COMPREHENSION = re.compile(r" for | async for |\blambda\b|:=")
# An element with no bracket and no operator: black has nowhere to split it.
_UNSPLITTABLE = re.compile(r'(?:""|[\w.]+)(?:: (?:""|[\w.]+))?,')
_SPECIAL = re.compile(r"[()\[\]{},:=]")
_LOGIC_HEADS = frozenset({"return (", "if (", "elif (", "while ("})
_LOGIC = re.compile(r" (?:or|and) ")
_LOOSER = re.compile(r" (?:if|else|lambda) |^lambda |,|:=")


def _top_level(code: str, pattern: re.Pattern[str]) -> list[int] | None:
    """Start offsets of `pattern` outside brackets; None when the brackets do not balance."""
    depths, depth = [], 0
    for c in code:
        if c in ")]}":
            depth -= 1
            if depth < 0:
                return None
        depths.append(depth)
        if c in "([{":
            depth += 1
    if depth:
        return None
    return [m.start() for m in pattern.finditer(code) if depths[m.start()] == 0]


def _close_logic(body: str, indent: int, stack: list[_Bracket]) -> bool:
    """Close `return (` ... `)`: black's parentheses around an and/or chain too long for the
    line, holding the chain on one line if it fits there, else an operand per line."""
    top = stack.pop()
    lines = top.logic or []
    is_return = top.head == len("return (")
    if stack or indent != top.indent or body != (")" if is_return else "):") or not lines:
        return False
    for i, line in enumerate(lines):
        ops = _top_level(line, _LOGIC)
        if ops is None or _top_level(line, _LOOSER) or (line[-1:] == ":"):
            return False
        if i and not line.startswith(("or ", "and ")):
            return False
        if (ops or (not i and line.startswith(("or ", "and ")))) and len(lines) > 1:
            return False  # every operator of the chain starts a line
    joined = " ".join(lines)
    ops = _top_level(joined, _LOGIC) or []
    if len(ops) < 2 and not (ops and joined[-1] not in ")]}"):
        return False  # black may split at the last bracket instead
    if len(lines) > 1:
        return indent + 4 + top.content > LINE_LENGTH
    return indent + top.head - 1 + top.content + (0 if is_return else 1) > LINE_LENGTH


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


def _only_one_tuples(code: str) -> bool:
    """True when the only suspect of the line is a comma before `)` in one-element tuples."""
    if code.startswith("from "):
        return False  # an import's parentheses are no tuple
    stripped = _without_one_tuples(code)
    if _COMMA_CLOSE.search(stripped):
        return False
    return _SUSPECT.search(stripped) is None


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
