"""JSDoc -> Go doc comments, already in the form gofmt gives them (gofmt rewrites the doc
comments of declarations: lists indented, code blocks behind a tab, blank lines around them).

`{@link X}` becomes the doc link `[X]` when X is a Go identifier of the package, else plain
text (`{@link X | label}` is its label); every `@deprecated` becomes a `Deprecated:` paragraph,
Go's convention, which gopls and staticcheck report.
"""

from __future__ import annotations

import re
from collections.abc import Container

from ... import ir

_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^}|]+?)(?:\s*\|\s*([^}]*?))?\s*\}")
_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def links(text: str, known: Container[str]) -> str:
    def one(m: re.Match[str]) -> str:
        target, label = m.group(1).strip(), m.group(2)
        if label:
            return label.strip()
        return f"[{target}]" if target in known else target

    return _LINK.sub(one, text)


def _safe(line: str) -> str:
    """A prose line as gofmt leaves it: no leading blanks (they would make it code), and the
    doubled quotes gofmt turns into typographic ones already turned (`` -> “, '' -> ”)."""
    return line.strip().replace("``", "\u201c").replace("''", "\u201d")


def paragraphs(markdown: str, known: Container[str]) -> list[str]:
    """The comment's lines (without `//`), `""` for a blank comment line."""
    out: list[str] = []
    in_code = in_list = False
    for raw in links(markdown, known).split("\n"):
        if _FENCE.match(raw):
            if not in_code:
                _blank(out)
            in_code = not in_code
            if not in_code:
                out.append("")
            continue
        if in_code:
            out.append("\t" + raw.rstrip() if raw.strip() else "")
            continue
        item = _ITEM.match(raw)
        if item:
            marker = item.group(2)
            marker = "-" if marker in "-*+" else marker
            out.append(f"  {marker} {_safe(item.group(3))}")
            in_list = True
            continue
        if not raw.strip():
            in_list = False
            out.append("")
            continue
        if in_list and raw[:1].isspace():  # a continuation of the item
            out.append("    " + _safe(raw))
            continue
        if in_list:
            in_list = False
            _blank(out)
        out.append(_safe(raw))
    return _tidy(out)


def _blank(out: list[str]) -> None:
    if out and out[-1] != "":
        out.append("")


def _tidy(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if line == "" and (not out or out[-1] == ""):
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out


def deprecations(doc: ir.Doc, known: Container[str]) -> list[str]:
    out: list[str] = []
    for tag in doc.tags:
        if tag.name != "deprecated":
            continue
        text = " ".join(_safe(x) for x in links(tag.value, known).split("\n") if x.strip())
        out.append("Deprecated: " + (text or "the schema marks this deprecated."))
    return out


def comment(doc: ir.Doc, known: Container[str], indent: str = "") -> list[str]:
    """`// ` lines for a declaration or a field (empty when there is no documentation)."""
    lines = paragraphs(doc.markdown or doc.text, known)
    for dep in deprecations(doc, known):
        if lines:
            lines.append("")
        lines.append(dep)
    return [indent + ("//" if not x else "// " + x if not x.startswith("\t") else "//" + x)
            for x in lines]  # fmt: skip
