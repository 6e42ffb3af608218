"""The page template: Markdown with one `{/* @category X */}` placeholder line per section, each
replaced by that category's entries in the plugin's order. A placeholder no entry fills, or a
category the template lacks, is a located error naming both (as the official plugin refuses).

A schema without a template gets one: its categories in order of first appearance, else (no
`@category` at all) one section per kind in source order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import Diagnostic, Location, SchemaError
from ..reading import read_text
from .model import Entry
from .order import category_order
from .prose import esc
from .render import mdx_escape

PLACEHOLDER = re.compile(r"^\{/\* @category (.+) \*/\}$", re.MULTILINE)
FRONT = '---\ntitle: Schema Reference\n---\n\n<div id="schema-reference" />\n'
# Sections of a synthesized page for entries without a category: (kind, placeholder, heading).
KIND_SECTIONS = (("interface", "(interfaces)", "Interfaces"),
                 ("type-alias", "(type aliases)", "Type Aliases"))  # fmt: skip
_KIND_KEYS = {kind: key for kind, key, _ in KIND_SECTIONS}


@dataclass(frozen=True)
class Template:
    text: str
    path: str  # for messages
    by_kind: bool = False  # entries without a category go to a section per kind, in source order


def read_template(path: str) -> Template:
    """`--template FILE`: the user's own choice of file, read within the input size limit."""
    return Template(read_text(path, "template"), path)


def synthesized(entries: Sequence[Entry], source: str) -> Template:
    """The schema's categories in order of first appearance, then a section per kind for the
    entries without one (the two oldest versions have no categories at all)."""
    cats = list(dict.fromkeys(e.category for e in entries if e.category is not None))
    # a heading is schema text: escaped for MDX (the placeholder line itself is replaced)
    body = "".join(f"\n## {mdx_escape(esc(c))}\n\n{{/* @category {c} */}}\n" for c in cats)
    body += "".join(
        f"\n## {title}\n\n{{/* @category {key} */}}\n"
        for kind, key, title in KIND_SECTIONS
        if any(e.kind == kind and e.category is None for e in entries)
    )
    return Template(FRONT + body, f"{source} (no template)", by_kind=True)


def fill(template: Template, entries: Sequence[Entry], render: Callable[[Entry], str]) -> str:
    """The page: every placeholder replaced; errors for both kinds of mismatch, together."""
    errors: list[Diagnostic] = []
    used: set[str] = set()
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        key = e.category
        if key is None and template.by_kind:
            key = _KIND_KEYS.get(e.kind)
        if key is not None:
            groups.setdefault(key, []).append(e)

    def replace(m: re.Match[str]) -> str:
        name = m.group(1)
        used.add(name)
        members = groups.get(name)
        if not members:
            line = template.text.count("\n", 0, m.start()) + 1
            errors.append(Diagnostic(Location(template.path, line, 1),
                                     f"invalid category {name!r}: no type of the schema has it"))  # fmt: skip
            return ""
        by_source = template.by_kind and name in _KIND_KEYS.values()
        ordered = members if by_source else category_order(name, members)
        rendered = []
        for e in ordered:
            try:
                rendered.append(render(e))
            except SchemaError as err:  # reported with the template's problems, together
                errors.extend(err.diagnostics)
        return "\n".join(rendered)

    page = PLACEHOLDER.sub(replace, template.text)
    for name, members in sorted(groups.items()):
        if name not in used:
            first = members[0]
            loc = first.loc or Location("<schema>", 1, 1)
            errors.append(Diagnostic(loc, f"category {name!r} of {first.name} is missing from "
                                          f"the template {template.path}"))  # fmt: skip
    if errors:
        raise SchemaError(errors)
    return page
