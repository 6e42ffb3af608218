"""The official MCP schema corpus: versions, pins, our reading of each schema.ts, official
validators, examples, mutations.

A support module, not a test module: tests import it (``tests/`` is put on ``sys.path`` by
``tests/conftest.py``, so ``import corpus``), and benchmarks can import it without pytest
(``sys.path.insert(0, "tests")`` or ``from tests import corpus`` from the repo root).

The official files are read in place from ``$MCP_SPEC_DIR`` or ``../shared/spec`` next to the
repo. The released versions (names, order, sha256 of every file) are the pins the package ships
(``codegen/spec/pins.json``); ``schemas/manifest.json`` points at them and adds only the versions
that are in the test corpus alone (a seed draft, a draft snapshot), each placed in the order.

Everything here is deterministic: same files in, same lists out, in the same order.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, Protocol, TypeAlias

# jsonschema ships no type information (types-jsonschema is not a project dependency; the
# ignore tolerates it being installed); what is used of it is typed by `SchemaValidator` below.
from jsonschema import Draft7Validator, Draft202012Validator  # type: ignore[import-untyped,unused-ignore]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7, DRAFT202012

if TYPE_CHECKING:
    from codegen.ir import Resolved

REPO = Path(__file__).resolve().parent.parent
MANIFEST = REPO / "schemas" / "manifest.json"

# A JSON value as json.load returns it. Deliberately Any: a recursive union would force every
# consumer to narrow before each subscript.
JSON: TypeAlias = Any

# Default number of mutations kept per example (see `mutations`).
DEFAULT_CAP = 400

# Keys whose string values are protocol literals (discriminators, enums) in MCP messages.
LITERAL_KEYS = frozenset(
    {"type", "method", "jsonrpc", "role", "action", "status", "level", "format", "mode"}
)

# One replacement value per JSON type, in a fixed order ("integer" and "number" kept apart:
# JSON Schema distinguishes them).
TYPE_SAMPLES: tuple[tuple[str, JSON], ...] = (
    ("null", None),
    ("boolean", True),
    ("integer", 0),
    ("number", 1.5),
    ("string", "x"),
    ("array", []),
    ("object", {}),
)

# Items appended to arrays by "bad_item" mutations.
BAD_ITEMS: tuple[JSON, ...] = (42, "x", None)

WRONG_LITERAL = "not-a-valid-literal"

# Validator class per manifest `json_dialect`, and the key holding the named definitions.
_VALIDATORS: dict[str, Any] = {
    "draft-07": Draft7Validator,
    "2020-12": Draft202012Validator,
}
_DEFS_KEY = {"draft-07": "definitions", "2020-12": "$defs"}
_SPECS = {"draft-07": DRAFT7, "2020-12": DRAFT202012}


class SchemaValidator(Protocol):
    """The part of jsonschema's Validator protocol that callers use."""

    def is_valid(self, instance: Any) -> bool: ...
    def iter_errors(self, instance: Any) -> Iterator[Any]: ...  # jsonschema ValidationErrors
    def validate(self, instance: Any) -> None: ...


# --------------------------------------------------------------------------- locating the corpus


def spec_dir() -> Path | None:
    """The directory holding <version>/schema.ts etc., or None if it does not exist."""
    env = os.environ.get("MCP_SPEC_DIR")
    root = Path(env) if env else REPO.parent / "shared" / "spec"
    return root if root.is_dir() else None


def in_ci() -> bool:
    """Whether this is a CI run (``CI`` set to 1/true/yes): there, whatever a test needs and
    cannot find (the corpus, an e2e peer) is a failure, never a skip."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def missing(message: str) -> NoReturn:
    """End the current test for want of something it needs (a corpus, a peer, a toolchain):
    a failure under CI (it must never pass silently there), a skip elsewhere."""
    import pytest  # lazily: benchmarks use this module without pytest

    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def require_spec_dir() -> Path:
    """`spec_dir()`, or end the current test (`missing`)."""
    root = spec_dir()
    if root is not None:
        return root
    missing(
        "official MCP schemas not found: set $MCP_SPEC_DIR or provide "
        f"{REPO.parent / 'shared' / 'spec'}"
    )


# --------------------------------------------------------------------------- versions and pins


@dataclass(frozen=True)
class Version:
    """One manifest entry, with paths resolved against the spec directory."""

    name: str
    schema_ts: Path
    schema_json: Path | None
    examples_dir: Path | None
    sha256: str  # of schema.ts
    json_dialect: str  # "draft-07" or "2020-12"
    schema_json_sha256: str | None = None
    files: tuple[tuple[str, str], ...] = ()  # every pinned file: path in the version dir, sha256


class PinMismatch(NamedTuple):
    """A file whose sha256 differs from the manifest (`actual` is None when it is missing)."""

    version: str
    path: Path
    expected: str
    actual: str | None


def _read_json(path: Path) -> Any:
    with path.open(encoding="utf-8") as f:
        return json.load(f)


def manifest_entries() -> list[dict[str, Any]]:
    """Every corpus version in order, as `{"name", "json_dialect", "files": {path: sha256}}`
    (needs no spec directory). The released versions, their order, dialects and files come from
    the pins schemas/manifest.json points at (the one list of them); the manifest adds only the
    corpus-only entries, each placed after the version its `after` names, or at the end."""
    manifest = _read_json(MANIFEST)
    return ordered(manifest, _read_json((MANIFEST.parent / manifest["pins"]).resolve()))


def ordered(manifest: dict[str, Any], pins: dict[str, Any]) -> list[dict[str, Any]]:
    """The corpus order of a manifest over its pins (see `manifest_entries`)."""
    out: list[dict[str, Any]] = [
        {"name": str(e["name"]), "json_dialect": e["json_dialect"], "files": e["files"]}
        for e in pins["released"]
    ]
    for entry in manifest["corpus"]:
        name = str(entry["name"])
        names = [e["name"] for e in out]
        if name in names:
            raise ValueError(f"{MANIFEST}: {name!r} is listed twice (released versions are pins')")
        after = entry.get("after")
        if after is not None and after not in names:
            raise ValueError(f"{MANIFEST}: {name!r} follows {after!r}, which comes nowhere before")
        at = len(out) if after is None else names.index(after) + 1
        out.insert(
            at, {"name": name, "json_dialect": entry["json_dialect"], "files": entry["files"]}
        )
    return out


def version_names() -> list[str]:
    """Version names in manifest order (usable at collection time, without the corpus)."""
    return [str(e["name"]) for e in manifest_entries()]


def released_names() -> list[str]:
    """The released versions, in release order: the pins shipped in the package own this list."""
    from codegen.spec.pins import DRAFT, pins

    return [name for name in pins() if name != DRAFT]


def names_with_examples() -> list[str]:
    """Versions whose pinned files include examples/ (from the manifest alone)."""
    return [
        str(e["name"])
        for e in manifest_entries()
        if any(f.startswith("examples/") for f in e["files"])
    ]


def versions(root: Path | None = None) -> list[Version]:
    """All manifest versions, in manifest order, resolved against `root` (default `spec_dir()`)."""
    base = root if root is not None else spec_dir()
    if base is None:
        raise FileNotFoundError("official MCP spec directory not found (see require_spec_dir)")

    def version(e: dict[str, Any]) -> Version:
        d, files = base / str(e["name"]), dict(e["files"])
        has_examples = any(rel.startswith("examples/") for rel in files)
        return Version(
            name=str(e["name"]),
            schema_ts=d / "schema.ts",
            schema_json=d / "schema.json" if "schema.json" in files else None,
            examples_dir=d / "examples" if has_examples else None,
            sha256=str(files["schema.ts"]),
            json_dialect=str(e["json_dialect"]),
            schema_json_sha256=files.get("schema.json"),
            files=tuple(sorted(files.items())),
        )

    return [version(e) for e in manifest_entries()]


def get_version(version: Version | str) -> Version:
    """A Version, looked up by name if given a string."""
    if isinstance(version, Version):
        return version
    for v in versions():
        if v.name == version:
            return v
    raise KeyError(f"unknown MCP schema version {version!r}")


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def verify_pins(vs: list[Version] | None = None) -> list[PinMismatch]:
    """Every pinned file (examples included) whose sha256 differs from the pins, or which is
    missing. Empty when all match."""
    out: list[PinMismatch] = []
    for v in vs if vs is not None else versions():
        for path, expected in [(v.schema_ts.parent / rel, h) for rel, h in v.files]:
            actual = sha256_of(path) if path.is_file() else None
            if actual != expected:
                out.append(PinMismatch(v.name, path, expected, actual))
    return out


# --------------------------------------------------------------------------- our reading


def resolved(version: Version | str) -> Resolved:
    """The version's schema.ts as the pipeline reads it. Cached, and shared by every test module
    (the model is frozen): each official schema is parsed once per run."""
    return _resolved(get_version(version))


@functools.cache
def _resolved(v: Version) -> Resolved:
    from codegen.pipeline import load  # lazily: the corpus itself needs no codegen

    return load(str(v.schema_ts))


# --------------------------------------------------------------------------- official schema


def official_schema(version: Version | str) -> dict[str, Any]:
    """The parsed official schema.json (cached; do not mutate)."""
    return _load_schema(get_version(version))


@functools.cache
def _load_schema(v: Version) -> dict[str, Any]:
    if v.schema_json is None:
        raise FileNotFoundError(f"{v.name}: no schema.json in the manifest")
    with v.schema_json.open(encoding="utf-8") as f:
        schema: dict[str, Any] = json.load(f)
    return schema


def defs_key(version: Version | str) -> str:
    """The key of the named definitions, "definitions" or "$defs", whichever the document
    uses (the dialect's own key if both are present)."""
    v = get_version(version)
    schema = official_schema(v)
    preferred = _DEFS_KEY.get(v.json_dialect, "$defs")
    if preferred in schema:
        return preferred
    return "definitions" if "definitions" in schema else "$defs"


def definitions(version: Version | str) -> dict[str, Any]:
    """The named definitions of the official schema (under either key)."""
    defs: dict[str, Any] = official_schema(version)[defs_key(version)]
    return defs


def _uri(v: Version) -> str:
    return f"urn:mcp-schema:{v.name}"


@functools.cache
def _registry(v: Version) -> Registry[Any]:
    """A registry holding the whole official document under a private URN, so its internal
    "#/definitions/..." refs resolve against it, exactly as when applying schema.json itself."""
    resource: Resource[Any] = Resource.from_contents(
        official_schema(v), default_specification=_SPECS[v.json_dialect]
    )
    registry: Registry[Any] = Registry().with_resource(_uri(v), resource)
    return registry


def official_validator(version: Version | str, type_name: str) -> SchemaValidator:
    """A validator for definition `type_name`: Draft7Validator or Draft202012Validator per the
    manifest dialect, format checking off (as the official schema is applied). Cached."""
    return _validator(get_version(version), type_name)


@functools.cache
def _validator(v: Version, type_name: str) -> SchemaValidator:
    if type_name not in definitions(v):
        raise KeyError(f"{v.name}: no definition {type_name!r}")
    cls = _VALIDATORS[v.json_dialect]
    wrapper = {"$ref": f"{_uri(v)}#/{defs_key(v)}/{type_name}"}
    validator: SchemaValidator = cls(wrapper, registry=_registry(v), format_checker=None)
    return validator


def label(version: Version | str, type_name: str, instance: JSON) -> bool:
    """The official schema's verdict on `instance` as a `type_name`."""
    return bool(official_validator(version, type_name).is_valid(instance))


# --------------------------------------------------------------------------- examples


@dataclass(frozen=True)
class Example:
    type_name: str  # the definition it is an instance of (its directory name)
    path: Path
    instance: JSON

    @property
    def id(self) -> str:
        return f"{self.type_name}/{self.path.name}"


def examples(version: Version | str) -> list[Example]:
    """The official examples/<TypeName>/*.json, sorted by (type name, file name); [] if none."""
    v = get_version(version)
    if v.examples_dir is None:
        return []
    return list(_load_examples(v))


@functools.cache
def _load_examples(v: Version) -> tuple[Example, ...]:
    assert v.examples_dir is not None
    out = []
    for path in sorted(v.examples_dir.glob("*/*.json"), key=lambda p: (p.parent.name, p.name)):
        with path.open(encoding="utf-8") as f:
            out.append(Example(path.parent.name, path, json.load(f)))
    return tuple(out)


# --------------------------------------------------------------------------- mutations


@dataclass(frozen=True)
class Mutation:
    kind: str  # drop_key | wrong_type:<type> | wrong_literal | bad_item | root
    path: str  # JSON path of the changed location, e.g. $.params.ref.type or $.content[2]
    # The whole mutated instance (a fresh copy). Compare as JSON text, not with ==: in Python
    # True == 1 and 0 == False, so e.g. false -> 0 is a real mutant that == calls unchanged.
    instance: JSON
    detail: str = ""  # the value put there (JSON), to tell apart same kind+path mutations


# Internal edit: (kind, JSON path, key path from the root, operation, new value).
# Operations: "set" (replace the value at the key path), "drop" (delete the key),
# "append" (append the value to the array at the key path).
_Edit = tuple[str, str, tuple[str | int, ...], str, JSON]


def json_type(value: JSON) -> str:
    """The JSON type name of a Python JSON value (bool before int: bool is an int subclass)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(f"not a JSON value: {value!r}")


def _key_path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if key.isidentifier():
        return f"{parent}.{key}"
    return f"{parent}[{json.dumps(key)}]"


@functools.cache
def _schema_literals(v: Version) -> frozenset[str]:
    """Every string that is a `const` or an `enum` member anywhere in the official schema."""
    found: set[str] = set()

    def walk(node: JSON) -> None:
        if isinstance(node, dict):
            const = node.get("const")
            if isinstance(const, str):
                found.add(const)
            enum = node.get("enum")
            if isinstance(enum, list):
                found.update(e for e in enum if isinstance(e, str))
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(official_schema(v))
    return frozenset(found)


def _edits(instance: JSON, literals: frozenset[str]) -> Iterator[_Edit]:
    """All candidate edits, depth first in document order (deterministic)."""
    root_type = json_type(instance)
    for t, sample in TYPE_SAMPLES:
        if t != root_type:
            yield ("root", "$", (), "set", sample)
    yield from _walk(instance, "$", (), literals)


def _walk(
    node: JSON, path: str, keys: tuple[str | int, ...], literals: frozenset[str]
) -> Iterator[_Edit]:
    items: list[tuple[str | int, JSON]]
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return
    for key, value in items:
        child_path, child_keys = _key_path(path, key), (*keys, key)
        if isinstance(key, str):
            yield ("drop_key", child_path, child_keys, "drop", None)
        vtype = json_type(value)
        for t, sample in TYPE_SAMPLES:
            if t != vtype:
                yield (f"wrong_type:{t}", child_path, child_keys, "set", sample)
        if isinstance(value, str) and (key in LITERAL_KEYS or value in literals):
            yield ("wrong_literal", child_path, child_keys, "set", WRONG_LITERAL)
        yield from _walk(value, child_path, child_keys, literals)
    if isinstance(node, list):
        appended = _key_path(path, len(node))
        for item in BAD_ITEMS:
            yield ("bad_item", appended, keys, "append", item)


def _apply(instance: JSON, edit: _Edit) -> JSON:
    _, _, keys, op, value = edit
    if not keys and op == "set":
        return copy.deepcopy(value)
    out = copy.deepcopy(instance)
    target = out
    for k in keys[:-1] if op != "append" else keys:
        target = target[k]
    if op == "append":
        target.append(copy.deepcopy(value))
    elif op == "drop":
        del target[keys[-1]]
    else:
        target[keys[-1]] = copy.deepcopy(value)
    return out


def select_evenly(n: int, cap: int | None) -> list[int]:
    """Indices of at most `cap` of `n` items, spread evenly with a stable stride (all if
    `cap` is None or >= n); always includes index 0."""
    if cap is None or n <= cap:
        return list(range(n))
    if cap <= 0:
        return []
    return [i * n // cap for i in range(cap)]


def mutations(
    version: Version | str, type_name: str, instance: JSON, cap: int | None = DEFAULT_CAP
) -> list[Mutation]:
    """Deterministic mutants of `instance` (which is not modified), at most `cap` of them.

    Walking the instance: the root replaced by values of other types ("root"); for every
    object member and array item, replaced by one value of each other JSON type
    ("wrong_type:<type>", so integers become 1.5 and strings numbers); every object key
    dropped ("drop_key"); literal-looking strings (under LITERAL_KEYS, or equal to a const/enum
    string of the official schema) replaced by "not-a-valid-literal" ("wrong_literal");
    42, "x" and null appended to every array ("bad_item"). Mutants are not labelled here: a
    mutant may still be valid (see `label`). `type_name` is accepted for symmetry with `label`.
    """
    del type_name  # the literal set is document-wide; kept in the signature for callers
    v = get_version(version)
    edits = list(_edits(instance, _schema_literals(v)))
    return [_mutation(instance, edits[i]) for i in select_evenly(len(edits), cap)]


def _mutation(instance: JSON, edit: _Edit) -> Mutation:
    kind, path, _, op, value = edit
    return Mutation(kind, path, _apply(instance, edit), "" if op == "drop" else json.dumps(value))


# --------------------------------------------------------------------------- labelled corpus


class LabelledCase(NamedTuple):
    type_name: str
    instance: JSON
    expected_valid: bool  # the official schema's verdict
    description: str  # "<Type>/<file>.json: example" or "...: <kind> at <path> [= <value>]"


def labelled_corpus(version: Version | str, cap: int | None = DEFAULT_CAP) -> list[LabelledCase]:
    """Every official example (labelled by the official schema; they are all expected valid)
    followed by its mutations, each labelled by the official schema."""
    v = get_version(version)
    out: list[LabelledCase] = []
    for ex in examples(v):
        out.append(
            LabelledCase(
                ex.type_name, ex.instance, label(v, ex.type_name, ex.instance), f"{ex.id}: example"
            )
        )
        for m in mutations(v, ex.type_name, ex.instance, cap=cap):
            desc = f"{ex.id}: {m.kind} at {m.path}" + (f" = {m.detail}" if m.detail else "")
            out.append(
                LabelledCase(ex.type_name, m.instance, label(v, ex.type_name, m.instance), desc)
            )
    return out


def counts(cases: list[LabelledCase]) -> Mapping[str, int]:
    """Summary counts of a labelled corpus: examples, mutations, invalid (among mutations)."""
    mutants = [c for c in cases if not c.description.endswith(": example")]
    return {
        "examples": len(cases) - len(mutants),
        "mutations": len(mutants),
        "invalid": sum(1 for c in mutants if not c.expected_valid),
    }
