"""Lower the tree-sitter CST of schema.ts to the declared IR: the declarations, and the entry.

`Lowerer`, the top layer of the lowering (on `lowertypes.TypeLowerer`, which lowers type
expressions, on `cst.TokenReader`, which reads tokens): interfaces with their `extends` and
`Omit` bases, type aliases, `const` literals. Anything outside the supported subset becomes a
located `unsupported ...` diagnostic; nothing is silently dropped or widened to `any`. All problems
of a file are collected, then raised together.
"""

from __future__ import annotations

from tree_sitter import Node

from . import ir
from .cst import kids
from .lowertypes import TypeLowerer
from .parse import Source

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


class Lowerer(TypeLowerer):
    def __init__(self, src: Source) -> None:
        super().__init__(src, _declared_type_names(src))

    def program(self) -> tuple[ir.Decl, ...]:
        decls: list[ir.Decl] = []
        for stmt in kids(self.src.root):
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
        for decl in kids(node):
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

    def interface(self, node: Node, doc: ir.Doc) -> ir.Interface:
        name = self.src.text(node.child_by_field_name("name"))  # type: ignore[arg-type]
        self.reserved(node, "Interface", "TS2427")
        if node.child_by_field_name("type_parameters") is not None:
            self.unsupported(node.child_by_field_name("type_parameters"), "generic type parameters")  # type: ignore[arg-type]
        bases: list[ir.Base] = []
        for child in kids(node):
            if child.type == "extends_type_clause":
                for t in kids(child):
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
            return self.literal_keys(kids(node)[0])
        if node.type == "union_type":
            out: list[str] = []
            for m in kids(node):
                keys = self.literal_keys(m)
                if keys is None:
                    return None
                out.extend(keys)
            return out
        lit = self.literal_value(node)
        if lit is not None and lit.kind == "string":
            return [str(lit.value)]
        return None


def _declared_type_names(src: Source) -> frozenset[str]:
    names = set()
    for stmt in kids(src.root):
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


def lower(src: Source) -> ir.Schema:
    lowerer = Lowerer(src)
    decls = lowerer.program()
    lowerer.errors.raise_if_any()
    return ir.Schema(src.path, src.sha256, decls, lowerer.errors.sorted_warnings())
