"""The multi-version reference: `index.html` (every type with its since/until badges, filterable
by name), one self-contained page per version (HTML and MDX, badges linking to the diff pages),
the diff pages of consecutive pairs (the `history` command's own), and `since.json`.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from itertools import pairwise

import markupsafe

from .. import ir
from ..analysis.presence import presence
from ..diff import info
from ..diff.history import file_names, history_files, pair_docs
from ..errors import Diagnostic, SchemaError
from . import Folder, Template, render_page
from .badges import Badges, changes_from
from .pages import render_html
from .render import ICON
from .signatures import anchor_of

_HEADING = re.compile(r"^(#{2,3}) (.*)$")


def site_files(
    declared: Sequence[ir.Schema],
    resolved: Sequence[ir.Resolved],
    templates: Sequence[Template | None],
    folders: Sequence[Folder | None] | None = None,
    programs: Sequence[tuple[ir.Schema, ...]] | None = None,
    names: Sequence[str] | None = None,
) -> dict[str, str]:
    """Every file of the folder (relative path -> text); raises SchemaError before anything.
    `folders`: where each schema's includes are read (default: beside its file); `programs`:
    per schema, the schemas typedoc's program checks before it (none by default); `names`:
    the labels (default: from the paths)."""
    earlier = list(programs) if programs is not None else [()] * len(declared)
    labels = list(names) if names is not None else [info(s).label for s in resolved]
    stems = file_names(labels)
    pair_files = [f"{a}..{b}.html" for a, b in pairwise(stems)]
    facts = presence(labels, resolved)
    docs = pair_docs(resolved, labels)  # diffed once: the badges and the diff pages read them
    badges = Badges(facts, pair_files, changes_from(docs, labels))
    files: dict[str, str] = {}
    pages = []
    errors: list[Diagnostic] = []
    where = list(folders) if folders is not None else [None] * len(declared)
    for label, stem, schema, template, folder, before in zip(
        labels, stems, declared, templates, where, earlier
    ):
        try:
            mdx = render_page(schema, template, badges, folder, before)
        except SchemaError as err:  # every version's problems, reported together
            errors.extend(err.diagnostics)
            continue
        files[f"{stem}.mdx"] = mdx
        files[f"{stem}.html"] = render_html(
            "reference/page.html.j2",
            title=f"Schema Reference {label}",
            label=label,
            body=markupsafe.Markup(mdx_to_html(mdx)),
            versions=[{"label": lb, "href": f"{st}.html"} for lb, st in zip(labels, stems)],
        )
        pages.append({"label": label, "html": f"{stem}.html", "mdx": f"{stem}.mdx"})
    if errors:
        raise SchemaError(errors)
    if len(resolved) > 1:
        history = history_files(resolved, labels, docs)
        files.update({name: text for name, text in history.items() if name in pair_files})
    files["since.json"] = json.dumps(facts.to_json(), indent=2, sort_keys=True) + "\n"
    rows = []
    for name in sorted(facts.types):
        t = facts.types[name]
        newest = next((i for i in range(len(labels) - 1, -1, -1) if labels[i] in t.versions), 0)
        rows.append({
            "name": name,
            "badges": markupsafe.Markup(badges(name, None)),
            "href": f"{stems[newest]}.html#{anchor_of(name)}",
            "in": [lb in t.versions for lb in labels],
        })  # fmt: skip
    files["index.html"] = render_html(
        "reference/index.html.j2",
        title="Schema Reference: " + " → ".join(labels),
        pages=pages,
        pairs=[{"href": h, "old": a, "new": b} for h, (a, b) in zip(pair_files, pairwise(labels))],
        labels=labels,
        rows=rows,
    )
    return files


def mdx_to_html(mdx: str) -> str:
    """The page's HTML body: the type blocks are HTML already; the template's Markdown
    headings become headings; its front matter and any other prose are shown as text."""
    text = re.sub(r"\A---\n.*?\n---\n", "", mdx, flags=re.DOTALL)
    text = text.replace(ICON, "#")  # self-contained: no icon sprite to load
    out: list[str] = []
    in_block = open_section = False
    for line in text.split("\n"):
        if line.startswith('<div class="type">'):
            in_block = True
            out.append(line)
            continue
        if in_block:
            if line == "</div>":
                in_block = False
            m = _HEADING.match(line)
            if m and m.group(1) == "###":
                name = m.group(2).strip("`")
                anchor = html.escape(anchor_of(name))
                out.append(f'<h3 id="{anchor}"><code>{html.escape(name)}</code></h3>')
            else:
                out.append(line)
            continue
        m = _HEADING.match(line)
        if m:  # a section: hidden by the page's filter when none of its types is shown
            if open_section:
                out.append("</section>")
            out.append('<section class="ref-section">')
            open_section = True
            level = len(m.group(1))
            out.append(f"<h{level}>{_inline_code(html.unescape(m.group(2)))}</h{level}>")
        elif line.strip() == '<div id="schema-reference" />':
            out.append('<div id="schema-reference"></div>')
        elif line.strip():
            out.append(f"<p>{html.escape(line)}</p>")
    if open_section:
        out.append("</section>")
    return "\n".join(out)


def _inline_code(text: str) -> str:
    parts = text.split("`")
    return "".join(f"<code>{html.escape(p)}</code>" if i % 2 else html.escape(p)
                   for i, p in enumerate(parts))  # fmt: skip
