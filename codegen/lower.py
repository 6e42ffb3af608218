"""Lower the tree-sitter CST of schema.ts to the declared IR, one function per TS construct.

Anything outside the supported subset becomes a located `unsupported ...` diagnostic; nothing is
silently dropped or widened to `any`. All problems of a file are collected, then raised together.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from . import annotated, ir
from .errors import Collector
from .jsdoc import parse_jsdoc
from .numbers import NumberError, parse_literal, property_key
from .numbers import clip as _clip
from .parse import Source

# Deeper type nesting than this is refused with a located error instead of exhausting the stack.
MAX_DEPTH = 200

_PRIMS = {k.value: k for k in ir.PrimKind if k is not ir.PrimKind.INTEGER}

# Node types that are real TypeScript but outside the subset, with the name users know them by.
_UNSUPPORTED_TYPES = {
    "conditional_type": "conditional type",
    "template_literal_type": "template literal type",
    "tuple_type": "tuple type",
    "function_type": "function type",
    "constructor_type": "constructor type",
    "lookup_type": "indexed access type",
    "index_type_query": "keyof type",
    "readonly_type": "readonly type operator",
    "infer_type": "infer type",
    "type_predicate": "type predicate",
    "existential_type": "existential type",
    "flow_maybe_type": "maybe type",
    "optional_type": "optional tuple element",
    "rest_type": "rest type",
    "this_type": "this type",
    "nested_type_identifier": "qualified type name",
}
_UNSUPPORTED_DECLS = {
    "enum_declaration": "enum declaration",
    "internal_module": "namespace declaration",
    "module": "namespace declaration",
    "ambient_declaration": "ambient declaration",
    "function_declaration": "function declaration",
    "function_signature": "function declaration",
    "class_declaration": "class declaration",
    "abstract_class_declaration": "class declaration",
    "import_statement": "import statement",
    "import_alias": "import alias",
    "expression_statement": "statement",
}
_SKIP = {"comment", "empty_statement", "hash_bang_line"}
# The names TypeScript reserves for its predefined types (checker.ts, checkTypeNameIsReserved).
RESERVED_TYPE_NAMES = frozenset(
    ("any", "unknown", "never", "number", "bigint", "boolean", "string", "symbol", "void",
     "object", "undefined")
)  # fmt: skip
# Primitives that an intersection with annotation members may constrain.
_ANNOTATABLE = {"string", "number", "boolean"}


class Lowerer:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.errors = Collector()
        # A schema's own `Date` shadows the built-in one, as in TypeScript.
        self.declared = _declared_type_names(src)

    # -- helpers ------------------------------------------------------------------------------

    def unsupported(self, node: Node, what: str) -> ir.Prim:
        self.errors.add(self.src.loc(node), f"unsupported type construct: {what}")
        return ir.Prim(ir.PrimKind.NEVER)  # placeholder; the run fails before anything is used

    def doc_for(self, node: Node) -> ir.Doc:
        """The nearest `/** */` comment before `node`, skipping `//` and `/* */` comments."""
        prev = node.prev_sibling
        while prev is not None and prev.type == "comment":
            text = self.src.text(prev)
            if text.startswith("/**") and text != "/**/":
                return parse_jsdoc(text, self.src.loc(prev))
            prev = prev.prev_sibling
        return ir.NO_DOC

    # -- declarations -------------------------------------------------------------------------

    def program(self) -> tuple[ir.Decl, ...]:
        decls: list[ir.Decl] = []
        for stmt in _kids(self.src.root):
            if stmt.type in _SKIP:
                continue
            doc = self.doc_for(stmt)
            target = stmt
            if stmt.type == "export_statement":
                inner = stmt.child_by_field_name("declaration")
                if inner is None:
                    self.errors.add(
                        self.src.loc(stmt), "unsupported construct: export without a declaration"
                    )
                    continue
                target = inner
            decls.extend(self.declaration(target, doc))
        if not decls and not self.errors.items:
            self.errors.add(self.src.point(0, 0), "empty schema: no declarations")
        return tuple(decls)

    def declaration(self, node: Node, doc: ir.Doc) -> list[ir.Decl]:
        kind = node.type
        if kind == "interface_declaration":
            return [self.interface(node, doc)]
        if kind == "type_alias_declaration":
            name = self.src.text(node.child_by_field_name("name"))  # type: ignore[arg-type]
            self.reserved(node, "Type alias", "TS2457")
            params = node.child_by_field_name("type_parameters")
            if params is not None:
                self.unsupported(params, "generic type parameters")
            value = self.type(node.child_by_field_name("value"), (name,))  # type: ignore[arg-type]
            return [ir.Alias(name, value, doc, self.src.loc(node))]
        if kind == "lexical_declaration":
            return self.consts(node, doc)
        what = _UNSUPPORTED_DECLS.get(kind, kind.replace("_", " "))
        self.errors.add(self.src.loc(node), f"unsupported construct: {what}")
        return []

    def reserved(self, node: Node, what: str, code: str) -> None:
        """TypeScript's predefined type names cannot name a declaration (TS2427, TS2457): a
        reference to `object` would mean the keyword, never the declaration."""
        name_node = node.child_by_field_name("name")
        if name_node is not None and self.src.text(name_node) in RESERVED_TYPE_NAMES:
            self.errors.add(
                self.src.loc(name_node),
                f"{what} name cannot be '{self.src.text(name_node)}': it is one of TypeScript's "
                f"predefined types ({code})",
            )

    def consts(self, node: Node, doc: ir.Doc) -> list[ir.Decl]:
        if self.src.text(node).split(None, 1)[0] != "const":
            self.errors.add(
                self.src.loc(node), "unsupported construct: 'let' declaration (use 'const')"
            )
            return []
        out: list[ir.Decl] = []
        for decl in _kids(node):
            if decl.type != "variable_declarator":
                continue
            name = self.src.text(decl.child_by_field_name("name"))  # type: ignore[arg-type]
            value = decl.child_by_field_name("value")
            lit = self.literal_value(value) if value is not None else None
            if lit is None:
                self.errors.add(
                    self.src.loc(value or decl),
                    f"unsupported construct: const '{name}' must be a string, number or boolean literal",
                )
                continue
            out.append(ir.Const(name, lit, doc, self.src.loc(decl)))
        return out

    def literal_value(self, node: Node) -> ir.Lit | None:
        """A literal in value or type position: "s", 1.5, -3, true, false."""
        kind = node.type
        if kind == "literal_type" and node.named_child_count == 1:
            return self.literal_value(_kids(node)[0])
        if kind == "string":
            return ir.Lit(self.string_value(node), "string")
        if kind == "number":
            return ir.Lit(self.number(node), "number")
        if kind in ("true", "false"):
            return ir.Lit(kind == "true", "boolean")
        if kind == "unary_expression" and self.src.text(node).startswith("-"):
            arg = node.child_by_field_name("argument")
            if arg is not None and arg.type == "number":
                return ir.Lit(-self.number(arg), "number")
        return None

    def number(self, node: Node) -> int | float:
        """A numeric literal's exact value; one that has none (`1e999`, `10n`) is an error."""
        text = self.src.text(node)
        try:
            return parse_literal(text)
        except NumberError as err:
            self.errors.add(self.src.loc(node), f"number literal '{_clip(text)}' {err}")
            return 0  # placeholder; the run fails before anything is used

    def string_value(self, node: Node) -> str:
        """The value of a string literal, with JS escapes decoded."""
        parts = []
        for child in _kids(node):
            text = self.src.text(child)
            if child.type != "escape_sequence":
                parts.append(text)
                continue
            try:
                parts.append(_unescape(text))
            except (ValueError, OverflowError):  # `\u{110000}`: TypeScript refuses it too
                self.errors.add(
                    self.src.loc(child), f"escape '{text}' is beyond U+10FFFF, the last character"
                )
        value = _SURROGATE_PAIR.sub(_pair, "".join(parts))  # `\uD83D\uDE00` is one character
        lone = _SURROGATE.search(value)
        if lone is not None:
            # No UTF-8 file or JSON text can carry it faithfully (RFC 8259 8.2): refused here.
            code = f"\\u{ord(lone.group()):04X}"
            self.errors.add(
                self.src.loc(node),
                f"string literal has a lone surrogate {code}, which is not a Unicode character",
            )
            return _SURROGATE.sub("\ufffd", value)
        return value

    def interface(self, node: Node, doc: ir.Doc) -> ir.Interface:
        name = self.src.text(node.child_by_field_name("name"))  # type: ignore[arg-type]
        self.reserved(node, "Interface", "TS2427")
        if node.child_by_field_name("type_parameters") is not None:
            self.unsupported(node.child_by_field_name("type_parameters"), "generic type parameters")  # type: ignore[arg-type]
        bases: list[ir.Base] = []
        for child in _kids(node):
            if child.type == "extends_type_clause":
                for t in _kids(child):
                    base = self.base(t)
                    if base is not None:
                        bases.append(base)
        body = self.object_body(node.child_by_field_name("body"), (name,), 0)  # type: ignore[arg-type]
        return ir.Interface(name, tuple(bases), body, doc, self.src.loc(node))

    def base(self, node: Node) -> ir.Base | None:
        if node.type == "type_identifier":
            return ir.Base(self.src.text(node), (), self.src.loc(node))
        if node.type == "generic_type" and self.generic_name(node) == "Omit":
            args = self.type_args(node)
            if len(args) == 2 and args[0].type == "type_identifier":
                keys = self.literal_keys(args[1])
                if keys is not None:
                    return ir.Base(self.src.text(args[0]), tuple(keys), self.src.loc(node))
            self.unsupported(node, 'Omit must be Omit<Name, "key" | ...>')
            return None
        self.unsupported(node, f"extends clause '{self.src.text(node)}'")
        return None

    def literal_keys(self, node: Node) -> list[str] | None:
        if node.type == "parenthesized_type":
            return self.literal_keys(_kids(node)[0])
        if node.type == "union_type":
            out: list[str] = []
            for m in _kids(node):
                keys = self.literal_keys(m)
                if keys is None:
                    return None
                out.extend(keys)
            return out
        lit = self.literal_value(node)
        if lit is not None and lit.kind == "string":
            return [str(lit.value)]
        return None

    # -- object bodies ------------------------------------------------------------------------

    def object_body(self, node: Node, path: tuple[str, ...], depth: int) -> ir.Obj:
        props: list[ir.Property] = []
        index: ir.Index | None = None
        for member in _kids(node):
            kind = member.type
            if kind == "comment":
                continue
            if kind == "property_signature":
                prop = self.property(member, path, depth)
                if prop is not None:
                    props.append(prop)
            elif kind == "index_signature":
                index = self.index_signature(member, path, depth) or index
            elif kind == "method_signature":
                self.unsupported(member, "method signature")
            elif kind in ("call_signature", "construct_signature"):
                self.unsupported(member, kind.replace("_", " "))
            else:
                self.unsupported(member, f"object member '{kind}'")
        return ir.Obj(path, tuple(props), index, "", self.src.loc(node))

    def property(self, node: Node, path: tuple[str, ...], depth: int) -> ir.Property | None:
        name_node = node.child_by_field_name("name")
        assert name_node is not None
        if name_node.type == "string":
            name = self.string_value(name_node)
        elif name_node.type == "property_identifier":
            name = self.src.text(name_node)
        elif name_node.type == "number":  # `0x10: T` is the key "16", as in TypeScript
            try:
                name = property_key(self.src.text(name_node))
            except NumberError as err:
                self.errors.add(
                    self.src.loc(name_node), f"property name {self.src.text(name_node)} {err}"
                )
                return None
        else:
            self.unsupported(name_node, "computed property name")
            return None
        optional = any(c.type == "?" for c in node.children)
        readonly = any(c.type == "readonly" for c in node.children)
        annotation = node.child_by_field_name("type")
        if annotation is None:
            self.errors.add(self.src.loc(node), f"property '{name}' has no type annotation")
            return None
        type_node = _kids(annotation)[0]
        doc = self.doc_for(node)
        return ir.Property(
            name,
            self.type(type_node, (*path, name), depth + 1),
            optional,
            readonly,
            False,
            ir.NO_CONSTRAINTS,
            doc,
            self.src.loc(node),
        )

    def index_signature(self, node: Node, path: tuple[str, ...], depth: int) -> ir.Index | None:
        if any(c.type == "mapped_type_clause" for c in _kids(node)):
            self.unsupported(node, "mapped type")
            return None
        key_name = node.child_by_field_name("name")
        key_type = node.child_by_field_name("index_type")
        annotation = node.child_by_field_name("type")
        if key_type is None or annotation is None or self.src.text(key_type) != "string":
            self.unsupported(node, "index signature with a non-string key")
            return None
        value = self.type(_kids(annotation)[0], (*path, "value"), depth + 1)
        return ir.Index(value, self.src.text(key_name) if key_name else "key", self.src.loc(node))

    # -- type expressions ---------------------------------------------------------------------

    def type(self, node: Node, path: tuple[str, ...], depth: int = 0) -> ir.TypeExpr:
        if depth > MAX_DEPTH:
            self.errors.add(self.src.loc(node), f"type nested deeper than {MAX_DEPTH} levels")
            return ir.Prim(ir.PrimKind.NEVER)
        kind = node.type
        if kind == "predefined_type":
            text = self.src.text(node)
            if text in _PRIMS:
                return ir.Prim(_PRIMS[text])
            return self.unsupported(node, f"type '{text}'")
        if kind == "type_identifier":
            name = self.src.text(node)
            if name == "Date" and name not in self.declared:
                return ir.Annotated(
                    ir.Prim(ir.PrimKind.STRING), annotated.DATE_TIME, self.src.loc(node)
                )
            return ir.Ref(name, self.src.loc(node))
        if kind in (
            "literal_type",
            "string",
            "number",
            "true",
            "false",
            "null",
            "unary_expression",
        ):
            if self.src.text(node) == "null":
                return ir.Prim(ir.PrimKind.NULL)
            lit = self.literal_value(node)
            if lit is None:
                return self.unsupported(node, f"literal type '{self.src.text(node)}'")
            return lit
        if kind == "parenthesized_type":
            return self.type(_kids(node)[0], path, depth + 1)
        if kind == "union_type":
            return self.union(node, path, depth)
        if kind == "intersection_type":
            members = _flatten(node, "intersection_type")
            constrained = self.annotated(node, members)
            if constrained is not None:
                return constrained
            return ir.Intersection(tuple(self.type(m, path, depth + 1) for m in members))
        if kind == "array_type":
            return ir.Array(self.type(_kids(node)[0], (*path, "item"), depth + 1))
        if kind == "object_type":
            return self.object_body(node, path, depth)
        if kind == "type_query":
            target = _kids(node)[0] if _kids(node) else None
            if target is None or target.type != "identifier":
                return self.unsupported(node, f"typeof expression '{self.src.text(node)}'")
            return ir.TypeOf(self.src.text(target), self.src.loc(target))
        if kind == "generic_type":
            return self.generic(node, path, depth)
        if kind == "object_type" or kind == "mapped_type_clause":
            return self.unsupported(node, "mapped type")
        return self.unsupported(node, _UNSUPPORTED_TYPES.get(kind, kind.replace("_", " ")))

    def annotated(self, node: Node, members: list[Node]) -> ir.Annotated | None:
        """`number & { readonly minimum: 0 }`: one primitive and inline objects of annotation
        members; None when the intersection has another shape."""
        prims = [m for m in members if self.src.text(_unwrap(m)) in _ANNOTATABLE]
        objs = [_unwrap(m) for m in members if self.src.text(_unwrap(m)) not in _ANNOTATABLE]
        if len(prims) != 1 or not objs or any(o.type != "object_type" for o in objs):
            return None
        c = ir.NO_CONSTRAINTS
        for obj in objs:
            for member in _kids(obj):
                c = self.annotation_member(member, c)
        prim = ir.Prim(_PRIMS[self.src.text(_unwrap(prims[0]))])
        return ir.Annotated(prim, c, self.src.loc(node))

    def annotation_member(self, member: Node, c: ir.Constraints) -> ir.Constraints:
        name_node = member.child_by_field_name("name")
        if member.type != "property_signature" or name_node is None:
            self.unsupported(member, "constraint annotation member other than a property")
            return c
        name = self.src.text(name_node)
        if name_node.type == "string":
            name = self.string_value(name_node)
        if name not in annotated.MEMBERS:
            known = ", ".join(annotated.MEMBERS)
            self.errors.warn(
                self.src.loc(member),
                f"annotation member '{name}' names no constraint ({known}); dropped",
            )
            return c
        ann = member.child_by_field_name("type")
        lit = self.literal_value(_kids(ann)[0]) if ann is not None and _kids(ann) else None
        value = annotated.member_value(name, lit)
        if value is None:
            kind = annotated.MEMBERS[name][1]
            what = "a non-negative integer" if kind == "count" else f"a {kind}"
            self.errors.add(
                self.src.loc(member),
                f"constraint annotation '{name}' must have {what} literal type",
            )
            return c
        old = annotated.value_of(c, name)
        if old is not None and old != value:
            self.errors.add(
                self.src.loc(member),
                f"constraint annotation '{name}' given twice with different values",
            )
            return c
        return annotated.with_value(c, name, value)

    def union(self, node: Node, path: tuple[str, ...], depth: int) -> ir.TypeExpr:
        # Members share the union's path; resolve adds what tells inline members apart.
        members = _flatten(node, "union_type")
        return ir.Union_(tuple(self.type(m, path, depth + 1) for m in members))

    def generic_name(self, node: Node) -> str:
        return self.src.text(node.child_by_field_name("name"))  # type: ignore[arg-type]

    def type_args(self, node: Node) -> list[Node]:
        args = node.child_by_field_name("type_arguments")
        return list(_kids(args)) if args is not None else []

    def generic(self, node: Node, path: tuple[str, ...], depth: int) -> ir.TypeExpr:
        name = self.generic_name(node)
        args = self.type_args(node)
        if name == "Array" and len(args) == 1:
            return ir.Array(self.type(args[0], (*path, "item"), depth + 1))
        if name == "Record" and len(args) == 2:
            key = self.type(args[0], (*path, "key"), depth + 1)
            if not _is_string_key(key):
                return self.unsupported(args[0], "Record key other than string or string literals")
            return ir.Map(key, self.type(args[1], (*path, "value"), depth + 1))
        return self.unsupported(node, f"generic type '{name}<...>'")


def _declared_type_names(src: Source) -> frozenset[str]:
    names = set()
    for stmt in _kids(src.root):
        target = (
            stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        )
        if target is not None and target.type in (
            "interface_declaration",
            "type_alias_declaration",
        ):
            name = target.child_by_field_name("name")
            if name is not None:
                names.add(src.text(name))
    return frozenset(names)


def _kids(node: Node) -> list[Node]:
    """Named children without comments, which tree-sitter allows almost anywhere."""
    return [c for c in node.named_children if c.type != "comment"]


def _flatten(node: Node, kind: str) -> list[Node]:
    """`A | B | C` nests as binary nodes in tree-sitter; flatten to the member list."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == kind:
            stack.extend(reversed(_kids(n)))
        else:
            out.append(n)
    return out


def _unwrap(node: Node) -> Node:
    while node.type == "parenthesized_type" and _kids(node):
        node = _kids(node)[0]
    return node


def _is_string_key(t: ir.TypeExpr) -> bool:
    if isinstance(t, ir.Prim):
        return t.kind is ir.PrimKind.STRING
    if isinstance(t, ir.Lit):
        return t.kind == "string"
    if isinstance(t, ir.Union_):
        return all(_is_string_key(m) for m in t.members)
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _pair(m: re.Match[str]) -> str:
    hi, lo = (ord(c) for c in m.group())
    return chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(seq: str) -> str:
    body = seq[1:]
    if body in _ESCAPES:
        return _ESCAPES[body]
    if body.startswith("u{"):
        return chr(int(body[2:-1], 16))
    if body[:1] in ("u", "x"):
        return chr(int(body[1:], 16))
    if body.startswith(("\n", "\r")):
        return ""  # line continuation
    return body


def lower(src: Source) -> ir.Schema:
    lowerer = Lowerer(src)
    decls = lowerer.program()
    lowerer.errors.raise_if_any()
    return ir.Schema(src.path, src.sha256, decls, lowerer.errors.sorted_warnings())
