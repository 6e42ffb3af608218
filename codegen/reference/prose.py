"""JSDoc Markdown as typedoc renders it (markdown-it with linkify), for the subset comments use:
paragraphs, bullet and ordered lists (nested, tight or loose), fenced code (JSON highlighted),
inline code,
emphasis, links, autolinks and bare URLs, backslash escapes, and `{@link X}` inline tags.

Untrusted text: raw HTML in a comment is shown as text (never passed through), and a link
becomes a link only when its URL is http(s), mailto, a relative path or a fragment; anything
else (`javascript:`) stays text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .highlight import Highlighter

# `{@link Target}` / `{@link Target | text}` -> (href, kind class) or None when unresolved
Resolver = Callable[[str], tuple[str, str] | None]

_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
_BULLET = re.compile(r"^(\s*)([-*+])(\s+)(.*)$")
_ORDERED = re.compile(r"^(\s*)(\d{1,9})([.)])(\s+)(.*)$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SAFE_URL = re.compile(r"^(?:https?://|mailto:|/|#|\.{1,2}/)", re.IGNORECASE)
_BARE_URL = re.compile(r"(?:https?://|www\.)[^\s<>]*[^\s<>.,:;\"')\]!?*_~]", re.IGNORECASE)
_ESCAPABLE = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


def esc(text: str) -> str:
    """Text as markdown-it escapes it: `& < > "` (an apostrophe stays)."""
    return html.escape(text, quote=False).replace('"', "&quot;")


def esc_attr(text: str) -> str:
    """An attribute value (always double-quoted)."""
    return esc(text)


@dataclass
class Renderer:
    resolve: Resolver
    highlighter: Highlighter = field(default_factory=Highlighter)  # one per page

    # -- blocks -------------------------------------------------------------------------------

    def render(self, text: str) -> str:
        return self.blocks(text.split("\n"))

    def blocks(self, lines: list[str]) -> str:
        out: list[str] = []
        i = 0
        para: list[str] = []

        def flush() -> None:
            if para:
                out.append(f"<p>{self.inline(chr(10).join(s.strip() for s in para))}</p>\n")
                para.clear()

        while i < len(lines):
            line = lines[i]
            if not line.strip():
                flush()
                i += 1
                continue
            fence = _FENCE.match(line)
            if fence:
                flush()
                i = self.fence(lines, i, fence, out)
                continue
            heading = _HEADING.match(line)
            if heading and not para:
                level = len(heading.group(1))
                out.append(f"<h{level}>{self.inline(heading.group(2))}</h{level}>\n")
                i += 1
                continue
            if (_BULLET.match(line) or _ORDERED.match(line)) and (
                not para or _list_can_interrupt(line)
            ):
                flush()
                i = self.bullets(lines, i, out)
                continue
            para.append(line)
            i += 1
        flush()
        return "".join(out)

    def fence(self, lines: list[str], i: int, m: re.Match[str], out: list[str]) -> int:
        marker, lang = m.group(2), m.group(3)
        indent = len(m.group(1))
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(marker):
            line = lines[i]
            strip = min(indent, len(line) - len(line.lstrip(" ")))
            body.append(line[strip:])
            i += 1
        out.append(code_block("\n".join(body), lang, self.highlighter))
        return i + 1

    def bullets(self, lines: list[str], i: int, out: list[str]) -> int:
        """A list from line `i`: items at its marker's indentation; deeper lines (and lazy
        continuation lines) belong to the item before; a blank line between items makes the
        list loose (its items' paragraphs keep their `<p>`)."""
        first = _BULLET.match(lines[i]) or _ORDERED.match(lines[i])
        assert first is not None
        ordered = _ORDERED.match(lines[i]) is not None
        base = len(first.group(1))
        items: list[list[str]] = []
        loose = pending_blank = False
        start = first.group(2) if ordered else None
        while i < len(lines):
            line = lines[i]
            m = _ORDERED.match(line) if ordered else _BULLET.match(line)
            if m and len(m.group(1)) == base:
                loose = loose or (pending_blank and bool(items))
                pending_blank = False
                items.append([m.group(5) if ordered else m.group(4)])
            elif not line.strip():
                pending_blank = True
            elif len(line) - len(line.lstrip(" ")) > base:
                if pending_blank:
                    items[-1].append("")
                pending_blank = False
                indent = len(line) - len(line.lstrip(" "))
                items[-1].append(line[min(indent, base + 2) :])
            elif not pending_blank and not (_BULLET.match(line) or _ORDERED.match(line)):
                items[-1].append(line.strip())  # lazy continuation
            else:
                break
            i += 1
        tag = "ol" if ordered else "ul"
        attr = f' start="{int(start)}"' if start is not None and int(start) != 1 else ""
        out.append(f"<{tag}{attr}>\n")
        out.extend(self.item(item, loose) for item in items)
        out.append(f"</{tag}>\n")
        return i

    def item(self, item: list[str], loose: bool) -> str:
        """As markdown-it writes an item: a loose one's blocks on their own lines; a tight
        one's paragraphs without `<p>`, its text ending the item or followed by a sub-list."""
        inner = self.blocks(item)
        if loose:
            return f"<li>\n{inner}</li>\n"
        inner = re.sub(r"<p>(.*?)</p>\n", r"\1\n", inner, flags=re.DOTALL)
        if inner.endswith("\n") and "\n<" not in inner:
            inner = inner[:-1]
        return f"<li>{inner}</li>\n"

    # -- inline -------------------------------------------------------------------------------

    def inline(self, text: str) -> str:
        out: list[str] = []
        i = 0
        n = len(text)
        buf: list[str] = []

        def plain() -> None:
            if buf:
                out.append(self.linkify("".join(buf)))
                buf.clear()

        while i < n:
            c = text[i]
            if c == "\\" and i + 1 < n and text[i + 1] in _ESCAPABLE:
                plain()
                out.append(esc(text[i + 1]))
                i += 2
                continue
            if c == "`":
                run = len(text[i:]) - len(text[i:].lstrip("`"))
                close = text.find("`" * run, i + run)
                while close != -1 and text[close + run : close + run + 1] == "`":
                    close = text.find("`" * run, close + run + 1)
                if close != -1:
                    plain()
                    code = text[i + run : close].replace("\n", " ")
                    if code.startswith(" ") and code.endswith(" ") and code.strip():
                        code = code[1:-1]
                    out.append(f"<code>{esc(code)}</code>")
                    i = close + run
                    continue
                buf.append("`" * run)
                i += run
                continue
            if text.startswith("{@link", i):
                end = text.find("}", i)
                if end != -1:
                    plain()
                    out.append(self.link_tag(text[i + 1 : end]))
                    i = end + 1
                    continue
            if c == "[":
                m = _match_link(text, i)
                if m is not None:
                    label, url, end = m
                    plain()
                    if _SAFE_URL.match(url):
                        out.append(f'<a href="{esc_attr(url)}">{self.inline(label)}</a>')
                    else:
                        out.append(esc(text[i:end]))
                    i = end
                    continue
            if c == "<":
                auto = re.match(r"<((?:https?|mailto):[^\s<>]*)>", text[i:])
                if auto:
                    plain()
                    out.append(f'<a href="{esc_attr(auto.group(1))}">{esc(auto.group(1))}</a>')
                    i += auto.end()
                    continue
            if c in "*_":
                m = _emphasis(text, i)
                if m is not None:
                    tag, inner, end = m
                    plain()
                    out.append(f"<{tag}>{self.inline(inner)}</{tag}>")
                    i = end
                    continue
            buf.append(c)
            i += 1
        plain()
        return "".join(out)

    def link_tag(self, body: str) -> str:
        """`@link Target | text` (braces removed)."""
        m = re.match(r"@link(?:code|plain)?\s+([^|]*?)\s*(?:\|\s*(.*?))?\s*$", body, re.DOTALL)
        if m is None:
            return esc("{" + body + "}")
        target, label = m.group(1), m.group(2)
        shown = label if label else target
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            if _SAFE_URL.match(target):
                return f'<a href="{esc_attr(target)}">{self.inline(shown)}</a>'
            return esc(shown)
        found = self.resolve(target)
        if found is None:
            return self.inline(shown)
        href, cls = found
        return f'<a href="{esc_attr(href)}" class="{cls}">{self.inline(shown)}</a>'

    def linkify(self, text: str) -> str:
        out, last = [], 0
        for m in _BARE_URL.finditer(text):
            url = m.group(0)
            if not url.lower().startswith("http"):
                continue
            out.append(esc(text[last : m.start()]))
            out.append(f'<a href="{esc_attr(url)}">{esc(url)}</a>')
            last = m.end()
        out.append(esc(text[last:]))
        return "".join(out)


def _list_can_interrupt(line: str) -> bool:
    """A list may interrupt a paragraph when its first item is not empty (an ordered one
    only when it starts at 1), as CommonMark says."""
    m = _ORDERED.match(line)
    if m:
        return m.group(2) == "1" and bool(m.group(5).strip())
    b = _BULLET.match(line)
    return b is not None and bool(b.group(4).strip())


def _match_link(text: str, i: int) -> tuple[str, str, int] | None:
    depth, j = 0, i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                break
        j += 1
    else:
        return None
    if j + 1 >= len(text) or text[j + 1] != "(":
        return None
    close = text.find(")", j + 2)
    if close == -1:
        return None
    url = text[j + 2 : close].strip()
    if " " in url:
        url = url.split(" ", 1)[0]
    return text[i + 1 : j], url, close + 1


def _emphasis(text: str, i: int) -> tuple[str, str, int] | None:
    for marker, tag in (("**", "strong"), ("__", "strong"), ("*", "em"), ("_", "em")):
        if not text.startswith(marker, i):
            continue
        after = text[i + len(marker) : i + len(marker) + 1]
        if not after or after.isspace():
            continue
        if marker[0] == "_" and i > 0 and text[i - 1].isalnum():
            continue
        j = i + len(marker)
        while True:
            close = text.find(marker, j)
            if close == -1:
                break
            before = text[close - 1]
            nxt = text[close + len(marker) : close + len(marker) + 1]
            ok = not before.isspace() and close > i + len(marker)
            if marker[0] == "_" and nxt.isalnum():
                ok = False
            if len(marker) == 1 and text.startswith(marker * 2, close) and tag == "em":
                # `**` inside `*...*` is not our closer
                j = close + 2
                continue
            if ok:
                return tag, text[i + len(marker) : close], close + len(marker)
            j = close + 1
        return None
    return None


def code_block(code: str, lang: str, highlighter: Highlighter | None = None) -> str:
    """A code block as typedoc shows it (line breaks as `<br/>`, JSON highlighted, with the
    copy button); text escaped as JSX escapes it (an apostrophe too)."""
    if lang in ("json", "ts") and highlighter is not None:
        body = highlighter.code(code, lang)
    else:
        body = "<br/>".join(html.escape(s).replace("&#x27;", "&#39;") for s in code.split("\n"))
    cls = f' class="{esc_attr(lang)}"' if lang else ""
    return f'<pre><code{cls}>{body}\n</code><button type="button">Copy</button></pre>\n'
