"""Safe text for generated Python: docstrings, comments, string literals and JSON paths.

Everything that comes from a schema (prose, wire names, literal values) reaches generated code
only through these functions, so no `\"\"\"`, backslash, line break or `{{`/`{%` in a comment can
break a module or inject code: docstring bodies are escaped, literals go through `repr`, and
comments never contain a line break.

`Code` is a piece of generated Python with the names it mentions, recorded as it is spelled: a
module's imports and definition order are computed from those, never by reading the text back.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

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
    empty string when there is no text. The one writer of the Python targets' docstrings.

    Written as both formatters keep it: continuation lines at `indent` (a field's docstring is a
    plain string to them, laid out by no one else) and the closing quotes of a multi-line one on
    their own line (black moves them there only past the line limit, ruff never). A one-line
    docstring's final quote, escaped in any case (else the literal ends a quote early), is `\\x22`:
    black pads an escaped `\\"` before the closing quotes with a space, ruff does not."""
    body = docstring_body(text)
    if not body:
        return ""
    lines = body.split("\n")
    if len(lines) == 1:
        if body.endswith('\\"'):
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


@dataclass(frozen=True)
class Code:
    """Generated Python (a hint, an annotation, a default) and the names it mentions: `own`, the
    generator's names by their key (`Mapping`, `JSON`, `Field`: each says what the module must
    import, whatever its spelling there), and `defined`, the classes and aliases of the module
    that holds the schema's types, as spelled, in the order the text first names them. A union
    (`A | B`) also keeps its top-level `members`, and `unions` those of the parts it was made of
    (`list[int | float]`: `("int", "float")`)."""

    text: str
    own: frozenset[str] = frozenset()
    defined: tuple[str, ...] = ()
    members: tuple[str, ...] = ()  # a union's top-level members (empty: not a union)
    unions: tuple[tuple[str, ...], ...] = ()  # the members of the unions of its parts

    def alternatives(self) -> tuple[str, ...]:
        """The top-level members of the union this code is, or the code itself."""
        return self.members or (self.text,)

    def all_unions(self) -> tuple[tuple[str, ...], ...]:
        """The members of every union it spells: its parts' and its own."""
        return (*self.unions, self.members) if self.members else self.unions

    def spells(self, *members: str) -> bool:
        """Whether a union it spells has `members` next to each other, in this order (`int`,
        `float`: the number hint `int | float`, alone or in a longer union)."""
        n = len(members)
        return any(
            u[i : i + n] == members for u in self.all_unions() for i in range(len(u) - n + 1)
        )


def compose(text: str, *parts: Code, own: Iterable[str] = (), defined: Iterable[str] = ()) -> Code:
    """`text`, written around `parts` (in their order): it mentions what they mention, and
    `own`/`defined` (named before the parts)."""
    return Code(
        text,
        frozenset(own).union(*(p.own for p in parts)),
        tuple(dict.fromkeys([*defined, *(n for p in parts for n in p.defined)])),
        unions=tuple(u for p in parts if p.members or p.unions for u in p.all_unions()),
    )


def union(*parts: Code) -> Code:
    """`A | B`: the top-level members of `parts` (a part that is a union adds its own), each once,
    in order."""
    members = tuple(dict.fromkeys(m for p in parts for m in p.alternatives()))
    joined = compose(" | ".join(members), *parts)
    if len(members) < 2:
        return joined
    return Code(joined.text, joined.own, joined.defined, members, joined.unions)
