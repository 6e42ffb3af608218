"""One small fixture per construct: must parse (with golden IR), must fail (exact messages)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_files import check_golden, load_from_repo

from codegen import ir, irjson
from codegen.errors import SchemaError
from codegen.jsonout import dumps
from codegen.naming import Overrides

REPO = Path(__file__).resolve().parent.parent
PARSE = sorted((REPO / "tests/fixtures/parse").glob("*.ts"))  # each beside its IR, NAME.json


@pytest.mark.parametrize("path", PARSE, ids=[p.stem for p in PARSE])
def test_fixture_parses_to_golden_ir(path: Path, update_golden: bool) -> None:
    resolved = load_from_repo(path)
    assert resolved.types or resolved.consts
    check_golden(path.with_suffix(".json"), dumps(irjson.to_json(resolved)), update_golden)


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
        Overrides({"A.b.c": "ABInner"}, "names.json"),
    )
    props = {p.name: p for p in r.type("A").type.properties}  # type: ignore[union-attr]
    assert props["b"].type.properties[0].type.name == "ABInner"  # type: ignore[union-attr]


def test_stale_name_override_is_an_error_at_its_line(tmp_path: Path) -> None:
    from codegen.pipeline import load_text, read_overrides

    names = tmp_path / "names.json"
    names.write_text('{\n  "A.b.c": "ABInner",\n  "A.gone": "Gone"\n}\n')
    with pytest.raises(SchemaError) as err:
        load_text(
            "export interface A { bC: { x: string }; b: { c: { y: string } } }\n",
            "t.ts",
            read_overrides(str(names)),
        )
    assert str(err.value) == f"{names}:3:1: name override 'A.gone' matches no inline type"


def _variant_names(union: str) -> list[str]:
    td = _types(f"export type U = {union};\n")["U"]
    assert isinstance(td.type, ir.Union_)
    return sorted(m.name for m in td.type.members if isinstance(m, ir.Obj))


def test_union_variants_are_named_by_what_tells_them_apart_not_by_position() -> None:
    # distinguishing keys: reordering the members keeps each one's name
    assert _variant_names("{ a: string } | { b: number }") == ["UA", "UB"]
    assert _variant_names("{ b: number } | { a: string }") == ["UA", "UB"]
    # the discriminator value, `type` preferred over an earlier literal property
    both = '{ role: "x"; type: "text" } | { role: "y"; type: "image" }'
    assert _variant_names(both) == ["UImage", "UText"]
    # a member whose keys are all shared is named by all its keys
    assert _variant_names("{ a: string } | { a: string; b?: number }") == ["UA", "UB"]
    # the same keys: the kinds of their values tell them apart
    assert _variant_names("{ a: string } | { a: number }") == ["UANumber", "UAString"]
    assert _variant_names("{ a: number } | { a: string }") == ["UANumber", "UAString"]
    # a name taken by another path is an error naming both paths
    with pytest.raises(SchemaError) as err:
        _types("export type U = { a: string } | { b: number };\nexport type UA = { x: 1 };\n")
    assert "type name 'UA' collides: UA and U.a" in str(err.value)


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
    json.dumps(irjson.to_json(a))


# -- constructs from the specification's history ------------------------------------------------

PARSE_DIR = "tests/fixtures/parse/"


def test_merged_interface_members_bases_and_docs() -> None:
    r = load_from_repo(REPO / PARSE_DIR / "merged_interface.ts")
    gadget = r.type("Gadget")
    # Inherited members first (as for any interface here), then the first declaration's own
    # members, then the second's new ones; `size`, declared twice, keeps its first position.
    assert list(_props(gadget)) == ["name", "size", "color", "weight"]
    assert [b.name for b in gadget.bases] == ["Named"]
    assert gadget.doc.text == "A gadget.\nDeclared again: TypeScript merges the two."
    assert _props(gadget)["size"].doc.text == "The size."
    assert not _props(gadget)["weight"].optional and _props(gadget)["color"].optional
    assert [t.name for t in r.types] == ["Named", "Gadget"]  # one definition, first position


def test_merged_interface_extends_lists_are_concatenated() -> None:
    t = _types(
        "export interface A { a: string }\nexport interface B { b: string }\n"
        "export interface C extends A { c: string }\nexport interface C extends B, A { d: string }\n"
    )
    assert [b.name for b in t["C"].bases] == ["A", "B"]
    assert list(_props(t["C"])) == ["a", "b", "c", "d"]


def test_date_is_a_date_time_string() -> None:
    r = load_from_repo(REPO / PARSE_DIR / "date.ts")
    string = ir.Prim(ir.PrimKind.STRING)
    stamp = r.type("Timestamp")
    assert (stamp.type, stamp.constraints) == (string, ir.Constraints(format="date-time"))
    props = _props(r.type("Event"))
    assert (props["at"].type, props["at"].constraints.format) == (string, "date-time")
    assert props["day"].constraints.format == "date"  # the @format tag refines the type
    assert props["when"].type == ir.Ref("Timestamp") and props["when"].constraints.is_empty()


def test_a_declared_date_shadows_the_builtin() -> None:
    t = _types("export interface Date { day: number }\nexport interface E { at: Date }\n")
    assert _props(t["E"])["at"].type == ir.Ref("Date")


def test_annotated_primitive_keeps_the_primitive_and_carries_constraints() -> None:
    r = load_from_repo(REPO / PARSE_DIR / "annotated_primitive.ts")
    link = r.type("Link")
    assert (link.type, link.constraints) == (
        ir.Prim(ir.PrimKind.STRING),
        ir.Constraints(format="uri"),
    )
    props = _props(r.type("Reading"))
    assert props["level"].type == ir.Prim(ir.PrimKind.NUMBER)
    assert props["level"].constraints == ir.Constraints(minimum=0, maximum=1)
    assert props["code"].constraints == ir.Constraints(pattern="^[A-Z]{3}$")
    assert r.warnings == ()


def test_annotation_member_naming_no_constraint_is_a_located_warning() -> None:
    from codegen.pipeline import load_text

    r = load_text(
        'export type Id = string & { readonly __brand: "Id"; readonly pattern: "^i" };\n', "t.ts"
    )
    assert r.type("Id").constraints == ir.Constraints(pattern="^i")
    assert [str(w) for w in r.warnings] == [
        (
            "t.ts:1:29: annotation member '__brand' names no constraint"
            " (format, pattern, minimum, maximum, minItems, maxItems); dropped"
        )
    ]


@pytest.mark.parametrize(
    ("src", "message"),
    [
        (
            "export type N = number & { minimum: number };\n",
            "1:28: constraint annotation 'minimum' must have a number literal type",
        ),
        (
            'export type N = string & { format: "a" } & { format: "b" };\n',
            "1:46: constraint annotation 'format' given twice with different values",
        ),
        (
            "export type N = (number & { minimum: 0 }) | null;\n",
            (
                "1:18: unsupported type construct: constraint annotation (number with minimum 0)"
                " in a union; constraints are kept only on properties and type aliases"
            ),
        ),
        (
            "export interface R { m: Record<string, Date> }\n",
            (
                "1:40: unsupported type construct: constraint annotation"
                ' (string with format "date-time") as a Record value;'
                " constraints are kept only on properties and type aliases"
            ),
        ),
    ],
)
def test_misused_annotations_are_located_errors(src: str, message: str) -> None:
    with pytest.raises(SchemaError) as err:
        _types(src)
    assert [str(d) for d in err.value.diagnostics] == [f"t.ts:{message}"]


def test_optional_never_overrides_a_base_member_and_means_absent() -> None:
    r = load_from_repo(REPO / PARSE_DIR / "never_property.ts")
    props = _props(r.type("Square"))
    assert list(props) == ["kind", "radius", "side", "corners"]  # the base's position
    for name in ("radius", "corners"):
        assert props[name].optional and props[name].type == ir.Prim(ir.PrimKind.NEVER)


# -- must fail -----------------------------------------------------------------------------------

E = "tests/fixtures/errors/"
EXPECTED_ERRORS: dict[str, list[str]] = {
    "annotated_in_array": [
        (
            "3:10: unsupported type construct: constraint annotation"
            ' (string with format "date-time") inside an array;'
            " constraints are kept only on properties and type aliases"
        ),
        (
            "4:17: unsupported type construct: constraint annotation (number with minimum 0)"
            " inside an array; constraints are kept only on properties and type aliases"
        ),
    ],
    "circular_extends": ["2:8: circular type reference: A -> B -> A"],
    "conditional_type": ["8:21: unsupported type construct: conditional type"],
    "duplicate_declaration": [
        f"6:8: duplicate declaration 'Gadget' (first declared at {E}duplicate_declaration.ts:2:8)"
    ],
    "duplicate_property": ["5:3: duplicate property 'name' in 'Gadget'"],
    "duplicate_type_alias": [
        f"4:8: duplicate declaration 'Cursor' (first declared at {E}duplicate_type_alias.ts:2:8)"
    ],
    "empty": ["1:1: empty schema: no declarations"],
    "enum_decl": ["2:8: unsupported construct: enum declaration"],
    "function_type": ["3:13: unsupported type construct: function type"],
    "generic_params": ["2:21: unsupported type construct: generic type parameters"],
    "mapped_type": ["3:3: unsupported type construct: mapped type"],
    "merged_property_conflict": [
        (
            "7:3: subsequent property declarations must have the same type: 'size' in 'Gadget'"
            f" differs from its declaration at {E}merged_property_conflict.ts:3:3"
        )
    ],
    "namespace_decl": ["2:8: unsupported construct: namespace declaration"],
    "required_never": [
        (
            f"{m}: required property '{name}' has type never: no value has that type, so no"
            f" value could be written; for a key that must be absent write '{name}?: never'"
        )
        for m, name in (("8:3", "radius"), ("9:12", "gone"))
    ],
    "reserved_type_name": [
        f"{m}: {what} name cannot be '{name}': it is one of TypeScript's predefined types ({code})"
        for m, what, name, code in (
            ("2:18", "Interface", "object", "TS2427"),
            ("5:13", "Type alias", "string", "TS2457"),
            ("6:18", "Interface", "never", "TS2427"),
        )
    ],
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
