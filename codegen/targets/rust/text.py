"""Rust spelling: identifiers (snake_case fields, keywords), string literals, `///` docs with
`{@link X}` as intra-doc links, and the few line layouts rustfmt would change (a call whose
arguments do not fit in `WIDTH` columns is written one argument a line, as rustfmt writes it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from ...jsdoc import _LINK

WIDTH = 100  # rustfmt's max_width
STEP = "    "

# Strict and reserved keywords (2021 edition): a field so named is written `r#name`, except the
# four a raw identifier cannot spell, which get a trailing `_`.
KEYWORDS = frozenset(
    [
        "as",
        "async",
        "await",
        "break",
        "const",
        "continue",
        "crate",
        "dyn",
        "else",
        "enum",
        "extern",
        "false",
        "fn",
        "for",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "match",
        "mod",
        "move",
        "mut",
        "pub",
        "ref",
        "return",
        "self",
        "Self",
        "static",
        "struct",
        "super",
        "trait",
        "true",
        "type",
        "unsafe",
        "use",
        "where",
        "while",
        "abstract",
        "become",
        "box",
        "do",
        "final",
        "gen",
        "macro",
        "override",
        "priv",
        "try",
        "typeof",
        "unsized",
        "virtual",
        "yield",
    ]
)
NOT_RAW = frozenset({"self", "Self", "super", "crate", "_"})

_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+")


def snake(wire: str) -> str:
    """`listChanged` -> `list_changed`, `_meta` -> `meta`, `URLElicitation` -> `url_elicitation`,
    `io.x/related-task` -> `io_x_related_task`."""
    words = [w.lower() for part in re.split(r"[^A-Za-z0-9]+", wire) for w in _WORDS.findall(part)]
    name = "_".join(words) or "field"
    return "f_" + name if name[0].isdigit() else name


def ident(name: str) -> str:
    """A snake_case name as a Rust identifier (keywords as raw identifiers)."""
    if name in NOT_RAW:
        return name + "_"
    return "r#" + name if name in KEYWORDS else name


def pascal_variant(wire: str) -> str:
    """An enum variant for a wire string: `end_turn`/`endTurn` -> `EndTurn`."""
    words = snake(wire).split("_")
    name = "".join(w[:1].upper() + w[1:] for w in words if w)
    return name if name and not name[0].isdigit() else "V" + name


def string(value: str) -> str:
    """A Rust string literal."""
    out = []
    for ch in value:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def quoted_list(values: list[str]) -> str:
    """The JSON spellings of `values`, comma-separated (for messages)."""
    return ", ".join(json.dumps(v, ensure_ascii=False) for v in values)


def call(lead: str, args: list[str], indent: str, tail: str) -> str:
    """`lead(args)tail` on one line when it fits, else one argument a line (rustfmt)."""
    inside = ", ".join(args)
    one = f"{indent}{lead}({inside}){tail}"
    if len(one) <= WIDTH and len(inside) <= ARRAY_WIDTH:
        return one
    inner = indent + STEP
    lines = [f"{indent}{lead}("] + [f"{inner}{a}," for a in args] + [f"{indent}){tail}"]
    return "\n".join(lines)


def arm(pattern: str, callee: str, args: list[str], indent: str) -> str:
    """A match arm calling `callee(args)`: on the pattern's line, else in a block on the next
    line, else with the arguments one a line (rustfmt's order of preference)."""
    inside = ", ".join(args)
    body = f"{callee}({inside})"
    if len(inside) <= ARRAY_WIDTH:
        text = arm_text(pattern, body, indent)
        if text is not None:
            return text
    return call(f"{pattern} => {callee}", args, indent, ",")


def tag_match(arms: list[tuple[str, str]]) -> list[str]:
    """The body of a generated `Deserialize` that dispatches on a tag (`Self::TAG`): one arm a
    (pattern, variant), then unknown tags to `rt::unknown` (kept by the tolerant decode)."""
    body = ["        match rt::tag(&v, at, &Self::TAG)?.as_str() {"]
    for pattern, variant in arms:
        body.append(arm(pattern, "rt::dm", ["v", "cx", "at", f"Self::{variant}"], " " * 12))
    tail = ".map(Self::Unknown),"
    body.append(call("_ => rt::unknown", ["v", "cx", "at", "&Self::TAG"], " " * 12, tail))
    body.append("        }")
    return body


def arm_text(pattern: str, body: str, indent: str) -> str | None:
    """`pattern => body,` on one line, else the body in a block on the next line; None when
    neither fits."""
    one = f"{indent}{pattern} => {body},"
    if len(one) <= WIDTH:
        return one
    inner = indent + STEP
    if len(inner + body) <= WIDTH:
        return f"{indent}{pattern} => {{\n{inner}{body}\n{indent}}}"
    return None


def field_call(
    name: str, receiver: str, method: str, args: list[str], indent: str, tail: str
) -> str:
    """`name: receiver.method(args)tail` in a struct literal; when too long, the method call on
    the next line (`name: o` / `.req(...)`), else the arguments one a line (rustfmt)."""
    inside = ", ".join(args)
    one = f"{indent}{name}: {receiver}.{method}({inside}){tail}"
    if len(inside) <= ARRAY_WIDTH and len(one) <= WIDTH:
        return one
    inner = indent + STEP
    chained = f"{inner}.{method}({inside}){tail}"
    if len(inside) <= ARRAY_WIDTH and len(chained) <= WIDTH:
        return f"{indent}{name}: {receiver}\n{chained}"
    return call(f"{name}: {receiver}.{method}", args, indent, tail)


def attribute(indent: str, name: str, arg: str) -> str:
    """`#[name(arg)]`, or with `arg` on a line of its own when too long (rustfmt)."""
    one = f"{indent}#[{name}({arg})]"
    if len(one) <= WIDTH:
        return one
    return f"{indent}#[{name}(\n{indent}{STEP}{arg}\n{indent})]"


# -- documentation ---------------------------------------------------------------------------

_URL = re.compile(r"(?<![<(\[`])\bhttps?://[^\s)>\]`]*[^\s)>\]`.,;:]")
_FENCE = re.compile(r"^(\s*)```\s*$")


def doc_lines(markdown: str, link: Callable[[str], str | None]) -> list[str]:
    """JSDoc prose as the lines of a `///` comment: `{@link X}` becomes an intra-doc link when
    `link(X)` gives its Rust path, else code; bare URLs get angle brackets (rustdoc's
    `bare_urls`), a fence without a language is `text` (it would be a doctest), HTML-looking
    `<...>` outside code is escaped."""
    text = markdown.strip()
    if not text:
        return []

    def one(m: re.Match[str]) -> str:
        target, label = m.group(1).strip(), (m.group(2) or "").strip()
        if target.startswith(("http://", "https://")):
            return f"[{label}]({target})" if label else f"<{target}>"
        path = link(target)
        shown = label or target
        if path is None:
            return f"`{shown}`"
        if "`" in shown:
            return f"[{shown}]({path})"
        if label or path != target:
            return f"[`{shown}`]({path})"
        return f"[`{target}`]"

    out: list[str] = []
    in_fence = False
    for line in text.split("\n"):
        fence = _FENCE.match(line)
        if line.strip().startswith("```"):
            if fence and not in_fence:
                line = f"{fence.group(1)}```text"
            in_fence = not in_fence
            out.append(line.rstrip())
            continue
        if not in_fence:
            line = _prose(line, one)
        out.append(line.rstrip())
    return out


def _prose(line: str, link: Callable[[re.Match[str]], str]) -> str:
    """One line of prose: links rendered by `link`, the rest escaped outside inline code (a
    link's label may hold code itself, so links are set aside first)."""
    links: list[str] = []

    def hold(m: re.Match[str]) -> str:
        links.append(link(m))
        return f"\x00{len(links) - 1}\x00"

    line = _outside_code(_LINK.sub(hold, line), lambda seg: _URL.sub(_angle, _escape(seg)))
    return re.sub("\x00(\\d+)\x00", lambda m: links[int(m.group(1))], line)


def _escape(segment: str) -> str:
    """`<`, `[` and `]` in prose: rustdoc would read them as HTML or links."""
    return re.sub(r"([<\[\]])", r"\\\1", segment)


def _angle(m: re.Match[str]) -> str:
    return f"<{m.group(0)}>"


def _outside_code(line: str, change: Callable[[str], str]) -> str:
    """`change` applied to the parts of `line` outside inline code."""
    parts = line.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave the line as it is
        return line
    for i in range(0, len(parts), 2):
        parts[i] = change(parts[i])
    return "`".join(parts)


def doc_comment(lines: list[str], indent: str) -> list[str]:
    return [f"{indent}///{' ' + line if line else ''}" for line in lines]


ARRAY_WIDTH = 60  # rustfmt's array_width (60% of max_width)
