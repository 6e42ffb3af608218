"""The one Python naming rule: every identifier a Python target writes, decided once per schema.

`NameTable(resolved)` is built once from the resolved IR; the views of every Python target
(dataclasses, application types, pydantic) read it and decide no name themselves.

The rule, in the order it is applied:

1. **Schema names first.** Every declared type, named inline object and constant gets its Python
   name from `py_identifier`: the NFKC form of its name (Python folds identifiers to NFKC when
   it reads source, so `ﬁle` *is* `file`), characters no identifier may hold replaced by `_`,
   `T` prepended to a name that starts with a digit or with `__` (dunders like `__all__` and
   names Python would mangle inside a class), `_` appended to a keyword or builtin (`None_`,
   `str_`: every module and every `from pkg.models import *` would lose the builtin). Nothing
   else is renamed: `Literal`, `Mapping`, `ValidationError`, `_v` or `_KEYS_Root` keep their
   names. Two declarations that end up with the same Python name (`ℌello` and `Hello`,
   `None` and `None_`) are a located error naming both.
2. **The generator's names yield.** Everything the generated modules define or import for
   themselves (`Any`, `Mapping`, `dataclass`, `JSON`, `UNSET`, the private `_v`, `_field`, `_new`,
   `_loads`..., the per-class `_KEYS_<T>` and per-alias `_build_<T>`) is spelled as written
   unless a schema name took that spelling; then it is imported or defined under another one
   (`Any` -> `_Any`, `_v` -> `_v_`, `_KEYS_Root` -> `_KEYS_Root_`; `_` appended until free);
   so do the decoders' locals (`v`, `self`, the comprehension variables `i`, `i1`, `k`...) and
   the names of a package `__init__`'s deprecated aliases of former names (`warnings` ->
   `_warnings`: `former_aliases`). No reserved-word list exists: a name is taken only by what the
   schema really declares.
   Per-type validator functions yield to the validators' API (`is_valid` stays the module's
   function; a type named `valid` gets `is_valid_`).
3. **The package exports the schema's names.** `pkg.ValidationError` is the schema's type when
   the schema declares one; the runtime's exception stays `pkg.validators.ValidationError` (and
   `pkg._runtime.ValidationError`). A schema name equal to a submodule (`models`, `codec`, ...)
   is not re-exported at the top (the package attribute is the submodule): it is
   `pkg.models.<name>`.
4. **Fields** are the snake_case of their wire names (`inputSchema` -> `input_schema`, `_meta` ->
   `meta`); keywords, the builtins a hint may spell and the methods every class has
   (`to_dict`...) get `_` appended; two properties of one class that end up with the same
   attribute (`from` and `from_`, `aB` and `a-b`) are a located error naming both.

Language-neutral names (inline objects named by their path) are decided before, in
`codegen/naming.py`; this module only turns them into Python identifiers.
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import keyword
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from . import ir
from .analysis.classes import Classes, Declared, classes, where
from .analysis.shapes import is_class_obj
from .analysis.typeindex import TypeIndex
from .errors import Diagnostic, SchemaError
from .naming import former_names

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))

# Attribute names every generated class keeps for itself (its API).
EXTRA = "extra"
CLASS_API = frozenset({EXTRA, "to_dict", "from_dict", "to_json", "from_json"})
# Names an attribute must not take: keywords (hard and soft) and the builtins a hint spells
# (inside a class body a field `str` would be what a later `str` annotation means).
HINT_BUILTINS = frozenset({"bool", "bytes", "dict", "float", "int", "list", "object", "str",
                           "tuple", "type", "None"})  # fmt: skip
_NOT_ATTRS = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | HINT_BUILTINS
_HELPER_MAX = 100

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


def former_aliases(
    classes: Iterable[str], declared: Iterable[str], py: Callable[[str], str], names: Iterable[str]
) -> tuple[tuple[tuple[str, str], ...], Spellings]:
    """One module's deprecated aliases of the `classes` the shipped reviewed names renamed
    ((former name, the reviewed class's Python name `py(name)`) pairs, `naming.former_names`;
    one a name of the module's `names` took is left out), and the spellings of what the block
    writes itself (`warnings`...): each as written unless one of those names took it (then
    `_warnings`, `_` appended until free). Both Python targets' modules have them this way."""
    taken = set(names)
    pairs = tuple(
        (old, py(new)) for old, new in former_names(classes, declared).items() if old not in taken
    )
    taken |= {old for old, _ in pairs}
    return pairs, Spellings({n: _yielding(n, taken) for n in former_own()})


# The submodules of a generated package: a package attribute of that name is the submodule.
SUBMODULES = frozenset({"models", "codec", "validators", "registry", "convert", "_runtime",
                        "_protocol", "_tolerance"})  # fmt: skip


def py_identifier(name: str) -> str:
    """The Python identifier of a schema name (rule 1 of the module docstring)."""
    folded = unicodedata.normalize("NFKC", name)
    py = "".join(ch if ("a" + ch).isidentifier() else "_" for ch in folded)
    if keyword.iskeyword(py) or keyword.issoftkeyword(py) or py in _BUILTINS:
        py += "_"
    if not py.isidentifier() or py.startswith("__"):
        py = "T" + py
    return py


@functools.lru_cache(maxsize=4096)  # a wire name comes back in every class that inherits it
def snake(wire: str) -> str:
    """Python attribute for a wire name: `inputSchema` -> `input_schema`, `_meta` -> `meta`,
    `from` -> `from_`, `$ref` -> `ref`, `a-b` -> `a_b`, `1st` -> `_1st`."""
    words: list[str] = []
    for w in _WORD.findall(wire):
        words.extend(part.lower() for part in _CAMEL.split(w) if part)
    name = "_".join(words) or "field"
    if name[0].isdigit():
        name = "_" + name
    if name in _NOT_ATTRS or name in CLASS_API:
        name += "_"
    return name


def attributes(wire_names: tuple[str, ...]) -> tuple[str, ...]:
    """The attributes of a class's properties, in order, for readers that need them without a
    table (the diff): where two would be equal (a schema the table refuses), the later gets `_`
    appended."""
    taken: set[str] = set()
    out = []
    for wire in wire_names:
        attr = snake(wire)
        while attr in taken:
            attr += "_"
        taken.add(attr)
        out.append(attr)
    return tuple(out)


def _yielding(preferred: str, taken: set[str]) -> str:
    """`preferred`, or the first free spelling after it (`Any` -> `_Any`, `_v` -> `_v_`); taken."""
    name = preferred
    if name in taken and not name.startswith("_"):
        name = "_" + name
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _local(preferred: str, taken: set[str], numbered: bool) -> str:
    """A decoder local: `preferred`, `_` appended while a module name is it (or, `numbered`, is
    it followed by digits: `i1`). A local is no module name, so `taken` is left as it is."""
    name = preferred
    while any(t == name or (numbered and t.startswith(name) and t[len(name) :].isdigit())
              for t in taken):  # fmt: skip
        name += "_"
    return name


_SELECTOR = ("_build_", "_BY_", "_SHAPES_")  # models.py's names of one union selector
_CHECK = ("_is_", "_explain_", "_KEYS_")  # validators.py's names of one hoisted check


def _free_suffix(suffix: str, prefixes: tuple[str, ...], taken: set[str]) -> str:
    """`suffix`, `_` appended until every `prefix + suffix` is free; those are then taken."""
    while any(p + suffix in taken for p in prefixes):
        suffix += "_"
    taken.update(p + suffix for p in prefixes)
    return suffix


class HelperNames:
    """Helper function keys from structural keys: punctuation folded to `_`; a key longer than
    100 characters, or one already taken by another structure, is cut and given a hash suffix.
    `free` says whether a key is free of the module's other names (else `_` is appended)."""

    def __init__(self, free: Callable[[str], bool] = lambda key: True) -> None:
        self.raw: dict[str, str] = {}  # key -> the structural key it stands for
        self._keys: dict[str, str] = {}  # structural key -> its key
        self.free = free

    def key(self, raw: str) -> str:
        if raw in self._keys:
            return self._keys[raw]
        key = re.sub(r"[^0-9A-Za-z_]+", "_", raw).strip("_")
        if len(key) > _HELPER_MAX or key in self.raw:
            key = key[:80].rstrip("_") + "_" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:8]
        while key in self.raw or not self.free(key):
            key += "_"
        self.raw[key] = raw
        self._keys[raw] = key
        return key


class Spellings(dict[str, str]):
    """The generator's names as one module spells them (its name -> the spelling used). While
    `recording()`, a lookup (`own["Any"]`) notes the name: a view spells a name exactly where
    its module uses it, so the module's imports are the names its view asked for (never found
    in its text). `peek` looks one up without noting it (a comparison, not a use)."""

    _asked: set[str] | None = None

    def __getitem__(self, key: str) -> str:
        if self._asked is not None:
            self._asked.add(key)
        return dict.__getitem__(self, key)

    def peek(self, key: str) -> str:
        return dict.__getitem__(self, key)

    def use(self, *names: str) -> None:
        """Note `names` as used (what a template writes whatever the schema)."""
        for name in names:
            self[name]

    @contextmanager
    def recording(self) -> Iterator[set[str]]:
        """The names looked up inside the `with` block (filled as they are asked for)."""
        outer, self._asked = self._asked, set()
        try:
            yield self._asked
        finally:
            self._asked = outer


class NameTable:
    """Every Python name of one package. Read-only once built; `check()` raises the collisions
    (a target that writes no Python, like zod, builds the analysis without them)."""

    def __init__(self, resolved: ir.Resolved, found: Classes | None = None) -> None:
        """`found`: the schema's class objects (`codegen/analysis/classes.py`), when the caller
        has them already."""
        self.resolved = resolved
        found = found if found is not None else classes(resolved)
        self.diagnostics: list[Diagnostic] = []  # Python-name collisions (`check()`)
        self.model_diagnostics = found.diagnostics  # two objects of one name: every target's
        # class objects in the order the views meet them (typedefs, then their inline objects)
        self.class_objs: dict[str, tuple[ir.Obj, ir.Doc]] = found.objs
        self._types: dict[str, str] = {}  # schema name -> Python name
        by_py: dict[str, Declared] = {}
        for d in found.declared:
            self._declare(d, by_py)
        self.schema_names = frozenset(by_py)
        """The Python names the schema's declarations take at module level."""
        taken = set(by_py)
        own = Spellings({n: _yielding(n, taken) for n in MODELS_OWN})
        # The locals of the decoders (`_from_valid(v)`, `self`, comprehension variables `i`,
        # `i1`, `k`...): a class of that name would be hidden where the decoder names it.
        own.update({n: _local(n, taken, numbered=n in ("i", "k")) for n in MODELS_LOCALS})
        self.own = own
        """The generator's names in models.py (module level and decoder locals): its spelling ->
        the spelling used."""
        self.keys = {n: _yielding(f"_KEYS_{self.type_name(n)}", taken) for n in self.class_objs}
        self.decoders = {  # class -> a module name for its `_from_valid` (no attribute lookup)
            n: _yielding(f"_from_valid_{self.type_name(n)}", taken) for n in self.class_objs
        }
        self.builders = {  # alias -> its `_build_<s>` (with `_BY_<s>`, `_SHAPES_<s>`)
            td.name: "_build_" + _free_suffix(self.type_name(td.name), _SELECTOR, taken)
            for td in resolved.types
            if not is_class_obj(td.type)
        }
        self.models_taken = frozenset(taken)
        self._attrs = {n: self._attributes(n, obj) for n, (obj, _) in self.class_objs.items()}
        self.stems = self._stems()

    # -- building -------------------------------------------------------------------------------

    def _declare(self, d: Declared, by_py: dict[str, Declared]) -> None:
        if d.name in self._types:
            return  # the same declaration met again (an inline object under two paths)
        py = py_identifier(d.name)
        other = by_py.get(py)
        if other is not None:
            self.diagnostics.append(
                Diagnostic(
                    d.loc,
                    f"{d.what} '{d.name}' and {other.what} '{other.name}' (at {other.loc}) "
                    f"are both the Python name '{py}'; rename one",
                )
            )
        by_py.setdefault(py, d)
        self._types[d.name] = py

    def _attributes(self, cls: str, obj: ir.Obj) -> tuple[str, ...]:
        seen: dict[str, ir.Property] = {}
        out = []
        for p in obj.properties:
            attr = snake(p.name)
            other = seen.get(attr)
            if other is not None:
                self.diagnostics.append(
                    Diagnostic(
                        where(p, self.resolved) if p.loc else where(obj, self.resolved),
                        f"properties '{other.name}' (at {where(other, self.resolved)}) and "
                        f"'{p.name}' of {cls} are both the Python attribute '{attr}'; "
                        "rename one",
                    )
                )
                while attr in seen:
                    attr += "_"
            seen[attr] = p
            out.append(attr)
        return tuple(out)

    def _stems(self) -> dict[str, str]:
        """The stem of each type's `is_<stem>`, `_explain_<stem>` and `_KEYS_<stem>` in
        validators.py: its Python name, unless that makes a name the module has itself."""
        taken = set(validators_own())
        out = {
            n: _free_suffix(py, ("is_", "_explain_", "_KEYS_"), taken)
            for n, py in self._types.items()
        }
        self._validators_taken = frozenset(taken)
        return out

    # -- reading --------------------------------------------------------------------------------

    def check(self) -> None:
        """Raise the Python-name collisions: the run stops before anything is written."""
        if self.diagnostics:
            raise SchemaError(self.diagnostics)

    def type_name(self, name: str) -> str:
        """The Python name of a schema type, inline class or constant (of any other name: the
        name the rule gives it, as for an inline object that is no class in this version)."""
        return self._types.get(name) or py_identifier(name)

    @property
    def renamed(self) -> dict[str, str]:
        """Schema name -> Python name, where they differ."""
        return {k: v for k, v in self._types.items() if k != v}

    def attributes(self, cls: str) -> tuple[str, ...]:
        """The attribute of each property of class `cls`, in property order."""
        return self._attrs[cls]

    def spell(self, own: Iterable[str], locals_: Iterable[str] = ()) -> dict[str, str]:
        """The spellings of another module's own names beside the schema's (a pydantic models
        module: `BaseModel`, `Field`...): each as written unless a schema name took it (then
        `_X`, `_` appended until free, as in models.py); `locals_` like the decoders' locals."""
        taken = set(self.schema_names)
        out = {n: _yielding(n, taken) for n in own}
        return out | {n: _local(n, taken, numbered=False) for n in locals_}

    def stem(self, name: str) -> str:
        return self.stems[name]

    def models_helpers(self) -> HelperNames:
        """Keys of models.py's union selectors (`_build_<key>`, `_BY_<key>`, `_SHAPES_<key>`),
        free of every other name of the module."""
        taken = self.models_taken
        return HelperNames(lambda k: not any(p + k in taken for p in _SELECTOR))

    def validators_helpers(self) -> HelperNames:
        """Keys of validators.py's hoisted checks (`_is_<key>`, `_explain_<key>`, `_KEYS_<key>`)."""
        taken = self._validators_taken
        return HelperNames(lambda k: not any(p + k in taken for p in _CHECK))

    def exports(self, schema: Iterable[str], own: Iterable[str]) -> tuple[list[str], list[str]]:
        """A package `__init__`'s names: (the schema's Python names it re-exports from models,
        the generator's names it exports that no schema name took)."""
        mine = [n for n in schema if n not in SUBMODULES]
        taken = set(mine)
        return mine, [n for n in own if n not in taken]


class PyIndex(TypeIndex):
    """The neutral index with the Python names of one package (`names`): every Python target
    (the dataclass bindings, pydantic) builds this one; a field's attribute is its Python name.
    A Python target calls `names.check()` before it renders."""

    names: NameTable

    def _spell(self, found: Classes) -> None:
        self.names = NameTable(self.resolved, found)

    def _attributes(self, name: str, obj: ir.Obj) -> tuple[str, ...]:
        return self.names.attributes(name)

    def py_name(self, name: str) -> str:
        return self.names.type_name(name)
