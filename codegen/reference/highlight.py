"""JSON code blocks highlighted as the official pages show them (typedoc's highlighter): each line
split into tokens of a colour (punctuation and white space, property names, strings, numbers,
escapes inside strings, `true`/`false`/`null`), adjacent tokens of one colour merged, each run a
`<span class="hl-N">`. N numbers the colours in the order the page first uses them, so one
registry serves a whole page.

TypeScript blocks (a `@default` value) get the literal tokens only, in TypeScript's colours: a
string (quoted key or value) is one colour of its own, numbers and `true`/`false`/`null` share
JSON's; anything else is plain text."""

from __future__ import annotations

import html
import re

_TOKEN = re.compile(
    r'(?P<string>"(?:[^"\\]|\\.)*")(?P<key>(?=\s*:))?'
    r"|(?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    r"|(?P<keyword>\b(?:true|false|null)\b)"
    r"|(?P<other>\s+|.)"
)
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)")


def _esc(text: str) -> str:
    return html.escape(text).replace("&#x27;", "&#39;")


class Highlighter:
    def __init__(self) -> None:
        self.colours: dict[str, int] = {}

    def cls(self, colour: str) -> str:
        return f"hl-{self.colours.setdefault(colour, len(self.colours))}"

    def line(self, text: str, lang: str = "json") -> str:
        runs: list[list[str]] = []  # [colour, text]

        def add(colour: str, part: str) -> None:
            if runs and runs[-1][0] == colour:
                runs[-1][1] += part
            else:
                runs.append([colour, part])

        for m in _TOKEN.finditer(text):
            if m.group("string") is not None:
                colour = "key" if m.group("key") is not None else "string"
                if lang != "json":
                    colour = f"{lang}-string"
                s, last = m.group("string"), 0
                for e in _ESCAPE.finditer(s):
                    if e.start() > last:
                        add(colour, s[last : e.start()])
                    add("escape" if lang == "json" else colour, e.group(0))
                    last = e.end()
                if last < len(s):
                    add(colour, s[last:])
            elif m.group("number") is not None:
                add("number", m.group(0))
            elif m.group("keyword") is not None:
                add("keyword", m.group(0))
            else:
                add("plain", m.group(0))
        return "".join(f'<span class="{self.cls(c)}">{_esc(t)}</span>' for c, t in runs)

    def code(self, code: str, lang: str = "json") -> str:
        return "<br/>".join(self.line(line, lang) for line in code.split("\n"))
