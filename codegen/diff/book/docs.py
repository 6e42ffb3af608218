"""The rule book's documentation rules: descriptions and JSDoc tags, none of them on the wire."""

from __future__ import annotations

from ..levels import Rule

DOC_RULES: tuple[Rule, ...] = (
    Rule(
        id="description-changed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="description-changed",
        purpose="the description of a subject changes (the text itself is not reported)",
        why="documentation only",
    ),
    Rule(
        id="deprecated-added",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="deprecated-removed",
        purpose="a subject gains `@deprecated`",
        why="still valid on the wire; plan its removal",
    ),
    Rule(
        id="deprecated-removed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="deprecated-added",
        purpose="a subject loses `@deprecated`",
        why="documentation only",
    ),
    Rule(
        id="internal-added",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="internal-removed",
        purpose="a subject gains `@internal`",
        why="documentation only",
    ),
    Rule(
        id="internal-removed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="internal-added",
        purpose="a subject loses `@internal`",
        why="documentation only",
    ),
    Rule(
        id="category-changed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="category-changed",
        purpose="a subject's `@category` changes",
        why="documentation only",
    ),
    Rule(
        id="doc-tag-changed",
        category="documentation",
        sender="info",
        receiver="info",
        mirror="doc-tag-changed",
        purpose="another JSDoc tag (@see, @example, @default, ...) is added, removed or changed",
        why="documentation only",
    ),
)
