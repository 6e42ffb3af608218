"""Schemas TypeScript rejects or that no value can satisfy are located errors, never bindings
that mean something else: declarations named like a predefined type (TS2427, TS2457) and
required `never` members."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codegen.errors import SchemaError
from codegen.lower import RESERVED_TYPE_NAMES
from codegen.pipeline import load

# TypeScript's checker.ts, checkTypeNameIsReserved: these and no others
assert sorted(RESERVED_TYPE_NAMES) == sorted(
    [
        "any",
        "unknown",
        "never",
        "number",
        "bigint",
        "boolean",
        "string",
        "symbol",
        "void",
        "object",
        "undefined",
    ]
)


def _errors(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "t.ts"
    path.write_text(text, encoding="utf-8")
    try:
        load(str(path))
    except SchemaError as err:
        return [str(d).removeprefix(f"{path}:") for d in err.diagnostics]
    return []


@pytest.mark.parametrize("name", sorted(RESERVED_TYPE_NAMES))
def test_predefined_type_names_cannot_name_a_declaration(name: str, tmp_path: Path) -> None:
    why = f"name cannot be '{name}': it is one of TypeScript's predefined types"
    text = f"export interface {name} {{ a: string }}\nexport interface X {{ b: string }}\n"
    assert _errors(tmp_path, text) == [f"1:18: Interface {why} (TS2427)"]
    text = f"export interface X {{ b: string }}\n/** doc */\nexport type {name} = X;\n"
    assert _errors(tmp_path, text) == [f"3:13: Type alias {why} (TS2457)"]


@pytest.mark.parametrize("name", ["Object", "String", "strings", "Never", "object_", "_any"])
def test_names_near_the_predefined_ones_are_fine(name: str, tmp_path: Path) -> None:
    text = f"export interface {name} {{ a: string }}\nexport type {name}2 = {name} | null;\n"
    assert _errors(tmp_path, text) == []


def _never(name: str) -> str:
    return (
        f"required property '{name}' has type never: no value has that type, so no value could"
        f" be written; for a key that must be absent write '{name}?: never'"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("export interface A { a: never }\n", ["1:22"]),
        ("export interface A { readonly a: never; b?: never }\n", ["1:22"]),
        ("export type N = never;\nexport type M = N;\nexport interface A { a: M }\n", ["3:22"]),
        ("export type A = { x: { a: never } };\n", ["1:24"]),
        ("export interface B { a: string }\nexport interface A extends B { a: never }\n", ["2:32"]),
        ('export interface A { "a b": never }\n', ["1:22"]),
        ("export type A = { a: never } & { b: string };\n", ["1:19"]),
        ("export interface A { m: { [k: string]: never }; o?: never }\n", []),
    ],
)
def test_a_required_never_member_is_an_error(
    text: str, expected: list[str], tmp_path: Path
) -> None:
    got = _errors(tmp_path, text)
    assert [g.split(": ", 1)[0] for g in got] == expected, got
    assert all(g.split(": ", 1)[1].startswith("required property '") for g in got)
    if expected:
        name = got[0].split("'")[1]
        assert got[0].split(": ", 1)[1] == _never(name)


# ----------------------------------------------------------------- the pydantic target's names

PYD_SCHEMA = """
export const LATEST_PROTOCOL_VERSION = "1";
export interface {name} {{ a: string }}
export interface Foo {{ z: string }}
export interface Uses {{ c: {name}; Foo?: string; foo?: string; e: Foo; model_dump?: number }}
"""


def _pydantic(tmp_path: Path, text: str, package: str, *extra: str) -> tuple[int, str]:
    import contextlib
    import io

    from codegen.cli import main

    schema = tmp_path / "schema.ts"
    schema.write_text(text, encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main([str(schema), "--target", "pydantic", "-o", str(tmp_path / package), *extra])
    return code, err.getvalue()


def _import(tmp_path: Path, package: str) -> object:
    import importlib
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(tmp_path))


@pytest.mark.parametrize("name", ["model_config", "model_fields", "model_dump", "schema", "copy"])
def test_pydantic_classes_named_like_basemodel_attributes_yield_and_validate(
    name: str, tmp_path: Path
) -> None:
    package = f"pyd_{name}"
    code, err = _pydantic(tmp_path, PYD_SCHEMA.format(name=name), package)
    assert code == 0, err
    m: Any = _import(tmp_path, package)
    assert getattr(m, f"{name}_").__name__ == f"{name}_"  # the schema's class yields
    value = {"c": {"a": "x"}, "Foo": "s", "foo": "t", "e": {"z": "1"}, "model_dump": 2}
    u = m.Uses.model_validate(value)
    assert u.model_dump(by_alias=True, exclude_unset=True) == value
    assert isinstance(u.c, getattr(m, f"{name}_")) and isinstance(u.e, m.Foo)


# ---------------------------------------------------------------------------- pydantic profiles

PROFILE_SCHEMA = """
export const LATEST_PROTOCOL_VERSION = "1";
export interface BaseModel { q: string }
export interface Thing { count: number; inner: { a: string }; other: { b: string } }
export interface Prompt { name: string }
export interface Tool { name: string; x: number }
"""


def _section(**settings: object) -> str:
    import json

    return json.dumps({"versions": {"1": settings}}, indent=1)


def _union(alias: str, *members: str) -> str:
    return _section(union_aliases={alias: {"members": list(members), "reason": "r"}})


def _lenient(annotation: str) -> str:
    return _section(leniencies={"Thing.count": {"annotation": annotation, "reason": "r"}})


def _base(base: str) -> str:
    return _section(base={"value": base, "reason": "r"})


def _header(*lines: str) -> str:
    return _section(header={"value": list(lines), "reason": "r"})


MERGE = "one class would replace the other"
REBIND = "which the module defines or imports"


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        # a class merged into another
        (_section(names={"Thing.inner": "Prompt"}), f"names['Thing.inner'] names a class Prompt, as Prompt and ThingInner would be: {MERGE}"),
        (_section(names={"Thing.inner": "Same", "Thing.other": "Same"}), f"names['Thing.other'] names a class Same, as ThingInner and ThingOther would be: {MERGE}"),
        (_section(names={"Thing.inner": "ThingOther"}), MERGE),
        (_section(names={"Thing.inner": "BaseModel"}), "names a class BaseModel, as BaseModel and ThingInner"),
        # a name rebound at the end of the module
        (_union("Tool", "Prompt"), f"union_aliases['Tool'] would rebind Tool, {REBIND}"),
        (_union("BaseModel", "Prompt"), REBIND),
        (_union("Field", "Prompt", "Tool"), REBIND),
        (_union("MISSING", "Prompt"), REBIND),
        (_union("class", "Prompt"), "union_aliases['class']: not a Python identifier"),
        (_union("A B", "Prompt"), "union_aliases['A B']: not a Python identifier"),
        (_section(union_aliases={"U": {"reason": "r"}}), "union_aliases['U'] needs \"members\""),
        (_section(union_aliases={"U": {"members": "Prompt", "reason": "r"}}), "needs \"members\""),
        (_section(links={"Prompt": "x"}), "links['Prompt'] needs \"to\": text"),
        # a base that cannot be imported
        (_base("nonexistent"), "a base class is written module:Class"),
        (_base("no such:X"), "a base class is written module:Class"),
        (_base("pydantic:Nope"), "pydantic has no model class Nope"),
        (_base("pydantic:Field"), "pydantic has no model class Field"),
        (_base("json:Nope"), "json defines no Nope"),
        (_base("json.nope:X"), "no module json.nope"),
        (_base("json.decoder.x:X"), "json.decoder is a module, not a package"),
        (_base("class.x:X"), "a keyword"),
        (_base("m:class"), "a base class is written module:Class"),
        # leniencies: a type expression naming what the module has
        (_lenient("int]"), "annotation 'int]' is not Python"),
        (_lenient("__import__('os').getcwd()"), "is not a type expression (Call)"),
        (_lenient("typing.Any"), "is not a type expression (Attribute)"),
        (_lenient("Nope | int"), "leniencies['Thing.count']: the module has no Nope"),
        (_section(leniencies={"Thing.count": {"reason": "r"}}), "needs \"annotation\": text"),
        # the header: a docstring and comments
        (_header('"""Doc."""', "import os"), "only a docstring and comments"),
        (_header("x = 1"), "only a docstring and comments"),
        (_header('"""{nope}"""'), "not a docstring and comments (KeyError: 'nope')"),
        (_header('"""{version.__class__}"""'), "unknown field {version.__class__}"),
        (_header('"""{0}"""'), "not a docstring and comments (IndexError"),
        (_header('"""unclosed'), "not a docstring and comments (SyntaxError"),
        (_section(header={"value": [1], "reason": "r"}), "'header': a list of lines (text)"),
    ],
)  # fmt: skip
def test_every_profile_entry_is_checked_exit_2_located_nothing_written(
    profile: str, message: str, tmp_path: Path
) -> None:
    (tmp_path / "p.json").write_text(profile, encoding="utf-8")
    code, err = _pydantic(tmp_path, PROFILE_SCHEMA, "out", "--profile", str(tmp_path / "p.json"))
    assert code == 2 and message in err, err
    assert all(line.startswith(f"{tmp_path / 'p.json'}:") for line in err.splitlines()), err
    assert not (tmp_path / "out").exists()


def test_a_profile_within_the_rules_generates_a_module_that_imports(tmp_path: Path) -> None:
    import json

    settings = {
        "header": {"value": ['"""Models of {version}."""', "# sha256 {sha256}"], "reason": "r"},
        "names": {"Thing.inner": "Inner"},
        "union_aliases": {"AnyThing": {"members": ["Thing", "Prompt"], "reason": "r"}},
        "leniencies": {"Thing.count": {"annotation": "int | list[Inner] | None", "reason": "r"}},
        "base": {"value": "pydantic:BaseModel", "reason": "r"},
    }
    (tmp_path / "p.json").write_text(json.dumps({"versions": {"1": settings}}), "utf-8")
    code, err = _pydantic(
        tmp_path, PROFILE_SCHEMA, "pyd_profiled", "--profile", str(tmp_path / "p.json")
    )
    assert code == 0, err
    m: Any = _import(tmp_path, "pyd_profiled")
    assert m.__doc__ == "Models of 1." and m.Inner.__name__ == "Inner"
    thing = m.Thing.model_validate(
        {"count": [{"a": "x"}], "inner": {"a": "y"}, "other": {"b": "z"}}
    )
    assert isinstance(thing.count[0], m.Inner) and m.AnyThing == m.Thing | m.Prompt


_SETTINGS = ["base", "optional", "extra", "class_order", "const_defaults", "header", "names",
             "open_classes", "alias_classes", "union_aliases", "links", "leniencies"]  # fmt: skip
_VALUES: list[object] = [
    None, 1, 1.5, True, "", "Thing", "Prompt", "Thing.inner", "pydantic:BaseModel", "::", "class",
    [], ["Thing"], ["Nope"], {}, {"reason": "r"}, {"value": "x"}, {"value": None, "reason": "r"},
    {"value": ['"""d"""'], "reason": "r"}, {"members": ["Thing"], "reason": "r"},
    {"to": 1, "reason": "r"}, {"annotation": "int", "reason": "r"},
    {"annotation": 5, "reason": "r"}, {"value": "alphabetical", "reason": "r"},
    {"value": True, "reason": "r"}, {"value": "json:JSONDecoder", "reason": "r"},
]  # fmt: skip


def test_random_profiles_are_exit_0_or_2(tmp_path: Path) -> None:
    """Profiles drawn from the settings and mixed-up values (a fixed seed: the same 60 on every
    run): never exit 3, never a module that fails to import."""
    import json
    import random

    rng = random.Random(35)

    def value(depth: int) -> object:
        if depth < 2 and rng.random() < 0.3:
            keys = [*_SETTINGS, "Thing", "Thing.count", "Tool", "Thing.inner", "x"]
            return {rng.choice(keys): value(depth + 1) for _ in range(rng.randint(0, 3))}
        return rng.choice(_VALUES)

    codes = []
    for i in range(60):
        section = {rng.choice(_SETTINGS): value(0) for _ in range(rng.randint(1, 3))}
        doc = {"versions": {"1": section}} if i % 4 else {"all": section, "versions": {"1": {}}}
        (tmp_path / "p.json").write_text(json.dumps(doc), encoding="utf-8")
        package = f"pyd_random_{i}"
        code, err = _pydantic(
            tmp_path, PROFILE_SCHEMA, package, "--profile", str(tmp_path / "p.json")
        )
        assert code in (0, 2), (doc, err)
        if code == 0:
            _import(tmp_path, package)
        codes.append(code)
    assert 0 in codes and 2 in codes
