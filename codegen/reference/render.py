"""One documented declaration as the official page shows it: typedoc's HTML for the entry after
the spec plugin's rewriting (examples folded into `<details>`, headings as `<div
data-typedoc-h>`, member headings carrying their signature text), then the plugin's escaping for
MDX: Markdown-special characters as entities, no line break before a tag.

Layout follows typedoc's too: its JSX writes a line break before each block element it makes
(not before the Markdown's own HTML), and a member heading keeps the break of the signature the
plugin removed after it; the plugin turns each break before a tag into a space.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from .. import ir
from . import formatter as f
from .comments import HIDDEN, BlockTag, block_tags
from .folder import Folder
from .model import Entry, Member, Model
from .prose import Renderer
from .signatures import Builder, anchor_of, checker_type, esc, layout, slug, span

ICON = (
    '<svg viewBox="0 0 24 24" aria-hidden="true"><use href="assets/icons.svg#icon-anchor"/></svg>'
)
_SPECIAL = re.compile(r"[\[_*`~\\$\{]")
_UNLINKED_TAGS = ("see", "deprecated")  # headings the plugin strips of id and icon

Badge = Callable[[str, str | None], str]  # (type, member or None) -> HTML after the heading


def icon(anchor: str) -> str:
    return f'<a href="#{anchor}" aria-label="Permalink" class="tsd-anchor-icon">{ICON}</a>'


def mdx_escape(content: str) -> str:
    """The plugin's last pass over an entry's HTML."""
    content = content.replace("\u00a0\u00a0", "\u00a0").replace("\u00a0", "&nbsp;")
    content = re.sub(r"\n+<", " <", content)
    return _SPECIAL.sub(lambda m: f"&#x{ord(m.group(0)):X};", content)


def text_of(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


class Slugger:
    """Anchors of one entry's page, made unique as typedoc's slugger does (`x`, `x-1`, ...)."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, text: str) -> str:
        base = slug(text)
        n = self.seen.get(base)
        self.seen[base] = 0 if n is None else n + 1
        return base if n is None else f"{base}-{n + 1}"


class EntryRenderer:
    def __init__(self, model: Model, folder: Folder | None, badge: Badge | None = None) -> None:
        self.model = model
        self.folder = folder
        self.badge = badge
        self.members_of = {e.name: e for e in model.entries}
        self.md = Renderer(self.resolve)
        self.current = ""  # the entry being rendered

    # -- links --------------------------------------------------------------------------------

    def resolve(self, target: str) -> tuple[str, str] | None:
        """`{@link Type}` or `{@link Type.member.nested}`: the nearest anchored reflection."""
        head, *path = target.strip().split(".")
        entry = self.members_of.get(head)
        if entry is None:
            return None
        if not path:  # a link to the entry itself points at its own page: "#"
            here = "" if head == self.current else anchor_of(head)
            return f"#{here}", f"tsd-kind-{entry.kind}"
        if any(m.name == path[0] for m in entry.members):
            return f"#{anchor_of(head)}-{slug(path[0])}", "tsd-kind-property"
        return None

    def builder(self) -> Builder:
        m = self.model
        return Builder(m.kinds, m.consts, m.aliases, m.positions, m.literals)

    # -- comments -----------------------------------------------------------------------------

    def summary(self, doc: ir.Doc) -> str:
        text = doc.markdown or doc.text
        if not text.strip():
            return ""
        return f'\n<div class="tsd-comment tsd-typography">{self.md.render(text)}</div>'

    def tags(self, doc: ir.Doc, owner: str, slugger: Slugger) -> str:
        rendered = [self.tag(t, owner, slugger) for t in block_tags(doc, self.folder)]
        if not rendered:
            return ""
        return f'\n<div class="tsd-comment tsd-typography">{"".join(rendered)}</div>'

    def tag(self, t: BlockTag, owner: str, slugger: Slugger) -> str:
        body = self.md.render(t.body)
        anchor = slugger(t.title)
        title = esc(t.title)
        if t.tag == "example":
            ns = f"{owner}-{anchor}"
            body = re.sub(r"^<(\w+)", lambda m: f'<{m.group(1)} id="{ns}"', body, count=1)
            head = f'\n<summary class="tsd-anchor-link">{title}{icon(ns)}</summary>'
            return f'\n<details class="tsd-tag-example">{head}{body}</details>'
        if t.tag in _UNLINKED_TAGS:
            head = f'\n<div class="tsd-anchor-link" data-typedoc-h="4">{title}</div>'
        else:
            head = (f'\n<div class="tsd-anchor-link" id="{anchor}" data-typedoc-h="4">{title}'
                    f"{icon(anchor)}</div>")  # fmt: skip
        return f'\n<div class="tsd-tag-{esc(t.tag)}">{head}{body}</div>'

    # -- type declarations --------------------------------------------------------------------

    def declaration(self, t: ir.TypeExpr | None, always: bool = False) -> str:
        obj = _object_in(t) if always else _useful_object(t)
        if obj is None or not (obj.properties or obj.index):
            return ""
        return ('\n<div class="tsd-type-declaration">\n<div data-typedoc-h="4">Type Declaration</div>'
                f"{self.parameters(obj, top=True)}</div>")  # fmt: skip

    def parameters(self, obj: ir.Obj, top: bool) -> str:
        items = []
        if top and obj.index is not None:
            b = self.builder()
            value = layout(b.type(obj.index.value), b)
            items.append(
                '\n<li class="tsd-parameter-index-signature">\n<div data-typedoc-h="5">'
                '<span class="tsd-signature-symbol">[</span>'
                f'<span class="tsd-kind-parameter">{esc(obj.index.key_name)}</span>: '
                '<span class="tsd-signature-type">string</span>'
                f'<span class="tsd-signature-symbol">]:</span> {value}</div></li>'
            )
        for p in obj.properties:
            items.append(self.parameter(p))
        return f'\n<ul class="tsd-parameters">{"".join(items)}</ul>'

    def parameter(self, p: ir.Property) -> str:
        b = self.builder()
        flags = '<code class="tsd-tag">Optional</code>' if p.optional else ""
        t = checker_type(p.type, self.model.aliases, self.model.positions, self.model.literals)
        value = layout(b.type(t), b)
        mark = "?: " if p.optional else ": "
        head = (f'\n<div data-typedoc-h="5">{flags}<span class="tsd-kind-property">{esc(p.name)}'
                f'</span><span class="tsd-signature-symbol">{mark}</span>{value}</div>')  # fmt: skip
        nested = ""
        if isinstance(p.type, ir.Obj) and any(_has_comment(c) for c in p.type.properties):
            nested = self.parameters(p.type, top=False)
        return f'\n<li class="tsd-parameter">{head}{self.summary(p.doc)}{nested}</li>'

    # -- entries ------------------------------------------------------------------------------

    def signature(self, entry: Entry, anchors: dict[str, str]) -> str:
        b = self.builder()
        node: f.Node
        if entry.preview:
            members = [
                b.member(m.name, m.optional, m.type, "tsd-kind-property", anchors[m.name])
                for m in entry.members
            ]
            node = f.Nodes([span("tsd-signature-keyword", "interface"), f.Text(" ", 1),
                            span("tsd-kind-interface", entry.name), f.Text(" ", 1),
                            b.braces(members, entry.index, force=True)])  # fmt: skip
        else:
            node = b.member(entry.name, False, entry.type, f"tsd-kind-{entry.kind}")
        return f'\n<div class="tsd-signature">{layout(node, b)}</div>'

    def member(self, entry: Entry, m: Member, anchor: str, slugger: Slugger) -> str:
        b = self.builder()
        sig = layout(b.member(m.name, m.optional, m.type, "tsd-kind-property"), b)
        text = text_of(sig).replace("\u00a0", " ")
        text = re.sub(r";}$", "; }", text)
        cls = ' class="deprecated"' if m.deprecated else ""
        badge = self.badge(entry.name, m.name) if self.badge else ""
        head = (f'\n<div class="tsd-anchor-link" id="{anchor}" data-typedoc-h="3">'
                f"<span{cls}>{esc(text)}</span>{icon(anchor)}{badge}</div>\n")  # fmt: skip
        parts = [head, self.summary(m.doc), self.declaration(m.type),
                 self.tags(m.doc, anchor_of(entry.name), slugger), self.sources(m)]  # fmt: skip
        inherited = " tsd-is-inherited" if m.inherited is not None else ""
        return f'\n<section class="tsd-panel tsd-member{inherited}">{"".join(parts)}</section>'

    def sources(self, m: Member) -> str:
        origin, verb = (
            (m.inherited, "Inherited from") if m.inherited else (m.overrides, "Overrides")
        )
        if origin is None:
            return ""
        if origin.linked:
            owner = anchor_of(origin.type)
            what = (f'<a href="#{owner}">{esc(origin.type)}</a>.'
                    f'<a href="#{owner}-{slug(origin.member)}">{esc(origin.member)}</a>')  # fmt: skip
        else:
            what = esc(f"{origin.type}.{origin.member}")
        return f'<aside class="tsd-sources">\n<p>{verb} {what}</p></aside>'

    def entry(self, entry: Entry) -> str:
        self.current = entry.name
        slugger = Slugger()
        own = anchor_of(entry.name)
        anchors = {m.name: f"{own}-{slugger(m.name)}" for m in entry.members}
        sig = self.signature(entry, anchors)
        summary = self.summary(entry.doc)
        tags = self.tags(entry.doc, own, slugger)
        if entry.preview:
            body = [sig, summary, tags]
        else:
            always = entry.kind == "type-alias" and isinstance(entry.type, ir.Obj)
            body = [sig, summary, self.declaration(entry.type, always), tags]
        body += [self.member(entry, m, anchors[m.name], slugger) for m in entry.members]
        badge = self.badge(entry.name, None) if self.badge else ""
        content = mdx_escape(badge + "".join(body).lstrip("\n"))
        return f'<div class="type">\n\n### `{entry.name}`\n\n{content}\n</div>\n\n'


def _has_comment(p: ir.Property) -> bool:
    """typedoc's "has a comment": a summary or a shown tag (excluded tags are dropped first)."""
    shown = [t for t in p.doc.tags if t.name not in HIDDEN]
    return bool(p.doc.markdown.strip() or p.doc.text.strip() or shown)


def _object_in(t: ir.TypeExpr | None) -> ir.Obj | None:
    return t if isinstance(t, ir.Obj) else None


def _useful_object(t: ir.TypeExpr | None) -> ir.Obj | None:
    """The inline object whose properties typedoc lists under "Type Declaration": one with a
    commented property, directly, as an array's item or as a member of an intersection."""
    if isinstance(t, ir.Obj):
        return t if any(_has_comment(p) for p in t.properties) else None
    if isinstance(t, ir.Array):
        return _useful_object(t.item)
    if isinstance(t, ir.Intersection):
        for m in t.members:
            found = _useful_object(m)
            if found is not None:
                return found
    return None
