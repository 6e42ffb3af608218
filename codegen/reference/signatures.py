"""Type expressions as typedoc's signatures show them: HTML spans and links, laid out by the
width-aware formatter. Text is escaped here; links point only at entries on the page."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping

from .. import ir
from . import formatter as f

_IDENT = re.compile(r"^[A-Z_$][\w$]*$", re.IGNORECASE)

Anchor = Callable[[str], str | None]  # type name -> its anchor, None when not on the page


def esc(text: str) -> str:
    """Text as typedoc's JSX writes it."""
    return html.escape(text, quote=True).replace("&#x27;", "&#39;")


def span(cls: str, text: str) -> f.Text:
    return f.Text(f'<span class="{cls}">{esc(text)}</span>', len(text))


def sym(text: str) -> f.Text:
    return span("tsd-signature-symbol", text)


def literal_text(lit: ir.Lit) -> str:
    if lit.kind == "string":
        return json.dumps(lit.value, ensure_ascii=False)
    if lit.kind == "boolean":
        return "true" if lit.value else "false"
    value = lit.value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def property_name(name: str) -> str:
    return name if _IDENT.match(name) else json.dumps(name, ensure_ascii=False)


class Builder:
    """One signature's node tree; ids number its groups, as typedoc's builder does."""

    def __init__(
        self,
        kinds: dict[str, str],
        consts: dict[str, ir.Lit],
        aliases: dict[str, ir.TypeExpr],
        positions: dict[str, int],
        literals: Mapping[str, int],
    ) -> None:
        self.kinds = kinds
        self.consts = consts
        self.aliases = aliases
        self.positions = positions
        self.literals = literals
        self.id = 0
        self.force: set[int] = set()

    def new_id(self) -> int:
        self.id += 1
        return self.id

    def ref(self, name: str) -> f.Text:
        kind = self.kinds.get(name)
        if kind is None:
            return span("tsd-signature-type", name)
        cls = f"tsd-signature-type tsd-kind-{kind}"
        return f.Text(f'<a href="#{anchor_of(name)}" class="{cls}">{esc(name)}</a>', len(name))

    def type(self, t: ir.TypeExpr | None, where: str = "none") -> f.Node:
        if t is None:
            return span("tsd-signature-type", "any")
        if _needs_parens(t, where):
            gid = self.new_id()
            return f.Group(gid, [f.Text("(", 1), f.Line(), f.Indent([self._visit(t)]), f.Line(),
                                 f.Text(")", 1)])  # fmt: skip
        return self._visit(t)

    def _visit(self, t: ir.TypeExpr) -> f.Node:
        if isinstance(t, ir.Prim):
            return span("tsd-signature-type", t.kind.value if t.kind.value != "integer"
                        else "number")  # fmt: skip
        if isinstance(t, ir.Lit):
            return span("tsd-signature-type", literal_text(t))
        if isinstance(t, ir.TypeOf):
            lit = self.consts.get(t.name)
            if lit is None:
                return f.Nodes([span("tsd-signature-keyword", "typeof"), f.Text(" ", 1),
                                self.ref(t.name)])  # fmt: skip
            return span("tsd-signature-type", literal_text(lit))
        if isinstance(t, ir.Ref):
            return self.ref(t.name)
        if isinstance(t, ir.Array):
            return f.Nodes([self.type(t.item, "array"), sym("[]")])
        if isinstance(t, ir.Intersection):
            sep = f.Nodes([f.Text(" ", 1), sym("&"), f.Text(" ", 1)])
            return f.join(sep, [self.type(m, "intersection") for m in t.members])
        if isinstance(t, ir.Union_):
            return self.union(t)
        if isinstance(t, ir.Map):
            return self.generic("Record", [t.key, t.value])
        if isinstance(t, ir.Obj):
            return self.object(t, None)
        if isinstance(t, ir.Annotated):
            return self._visit(t.type)
        raise TypeError(f"unexpected type expression {t!r}")

    def union(self, t: ir.Union_) -> f.Node:
        parent = self.id
        gid = self.new_id()
        elements: list[f.Node] = []
        for i, m in enumerate(t.members):
            elements.append(f.IfWrap(gid, f.Nodes([sym("|"), f.Text(" ", 1)])) if i == 0
                            else f.Text(" ", 1))  # fmt: skip
            elements += [self.type(m, "union"), f.SpaceOrLine(), sym("|")]
        del elements[-2:]
        return f.Group(gid, [f.IfWrap(parent, f.Text("", 0), f.Line()),
                             f.IfWrap(parent, f.Nodes(elements), f.Indent(elements))])  # fmt: skip

    def generic(self, name: str, args: list[ir.TypeExpr]) -> f.Node:
        gid = self.new_id()
        head = span("tsd-signature-type", name)
        sep = f.Nodes([sym(","), f.SpaceOrLine()])
        body = f.join(sep, [self.type(a, "argument") for a in args])
        return f.Group(gid, [head, sym("<"), f.Line(), f.Indent([body, f.IfWrap(gid, sym(","))]),
                             f.Line(), sym(">")])  # fmt: skip

    def member(self, name: str, optional: bool, t: ir.TypeExpr | None, cls: str,
               href: str | None = None) -> f.Node:  # fmt: skip
        shown = property_name(name)
        if cls == "tsd-kind-property" and t is not None:
            t = checker_type(t, self.aliases, self.positions, self.literals)
        if href is not None:
            label = f.Text(f'<a class="{cls}" href="#{href}">{esc(shown)}</a>', len(shown))
        else:
            label = span(cls, shown)
        return f.Nodes([label, sym("?:" if optional else ":"), f.Text(" ", 1), self.type(t)])

    def index(self, index: ir.Index) -> f.Node:
        return f.Nodes([sym("["), span("tsd-kind-index-signature", index.key_name), sym(":"),
                        f.Text(" ", 1), span("tsd-signature-type", "string"), sym("]:"),
                        f.Text(" ", 1), self.type(index.value)])  # fmt: skip

    def object(self, obj: ir.Obj, links: str | None, force: bool = False) -> f.Node:
        """`{ a: T; ... }`; with `links` (the owner's anchor) property names link to members."""
        members = [
            self.member(p.name, p.optional, p.type, "tsd-kind-property",
                        None if links is None else f"{links}-{slug(p.name)}")
            for p in obj.properties
        ]  # fmt: skip
        return self.braces(members, obj.index, force)

    def braces(self, members: list[f.Node], index: ir.Index | None, force: bool) -> f.Node:
        if index is not None:
            members.append(self.index(index))
        if not members:
            return sym("{}")
        gid = self.new_id()
        if force:
            self.force.add(gid)
        sep = f.Nodes([sym(";"), f.SpaceOrLine()])
        return f.Group(gid, [sym("{"), f.SpaceOrLine(), f.Indent([f.join(sep, members)]),
                             f.IfWrap(gid, sym(";")), f.SpaceOrLine(), sym("}")])  # fmt: skip


def checker_type(t: ir.TypeExpr, aliases: dict[str, ir.TypeExpr], positions: dict[str, int],
                 literals: Mapping[str, int]) -> ir.TypeExpr:  # fmt: skip
    """A property's type as typedoc shows it: TypeScript's type of the property (for an optional
    one with `undefined` removed), not the type as written. TypeScript keeps no alias name on a
    primitive or literal type (`cursor?: Cursor` shows `string`), a union absorbs literals of a
    primitive it also holds (`"a" | string` is `string`), and its string literals come in the
    order the checker created them (`literals`, see literals.py)."""
    return _checker(t, aliases, positions, literals, frozenset())


def _checker(t: ir.TypeExpr, aliases: dict[str, ir.TypeExpr], positions: dict[str, int],
             literals: Mapping[str, int], seen: frozenset[str]) -> ir.TypeExpr:  # fmt: skip
    if isinstance(t, ir.Ref):
        target = aliases.get(t.name)
        if target is None or t.name in seen:
            return t
        shown = _checker(target, aliases, positions, literals, seen | {t.name})
        if isinstance(shown, (ir.Prim, ir.Lit)):
            return shown
        return shown if isinstance(target, ir.Ref) else t
    if isinstance(t, ir.Union_):
        members = [_checker(m, aliases, positions, literals, seen) for m in t.members]
        prims = {m.kind.value for m in members if isinstance(m, ir.Prim)}
        kept = [m for m in members if not (isinstance(m, ir.Lit) and m.kind in prims)]
        unique = list(dict.fromkeys(kept))
        if len(unique) == 1:
            return unique[0]
        ordered = sorted(unique, key=lambda m: _type_id(m, positions))
        return ir.Union_(tuple(_by_creation(ordered, literals)))
    return t


def _by_creation(members: list[ir.TypeExpr], literals: Mapping[str, int]) -> list[ir.TypeExpr]:
    """`members` with its string literals, in the places they hold, in creation order (a
    string the order does not know keeps its place after those it knows)."""
    slots = [i for i, m in enumerate(members) if isinstance(m, ir.Lit) and m.kind == "string"]
    strings = [m for m in members if isinstance(m, ir.Lit) and m.kind == "string"]
    strings.sort(key=lambda m: literals.get(str(m.value), len(literals)))
    out = list(members)
    for i, m in zip(slots, strings):
        out[i] = m
    return out


# TypeScript's intrinsic types, in the order its checker creates them (their type ids).
_INTRINSICS = ("any", "unknown", "undefined", "string", "number", "bigint", "boolean", "void",
               "never", "object")  # fmt: skip


def _type_id(t: ir.TypeExpr, positions: dict[str, int]) -> tuple[int, float]:
    """An approximation of the checker's type ids, by which it orders a union's members:
    intrinsics first; literals and inline types as written (the sort is stable); declared
    types in the order the source first mentions them, an array just after its element type;
    `null` last (as types are printed)."""
    if isinstance(t, ir.Prim):
        if t.kind is ir.PrimKind.NULL:
            return 9, 0
        return 0, _INTRINSICS.index(t.kind.value) if t.kind.value in _INTRINSICS else 99
    if isinstance(t, ir.Ref) and t.name in positions:
        return 2, positions[t.name]
    if isinstance(t, ir.Array):
        group, at = _type_id(t.item, positions)
        return group, at + 0.5
    return 1, 0


def _needs_parens(t: ir.TypeExpr, where: str) -> bool:
    if isinstance(t, ir.Union_):
        return where in ("array", "intersection")
    if isinstance(t, ir.Intersection):
        return where == "array"
    return False


_SLUG_DROP = re.compile(r"[^\w\s-]", re.UNICODE)


def slug(text: str) -> str:
    """typedoc's anchor slug: punctuation dropped, white space runs to a dash, lower case."""
    return re.sub(r"\s+", "-", _SLUG_DROP.sub("", text.strip())).lower()


def anchor_of(name: str) -> str:
    """A page's anchor for a declaration: its URL (`Name.html`) made an id, as the spec's
    plugin does."""
    return re.sub(r"[./#]", "-", name).lower()


def layout(node: f.Node, b: Builder, width: int = f.WIDTH) -> str:
    gen = f.Generator(b.force, width)
    gen.node(node, False)
    return gen.html()
