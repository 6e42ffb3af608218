"""The width-aware layout of code in signatures, as typedoc's formatter does it (a Prettier-like
printer: a group is laid out flat when it fits in the remaining width, else broken).

Nodes hold finished HTML with the number of characters it shows; the generator emits HTML with
`<br/>` and non-breaking-space indentation. typedoc counts the indentation of a new line as
`4 + depth` characters (not `4 * depth`); kept, since the line breaks must fall where its do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

INDENT = "\u00a0" * 4
WIDTH = 80  # typedoc's `typePrintWidth` default


@dataclass
class Text:
    html: str
    width: int


@dataclass
class Line:
    """Nothing when flat, a line break when the enclosing group breaks."""


@dataclass
class SpaceOrLine:
    """A space when flat, a line break when the enclosing group breaks."""


@dataclass
class Indent:
    content: list[Node]


@dataclass
class Group:
    id: int
    content: list[Node]


@dataclass
class Nodes:
    content: list[Node]


@dataclass
class IfWrap:
    id: int
    then: Node
    otherwise: Node = field(default_factory=lambda: Text("", 0))


Node = Text | Line | SpaceOrLine | Indent | Group | Nodes | IfWrap


def join(sep: Node, items: list[Node]) -> Nodes:
    out: list[Node] = []
    for item in items:
        if out:
            out.append(sep)
        out.append(item)
    return Nodes(out)


def _width(node: Node, wrapped: set[int]) -> int:
    if isinstance(node, Text):
        return node.width
    if isinstance(node, Line):
        return 0
    if isinstance(node, SpaceOrLine):
        return 1
    if isinstance(node, IfWrap):
        return _width(node.then if node.id in wrapped else node.otherwise, wrapped)
    return sum(_width(n, wrapped) for n in node.content)


class Generator:
    def __init__(self, wrapped: set[int], width: int = WIDTH) -> None:
        self.out: list[str] = []
        self.depth = 0
        self.size = 0
        self.max = width
        self.wrapped = set(wrapped)

    def html(self) -> str:
        return "".join(self.out)

    def node(self, node: Node, wrap: bool) -> None:
        if isinstance(node, Nodes):
            for n in node.content:
                self.node(n, wrap)
        elif isinstance(node, Group):
            width = sum(_width(n, self.wrapped) for n in node.content)
            if self.size + width > self.max or node.id in self.wrapped:
                self.wrapped.add(node.id)
                wrap = True
            else:
                wrap = False
            for n in node.content:
                self.node(n, wrap)
        elif isinstance(node, IfWrap):
            if node.id in self.wrapped:
                self.node(node.then, True)
            else:
                self.node(node.otherwise, wrap)
        elif isinstance(node, Text):
            self.size += node.width
            self.out.append(node.html)
        elif isinstance(node, Line):
            if wrap:
                self.newline()
        elif isinstance(node, SpaceOrLine):
            if wrap:
                self.newline()
            else:
                self.size += 1
                self.out.append(" ")
        elif wrap:  # Indent
            self.size += len(INDENT)
            self.depth += 1
            self.out.append(INDENT)
            for n in node.content:
                self.node(n, wrap)
            self.depth -= 1
        else:
            for n in node.content:
                self.node(n, wrap)

    def newline(self) -> None:
        self.size = len(INDENT) + self.depth
        if self.out and not self.out[-1].startswith("<"):
            self.out[-1] = self.out[-1].rstrip(" ")
        self.out.append("<br/>")
        self.out.append(INDENT * self.depth)
