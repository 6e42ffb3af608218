"""The generator's own names in the Python modules it writes, each list kept once: what a
generated class keeps for itself (`to_dict`...), what models.py defines or imports and its
decoders' locals, what validators.py and the former-names block define (read from their
templates, so the lists cannot drift from what the templates write) and a package's submodules.
The name table (`pynaming.NameTable`) makes each of them yield to a schema name of the same
spelling.
"""

from __future__ import annotations

# Attribute names every generated class keeps for itself (its API).
EXTRA = "extra"
CLASS_API = frozenset({EXTRA, "to_dict", "from_dict", "to_json", "from_json"})

# The generator's own module-level names, as the templates would write them; each yields to a
# schema name of the same spelling (`NameTable.own`).
MODELS_OWN = (
    "annotations", "Callable", "Mapping", "Sequence", "dataclass", "_field", "Any", "Final",
    "Literal", "NoReturn", "TypeAlias", "cast", "_v", "JSON", "JSONInput", "UNSET", "UnsetType",
    "_Model", "_by_shape", "_dumps", "_encode", "_extras", "_loads", "_plain", "_same", "_new",
    "_NotJSON", "_not_decodable", "_not_encodable", "_deprecated", "_deprecated_field", "overload",
    "_UNKNOWN_TAG", "_CHECK", "_decoded", "_member",
)  # fmt: skip
# Locals of models.py's decoders that name classes in their bodies (`i` and `k` numbered by depth).
MODELS_LOCALS = ("v", "self", "i", "k")
# What validators.py defines besides the per-type functions (those yield to these): read from
# its template, so the table cannot drift from what the template writes.
VALIDATORS_TEMPLATE = "python/validators.py.j2"


def validators_own() -> frozenset[str]:
    from .templating import module_names

    return frozenset(n for n in module_names(VALIDATORS_TEMPLATE) if not n.startswith("__"))


# The deprecated aliases of renamed classes (`naming.former_names`) in a package `__init__` and
# a pydantic module: what their two templates define or import, read from them (`former_own`).
FORMER_TEMPLATES = ("python/_former_imports.j2", "python/_former.j2")


def former_own() -> tuple[str, ...]:
    """The names the former-names block writes itself (`warnings`, `TYPE_CHECKING`...)."""
    from .templating import module_names

    found = set().union(*(module_names(t) for t in FORMER_TEMPLATES))
    return tuple(sorted(n for n in found if not n.startswith("__")))


# The submodules of a generated package: a package attribute of that name is the submodule.
SUBMODULES = frozenset({"models", "codec", "validators", "registry", "convert", "_runtime",
                        "_protocol", "_tolerance"})  # fmt: skip
