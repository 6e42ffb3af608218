"""Read schema.ts with tree-sitter-typescript; syntax errors become located diagnostics."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

import tree_sitter_typescript
from tree_sitter import Language, Node, Parser

from .errors import Diagnostic, Location, SchemaError
from .reading import read_file
from .records import record


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return Parser(Language(tree_sitter_typescript.language_typescript()))


@record
class Source:
    """A decoded schema file and its tree. `loc()` turns tree-sitter points into locations."""

    path: str
    data: bytes
    root: Node
    sha256: str
    line_starts: tuple[int, ...]

    def loc(self, node: Node) -> Location:
        return self.point(node.start_point.row, node.start_point.column)

    def point(self, row: int, byte_col: int) -> Location:
        # tree-sitter columns count bytes; report characters (1-based), as editors do.
        start = self.line_starts[row] if row < len(self.line_starts) else len(self.data)
        col = len(self.data[start : start + byte_col].decode("utf-8", "replace")) + 1
        return Location(self.path, row + 1, col)

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8")


def _utf8_error(path: str, data: bytes, err: UnicodeDecodeError) -> Diagnostic:
    before = data[: err.start]
    line = before.count(b"\n") + 1
    col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
    return Diagnostic(
        Location(path, line, col),
        f"invalid UTF-8 byte 0x{data[err.start]:02x}; schema files must be UTF-8",
    )


def _syntax_errors(src: Source) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    stack = [src.root]
    while stack:  # iterative: deeply nested input must not exhaust Python's stack
        node = stack.pop()
        if node.is_missing:
            found.append(Diagnostic(src.loc(node), f"syntax error: missing '{node.type}'"))
        elif node.is_error:
            text = src.text(node).strip()
            snippet = text.splitlines()[0][:40] if text else ""
            if not src.data[node.end_byte :].strip() and text.count("{") > text.count("}"):
                message = f"syntax error: unexpected end of file (unclosed '{snippet}')"
            else:
                message = f"syntax error: unexpected '{snippet}'"
            found.append(Diagnostic(src.loc(node), message))
        elif node.has_error:
            stack.extend(node.children)
    return found


def parse_source(path: str, data: bytes) -> Source:
    """Parse bytes as TypeScript; raise SchemaError with every syntax error of the file."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SchemaError([_utf8_error(path, data, err)]) from None
    tree = _parser().parse(data)
    starts = [0] + [m.end() for m in re.finditer(b"\n", data)]
    src = Source(path, data, tree.root_node, hashlib.sha256(data).hexdigest(), tuple(starts))
    errors = _syntax_errors(src)
    if errors:
        raise SchemaError(errors)
    return src


def read_source(path: str) -> Source:
    """The schema file at `path` (or a pipe), within the input size limit."""
    return parse_source(path, read_file(path, "schema"))
