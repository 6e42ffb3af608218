"""The tree-sitter CST of schema.ts as the lowering reads it: its tokens' values, exactly.

`TokenReader`, the bottom layer of the lowering (`lowertypes` builds type expressions on it,
`lower` declarations): string literals with JS escapes decoded, numeric literals at their exact
value, literal types, the doc comment before a node, and the located diagnostic for a construct
outside the subset. A token no value can be read from (`1e999`, a lone surrogate) is a located
error. Also the tree's walking helpers: named children without comments, flattened `|` and `&`.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from . import ir
from .errors import Collector
from .jsdoc import parse_jsdoc
from .numbers import NumberError, parse_literal
from .numbers import clip as _clip
from .parse import Source


class TokenReader:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.errors = Collector()

    def unsupported(self, node: Node, what: str) -> ir.Prim:
        self.errors.add(self.src.loc(node), f"unsupported type construct: {what}")
        return ir.Prim(ir.PrimKind.NEVER)  # placeholder; the run fails before anything is used

    def doc_for(self, node: Node) -> ir.Doc:
        """The nearest `/** */` comment before `node`, skipping `//` and `/* */` comments."""
        prev = node.prev_sibling
        while prev is not None and prev.type == "comment":
            text = self.src.text(prev)
            if text.startswith("/**") and text != "/**/":
                return parse_jsdoc(text, self.src.loc(prev))
            prev = prev.prev_sibling
        return ir.NO_DOC

    def literal_value(self, node: Node) -> ir.Lit | None:
        """A literal in value or type position: "s", 1.5, -3, true, false."""
        kind = node.type
        if kind == "literal_type" and node.named_child_count == 1:
            return self.literal_value(kids(node)[0])
        if kind == "string":
            return ir.Lit(self.string_value(node), "string")
        if kind == "number":
            return ir.Lit(self.number(node), "number")
        if kind in ("true", "false"):
            return ir.Lit(kind == "true", "boolean")
        if kind == "unary_expression" and self.src.text(node).startswith("-"):
            arg = node.child_by_field_name("argument")
            if arg is not None and arg.type == "number":
                return ir.Lit(-self.number(arg), "number")
        return None

    def number(self, node: Node) -> int | float:
        """A numeric literal's exact value; one that has none (`1e999`, `10n`) is an error."""
        text = self.src.text(node)
        try:
            return parse_literal(text)
        except NumberError as err:
            self.errors.add(self.src.loc(node), f"number literal '{_clip(text)}' {err}")
            return 0  # placeholder; the run fails before anything is used

    def string_value(self, node: Node) -> str:
        """The value of a string literal, with JS escapes decoded."""
        parts = []
        for child in kids(node):
            text = self.src.text(child)
            if child.type != "escape_sequence":
                parts.append(text)
                continue
            try:
                parts.append(_unescape(text))
            except (ValueError, OverflowError):  # `\u{110000}`: TypeScript refuses it too
                self.errors.add(
                    self.src.loc(child), f"escape '{text}' is beyond U+10FFFF, the last character"
                )
        value = _SURROGATE_PAIR.sub(_pair, "".join(parts))  # `\uD83D\uDE00` is one character
        lone = _SURROGATE.search(value)
        if lone is not None:
            # No UTF-8 file or JSON text can carry it faithfully (RFC 8259 8.2): refused here.
            code = f"\\u{ord(lone.group()):04X}"
            self.errors.add(
                self.src.loc(node),
                f"string literal has a lone surrogate {code}, which is not a Unicode character",
            )
            return _SURROGATE.sub("\ufffd", value)
        return value


def kids(node: Node) -> list[Node]:
    """Named children without comments, which tree-sitter allows almost anywhere."""
    return [c for c in node.named_children if c.type != "comment"]


def flatten(node: Node, kind: str) -> list[Node]:
    """`A | B | C` nests as binary nodes in tree-sitter; flatten to the member list."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == kind:
            stack.extend(reversed(kids(n)))
        else:
            out.append(n)
    return out


def unwrap(node: Node) -> Node:
    """The type inside any parentheses."""
    while node.type == "parenthesized_type" and kids(node):
        node = kids(node)[0]
    return node


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _pair(m: re.Match[str]) -> str:
    hi, lo = (ord(c) for c in m.group())
    return chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(seq: str) -> str:
    body = seq[1:]
    if body in _ESCAPES:
        return _ESCAPES[body]
    if body.startswith("u{"):
        return chr(int(body[2:-1], 16))
    if body[:1] in ("u", "x"):
        return chr(int(body[1:], 16))
    if body.startswith(("\n", "\r")):
        return ""  # line continuation
    return body
