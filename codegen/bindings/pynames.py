"""Python identifiers, derived in one place from the language-neutral names (`codegen/naming.py`).

- A type keeps its schema name unless that is not an identifier, a keyword, a builtin or a name
  the generated modules use themselves; then `_` is appended (`None` -> `None_`, `Literal` ->
  `Literal_`). Every view (models, codec, validators, registry) asks `PyNames.type_name`.
- An attribute is the snake_case of its wire name (`inputSchema` -> `input_schema`); a later
  property mapping to a taken attribute (`a-b` after `aB`) gets `_` appended.
- A helper function (a hoisted validator or a union selector) is named from the structure of the
  type it handles (`list_of_Tool`); `HelperNames` makes those names unique and bounded.
"""

from __future__ import annotations

import builtins
import hashlib
import keyword
import re

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# Names the generated modules define or import themselves; a schema type may not take them.
RESERVED_NAMES = frozenset({
    "JSON", "UNSET", "UnsetType", "ErrorDetail", "ValidationError", "Any", "Callable", "ClassVar",
    "Final", "Literal", "TypeAlias", "TypeVar", "Union", "dataclass", "field", "annotations",
    "decode", "encode", "validate", "is_valid", "errors", "MAX_DEPTH", "TYPES", "NoReturn",
    "cast", "overload", "validators", "models", "codec", "registry",
})  # fmt: skip
_BUILTINS = frozenset(dir(builtins)) | set(keyword.softkwlist)
# Attribute names a class keeps for itself.
EXTRA = "extra"
RESERVED_ATTRS = frozenset({EXTRA, "to_dict", "from_dict", "to_json", "from_json"})
# Names a generated attribute must not shadow: keywords, soft keywords, and builtins commonly
# used in annotations of the generated modules.
_RESERVED_SNAKE = set(keyword.kwlist) | set(keyword.softkwlist) | {
    "bool", "bytes", "dict", "float", "int", "list", "object", "str", "tuple", "type", "None",
}  # fmt: skip
_HELPER_MAX = 100


def snake(wire: str) -> str:
    """Python attribute for a wire name: `inputSchema` -> `input_schema`, `_meta` -> `meta`,
    `from` -> `from_`, `$ref` -> `ref`, `a-b` -> `a_b`, `1st` -> `_1st`."""
    words: list[str] = []
    for w in _WORD.findall(wire):
        words.extend(part.lower() for part in _CAMEL.split(w) if part)
    name = "_".join(words) or "field"
    if name[0].isdigit():
        name = "_" + name
    if name in _RESERVED_SNAKE:
        name += "_"
    return name


def attributes(wire_names: tuple[str, ...]) -> tuple[str, ...]:
    """The attributes of a class's properties, in order: the first keeps its snake_case name."""
    taken: set[str] = set()
    out = []
    for wire in wire_names:
        attr = snake(wire)
        while attr in RESERVED_ATTRS or attr in taken:
            attr += "_"
        taken.add(attr)
        out.append(attr)
    return tuple(out)


class PyNames:
    """Schema type name -> Python identifier, for one package (first come, first served)."""

    def __init__(self) -> None:
        self.renamed: dict[str, str] = {}  # schema name -> Python name, where they differ
        self._taken: set[str] = set()

    def add(self, name: str) -> None:
        if name in self.renamed or name in self._taken:
            return
        py = re.sub(r"\W", "_", name)
        if not py.isidentifier():
            py = "T" + py
        while keyword.iskeyword(py) or py in _BUILTINS or py in RESERVED_NAMES or py in self._taken:
            py += "_"
        self._taken.add(py)
        if py != name:
            self.renamed[name] = py

    def type_name(self, name: str) -> str:
        return self.renamed.get(name, name)


class HelperNames:
    """Helper function keys from structural keys: punctuation folded to `_`; a key longer than
    100 characters, or one already taken by another structure, is cut and given a hash suffix."""

    def __init__(self) -> None:
        self.raw: dict[str, str] = {}  # key -> the structural key it stands for

    def key(self, raw: str) -> str:
        key = re.sub(r"[^0-9A-Za-z_]+", "_", raw).strip("_")
        if len(key) > _HELPER_MAX or self.raw.get(key, raw) != raw:
            key = key[:80].rstrip("_") + "_" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:8]
        self.raw.setdefault(key, raw)
        return key
