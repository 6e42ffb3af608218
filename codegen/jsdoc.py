"""JSDoc comments: prose with `{@link ...}` rendered to plain text, and block tags kept verbatim."""

from __future__ import annotations

import re

from .ir import Doc, Tag

_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^}|]+?)(?:\s*\|\s*([^}]*?))?\s*\}")
_TAG = re.compile(r"^@([A-Za-z][\w-]*)\s?(.*)$")


def render_links(text: str) -> str:
    """`{@link Foo}` -> `Foo`; `{@link Foo | the foo}` -> `the foo`."""
    return _LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)


def _lines(comment: str) -> list[str]:
    body = comment[3:-2] if comment.startswith("/**") and comment.endswith("*/") else comment
    out = []
    for line in body.split("\n"):
        stripped = line.strip()
        if stripped.startswith("*"):
            stripped = stripped[1:]
            stripped = stripped.removeprefix(" ")
        out.append(stripped.rstrip())
    return out


def parse_jsdoc(comment: str) -> Doc:
    """Split a `/** ... */` comment into description and tags.

    A tag runs from its `@name` to the next line that starts a tag; its value keeps inner line
    breaks (an `@example` body stays intact). Unknown tags are preserved as they are.
    """
    prose: list[str] = []
    tags: list[tuple[str, list[str]]] = []
    in_fence = False
    for line in _lines(comment):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else _TAG.match(line)
        if m:
            tags.append((m.group(1), [m.group(2)]))
        elif tags:
            tags[-1][1].append(line)
        else:
            prose.append(line)
    text = render_links("\n".join(prose).strip())
    return Doc(text, tuple(Tag(name, "\n".join(v).strip()) for name, v in tags))
