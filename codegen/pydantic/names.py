"""Every Python name of the pydantic target, in one place: read from the one Python naming
pass (`codegen/analysis/pynaming.py`'s `NameTable`, built by `TypeIndex`) for classes and attributes,
with the profile's inline-type names (`--names` format) applied on top.

Still the target's own: its module names (`BaseModel`, `Field`...) do not yet yield to schema
names as the dataclass modules' do; a schema type that takes one, or the name of one of
BaseModel's own attributes (`model_config`, `model_dump`...), gets `_` appended; a field
attribute that takes a class name of the module gets `_` appended too.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.pynaming import py_identifier
from ..analysis.typeindex import TypeIndex
from ..naming import NO_OVERRIDES, Overrides

# Names the generated module imports or defines itself; a schema type may not take them.
MODULE_NAMES = (
    "Annotated",
    "Any",
    "Literal",
    "BaseModel",
    "ConfigDict",
    "Field",
    "RootModel",
    "MISSING",
)


@dataclass(frozen=True)
class Names:
    """Class names by IR name (declared name or path-derived inline name) and field attributes
    by (IR class name, wire name)."""

    classes: dict[str, str]
    attrs: dict[tuple[str, str], str]
    used_overrides: frozenset[str]

    def cls(self, ir_name: str) -> str:
        return self.classes.get(ir_name, ir_name)


# BaseModel's own public attributes in pydantic 2: a field may not shadow them. Listed, not read from an installed pydantic: the output must not depend on it.
MODEL_ATTRS = frozenset({
    "construct", "copy", "dict", "from_orm", "json", "parse_file", "parse_obj", "parse_raw",
    "schema", "schema_json", "update_forward_refs", "validate", "model_config", "model_fields",
    "model_computed_fields", "model_extra", "model_fields_set", "model_construct", "model_copy",
    "model_dump", "model_dump_json", "model_json_schema", "model_parametrized_name",
    "model_post_init", "model_rebuild", "model_validate", "model_validate_json",
    "model_validate_strings",
})  # fmt: skip


def python_names(index: TypeIndex, base: str, overrides: Overrides = NO_OVERRIDES) -> Names:
    """The names of one module: `overrides` (a profile's inline-type names, keyed by IR path as
    in `--names`) rename inline classes; every name then goes through `PyNames`."""
    table = index.names
    # a class named like a BaseModel attribute would be read as that attribute in a class body
    # (`c: model_config` after `model_config = ConfigDict(...)`): it yields too
    module = {*MODULE_NAMES, *MODEL_ATTRS, base.rsplit(":", 1)[-1].rsplit(".", 1)[-1]}
    classes: dict[str, str] = {}
    used: set[str] = set()

    def spelled(py: str) -> str:
        while py in module:
            py += "_"
        return py

    for td in index.resolved.types:
        classes[td.name] = spelled(table.type_name(td.name))
    for c in index.classes.values():
        if c.name in classes:
            continue
        key = ".".join(c.obj.path)
        if key in overrides.names:
            used.add(key)
            classes[c.name] = spelled(py_identifier(overrides.names[key]))
        else:
            classes[c.name] = spelled(table.type_name(c.name))
    attrs: dict[tuple[str, str], str] = {}
    # an attribute with a default binds its name in the class body, where a later annotation
    # naming a class of that name would read the default: attributes yield to class names
    class_names = set(classes.values())
    for c in index.classes.values():
        taken: set[str] = set()
        for f, attr in zip(c.fields, table.attributes(c.name)):
            while attr in MODEL_ATTRS or attr in taken or attr in class_names:
                attr += "_"
            taken.add(attr)
            attrs[(c.name, f.prop.name)] = attr
    return Names(classes, attrs, frozenset(used))


def inline_paths(index: TypeIndex) -> dict[str, str]:
    """IR path (`A.b.c`) -> IR name of every inline class: what a names entry may match."""
    declared = {td.name for td in index.resolved.types}
    return {".".join(c.obj.path): c.name for c in index.classes.values() if c.name not in declared}


def is_declared(index: TypeIndex, name: str) -> bool:
    return any(td.name == name for td in index.resolved.types)
