"""The validators and decoders compared, each built once up front per (version, type name).

Every contender turns into the same shape: `check(instance) -> bool` (True: accepted), so the
timing loop is identical for all of them. Where a library reports rejection by raising, the
wrapper catches exactly that library's validation error; that cost is part of its price.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import corpus  # tests/corpus.py, on sys.path via benchmarks/__init__.py

Check = Callable[[Any], bool]


@dataclass
class Contender:
    key: str  # short stable id, used in JSON results
    label: str  # column / row title
    role: str  # "validate" or "decode"
    build: Callable[[str, str], Check | None]  # (version, type name) -> check, None = not covered
    note: str = ""
    unmapped: set[str] = field(default_factory=set)  # type names it has no model for

    def check_for(self, version: str, type_name: str) -> Check | None:
        fn = self.build(version, type_name)
        if fn is None:
            self.unmapped.add(type_name)
        return fn


# --------------------------------------------------------------------------- JSON Schema validators


def _subschema(version: str, type_name: str) -> dict[str, Any]:
    """The official document with its root pointing at one definition (refs resolve inside it)."""
    doc = corpus.official_schema(version)
    key = corpus.defs_key(version)
    if type_name not in doc[key]:
        raise KeyError(f"{version}: no definition {type_name!r}")
    out = {key: doc[key], "$ref": f"#/{key}/{type_name}"}
    if "$schema" in doc:
        out["$schema"] = doc["$schema"]
    return out


def jsonschema_build(version: str, type_name: str) -> Check:
    # The same object that labels the corpus: Draft202012Validator (Draft7Validator for the
    # draft-07 versions), format checking off, built once and cached by tests/corpus.py.
    check: Check = corpus.official_validator(version, type_name).is_valid
    return check


def fastjsonschema_build(version: str, type_name: str) -> Check:
    import fastjsonschema

    # use_formats=False: the labels are computed with format assertion off (JSON Schema's
    # default), so formats must not be asserted here either. detailed_exceptions stays at its
    # default: 2.22.3 fails to compile `const` with detailed_exceptions=False.
    validate = fastjsonschema.compile(
        _subschema(version, type_name), use_default=False, use_formats=False
    )
    error = fastjsonschema.JsonSchemaException

    def check(instance: Any) -> bool:
        try:
            validate(instance)
        except error:
            return False
        return True

    return check


def jsonschema_rs_build(version: str, type_name: str) -> Check:
    import jsonschema_rs

    validator = jsonschema_rs.validator_for(_subschema(version, type_name), validate_formats=False)
    check: Check = validator.is_valid
    return check


# --------------------------------------------------------------------------- the SDK's pydantic models


def _pydantic_check(obj: Any) -> Check:
    import pydantic

    error = pydantic.ValidationError
    validate: Callable[[Any], Any]
    if isinstance(obj, type) and issubclass(obj, pydantic.BaseModel):
        validate = obj.model_validate
    else:  # a type alias (e.g. a list of a union): validated through a TypeAdapter built once
        validate = pydantic.TypeAdapter(obj).validate_python

    def check(instance: Any) -> bool:
        try:
            validate(instance)
        except error:
            return False
        return True

    return check


@functools.cache
def _sdk_module(name: str) -> Any:
    return importlib.import_module(name)


def sdk_types_build(version: str, type_name: str) -> Check | None:
    """`mcp.types.<TypeName>.model_validate`: the SDK's public models (one set for all versions)."""
    obj = getattr(_sdk_module("mcp.types"), type_name, None)
    return None if obj is None else _pydantic_check(obj)


# The SDK's generated per-version wire models; the examples' versions map to the newest one it
# ships (the draft's official schema.json is byte-identical to 2026-07-28's).
SDK_WIRE_MODULES = {"2026-07-28": "mcp_types._v2026_07_28", "draft": "mcp_types._v2026_07_28"}


def sdk_wire_build(version: str, type_name: str) -> Check | None:
    module_name = SDK_WIRE_MODULES.get(version)
    if module_name is None:
        return None
    obj = getattr(_sdk_module(module_name), type_name, None)
    return None if obj is None else _pydantic_check(obj)


# --------------------------------------------------------------------------- mcp-codegen's bindings


@dataclass
class Generated:
    """One generated package, imported."""

    version: str
    package: str
    validators: Any | None
    codec: Any | None
    problem: str = ""


class GeneratedBindings:
    """Generates each version's package once (the real CLI), imports it, hands out checks."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.loaded: dict[str, Generated] = {}

    def get(self, version: str) -> Generated:
        if version not in self.loaded:
            self.loaded[version] = self._load(version)
        return self.loaded[version]

    def _load(self, version: str) -> Generated:
        import subprocess

        from .common import venv_bin
        from .procs import child_env

        package = "mcpgen_" + "".join(c if c.isalnum() else "_" for c in version.lower())
        out = self.workdir / package
        schema = str(corpus.get_version(version).schema_ts)
        proc = subprocess.run(
            [venv_bin("mcp-codegen"), schema, "-o", str(out)],
            capture_output=True,
            text=True,
            check=False,
            env=child_env(),
        )
        if proc.returncode != 0:
            return Generated(
                version,
                package,
                None,
                None,
                f"mcp-codegen exit {proc.returncode}: {proc.stderr[-400:]}",
            )
        root = _package_root(out)
        if root is None:
            return Generated(
                version,
                package,
                None,
                None,
                "no validators.py in the generated output (bindings not ready)",
            )
        if str(root.parent) not in sys.path:
            sys.path.insert(0, str(root.parent))
        for name in list(sys.modules):
            if name == root.name or name.startswith(root.name + "."):
                del sys.modules[name]
        try:
            validators = importlib.import_module(f"{root.name}.validators")
        except Exception as err:  # noqa: BLE001 - reported in the table, not fatal for the others
            return Generated(version, package, None, None, f"import failed: {err!r}")
        codec = None
        for mod in ("codec", "models", ""):
            try:
                m = importlib.import_module(f"{root.name}.{mod}" if mod else root.name)
            except ImportError:
                continue
            if hasattr(m, "decode"):
                codec = m
                break
        return Generated(version, package, validators, codec)

    def validate_build(self, version: str, type_name: str) -> Check | None:
        gen = self.get(version)
        if gen.validators is None:
            return None
        is_valid = gen.validators.is_valid
        known = _known_types(gen.validators)
        if known is not None and type_name not in known:
            return None
        # Bound by a Python closure, as fastjsonschema's check above is and as a caller's own
        # code calls `is_valid(type_name, value)`: a `functools.partial` is a C callable, so
        # each call through it enters the interpreter anew (~0.1 µs here, 12-15% of a median
        # example; fastjsonschema's ratio to it 7.9-8.4x against 9.4-9.7x through the closure,
        # the two timed in the same processes), a cost only this harness's binding paid.

        def check(instance: Any) -> bool:
            return is_valid(type_name, instance)

        return check

    def checker_build(self, version: str, type_name: str) -> Check | None:
        """`validators.checker(type_name)`: the same answer bound to one type once, as
        fastjsonschema's `compile` and jsonschema-rs's `validator_for` are built per type."""
        gen = self.get(version)
        checker = getattr(gen.validators, "checker", None)
        if checker is None:
            return None
        known = _known_types(gen.validators)
        if known is not None and type_name not in known:
            return None
        check: Check = checker(type_name)
        return check

    def decode_build(self, version: str, type_name: str) -> Check | None:
        gen = self.get(version)
        if gen.codec is None:
            return None
        decode = gen.codec.decode
        known = getattr(gen.codec, "DECODERS", None)
        if isinstance(known, dict) and type_name not in known:
            return None
        errors = _decode_errors(gen.codec)

        def check(instance: Any) -> bool:
            try:
                decode(type_name, instance)
            except errors:
                return False
            return True

        return check


def _package_root(out: Path) -> Path | None:
    if (out / "validators.py").is_file():
        return out
    found = sorted(out.glob("*/validators.py"))
    return found[0].parent if found else None


def _known_types(validators: Any) -> set[str] | None:
    for attr in ("VALIDATORS", "TYPES", "_VALIDATORS", "_BY_NAME"):
        table = getattr(validators, attr, None)
        if isinstance(table, dict):
            return set(table)
    return None


def _decode_errors(codec: Any) -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = []
    for attr in ("DecodeError", "ValidationError", "CodecError"):
        exc = getattr(codec, attr, None)
        if isinstance(exc, type) and issubclass(exc, BaseException):
            errors.append(exc)
    return tuple(errors) or (ValueError, TypeError, KeyError)


# --------------------------------------------------------------------------- the line-up


def lineup(bindings: GeneratedBindings) -> list[Contender]:
    return [
        Contender(
            "mcp_codegen",
            "mcp-codegen `is_valid`",
            "validate",
            bindings.validate_build,
            "generated straight-line validators, `is_valid(type_name, value)`",
        ),
        Contender(
            "mcp_codegen_checker",
            "mcp-codegen `checker(type_name)`",
            "validate",
            bindings.checker_build,
            "the same validators, `validators.checker(type_name)` built once per type (as the "
            "JSON Schema libraries compile per type), then called with the value",
        ),
        Contender(
            "jsonschema",
            "jsonschema",
            "validate",
            jsonschema_build,
            "Draft202012Validator on the official schema.json (also the labeller)",
        ),
        Contender(
            "fastjsonschema",
            "fastjsonschema",
            "validate",
            fastjsonschema_build,
            "compiled, use_default=False, use_formats=False",
        ),
        Contender(
            "jsonschema_rs",
            "jsonschema-rs",
            "validate",
            jsonschema_rs_build,
            "validator_for(..., validate_formats=False)",
        ),
        Contender(
            "sdk_types",
            "SDK `mcp.types` (pydantic)",
            "both",
            sdk_types_build,
            "`model_validate` on the public `mcp.types` class of the same name",
        ),
        Contender(
            "sdk_wire",
            "SDK wire models (pydantic)",
            "both",
            sdk_wire_build,
            "`model_validate` on `mcp_types._v2026_07_28.<TypeName>`",
        ),
        Contender(
            "mcp_codegen_decode",
            "mcp-codegen `decode`",
            "decode",
            bindings.decode_build,
            "generated codec, dict -> dataclasses",
        ),
    ]
