"""One small fixture per construct: must parse (with golden IR), must fail (exact messages)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_files import check_golden, load_from_repo

from codegen import ir
from codegen.errors import SchemaError
from codegen.jsonout import dumps

REPO = Path(__file__).resolve().parent.parent
PARSE = sorted((REPO / "schemas/fixtures/parse").glob("*.ts"))
GOLDEN = REPO / "tests/golden/ir"


@pytest.mark.parametrize("path", PARSE, ids=[p.stem for p in PARSE])
def test_fixture_parses_to_golden_ir(path: Path, update_golden: bool) -> None:
    resolved = load_from_repo(path)
    assert resolved.types or resolved.consts
    check_golden(GOLDEN / f"{path.stem}.json", dumps(ir.to_json(resolved)), update_golden)


def _types(src: str) -> dict[str, ir.TypeDef]:
    from codegen.pipeline import load_text

    return load_text(src, "t.ts").type_map()


def _props(td: ir.TypeDef) -> dict[str, ir.Property]:
    assert isinstance(td.type, ir.Obj)
    return {p.name: p for p in td.type.properties}


def test_omit_and_override_and_multiple_bases() -> None:
    t = _types(
        "export interface A { a: string; b?: number; c: string }\n"
        "export interface B { d: boolean }\n"
        'export interface C extends Omit<A, "a" | "b">, B { c: "x"; e: null | string }\n'
    )
    props = _props(t["C"])
    assert list(props) == ["c", "d", "e"]
    assert props["c"].type == ir.Lit("x", "string")  # the override wins
    assert props["e"].nullable and not props["e"].optional


def test_intersection_with_inline_object_is_merged_and_named_from_its_path() -> None:
    t = _types(
        "export const CODE = -32042;\n"
        "export interface Error { code: number; message: string }\n"
        "export interface R { error: Error & { code: typeof CODE; data?: { x: string } } }\n"
    )
    err = _props(t["R"])["error"].type
    assert isinstance(err, ir.Obj) and err.name == "RError"
    by = {p.name: p for p in err.properties}
    assert by["code"].type == ir.Lit(-32042, "number") and not by["code"].optional
    data = by["data"].type
    assert isinstance(data, ir.Obj) and data.name == "RErrorData" and by["data"].optional


def test_number_stays_number_and_tjs_type_integer_overrides() -> None:
    t = _types(
        "export interface N {\n  a: number;\n  /** @TJS-type integer */\n  b: number;\n  c: number[] }\n"
    )
    p = _props(t["N"])
    assert p["a"].type == ir.Prim(ir.PrimKind.NUMBER)
    assert p["b"].type == ir.Prim(ir.PrimKind.INTEGER)
    assert p["c"].type == ir.Array(ir.Prim(ir.PrimKind.NUMBER))


def test_inline_names_come_from_paths_not_order() -> None:
    a = _types("export interface Q { p: { arg: { name: string } }; items: { v: string }[] }\n")
    b = _types(
        "export interface Z { z: { w: string } }\nexport interface Q { items: { v: string }[]; p: { arg: { name: string } } }\n"
    )
    for t in (a, b):
        p = _props(t["Q"])
        outer = p["p"].type
        assert isinstance(outer, ir.Obj) and outer.name == "QP"
        inner = outer.properties[0].type
        assert isinstance(inner, ir.Obj) and inner.name == "QPArg"
        item = p["items"].type
        assert (
            isinstance(item, ir.Array)
            and isinstance(item.item, ir.Obj)
            and item.item.name == "QItemsItem"
        )


def test_union_member_names_use_the_discriminator() -> None:
    t = _types(
        'export type C = { type: "text"; text: string } | { type: "image"; data: string } | null;\n'
    )
    u = t["C"].type
    assert isinstance(u, ir.Union_)
    names = [m.name for m in u.members if isinstance(m, ir.Obj)]
    assert names == ["CText", "CImage"]


def test_name_collision_is_an_error_naming_both_paths() -> None:
    with pytest.raises(SchemaError) as err:
        _types("export interface A { bC: { x: string }; b: { c: { y: string } } }\n")
    assert "type name 'ABC' collides: A.bC and A.b.c" in str(err.value)


def test_name_overrides_settle_a_collision() -> None:
    from codegen.pipeline import load_text

    r = load_text(
        "export interface A { bC: { x: string }; b: { c: { y: string } } }\n",
        "t.ts",
        {"A.b.c": "ABInner"},
    )
    props = {p.name: p for p in r.type("A").type.properties}  # type: ignore[union-attr]
    assert props["b"].type.properties[0].type.name == "ABInner"  # type: ignore[union-attr]


def test_jsdoc_links_and_tags() -> None:
    t = _types(
        "/**\n * Uses {@link Foo} and {@link Bar | the bar}.\n *\n * Second paragraph.\n"
        ' * @deprecated use X\n * @category `tools`\n * @example Two lines\n * {"a": 1}\n * @since 1.0\n */\n'
        "export interface Foo { x: string }\nexport type Bar = string;\n"
    )
    doc = t["Foo"].doc
    assert doc.text == "Uses Foo and the bar.\n\nSecond paragraph."
    assert [(x.name, x.value) for x in doc.tags] == [
        ("deprecated", "use X"),
        ("category", "`tools`"),
        ("example", 'Two lines\n{"a": 1}'),
        ("since", "1.0"),
    ]


def test_constraints_from_tags() -> None:
    t = _types(
        "export interface P {\n  /**\n   * @format uri\n   * @minimum 0\n   * @maximum 1\n   * @maxItems 3\n"
        "   * @TJS-pattern ^[a-z]+$\n   */\n  u: string;\n}\n"
    )
    c = _props(t["P"])["u"].constraints
    assert c == ir.Constraints(format="uri", minimum=0, maximum=1, max_items=3, pattern="^[a-z]+$")


def test_ir_is_frozen_and_structurally_equal() -> None:
    a = _types("export interface A { x?: string }\n")["A"]
    b = _types("\n\nexport interface A { x?: string }\n")["A"]
    assert a == b  # locations do not take part in equality
    with pytest.raises(AttributeError):
        a.name = "B"  # type: ignore[misc]
    json.dumps(ir.to_json(a))


# -- must fail -----------------------------------------------------------------------------------

E = "schemas/fixtures/errors/"
EXPECTED_ERRORS: dict[str, list[str]] = {
    "circular_extends": ["2:8: circular type reference: A -> B -> A"],
    "conditional_type": ["8:21: unsupported type construct: conditional type"],
    "duplicate_declaration": [
        f"6:8: duplicate declaration 'Gadget' (first declared at {E}duplicate_declaration.ts:2:8)"
    ],
    "duplicate_property": ["5:3: duplicate property 'name' in 'Gadget'"],
    "empty": ["1:1: empty schema: no declarations"],
    "enum_decl": ["2:8: unsupported construct: enum declaration"],
    "function_type": ["3:13: unsupported type construct: function type"],
    "generic_params": ["2:21: unsupported type construct: generic type parameters"],
    "mapped_type": ["3:3: unsupported type construct: mapped type"],
    "namespace_decl": ["2:8: unsupported construct: namespace declaration"],
    "non_utf8": ["2:18: invalid UTF-8 byte 0xff; schema files must be UTF-8"],
    "omit_unknown_key": ["7:34: Omit of unknown key 'missing' from 'Base'"],
    "several_unsupported": [
        "3:11: unsupported type construct: tuple type",
        "6:13: unsupported type construct: function type",
        "9:28: unsupported type construct: template literal type",
    ],
    "syntax_missing_type": ["4:7: syntax error: unexpected ':'"],
    "syntax_two_errors": [
        "4:8: syntax error: unexpected ':'",
        "17:8: syntax error: unexpected 'type Broken string'",
    ],
    "syntax_unbalanced_brace": ["5:1: syntax error: unexpected '}'"],
    "template_literal_type": ["2:28: unsupported type construct: template literal type"],
    "truncated": [
        "2:1: syntax error: unexpected end of file (unclosed 'export interface Gadget {')"
    ],
    "tuple_type": ["3:11: unsupported type construct: tuple type"],
    "undeclared_reference": ["4:10: undeclared type 'Owner'"],
}


def test_every_error_fixture_has_an_expectation() -> None:
    names = {p.stem for p in (REPO / E).glob("*.ts")}
    assert names - {"not_typescript"} == set(EXPECTED_ERRORS)


@pytest.mark.parametrize("name", sorted(EXPECTED_ERRORS))
def test_error_fixture_gives_exact_messages(name: str) -> None:
    path = REPO / E / f"{name}.ts"
    with pytest.raises(SchemaError) as err:
        load_from_repo(path)
    assert [str(d) for d in err.value.diagnostics] == [
        f"{E}{name}.ts:{m}" for m in EXPECTED_ERRORS[name]
    ]


def test_prose_is_a_syntax_error_located_on_its_first_line() -> None:
    with pytest.raises(SchemaError) as err:
        load_from_repo(REPO / E / "not_typescript.ts")
    first = err.value.diagnostics[0]
    assert (first.loc.line, first.loc.col) == (2, 1) and first.message.startswith(
        "syntax error: unexpected"
    )
    assert all(d.message.startswith("syntax error") for d in err.value.diagnostics)
