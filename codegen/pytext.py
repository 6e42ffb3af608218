"""Safe text for generated Python: docstrings, comments, string literals and JSON paths.

Everything that comes from a schema (prose, wire names, literal values) reaches generated code
only through these functions, so no `\"\"\"`, backslash, line break or `{{`/`{%` in a comment can
break a module or inject code: docstring bodies are escaped, literals go through `repr`, and
comments never contain a line break.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import textwrap

from . import ir
from .jsdoc import render_links


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if ch == "\t":
        return "\\t"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def docstring_body(text: str) -> str:
    """Escape prose for the inside of a triple-quoted docstring.

    Backslashes are doubled, every third quote of a run (and a final quote) is escaped, and
    characters that are not printable (tabs, form feeds, other line separators...) become escape
    sequences; only `\\n` stays a real line break. Trailing spaces are dropped (black would).
    """
    lines = [line.rstrip() for line in text.split("\n")]
    text = "\n".join(lines).strip()
    if '"' not in text and "\\" not in text and all(line.isprintable() for line in lines):
        return text  # the usual prose: nothing to escape
    text = text.replace("\\", "\\\\")
    if not all(line.isprintable() for line in lines):
        text = "".join(ch if ch == "\n" or ch.isprintable() else _escape_char(ch) for ch in text)
    end = len(text)

    def quotes(m: re.Match[str]) -> str:  # a run of quotes: every third one, and a last one
        run = ['\\"' if n % 3 == 2 else '"' for n in range(len(m.group()))]
        if m.end() == end:
            run[-1] = '\\"'
        return "".join(run)

    return _QUOTES.sub(quotes, text)


_QUOTES = re.compile('"+')


def docstring(text: str, indent: str) -> str:
    """A complete docstring literal (opening and closing quotes included) for code at `indent`;
    empty string when there is no text. Its layout (indentation, spaces by quotes) is the
    formatter's."""
    body = docstring_body(text)
    if not body:
        return ""
    lines = body.split("\n")
    if len(lines) == 1:
        if body.endswith('\\"'):  # black puts a space before the closing quotes, ruff does not
            body = body[:-2] + "\\x22"
        return f'"""{body}"""'
    rest = "\n".join((indent + line) if line else "" for line in lines[1:])
    return f'"""{lines[0]}\n{rest}\n{indent}"""'


def doc_text(doc: ir.Doc) -> str:
    """Prose for a docstring: the JSDoc text plus a `Deprecated:` note when tagged."""
    text = doc.text
    if doc.has("deprecated"):
        note = render_links(doc.tag("deprecated") or "")
        text = (text + "\n\n" if text else "") + ("Deprecated: " + note).strip()
    return text


def deprecation(doc: ir.Doc) -> str:
    """The Python literal of a `@deprecated` tag's message, on one line ("" when not tagged)."""
    if not doc.has("deprecated"):
        return ""
    text = " ".join(render_links(doc.tag("deprecated") or "").split())
    return code_literal(text or "deprecated")


def literal_text(literal: str) -> str:
    """The string a Python string literal (as `code_literal` writes it) stands for."""
    value = ast.literal_eval(literal)
    assert isinstance(value, str)
    return value


def comment(text: str) -> str:
    """Text safe inside a `#` comment: one line, every non-printable character escaped."""
    return "".join(ch if ch.isprintable() else _escape_char(ch) for ch in text)


def comment_lines(text: str, width: int = 92) -> tuple[str, ...]:
    """A comment wrapped into lines (each safe, see `comment`), without the `#`."""
    return tuple(
        textwrap.wrap(comment(text), width=width, break_long_words=False, break_on_hyphens=False)
    )


def literal(value: str | float | bool | None) -> str:
    """A Python literal for a JSON scalar (strings through `repr`, so always well-formed)."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    return repr(value)


def code_literal(value: str | float | bool | None) -> str:
    """`literal` for code: the formatter quotes it as black does (double quotes unless that needs
    more backslashes); comments and messages keep `literal`'s spelling."""
    return literal(value)


def key_suffix(key: str) -> str:
    """The JSON-path step for an object key: `.name`, or `["io.x/y"]` when not an identifier
    (the same spelling as tests/corpus.py uses for mutation paths)."""
    if key.isidentifier():
        return "." + key
    return "[" + json.dumps(key) + "]"


# -- ordering as ruff's isort (I001) and `__all__` sorting (RUF022) expect -------------------------


def _natcmp(a: str, b: str) -> int:
    """Natural order (digit runs compared as numbers), like the `natord` crate ruff uses."""
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i].isdigit() and b[j].isdigit():
            ei, ej = i, j
            while ei < len(a) and a[ei].isdigit():
                ei += 1
            while ej < len(b) and b[ej].isdigit():
                ej += 1
            na, nb = int(a[i:ei]), int(b[j:ej])
            if na != nb:
                return -1 if na < nb else 1
            i, j = ei, ej
            continue
        if a[i] != b[j]:
            return -1 if a[i] < b[j] else 1
        i += 1
        j += 1
    return (len(a) - i > 0) - (len(b) - j > 0)


def _member_type(name: str) -> int:
    """0 constant (`FOO_BAR`), 1 class (`FooBar`), 2 anything else."""
    if len(name) > 1 and name.isupper():
        return 0
    return 1 if name[:1].isupper() else 2


_PIECE = re.compile(r"[0-9]+|.", re.DOTALL)


def _natkey(s: str) -> tuple[tuple[int, int], ...]:
    """A sort key of ASCII `s` that orders as `_natcmp` does: a digit run is `(ord("0"), its
    value)`, any other character `(its code, 0)`; no other character lies between the digits.
    (Sorting by a key, not a comparison function: a package's names sort several times.)"""
    return tuple((48, int(p)) if p[0] <= "9" and p[0] >= "0" else (ord(p), 0)
                 for p in _PIECE.findall(s))  # fmt: skip


def _all_cmp(a: str, b: str) -> int:
    return (_member_type(a) - _member_type(b)) or _natcmp(a, b)


def sort_all(names: list[str]) -> list[str]:
    """`__all__` order: constants, classes, the rest; each in natural order."""
    if all(n.isascii() for n in names):
        return sorted(names, key=lambda n: (_member_type(n), _natkey(n)))
    return sorted(names, key=functools.cmp_to_key(_all_cmp))


def import_cmp(a: str, b: str) -> int:
    """isort's order of imported names: by kind, then case-insensitively, then as written."""
    return (_member_type(a) - _member_type(b)) or _natcmp(a.lower(), b.lower()) or _natcmp(a, b)


def import_key(name: str) -> tuple[int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """A sort key ordering ASCII names as `import_cmp` does (`sort_imports`)."""
    return (_member_type(name), _natkey(name.lower()), _natkey(name))


def sort_imports(names: list[str]) -> list[str]:
    if all(n.isascii() for n in names):  # else other digits and letters: `import_cmp` decides
        return sorted(names, key=import_key)
    return sorted(names, key=functools.cmp_to_key(import_cmp))
