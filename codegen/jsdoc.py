"""JSDoc comments: prose with `{@link ...}` rendered to plain text, and block tags kept verbatim."""

from __future__ import annotations

import re

from .errors import Location
from .ir import Doc, Tag

_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^}|]+?)(?:\s*\|\s*([^}]*?))?\s*\}")
_TAG = re.compile(r"^@([A-Za-z][\w-]*)\s?(.*)$")


def render_links(text: str) -> str:
    """`{@link Foo}` -> `Foo`; `{@link Foo | the foo}` -> `the foo`."""
    return _LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)


def _lines(comment: str) -> list[tuple[str, int]]:
    """The comment's lines without the `*` margin, each with the 0-based column it starts at."""
    wrapped = comment.startswith("/**") and comment.endswith("*/")
    body = comment[3:-2] if wrapped else comment
    out = []
    for i, line in enumerate(body.split("\n")):
        col = 3 if wrapped and i == 0 else 0
        stripped = line.lstrip()
        col += len(line) - len(stripped)
        if stripped.startswith("*"):
            col += 1
            stripped = stripped[1:]
            if stripped.startswith(" "):
                col += 1
                stripped = stripped[1:]
        out.append((stripped.rstrip(), col))
    return out


def parse_jsdoc(comment: str, at: Location | None = None) -> Doc:
    """Split a `/** ... */` comment into description and tags.

    A tag runs from its `@name` to the next line that starts a tag; its value keeps inner line
    breaks (an `@example` body stays intact). Unknown tags are preserved as they are.
    """
    prose: list[str] = []
    tags: list[tuple[str, list[str], Location | None]] = []
    in_fence = False
    for row, (line, col) in enumerate(_lines(comment)):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else _TAG.match(line)
        if m:
            loc = None
            if at is not None:  # tags are located so that a bad value is reported where it is
                first = at.col - 1 if row == 0 else 0
                loc = Location(at.file, at.line + row, first + col + 1)
            tags.append((m.group(1), [m.group(2)], loc))
        elif tags:
            tags[-1][1].append(line)
        else:
            prose.append(line)
    markdown = "\n".join(prose).strip()
    tag_values = tuple(Tag(name, "\n".join(v).strip(), loc) for name, v, loc in tags)
    return Doc(render_links(markdown), tag_values, markdown)
