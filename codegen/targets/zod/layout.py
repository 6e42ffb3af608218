"""A small pretty-printer for the expressions the zod target writes, laid out as prettier lays
them out (`WIDTH` columns, two-space indent, trailing commas), so prettier is the judge that
leaves the generated module unchanged and generation itself needs no Node (unlike the Python
target, which runs `ruff format`: prettier is a Node program, and the generator promises none
at run time; docs/formatting.md).

The expression forms: atoms (already flat text), calls, arrays and objects. A call that fits
stays on one line; else its last argument, when it is an array or object, is "hugged" (the call
opens on the line, the argument breaks); else every argument gets its own line. Objects are
always written expanded (prettier keeps an object expanded when its source is).
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 80  # prettier's print width: the one line limit of the zod target (views.py reads it)
STEP = "  "


@dataclass(frozen=True)
class Atom:
    text: str


@dataclass(frozen=True)
class Call:
    callee: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Arr:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Prop:
    key: str  # already a TS key
    value: Node
    comment: tuple[str, ...] = ()  # doc comment lines, without indentation


@dataclass(frozen=True)
class Obj:
    props: tuple[Prop, ...]


@dataclass(frozen=True)
class Arrow:
    """`() => body`: the callback of `z.lazy`."""

    body: Node


@dataclass(frozen=True)
class Chain:
    """`z.a(...).b(...)`: method calls on `z`; laid out one call a line when it breaks."""

    calls: tuple[Call, ...]  # callees without the `z.` prefix


Node = Atom | Call | Arr | Obj | Arrow | Chain


def flat(n: Node) -> str | None:
    """`n` on one line, or None when it cannot be (a non-empty object)."""
    if isinstance(n, Atom):
        return n.text
    if isinstance(n, Obj):
        return "{}" if not n.props else None
    if isinstance(n, Arrow):
        body = flat(n.body)
        return None if body is None else f"() => {body}"
    if isinstance(n, Chain):
        calls = [flat(c) for c in n.calls]
        return None if None in calls else "z." + ".".join(c for c in calls if c is not None)
    parts = [flat(a) for a in (n.args if isinstance(n, Call) else n.items)]
    if any(p is None for p in parts):
        return None
    inner = ", ".join(p for p in parts if p is not None)
    return f"{n.callee}({inner})" if isinstance(n, Call) else f"[{inner}]"


def layout(n: Node, col: int, indent: str, tail: int) -> str:
    """`n` starting at column `col` on a line indented by `indent`, followed by `tail` more
    characters on its last line."""
    one = flat(n)
    if one is not None and col + len(one) + tail <= WIDTH:
        return one
    if isinstance(n, Atom):
        return n.text
    if isinstance(n, Obj):
        return _object(n, indent)
    if isinstance(n, Arr):
        return _broken("[", n.items, "]", indent)
    if isinstance(n, Arrow):
        inner = indent + STEP
        return "() =>\n" + inner + layout(n.body, len(inner), inner, 1)
    if isinstance(n, Chain):
        inner = indent + STEP
        return "z" + "".join(
            "\n" + inner + "." + layout(c, len(inner) + 1, inner, 1 if i == len(n.calls) - 1 else 0)
            for i, c in enumerate(n.calls)
        )
    head = n.callee + "("
    last = n.args[-1] if n.args else None
    if isinstance(last, (Arr, Obj)) and (last.items if isinstance(last, Arr) else last.props):
        firsts = [flat(a) for a in n.args[:-1]]
        if all(f is not None for f in firsts):
            lead = head + "".join(f"{f}, " for f in firsts if f is not None)
            opener = "[" if isinstance(last, Arr) else "{"
            if col + len(lead) + 1 <= WIDTH or not firsts:
                hugged = (
                    _object(last, indent)
                    if isinstance(last, Obj)
                    else _broken("[", last.items, "]", indent)
                )
                assert hugged.startswith(opener)
                return lead + hugged + ")"
    if isinstance(last, Arrow) and len(n.args) == 1:
        return head + layout(last, col + len(head), indent, tail + 1) + ",\n" + indent + ")"
    return _broken(head, n.args, ")", indent)


def _broken(open_: str, items: tuple[Node, ...], close: str, indent: str) -> str:
    inner = indent + STEP
    lines = [inner + layout(i, len(inner), inner, 1) + "," for i in items]
    return open_ + "\n" + "\n".join(lines) + "\n" + indent + close


def _object(n: Obj, indent: str) -> str:
    if not n.props:
        return "{}"
    inner = indent + STEP
    lines: list[str] = []
    for p in n.props:
        lines.extend(inner + c for c in p.comment)
        lines.append(assign(f"{inner}{p.key}:", p.value, inner, 1) + ",")
    return "{\n" + "\n".join(lines) + "\n" + indent + "}"


def assign(lead: str, n: Node, indent: str, tail: int) -> str:
    """`lead` (`key:`, `export const X =`, at the start of its line) and the value `n`: on the
    same line, or on the next one, indented, when the value's first line would not fit (the
    way prettier breaks after the operator)."""
    col = len(lead) + 1
    text = layout(n, col, indent, tail)
    lines = text.split("\n")
    first = len(lines[0]) + (tail if len(lines) == 1 else 0)
    if col + first <= WIDTH:
        return f"{lead} {text}"
    inner = indent + STEP
    return f"{lead}\n{inner}" + layout(n, len(inner), inner, tail)


def statement(lead: str, n: Node) -> str:
    """`lead` (e.g. `export const XSchema =`) followed by `n` and `;`."""
    return assign(lead.rstrip(), n, "", 1) + ";"
