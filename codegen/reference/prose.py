"""JSDoc Markdown as typedoc renders it: markdown-it (its default preset, linkify on), here
markdown-it-py, the Python port of the same parser, with what typedoc adds around it: `{@link X}`
inline tags resolved to the page's anchors, and fenced code as typedoc's highlighter writes it.
The four official reference pages are the judge (tests/test_reference.py: byte for byte).

Untrusted text: raw HTML in a comment is shown as text (`html` off: never passed through), a
link becomes a link only when its URL is http(s), mailto, a relative path or a fragment
(`validateLink`; `javascript:` stays text), and images are not rendered. Where this departs from
typedoc (which passes HTML through and renders images) no official page is concerned.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from .highlight import Highlighter

# `{@link Target}` / `{@link Target | text}` -> (href, kind class) or None when unresolved
Resolver = Callable[[str], tuple[str, str] | None]

_SAFE_URL = re.compile(r"^(?:https?://|mailto:|/|#|\.{1,2}/)", re.IGNORECASE)
_LINK_TAG = re.compile(r"@link(?:code|plain)?\s+([^|]*?)\s*(?:\|\s*(.*?))?\s*$", re.DOTALL)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


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
    md: MarkdownIt = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # typedoc's `new MarkdownIt({html: true, linkify: true})`, but with raw HTML shown as
        # text and only safe URLs linked (see the module's docstring); no image (a schema's
        # text must not make the page load a remote file: `![a](u)` stays `!` and a link);
        # void tags closed (`<br />`, `<hr />`: MDX is JSX and refuses an unclosed `<br>`;
        # no official page has one)
        md = MarkdownIt("js-default", {"html": False, "linkify": True, "xhtmlOut": True})
        md.disable("image")
        md.validateLink = _safe  # type: ignore[method-assign]
        md.inline.ruler.before("link", "jsdoc_link", self._link_tag)
        highlighter = self.highlighter

        def fence(_: object, tokens: Sequence[Token], idx: int, *__: object) -> str:
            info = tokens[idx].info.split(maxsplit=1)
            code = tokens[idx].content.removesuffix("\n")
            return code_block(code, info[0] if info else "", highlighter)

        md.add_render_rule("fence", fence)  # bound to the renderer: the first argument
        self.md = md

    def render(self, text: str) -> str:
        out: str = self.md.render(text)
        return out

    def _link_tag(self, state: StateInline, silent: bool) -> bool:
        """`{@link Target}` or `{@link Target | text}`: a link to the page's anchor of Target
        (its label parsed as Markdown, as markdown-it parses a link's), the label alone when
        Target is not on the page, a URL target linked when safe."""
        start = state.pos
        if not state.src.startswith("{@link", start):
            return False
        end = state.src.find("}", start)
        if end == -1 or end > state.posMax:
            return False
        if silent:
            state.pos = end + 1
            return True
        m = _LINK_TAG.match(state.src, start + 1, end)
        if m is None:
            state.push("text", "", 0).content = state.src[start : end + 1]
            state.pos = end + 1
            return True
        target, shown = m.group(1), 2 if m.group(2) else 1
        attrs: dict[str, str | int | float] | None = None
        if _SCHEME.match(target):
            if not _SAFE_URL.match(target):
                state.push("text", "", 0).content = m.group(shown)
                state.pos = end + 1
                return True
            attrs = {"href": target}
        else:
            found = self.resolve(target)
            if found is not None:
                attrs = {"href": found[0], "class": found[1]}
        if attrs is not None:
            state.push("link_open", "a", 1).attrs = attrs
        outer_max = state.posMax
        state.pos, state.posMax = m.start(shown), m.end(shown)
        nested = int(attrs is not None)  # no link inside a link (linkify reads linkLevel)
        state.linkLevel += nested
        state.md.inline.tokenize(state)
        state.linkLevel -= nested
        if attrs is not None:
            state.push("link_close", "a", -1)
        state.pos, state.posMax = end + 1, outer_max
        return True


def _safe(url: str) -> bool:
    return _SAFE_URL.match(url.strip()) is not None


def code_block(code: str, lang: str, highlighter: Highlighter | None = None) -> str:
    """A code block as typedoc shows it (line breaks as `<br/>`, JSON highlighted, with the
    copy button); text escaped as JSX escapes it (an apostrophe too)."""
    if lang in ("json", "ts") and highlighter is not None:
        body = highlighter.code(code, lang)
    else:
        body = "<br/>".join(html.escape(s).replace("&#x27;", "&#39;") for s in code.split("\n"))
    cls = f' class="{esc_attr(lang)}"' if lang else ""
    return f'<pre><code{cls}>{body}\n</code><button type="button">Copy</button></pre>\n'
