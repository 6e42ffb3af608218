"""Parse a Schema Reference page (ours or the official `reference.mdx`) into sections, types and
members, each with its rendered parts in a canonical form, so that two pages compare on content:
whitespace, the 80-column line breaks of signatures, attribute order and the syntax-highlighting
spans of code blocks do not count; every element, attribute, text, anchor and link does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = {"br", "use", "path", "img", "hr", "input", "meta", "link"}
_BLOCK = {"div", "p", "section", "ul", "ol", "li", "aside", "details", "summary", "pre", "br",
          "h1", "h2", "h3", "h4", "h5", "h6", "button", "svg"}  # fmt: skip


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def find_all(self, pred: object) -> list[Node]:
        out: list[Node] = []
        for c in self.children:
            if isinstance(c, Node):
                if pred(c):  # type: ignore[operator]
                    out.append(c)
                out.extend(c.find_all(pred))
        return out

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return
        raise ValueError(f"unbalanced </{tag}>")

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(text: str) -> Node:
    b = _Builder()
    b.feed(text)
    b.close()
    if len(b.stack) != 1:
        raise ValueError(f"unclosed <{b.stack[-1].tag}>")
    return b.root


def _ser(node: Node | str, *, in_pre: bool = False, drop_br: bool = False) -> str:
    if isinstance(node, str):
        return node.replace("\u00a0", " ")
    if node.tag == "span" and in_pre and set(node.attrs) <= {"class"}:
        return "".join(_ser(c, in_pre=True) for c in node.children)  # highlighting only
    if node.tag == "br" and (drop_br or in_pre):
        return " " if drop_br else "\n"
    attrs = []
    for k in sorted(node.attrs):
        v = node.attrs[k]
        if k == "class":
            v = " ".join(sorted(v.split()))
        attrs.append(f' {k}="{v}"')
    pre = in_pre or node.tag == "pre"
    inner = "".join(_ser(c, in_pre=pre, drop_br=drop_br) for c in node.children)
    if node.tag in _VOID:
        return f"<{node.tag}{''.join(attrs)}/>"
    return f"<{node.tag}{''.join(attrs)}>{inner}</{node.tag}>"


_BLOCK_TAG = "|".join(sorted(_BLOCK))
_AROUND_BLOCK = re.compile(rf"\s*(</?(?:{_BLOCK_TAG})\b[^>]*>)\s*")


def canon(node: Node | str, *, drop_br: bool = False) -> str:
    """The node as HTML text with whitespace runs collapsed and dropped around block tags."""
    text = re.sub(r"\s+", " ", _ser(node, drop_br=drop_br))
    return _AROUND_BLOCK.sub(r"\1", text).strip()


@dataclass
class Member:
    anchor: str
    heading: str  # the signature text in the member's heading
    classes: str
    comment: str
    declaration: str  # the "Type Declaration" list, canonical
    note: str  # "Inherited from X.y" / "Overrides X.y", canonical
    rest: str  # anything else in the section, canonical


@dataclass
class Type:
    section: str
    name: str
    kind: str
    signature: str  # text, whitespace collapsed
    signature_html: str  # canonical, without line breaks
    comments: list[str]  # each top-level comment block, canonical
    declaration: str
    members: list[Member]
    anchors: list[str]
    links: list[str]


@dataclass
class Page:
    front: str  # everything before the first section
    sections: list[tuple[str, str]]  # (heading, prose outside type blocks)
    types: list[Type]


_TYPE_BLOCK = re.compile(r'<div class="type">\s*### `([^`\n]*)`\s*(.*?)\n</div>\n', re.DOTALL)


def _kind(sig: Node) -> str:
    first = next((c for c in sig.children if isinstance(c, Node)), None)
    if first is None:
        return "?"
    if "tsd-signature-keyword" in first.classes():
        return first.text().strip()
    return next((c[9:] for c in sorted(first.classes()) if c.startswith("tsd-kind-")), "?")


def _member(sec: Node) -> Member:
    heading = next(n for n in sec.children if isinstance(n, Node))
    comment, decl, note, rest = [], [], [], []
    for c in sec.children[1:] if heading is sec.children[0] else sec.children:
        if c is heading or isinstance(c, str):
            continue
        cls = c.classes()
        if "tsd-comment" in cls:
            comment.append(canon(c))
        elif "tsd-type-declaration" in cls:
            decl.append(canon(c))
        elif "tsd-sources" in cls:
            note.append(canon(c))
        else:
            rest.append(canon(c))
    span = next((n for n in heading.children if isinstance(n, Node) and n.tag == "span"), None)
    return Member(
        anchor=heading.attrs.get("id", ""),
        heading=" ".join((span.text() if span else "").split()),
        classes=" ".join(sorted(sec.classes())),
        comment="".join(comment),
        declaration="".join(decl),
        note="".join(note),
        rest=canon(heading) + "".join(rest),
    )


def parse_type(section: str, name: str, body: str) -> Type:
    root = parse_html(body)
    top = [c for c in root.children if isinstance(c, Node)]
    sig = next(n for n in top if "tsd-signature" in n.classes())
    comments = [canon(n) for n in top if "tsd-comment" in n.classes()]
    decl = "".join(canon(n) for n in top if "tsd-type-declaration" in n.classes())
    members = [_member(n) for n in top if "tsd-member" in n.classes()]
    known = {"tsd-signature", "tsd-comment", "tsd-type-declaration", "tsd-member"}
    stray = [n for n in top if not (n.classes() & known)]
    if stray:
        raise ValueError(f"{name}: unexpected top-level element {canon(stray[0])[:80]}")
    return Type(
        section=section,
        name=name,
        kind=_kind(sig),
        signature=" ".join(sig.text().replace("\u00a0", " ").split()),
        signature_html=canon(sig, drop_br=True),
        comments=comments,
        declaration=decl,
        members=members,
        anchors=[n.attrs["id"] for n in root.find_all(lambda n: "id" in n.attrs)],
        links=[
            n.attrs["href"] for n in root.find_all(lambda n: n.tag == "a" and "href" in n.attrs)
        ],
    )


def parse_page(text: str) -> Page:
    parts = re.split(r"^## (.*)$", text, flags=re.MULTILINE)
    front, sections, types = parts[0], [], []
    for heading, body in zip(parts[1::2], parts[2::2]):
        found = list(_TYPE_BLOCK.finditer(body))
        prose = _TYPE_BLOCK.sub("", body)
        if "<div" in prose.replace('<div id="', ""):
            raise ValueError(f"section {heading}: content outside type blocks: {prose[:120]!r}")
        sections.append((heading.strip(), " ".join(prose.split())))
        types.extend(parse_type(heading.strip(), m.group(1), m.group(2)) for m in found)
    return Page(" ".join(front.split()), sections, types)


def _fields(obj: object) -> dict[str, object]:
    return {k: v for k, v in vars(obj).items() if k not in ("members", "section", "name")}


def differences(ours: Page, official: Page, limit: int = 20) -> list[str]:
    """Every point where two pages differ, section by section, type by type (in order), member
    by member, field by field; empty when they are equal in content."""
    out: list[str] = []
    if ours.front != official.front:
        out.append(f"front matter: {ours.front[:80]!r} != {official.front[:80]!r}")
    if ours.sections != official.sections:
        out.append(f"sections: {ours.sections} != {official.sections}")
    a = [(t.section, t.name) for t in ours.types]
    b = [(t.section, t.name) for t in official.types]
    if a != b:
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        out.append(f"types differ from #{first}: ours {a[first:first + 3]}, "
                   f"official {b[first:first + 3]} ({len(a)} vs {len(b)} types)")  # fmt: skip
        return out
    for t, o in zip(ours.types, official.types):
        for key, value in _fields(t).items():
            if value != getattr(o, key):
                out.append(f"{t.name}.{key}:\n  ours     {value}\n  official {getattr(o, key)}")
        if [m.anchor for m in t.members] != [m.anchor for m in o.members]:
            out.append(f"{t.name} members: ours {[m.anchor for m in t.members]}, "
                       f"official {[m.anchor for m in o.members]}")  # fmt: skip
            continue
        for x, y in zip(t.members, o.members):
            for key, value in vars(x).items():
                if value != getattr(y, key):
                    out.append(f"{t.name} {x.anchor}.{key}:\n  ours     {value}\n"
                               f"  official {getattr(y, key)}")  # fmt: skip
        if len(out) >= limit:
            break
    return out[:limit]
