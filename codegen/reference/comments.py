"""A JSDoc comment as typedoc shows it: the summary, then the block tags it renders, each with
its heading (`See`, `Deprecated`, `Example: <title>`) and Markdown body. `{@includeCode path}`
is replaced by the file (relative to the schema, and only under its folder: `folder.py`) as a
fenced code block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from .. import ir
from ..errors import Diagnostic, Location, SchemaError
from .folder import Folder, Refused

# Tags typedoc never shows: the page's own (`@category`), modifiers, and the spec's excludeTags.
HIDDEN = frozenset(
    {"category", "internal", "format", "maximum", "minimum", "TJS-type", "nullable", "maxItems"}
)
_INCLUDE = re.compile(r"\{@includeCode\s+([^}\s]+)\s*\}")


@dataclass(frozen=True)
class BlockTag:
    tag: str  # without `@`
    title: str  # the heading: "See", "Example: Call tool request"
    body: str  # Markdown


def label(tag: str) -> str:
    return tag[:1].upper() + tag[1:]


def block_tags(doc: ir.Doc, folder: Folder | None) -> list[BlockTag]:
    """The tags shown, in order; several `@see` tags make one "See" block listing each (at
    the place of the first), as typedoc merges them."""
    out: list[BlockTag] = []
    sees = [t.value for t in doc.tags if t.name == "see"]
    for t in doc.tags:
        if t.name == "see" and len(sees) > 1:
            if t.value is sees[0]:
                items = "\n".join("- " + v.replace("\n", "\n  ") for v in sees)
                out.append(BlockTag("see", "See", items))
            continue
        if t.name in HIDDEN:
            continue
        body = t.value
        title = label(t.name)
        skipped = 0  # lines of the tag before the body (the example's title)
        if t.name == "example":
            first, _, rest = body.partition("\n")
            if first.strip() and not first.lstrip().startswith(("```", "{@includeCode")):
                title = f"{title}: {first.strip()}"
                body, skipped = rest, 1
        if t.name == "default":
            body = default_as_code(body)
        out.append(BlockTag(t.name, title, include_code(body, folder, t.loc, skipped)))
    return out


def default_as_code(body: str) -> str:
    """typedoc (`jsDocCompatibility.defaultTag`, on by default) shows a `@default` as a `ts`
    code block unless its text holds code (a code span or block) or an inline tag already."""
    if "`" in body or "{@" in body or not body.strip():
        return body
    return "```ts\n" + body.strip() + "\n```"


def include_code(text: str, folder: Folder | None, loc: Location | None, skipped: int = 0) -> str:
    """`text` with each `{@includeCode path}` replaced; a file that cannot or may not be read is
    an error located at the inline tag (the tag's line plus the lines before it, at the tag's
    margin)."""

    def load(m: re.Match[str]) -> str:
        rel = m.group(1)
        try:
            if folder is None:
                raise Refused("a schema without a folder includes no files")
            data = folder.read(rel, f"@includeCode {rel}")
            code = data.decode("utf-8")
        except (Refused, UnicodeDecodeError) as e:
            where = Location(folder.label if folder else "<schema>", 1, 1)
            if loc is not None:
                where = Location(loc.file, loc.line + skipped + text.count("\n", 0, m.start()),
                                 loc.col)  # fmt: skip
            reason = str(e) if isinstance(e, Refused) else "the file is not UTF-8"
            raise SchemaError([Diagnostic(where, f"@includeCode {rel}: {reason}")]) from None
        lang = PurePosixPath(rel).suffix.lstrip(".")
        return f"```{lang}\n{code.rstrip(chr(10))}\n```"

    return _INCLUDE.sub(load, text)
