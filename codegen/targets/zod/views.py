"""Resolved IR -> the zod module's declarations (laid-out TypeScript text per declaration).

Semantics follow the generated Python validators exactly (the tests hold both to the same
verdicts): objects keep unknown keys (`z.looseObject`, the TypeScript SDK's convention), an
index signature checks the other keys' values (`.catchall`), optional means "may be absent",
`integer` admits any integral number, `@format` is an annotation and is not checked, numeric
bounds apply to numbers only, union members that are `never` are dropped.

Declarations come in dependency order (zod schemas are values: a schema must exist before
another one uses it); the types on a reference cycle get an explicit TS type and `z.lazy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ... import ir
from ...analysis.shapes import cyclic, is_class_obj
from ...analysis.typeindex import TypeIndex
from ...graphs import dependency_order
from .layout import WIDTH, Arr, Arrow, Atom, Call, Chain, Node, Obj, Prop, flat, statement
from .tstext import doc_comment, ts_key, ts_number, ts_string
from .tstypes import ts_members

P = ir.PrimKind
_PRIMS = {
    P.STRING: "z.string()",
    P.NUMBER: "z.number()",
    P.INTEGER: "z.int()",
    P.BOOLEAN: "z.boolean()",
    P.NULL: "z.null()",
    P.UNKNOWN: "z.unknown()",
    P.ANY: "z.any()",
    P.NEVER: "z.never()",
}


PROTO = "__proto__"
# Keys every JavaScript object inherits from Object.prototype (node's
# `Object.getOwnPropertyNames(Object.prototype)`).
INHERITED = frozenset({"constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty",
                       "__lookupGetter__", "__lookupSetter__", "isPrototypeOf",
                       "propertyIsEnumerable", "toString", "valueOf", PROTO,
                       "toLocaleString"})  # fmt: skip

# The module's helpers, as prettier lays them out; each written once, when used.
OWN = """\
/** Objects as their own keys only: inherited ones (`constructor`, `toString`) are absent. */
const _own = (v: unknown): unknown =>
  v !== null && typeof v === "object" && !Array.isArray(v)
    ? Object.assign(Object.create(null), v)
    : v;"""
OWN_PROTO = """\
/** `_own`, with an own `__proto__` key checked by `schema` (zod's objects skip that key). */
const _ownProto =
  (schema: z.ZodType, optional: boolean) =>
  (v: unknown, ctx: z.RefinementCtx): unknown => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const key = Object.getOwnPropertyDescriptor(v, "__proto__");
    if (key === undefined ? !optional : !schema.safeParse(key.value).success) {
      ctx.addIssue({
        code: "custom",
        message: "invalid __proto__",
        path: ["__proto__"],
      });
    }
    return _own(v);
  };"""
HELPER_NAMES = {OWN: "_own", OWN_PROTO: "_ownProto"}


def _bool(b: bool) -> str:
    return "true" if b else "false"


def helpers(used: set[str]) -> tuple[str, ...]:
    """The helper definitions `used` needs, in a fixed order (`_ownProto` calls `_own`)."""
    if OWN_PROTO in used:
        return (OWN, OWN_PROTO)
    return (OWN,) if OWN in used else ()


def schema_name(name: str) -> str:
    return f"{name}Schema"


@dataclass(frozen=True)
class Declaration:
    """One named type: its schema constant and its inferred (or, on a cycle, written) type."""

    name: str
    doc: tuple[str, ...]  # comment lines
    schema: str  # `export const XSchema = ...;`, laid out
    type_alias: str  # `export type X = ...;`, laid out


class Emitter:
    def __init__(self, index: TypeIndex) -> None:
        self.index = index
        self.helpers: set[str] = set()  # the module's helpers the expressions use

    # -- expressions ----------------------------------------------------------------------------

    def expr(self, t: ir.TypeExpr, top: str = "") -> Node:
        """The zod expression for `t`; `top` names the declaration being written (its own
        object is written out, every other class object is referenced by name)."""
        if isinstance(t, ir.Prim):
            if t.kind is P.OBJECT:
                return Call("z.record", (Atom("z.string()"), Atom("z.unknown()")))
            return Atom(_PRIMS[t.kind])
        if isinstance(t, ir.Lit):
            return Atom(f"z.literal({literal(t)})")
        if isinstance(t, ir.Ref):
            return Atom(schema_name(t.name))
        if isinstance(t, ir.Obj):
            if is_class_obj(t) and t.name != top:
                return Atom(schema_name(t.name))
            return self.obj(t, top)
        if isinstance(t, ir.Array):
            return Call("z.array", (self.expr(t.item, top),))
        if isinstance(t, ir.Map):
            keys = ir.record_keys(t)
            props = tuple(Prop(ts_key(k), self.expr(t.value, top)) for k in keys)
            proto = (self.expr(t.value, top), False) if PROTO in keys else None
            return self.own(Call("z.looseObject", (Obj(props),)), keys, proto)
        if isinstance(t, ir.Union_):
            return self.union(t, top)
        if isinstance(t, ir.Intersection):
            parts = [self.expr(m, top) for m in t.members]
            out = parts[0]
            for p in parts[1:]:
                out = Call("z.intersection", (out, p))
            return out
        ir.not_resolved(t)

    def union(self, t: ir.Union_, top: str) -> Node:
        members = [m for m in t.members if not (isinstance(m, ir.Prim) and m.kind is P.NEVER)]
        if not members:
            return Atom("z.never()")
        if len(members) == 1:
            return self.expr(members[0], top)
        if all(isinstance(m, ir.Lit) and m.kind == "string" for m in members):
            values = tuple(Atom(literal(m)) for m in members if isinstance(m, ir.Lit))
            return Call("z.enum", (Arr(values),))
        return Call("z.union", (Arr(tuple(self.expr(m, top) for m in members)),))

    def obj(self, t: ir.Obj, top: str) -> Node:
        props = tuple(self.prop(p, top) for p in t.properties)
        index = t.index
        if not props:
            if index is None:
                return Call("z.looseObject", (Obj(()),))
            return Call("z.record", (Atom("z.string()"), self.expr(index.value, top)))
        node: Node = Call("z.looseObject", (Obj(props),))
        if index is not None and not self.index.accepts_anything(index.value):
            # the other keys' values are checked too
            value = self.expr(index.value, top)
            node = Chain((Call("looseObject", (Obj(props),)), Call("catchall", (value,))))
        proto = next((p for p in t.properties if p.name == PROTO), None)
        checked = (self.value(proto, top), proto.optional) if proto is not None else None
        return self.own(node, [p.name for p in t.properties], checked)

    def own(self, node: Node, keys: Sequence[str], proto: tuple[Node, bool] | None) -> Node:
        """`node`, checking the keys a JavaScript object inherits (`constructor`, `toString`...)
        as the value's own keys only: zod reads `input[key]` and `key in input`, which find
        Object.prototype's members on every object, so an optional `constructor` would reject
        every value; and zod skips a `__proto__` key altogether, so it is checked beside."""
        if proto is not None:
            self.helpers.add(OWN_PROTO)
            return Call(
                "z.preprocess", (Call("_ownProto", (proto[0], Atom(_bool(proto[1])))), node)
            )
        if any(k in INHERITED for k in keys):
            self.helpers.add(OWN)
            return Call("z.preprocess", (Atom("_own"), node))
        return node

    def value(self, p: ir.Property, top: str) -> Node:
        """The schema of a property's value (present), without its optionality."""
        value = constrained(self.expr(p.type, top), p.constraints, self.index.kinds(p.type))
        if p.nullable and not ir.has_null(p.type):
            value = Call("z.nullable", (value,))
        return value

    def prop(self, p: ir.Property, top: str) -> Prop:
        value = self.value(p, top)
        if p.optional:
            value = Call("z.optional", (value,))
        comment = tuple(doc_comment(p.doc.text))
        return Prop(ts_key(p.name), value, comment)

    # -- declarations ---------------------------------------------------------------------------

    def declaration(
        self, name: str, t: ir.TypeExpr, doc: ir.Doc, c: ir.Constraints, lazy: bool
    ) -> Declaration:
        body = constrained(self.expr(t, top=name), c, self.index.kinds(t))
        const = schema_name(name)
        if lazy:
            schema = statement(
                f"export const {const}: z.ZodType<{name}> = ", Call("z.lazy", (Arrow(body),))
            )
            alias = union_alias(name, ts_members(t, self.index, name))
        else:
            schema = statement(f"export const {const} = ", body)
            alias = type_alias(name, const)
        return Declaration(name, tuple(doc_comment(doc.text)), schema, alias)


def type_alias(name: str, const: str) -> str:
    one = f"export type {name} = z.infer<typeof {const}>;"
    if len(one) <= WIDTH:
        return one
    return f"export type {name} = z.infer<\n  typeof {const}\n>;"


def union_alias(name: str, members: tuple[str, ...]) -> str:
    """`export type X = A | B;`: on one line, else on the next, else one member a line (the
    way prettier breaks a union type)."""
    text = " | ".join(members)
    one = f"export type {name} = {text};"
    if len(one) <= WIDTH or len(members) == 1:
        return one
    if len(text) + 3 <= WIDTH:
        return f"export type {name} =\n  {text};"
    return f"export type {name} =" + "".join(f"\n  | {m}" for m in members) + ";"


def literal(t: ir.Lit) -> str:
    if t.kind == "string" and isinstance(t.value, str):
        return ts_string(t.value)
    if t.kind == "boolean":
        return "true" if t.value is True else "false"
    assert isinstance(t.value, (int, float)) and not isinstance(t.value, bool)
    return ts_number(t.value)


def constrained(n: Node, c: ir.Constraints, kinds: frozenset[str]) -> Node:
    """`n` with the checked constraints (bounds, pattern, item counts); `@format` is not checked,
    as in the Python validators and JSON Schema."""
    if (
        c.minimum is None
        and c.maximum is None
        and c.pattern is None
        and c.min_items is None
        and c.max_items is None
    ):
        return n
    text = flat(n)
    if text is None:
        raise ValueError("constraints on an object type")
    checks: list[str] = []
    numeric = kinds <= {"integer", "number"}
    for bound, op, method in ((c.minimum, ">=", "gte"), (c.maximum, "<=", "lte")):
        if bound is None:
            continue
        if numeric:
            checks.append(f".{method}({ts_number(bound)})")
        else:
            checks.append(f'.refine((v) => typeof v !== "number" || v {op} {ts_number(bound)})')
    if c.pattern is not None:
        rx = f"new RegExp({ts_string(c.pattern)})"
        if kinds <= {"string"}:
            checks.append(f".regex({rx})")
        else:
            checks.append(f'.refine((v) => typeof v !== "string" || {rx}.test(v))')
    for count, method in ((c.min_items, "min"), (c.max_items, "max")):
        if count is not None:
            checks.append(f".{method}({count})")
    return Atom(text + "".join(checks))


def declarations(index: TypeIndex) -> tuple[list[Declaration], set[str]]:
    """Every typedef and inline class, each after the ones it uses (source order otherwise), and
    the helpers they use."""
    graph = index.named_graph
    loops = cyclic(graph)
    entries: dict[str, tuple[ir.TypeExpr, ir.Doc, ir.Constraints]] = {}
    for td in index.resolved.types:
        entries[td.name] = (td.type, td.doc, td.constraints)
    for c in index.classes.values():
        entries.setdefault(c.name, (c.obj, c.doc, ir.NO_CONSTRAINTS))

    def follow(name: str, dep: str) -> bool:
        return dep not in loops or name not in loops

    order = dependency_order(graph, entries, follow)
    em = Emitter(index)
    return [em.declaration(n, *entries[n], lazy=n in loops) for n in order], em.helpers
