"""The intermediate model: frozen, slotted dataclasses (`records`) with structural equality.

Two layers live here:
- the *declared* model (`Schema` of `Interface`/`Alias`/`Const` in source order), a faithful
  lowering of schema.ts that keeps bases, `Omit` and `typeof` as written;
- the *resolved* model (`Resolved`), where every object type has its complete property list,
  constants are substituted and inline objects carry their path-derived names.

Type expressions form a closed union (`TypeExpr`). Every inline object knows its path
(`("CompleteRequest", "params", "argument")`), which names, diff subjects and messages use.
The model's JSON form (`mcp-codegen ir`, a package's `ir.json`) is `irjson`'s.
"""

from __future__ import annotations

import enum
import operator
from dataclasses import field
from typing import NoReturn

from .errors import Diagnostic, Location
from .records import record

# ---------------------------------------------------------------------------------------------
# Documentation


@record(slots=True)
class Tag:
    """A JSDoc block tag, kept verbatim (`@minimum 0` -> Tag("minimum", "0"))."""

    name: str
    value: str
    loc: Location | None = field(default=None, compare=False)  # where `@name` stands


@record(slots=True)
class Doc:
    """JSDoc prose (with `{@link X}` rendered to plain text) and its tags, in source order."""

    text: str = ""
    tags: tuple[Tag, ...] = ()
    # The prose as written (links and inline tags intact), for the reference page's Markdown;
    # not part of the model's identity nor of its JSON dump.
    markdown: str = field(default="", compare=False, metadata={"dump": False})

    def tag(self, name: str) -> str | None:
        for t in self.tags:
            if t.name == name:
                return t.value
        return None

    def has(self, name: str) -> bool:
        return any(t.name == name for t in self.tags)

    def find(self, name: str) -> Tag | None:
        for t in self.tags:
            if t.name == name:
                return t
        return None


NO_DOC = Doc()

# ---------------------------------------------------------------------------------------------
# Type expressions


class PrimKind(str, enum.Enum):
    STRING = "string"
    NUMBER = "number"  # any JSON number
    INTEGER = "integer"  # only from @TJS-type integer (or --number-as-integer)
    BOOLEAN = "boolean"
    NULL = "null"
    UNKNOWN = "unknown"
    ANY = "any"
    NEVER = "never"
    OBJECT = "object"  # TS `object`: any non-null object


@record(slots=True)
class Prim:
    kind: PrimKind


@record(slots=True)
class Lit:
    """A literal type. `kind` is explicit because `True == 1` in Python."""

    value: str | int | float | bool
    kind: str  # "string" | "number" | "boolean"


@record(slots=True)
class Ref:
    """A reference to a declared type (interface or alias)."""

    name: str
    loc: Location | None = field(default=None, compare=False)


@record(slots=True)
class TypeOf:
    """`typeof CONST`; replaced by the constant's literal in the resolved model."""

    name: str
    loc: Location | None = field(default=None, compare=False)


@record(slots=True)
class Array:
    item: TypeExpr


@record(slots=True)
class Union_:
    members: tuple[TypeExpr, ...]


@record(slots=True)
class Intersection:
    members: tuple[TypeExpr, ...]


@record(slots=True)
class Map:
    """`Record<K, V>`: K is `string` or a union of string literals (then keys are fixed).

    Only the fixed-key form survives resolve: `Record<string, V>` becomes the object
    `{ [key: string]: V }`, the one spelling of a string-keyed map in the resolved model.
    """

    key: TypeExpr
    value: TypeExpr


@record(slots=True)
class Constraints:
    """Validation facts from JSDoc tags (`@format`, `@minimum`, ...)."""

    format: str | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    max_items: int | None = None
    min_items: int | None = None
    pattern: str | None = None

    def is_empty(self) -> bool:
        return self == NO_CONSTRAINTS


NO_CONSTRAINTS = Constraints()


@record(slots=True)
class Keyword:
    """One constraint: its `Constraints` field, the JSON Schema keyword (which is also its
    JSDoc tag and annotation-member name) and the kind of value it takes."""

    field: str
    keyword: str
    kind: str  # "string" | "number" | "count" (a non-negative integer)


# The constraint vocabulary, in the order messages list it; read by every emitter.
KEYWORDS: tuple[Keyword, ...] = (
    Keyword("format", "format", "string"),
    Keyword("pattern", "pattern", "string"),
    Keyword("minimum", "minimum", "number"),
    Keyword("maximum", "maximum", "number"),
    Keyword("min_items", "minItems", "count"),
    Keyword("max_items", "maxItems", "count"),
)


@record(slots=True)
class Annotated:
    """A type that carries its own constraints: `Date` (string, format date-time) or a primitive
    intersected with annotation members (`number & { readonly minimum: 0 }`).

    Declared model only: the resolver folds it into the constraints of the property or type alias
    it stands for, and refuses it anywhere else (the IR keeps constraints only there).
    """

    type: TypeExpr
    constraints: Constraints
    loc: Location | None = field(default=None, compare=False)


@record(slots=True)
class Property:
    name: str  # the wire name, exactly as in schema.ts
    type: TypeExpr
    optional: bool  # may be absent
    readonly: bool = False
    nullable: bool = False  # may be null (`T | null` or @nullable); set by resolve
    constraints: Constraints = NO_CONSTRAINTS
    doc: Doc = NO_DOC
    loc: Location | None = field(default=None, compare=False)
    # `@TJS-type number`: a JSON number even where the official generator renders `number` as
    # `integer` (its --defaultNumberType); set by resolve
    keeps_number: bool = False


@record(slots=True)
class Index:
    """An index signature `[key: string]: T`."""

    value: TypeExpr
    key_name: str = "key"
    loc: Location | None = field(default=None, compare=False)


@record(slots=True)
class Obj:
    """An object type: inline `{ ... }` in the declared model; every object in the resolved one.

    `path` names where it stands (`("CallToolRequest", "params")`); `name` is filled in by the
    resolver (declared name, or the path-derived name of an inline object).
    """

    path: tuple[str, ...]
    properties: tuple[Property, ...]
    index: Index | None = None
    name: str = ""
    loc: Location | None = field(default=None, compare=False)
    # Set by resolve: the declaration whose complete properties this object's start with,
    # unchanged (one `extends` without Omit, no member overridden, more than
    # `resolve.RESTATED_MAX` of them), and how many they are. An output refers to it instead of
    # restating them, which keeps an `extends` chain linear.
    inherits: str = field(default="", compare=False, metadata={"dump": False})
    inherited: int = field(default=0, compare=False, metadata={"dump": False})

    @property
    def own(self) -> tuple[Property, ...]:
        """The properties after the inherited ones (all of them when nothing is inherited)."""
        return self.properties[self.inherited :]

    def starts_with(self, base: Obj) -> bool:
        """Whether this object's inherited properties are `base`'s very objects: what an output
        checks before it refers to `base` (a copy made with other properties, as the
        application model merges them, keeps `inherits` but no longer starts with its base)."""
        n = self.inherited
        if not self.inherits or len(base.properties) != n or len(self.properties) < n:
            return False
        return all(map(operator.is_, self.properties, base.properties))

    def prop(self, name: str) -> Property | None:
        for p in self.properties:
            if p.name == name:
                return p
        return None


TypeExpr = Prim | Lit | Ref | TypeOf | Array | Union_ | Intersection | Map | Obj | Annotated


def is_string_key(t: TypeExpr) -> bool:
    """`string` as a map key: any key at all."""
    return isinstance(t, Prim) and t.kind is PrimKind.STRING


def record_keys(t: Map) -> tuple[str, ...]:
    """The fixed keys of `Record<"a" | "b", V>`, in order, without repeats."""
    members = t.key.members if isinstance(t.key, Union_) else (t.key,)
    keys = [m.value for m in members if isinstance(m, Lit) and isinstance(m.value, str)]
    return tuple(dict.fromkeys(keys))


def not_resolved(t: object) -> NoReturn:
    """For emitters: `typeof` and other declared-only nodes never reach them (resolve removes
    them), so meeting one is a bug in this program, not in the input."""
    raise TypeError(f"not a resolved type expression: {t!r}")


def has_null(t: TypeExpr) -> bool:
    """Whether `null` is one of the values of `t` as written (not through references)."""
    if isinstance(t, Prim):
        return t.kind is PrimKind.NULL
    if isinstance(t, Union_):
        return any(has_null(m) for m in t.members)
    return False


# ---------------------------------------------------------------------------------------------
# Declarations


@record(slots=True)
class Base:
    """One `extends` entry: a name, possibly wrapped in `Omit<Name, "a" | "b">`."""

    name: str
    omit: tuple[str, ...] = ()
    loc: Location | None = field(default=None, compare=False)


@record(slots=True)
class Interface:
    name: str
    bases: tuple[Base, ...]
    body: Obj
    doc: Doc = NO_DOC
    loc: Location | None = field(default=None, compare=False)


@record(slots=True)
class Alias:
    name: str
    type: TypeExpr
    doc: Doc = NO_DOC
    loc: Location | None = field(default=None, compare=False)


@record(slots=True)
class Const:
    name: str
    value: Lit
    doc: Doc = NO_DOC
    loc: Location | None = field(default=None, compare=False)


Decl = Interface | Alias | Const


@record(slots=True)
class Schema:
    """A parsed schema.ts: declarations in source order."""

    source: str
    sha256: str
    declarations: tuple[Decl, ...]
    warnings: tuple[Diagnostic, ...] = field(default=(), compare=False)

    def get(self, name: str) -> Decl | None:
        for d in self.declarations:
            if d.name == name:
                return d
        return None


# ---------------------------------------------------------------------------------------------
# Resolved model


@record(slots=True)
class TypeDef:
    """A named type of the resolved model.

    `type` is an `Obj` (complete properties, own and inherited) for interfaces and for aliases
    whose value is an object or an intersection of objects; otherwise the alias's expression.
    `constraints` are the alias's own validation facts (from an `ir.Annotated` value).
    """

    name: str
    type: TypeExpr
    kind: str  # "interface" | "alias"
    bases: tuple[Base, ...] = ()
    doc: Doc = NO_DOC
    constraints: Constraints = NO_CONSTRAINTS  # its own tags, or an annotated primitive
    loc: Location | None = field(default=None, compare=False)
    keeps_number: bool = False  # as on Property


@record(slots=True)
class Resolved:
    source: str
    sha256: str
    types: tuple[TypeDef, ...]  # source order
    consts: tuple[Const, ...]  # source order
    warnings: tuple[Diagnostic, ...] = field(default=(), compare=False)

    def type(self, name: str) -> TypeDef:
        for t in self.types:
            if t.name == name:
                return t
        raise KeyError(name)

    def type_map(self) -> dict[str, TypeDef]:
        return {t.name: t for t in self.types}

    @property
    def protocol_version(self) -> str | None:
        """The `LATEST_PROTOCOL_VERSION` string the schema declares (MCP's name for its version)."""
        for c in self.consts:
            if c.name == PROTOCOL_VERSION_CONST and isinstance(c.value.value, str):
                return c.value.value
        return None


PROTOCOL_VERSION_CONST = "LATEST_PROTOCOL_VERSION"
