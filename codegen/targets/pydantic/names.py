"""Every Python name of the pydantic target, in one place: read from the one Python naming
pass (`codegen/pynaming.py`'s `NameTable`, built by `PyIndex`) for classes and attributes,
with the profile's inline-type names (`--names` format) applied on top.

The collision rule is the dataclass target's: schema names win. The module's own names
(`BaseModel`, `Field`, `Any`...) yield to a schema name of the same spelling (`NameTable.spell`:
a type `Annotated` keeps its name and `typing.Annotated` is imported as `_Annotated`). Two
exceptions, names that cannot yield: a class named like one of BaseModel's own attributes
(`model_config`, `model_dump`...) gets `_` appended, and so does a field attribute that takes a
class name of the module. The deprecated aliases of former names (`pynaming.former_aliases`) write the
former-names block's own names (`pynaming.former_own`), which yield the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...naming import NO_OVERRIDES, Overrides
from ...pynaming import PyIndex, py_identifier

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
    own: dict[str, str]  # the module's own names (`MODULE_NAMES`, the base class) -> spelling

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


def python_names(index: PyIndex, base: str, overrides: Overrides = NO_OVERRIDES) -> Names:
    """The names of one module: `overrides` (a profile's inline-type names, keyed by IR path as
    in `--names`) rename inline classes; every name then goes through `PyNames`."""
    table = index.names
    # a class named like a BaseModel attribute would be read as that attribute in a class body
    # (`c: model_config` after `model_config = ConfigDict(...)`): pydantic's cannot yield

    def spelled(py: str) -> str:
        while py in MODEL_ATTRS:
            py += "_"
        return py

    classes: dict[str, str] = {}
    used: set[str] = set()

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
    own = table.spell(dict.fromkeys([*MODULE_NAMES, base.rsplit(":", 1)[-1]]))
    return Names(classes, attrs, frozenset(used), own)


def inline_paths(index: PyIndex) -> dict[str, str]:
    """IR path (`A.b.c`) -> IR name of every inline class: what a names entry may match."""
    declared = {td.name for td in index.resolved.types}
    return {".".join(c.obj.path): c.name for c in index.classes.values() if c.name not in declared}


def is_declared(index: PyIndex, name: str) -> bool:
    return any(td.name == name for td in index.resolved.types)
