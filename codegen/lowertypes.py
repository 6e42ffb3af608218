"""Type expressions of schema.ts lowered to the declared IR, one method per TS construct.

`TypeLowerer`, the middle layer of the lowering (on `cst.TokenReader`; `lower` adds the
declarations): primitives, references, literal types, unions, intersections (an annotated
primitive, `number & { readonly minimum: 0 }`, becomes `ir.Annotated`), arrays, `Array<T>`,
`Record<K, V>`, `typeof`, and object bodies with their properties and index signature. Every
other construct is a located `unsupported ...` diagnostic, never widened to `any`.
"""

from __future__ import annotations

from tree_sitter import Node

from . import annotated, ir
from .cst import TokenReader, flatten, kids, unwrap
from .numbers import NumberError, property_key
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
# Primitives that an intersection with annotation members may constrain.
_ANNOTATABLE = {"string", "number", "boolean"}


class TypeLowerer(TokenReader):
    def __init__(self, src: Source, declared: frozenset[str]) -> None:
        super().__init__(src)
        # A schema's own `Date` shadows the built-in one, as in TypeScript.
        self.declared = declared

    # -- object bodies ------------------------------------------------------------------------

    def object_body(self, node: Node, path: tuple[str, ...], depth: int) -> ir.Obj:
        props: list[ir.Property] = []
        index: ir.Index | None = None
        for member in kids(node):
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
        type_node = kids(annotation)[0]
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
        if any(c.type == "mapped_type_clause" for c in kids(node)):
            self.unsupported(node, "mapped type")
            return None
        key_name = node.child_by_field_name("name")
        key_type = node.child_by_field_name("index_type")
        annotation = node.child_by_field_name("type")
        if key_type is None or annotation is None or self.src.text(key_type) != "string":
            self.unsupported(node, "index signature with a non-string key")
            return None
        value = self.type(kids(annotation)[0], (*path, "value"), depth + 1)
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
            return self.type(kids(node)[0], path, depth + 1)
        if kind == "union_type":
            return self.union(node, path, depth)
        if kind == "intersection_type":
            members = flatten(node, "intersection_type")
            constrained = self.annotated(node, members)
            if constrained is not None:
                return constrained
            return ir.Intersection(tuple(self.type(m, path, depth + 1) for m in members))
        if kind == "array_type":
            return ir.Array(self.type(kids(node)[0], (*path, "item"), depth + 1))
        if kind == "object_type":
            return self.object_body(node, path, depth)
        if kind == "type_query":
            target = kids(node)[0] if kids(node) else None
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
        prims = [m for m in members if self.src.text(unwrap(m)) in _ANNOTATABLE]
        objs = [unwrap(m) for m in members if self.src.text(unwrap(m)) not in _ANNOTATABLE]
        if len(prims) != 1 or not objs or any(o.type != "object_type" for o in objs):
            return None
        c = ir.NO_CONSTRAINTS
        for obj in objs:
            for member in kids(obj):
                c = self.annotation_member(member, c)
        prim = ir.Prim(_PRIMS[self.src.text(unwrap(prims[0]))])
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
        lit = self.literal_value(kids(ann)[0]) if ann is not None and kids(ann) else None
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
        members = flatten(node, "union_type")
        return ir.Union_(tuple(self.type(m, path, depth + 1) for m in members))

    def generic_name(self, node: Node) -> str:
        return self.src.text(node.child_by_field_name("name"))  # type: ignore[arg-type]

    def type_args(self, node: Node) -> list[Node]:
        args = node.child_by_field_name("type_arguments")
        return list(kids(args)) if args is not None else []

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


def _is_string_key(t: ir.TypeExpr) -> bool:
    if isinstance(t, ir.Prim):
        return t.kind is ir.PrimKind.STRING
    if isinstance(t, ir.Lit):
        return t.kind == "string"
    if isinstance(t, ir.Union_):
        return all(_is_string_key(m) for m in t.members)
    return False
