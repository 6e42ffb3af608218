"""View models of models.py's dataclasses: a class's fields (hint, `__init__` parameter, decode
and encode expressions, docstring) and the class itself (its base along an `extends` chain, how
it finds undeclared keys, its deprecations)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property

from .... import ir
from ....analysis.typeindex import ClassDef
from ....pyformat import LINE_LENGTH, columns
from ....pynaming import PyIndex
from ....pytext import Code, code_literal, compose, deprecation, doc_text, docstring, literal_text
from ....records import record
from .builds import Builds
from .views import Context


@record
class FieldView:
    attr: str
    code: Code  # the hint, with the names it mentions
    default: str  # " = UNSET" or ""
    doc: str
    build: str  # keyword argument value in _from_valid (reads `v`)
    wire: str  # Python literal of the wire name
    optional: bool
    encode: str  # expression of the JSON value of `self.<attr>`
    deprecated: str = ""  # Python literal of the `@deprecated` tag's message ("" if none)

    @property
    def hint(self) -> str:
        return self.code.text

    @property
    def parameter(self) -> str:
        """The field as an `__init__` parameter. The one layout choice a view makes: black wraps
        a union hint too long for its line in parentheses, ruff keeps such parentheses but does
        not add them (a deviation ruff documents), and black drops them where the line fits, so
        they are written exactly where black would add them (docs/formatting.md)."""
        text = f"{self.attr}: {self.hint}{self.default}"
        if 8 + columns(text) + 1 > LINE_LENGTH and self.code.members:  # a union
            return f"{self.attr}: ({self.hint}){self.default}"
        return text


@record
class ClassView:
    name: str
    name_literal: str
    doc: str
    keys: str  # name of the frozenset of declared wire names
    key_set: str  # its value
    fields: tuple[FieldView, ...]
    extra_code: Code  # the hint of the undeclared keys' bag
    extra_build: str
    extra_encode: str  # "" when the extras are plain JSON (then `out.update`)
    deprecated: str = ""  # Python literal of the class's `@deprecated` message ("" if none)
    # The class it extends in Python (`ir.Obj.inherits`, written before it): then `fields` are
    # only the ones it adds and `key_set` adds them to the base's; "" for `_Model`.
    base: str = ""
    # Whether it sets and encodes its own fields in `_set_own`/`_put_own`, which `_Model`'s
    # `_set_fields`/`_put_fields` call along the class chain: a class extending or extended.
    chained: bool = False
    # The names the hints of `fields` and `extra_code` mention, as the module spells them (the
    # generator's own names and the module's classes and aliases; the builtins a hint spells
    # are never an attribute, `pynaming.HINT_BUILTINS`).
    hint_names: frozenset[str] = frozenset()

    @property
    def extra_hint(self) -> str:
        return self.extra_code.text

    @cached_property  # read once per field by the template
    def writes_init(self) -> bool:
        """Whether `__init__` is written out (else `@dataclass` makes it): not when a field's
        name is also a name in a hint (`list_: list_`), which inside a method's signature would
        mean the attribute, not the type."""
        if self.base:  # `@dataclass` writes it from the fields of every class along the chain
            return False
        return not any(f.attr in self.hint_names for f in self.fields)

    @cached_property  # read once per field by the template
    def self_name(self) -> str:
        """`__init__`'s first parameter: `self`, unless a field has that name (as dataclasses do)."""
        return "__dataclass_self__" if any(f.attr == "self" for f in self.fields) else "self"

    @cached_property  # read once per field by the template
    def head(self) -> tuple[FieldView, ...]:
        """The leading required fields: encoded in the dict display that starts `_to_dict`."""
        n = next((i for i, f in enumerate(self.fields) if f.optional), len(self.fields))
        return self.fields[:n]

    @property
    def tail(self) -> tuple[FieldView, ...]:
        return self.fields[len(self.head) :]

    @cached_property
    def deprecated_fields(self) -> tuple[FieldView, ...]:
        """Fields tagged `@deprecated`: a `DeprecationWarning` when set."""
        return tuple(f for f in self.fields if f.deprecated)

    @cached_property
    def current_fields(self) -> tuple[FieldView, ...]:
        """`__init__`'s first overload: without the optional deprecated fields, so a checker
        reports a call that sets one (it matches only the second, deprecated, overload)."""
        return tuple(f for f in self.fields if not (f.deprecated and f.optional))

    @cached_property
    def fields_message(self) -> str:
        """The deprecated overload's message: which fields, and why."""
        by_message: dict[str, list[str]] = {}
        for f in self.fields:
            if f.deprecated and f.optional:
                by_message.setdefault(literal_text(f.deprecated), []).append(f.attr)
        text = "; ".join(f"{', '.join(attrs)}: {m}" for m, attrs in by_message.items())
        return code_literal(text) if by_message else ""


def _field(c: ClassDef, f: ir.Property, attr: str, ctx: Context, b: Builds) -> FieldView:
    hint = ctx.hints.field_code(f)
    v = b.g["v"]
    unset = b.g["UNSET"] if f.optional else ""
    wire = code_literal(f.name)
    item = f"{v}[{wire}]"
    built = b.build(f.type, item)
    if f.nullable and built != item:
        built = f"(None if {item} is None else {built})"
    if f.optional:
        if built == item:
            build = f"{v}.get({wire}, {unset})"
        else:
            build = f"({built} if {wire} in {v} else {unset})"
    else:
        build = built
    encode = b.encode(f.type, f"self.{attr}", f.nullable)
    const = constant(f, ctx.index)
    default = f" = {unset}" if f.optional else "" if const is None else f" = {code_literal(const)}"
    return FieldView(attr, hint, default, docstring(doc_text(f.doc), "    "), build, wire, f.optional,
                     encode, deprecation(f.doc))  # fmt: skip


def constant(f: ir.Property, index: PyIndex) -> str | int | bool | None:
    """The value of a required field whose type is one literal (`method`, `jsonrpc`, `type`):
    its default, so nobody spells it out. It is still written on the wire and decoded strictly
    (the validators are unchanged). Optional fields keep `UNSET`: absent stays absent."""
    t = index.target(f.type)
    if f.optional or f.nullable or not isinstance(t, ir.Lit) or isinstance(t.value, float):
        return None
    return t.value


_FEW_OPTIONAL = 3  # up to this many optional fields, undeclared keys are found by counting


def python_bases(index: PyIndex) -> dict[str, str]:
    """Class -> the class it extends in models.py: its `ir.Obj.inherits`, when that is a
    dataclass written before it whose attributes its first ones are. An `extends` chain is then
    written once per link, not once per class for every field it inherits."""
    order = {c.name: i for i, c in enumerate(index.dataclasses())}
    out = {}
    for c in index.dataclasses():
        base = c.obj.inherits
        if base not in order or order[base] > order[c.name]:
            continue
        attrs = index.names.attributes(c.name)
        if not c.obj.starts_with(index.classes[base].obj):
            continue
        if attrs[: c.obj.inherited] == index.names.attributes(base):
            out[c.name] = base
    return out


def class_view(c: ClassDef, ctx: Context, b: Builds, extends: Mapping[str, str],
               chained: set[str], required: dict[str, bool]) -> ClassView:  # fmt: skip
    """The view of dataclass `c`. `extends`: `python_bases`; `chained`: the classes extended;
    `required`: whether each class met so far has only required fields (filled in here, read
    for the classes extending it, which come after it)."""
    base = extends.get(c.name, "")
    inherited = c.obj.inherited if base else 0
    fields = tuple(_field(c, fl.prop, fl.attr, ctx, b) for fl in c.fields[inherited:])
    # whether every field is required, the inherited ones known from the base
    required[c.name] = all(not f.optional for f in fields) and required.get(base, True)
    index = c.obj.index
    value = index.value if index is not None else ir.Prim(ir.PrimKind.UNKNOWN)
    extra_value = ctx.hints.code(value)
    extra_code = compose(f"dict[str, {extra_value.text}]", extra_value)
    py = ctx.index.py_name(c.name)
    keys = ctx.index.names.keys[c.name]
    extras, v, i, k = b.g["_extras"], b.g["v"], b.g["i"], b.g["k"]
    # The common case, no undeclared keys, tested cheaply: a valid value has every required
    # key, so when all fields are required its length says it, and with a few optional ones (in a
    # class outside a Python class chain) its length against the fields just read that are
    # not UNSET (an optional field is UNSET exactly when its key is absent); else one pass over
    # its keys (`issuperset`, cheaper from about four optional fields on).
    optional = [f for f in fields if f.optional]
    if required[c.name]:
        extra_build = f"{{}} if len({v}) == {len(c.fields)} else {extras}({v}, {keys})"
    elif not base and c.name not in chained and len(optional) <= _FEW_OPTIONAL:
        unset, self_ = (b.g["UNSET"] if optional else ""), b.g["self"]
        count = " + ".join(
            [str(len(fields) - len(optional))]
            + [f"({self_}.{f.attr} is not {unset})" for f in optional]
        )
        extra_build = f"{{}} if len({v}) == {count} else {extras}({v}, {keys})"
    else:
        extra_build = f"{{}} if {keys}.issuperset({v}) else {extras}({v}, {keys})"
    extra_encode = ""
    if not ctx.index.is_raw(value):
        extra_build = f"{{{k}: {b.build(value, i)} for {k}, {i} in {extras}({v}, {keys}).items()}}"
        extra_encode = b.encode(value, "i")
    key_set = "frozenset({" + ", ".join(f.wire for f in fields) + "})"
    if base:
        base_keys = ctx.index.names.keys[base]
        key_set = f"{base_keys} | {key_set}" if fields else base_keys
    own = ctx.index.names.own
    codes = [f.code for f in fields] + [extra_code]
    hint_names = frozenset(n for code in codes for n in code.defined).union(
        own.peek(key) for code in codes for key in code.own
    )
    return ClassView(py, code_literal(c.name), docstring(doc_text(c.doc), "    "), keys, key_set, fields, extra_code,
                     extra_build, extra_encode, deprecation(c.doc),
                     ctx.index.py_name(base) if base else "",
                     bool(base) or c.name in chained, hint_names)  # fmt: skip
