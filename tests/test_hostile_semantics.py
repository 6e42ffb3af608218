"""Schemas TypeScript rejects or that no value can satisfy are located errors, never bindings
that mean something else: declarations named like a predefined type (TS2427, TS2457) and
required `never` members."""

from __future__ import annotations

from pathlib import Path

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
