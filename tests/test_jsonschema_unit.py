"""JSON Schema output per TS construct (exact expected schemas), and the normaliser's rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_support import run_cli
from jsonschema_compare import compare, dumps, normalise

from codegen.pipeline import load_text
from codegen.targets.jsonschema.emit import default_dialect, emit

VERSION_07 = 'export const LATEST_PROTOCOL_VERSION = "2025-06-18";\n'


def defs(src: str, **kwargs: Any) -> dict[str, Any]:
    doc = emit(load_text(VERSION_07 + src, "t.ts"), **kwargs)
    assert doc["$schema"] == "http://json-schema.org/draft-07/schema#"
    out: dict[str, Any] = doc["definitions"]
    return out


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/definitions/{name}"}


# --------------------------------------------------------------------------- document shape


@pytest.mark.parametrize(
    ("version", "dialect"),
    [
        ('"2024-11-05"', "draft-07"),
        ('"2025-06-18"', "draft-07"),
        ('"DRAFT-2025-v3"', "draft-07"),
        ('"2025-11-25"', "2020-12"),
        ('"2026-07-28"', "2020-12"),
        ('"draft"', "2020-12"),
        (None, "2020-12"),
    ],
)
def test_dialect_follows_the_protocol_version(version: str | None, dialect: str) -> None:
    src = (
        f"export const LATEST_PROTOCOL_VERSION = {version};\n" if version else ""
    ) + "export type A = string;\n"
    resolved = load_text(src, "t.ts")
    assert default_dialect(resolved) == dialect
    doc = emit(resolved)
    key = "definitions" if dialect == "draft-07" else "$defs"
    url = {
        "draft-07": "http://json-schema.org/draft-07/schema#",
        "2020-12": "https://json-schema.org/draft/2020-12/schema",
    }
    assert doc == {"$schema": url[dialect], key: {"A": {"type": "string"}}}


def test_explicit_dialect_overrides_and_refs_follow_it() -> None:
    doc = emit(
        load_text("export type A = B[];\nexport type B = string;\n", "t.ts"), dialect="draft-07"
    )
    assert doc["definitions"]["A"] == {"type": "array", "items": ref("B")}
    with pytest.raises(ValueError, match="unknown JSON Schema dialect"):
        emit(load_text("export type A = string;\n", "t.ts"), dialect="draft-04")


def test_constants_are_not_definitions_and_objects_stay_open() -> None:
    d = defs(
        'export const X = "x";\n/** An A. */\nexport interface A {\n  /** The b. */\n  b: string;\n  c?: boolean }\n'
    )
    assert d == {
        "A": {
            "type": "object",
            "description": "An A.",
            "properties": {
                "b": {"type": "string", "description": "The b."},
                "c": {"type": "boolean"},
            },
            "required": ["b"],
        }
    }


# --------------------------------------------------------------------------- constructs


def test_omit_and_override() -> None:
    d = defs(
        "export interface A { a: string; b?: number; c: string }\n"
        'export interface C extends Omit<A, "a" | "b"> {\n  /** Now a literal. */\n  c: "x"; d: number }\n'
    )
    assert d["C"] == {
        "type": "object",
        "properties": {
            "c": {"const": "x", "type": "string", "description": "Now a literal."},
            "d": {"type": "number"},
        },
        "required": ["c", "d"],
    }


def test_inherited_index_signature_and_unknown_values() -> None:
    d = defs("export interface R { [key: string]: unknown; _meta?: { [key: string]: unknown } }\n"
             "export interface S extends R { s: string[] }\n")  # fmt: skip
    meta = {"type": "object", "additionalProperties": {}}
    assert d["S"] == {
        "type": "object",
        "properties": {"_meta": meta, "s": {"type": "array", "items": {"type": "string"}}},
        "required": ["s"],
        "additionalProperties": {},
    }


def test_intersection_is_one_object() -> None:
    d = defs(
        "export const CODE = -32042;\n"
        "export interface Error { code: number; message: string; data?: unknown }\n"
        "export interface R { error: Error & { code: typeof CODE; data: { x: string } } }\n"
    )
    assert d["R"]["properties"]["error"] == {
        "type": "object",
        "properties": {
            "code": {"const": -32042, "type": "integer"},
            "message": {"type": "string"},
            "data": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
        },
        "required": ["code", "message", "data"],
    }


def test_record_with_literal_keys_and_with_string_keys() -> None:
    d = defs(
        'export type Fixed = Record<"a" | "b", number>;\nexport type Open = Record<string, Fixed>;\n'
    )
    assert d["Fixed"] == {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    }
    assert d["Open"] == {"type": "object", "additionalProperties": ref("Fixed")}


def test_nullable() -> None:
    d = defs(
        "export interface T {\n"
        "  /** @nullable */\n  ttl: number | null;\n"
        "  /** @nullable */\n  tag: string;\n"
        "  /** @nullable */\n  ref?: T;\n"
        "  plain: string | null }\n"
        "export type Maybe = T | null;\n"
    )
    assert d["T"]["properties"] == {
        "ttl": {"type": ["number", "null"]},
        "tag": {"type": ["string", "null"]},
        "ref": {"anyOf": [ref("T"), {"type": "null"}]},
        "plain": {"type": ["string", "null"]},
    }
    assert d["Maybe"] == {"anyOf": [ref("T"), {"type": "null"}]}


def test_typeof_constant() -> None:
    d = defs(
        'export const V = "2.0";\nexport const N = 3;\nexport interface M { jsonrpc: typeof V; n: typeof N }\n'
    )
    assert d["M"]["properties"] == {
        "jsonrpc": {"const": "2.0", "type": "string"},
        "n": {"const": 3, "type": "integer"},
    }


TJS = (
    "export interface P {\n  a: number;\n  /** @TJS-type number */\n  b?: number;\n"
    "  /** @TJS-type integer */\n  c: number;\n  d: (string | number)[] }\n"
    "export type Id = string | number;\n"
)


def test_numbers_are_faithful_by_default() -> None:
    d = defs(TJS)
    assert d["P"]["properties"] == {
        "a": {"type": "number"},
        "b": {"type": "number"},
        "c": {"type": "integer"},
        "d": {"type": "array", "items": {"type": ["string", "number"]}},
    }
    assert d["Id"] == {"type": ["string", "number"]}


def test_number_as_integer_except_where_tjs_type_number() -> None:
    d = defs(TJS, number_as_integer=True)
    assert d["P"]["properties"] == {
        "a": {"type": "integer"},
        "b": {"type": "number"},
        "c": {"type": "integer"},
        "d": {"type": "array", "items": {"type": ["string", "integer"]}},
    }
    assert d["Id"] == {"type": ["string", "integer"]}


def test_formats_and_bounds() -> None:
    d = defs(
        "export type URI = string;\n"
        "export interface F {\n"
        "  /**\n   * A link.\n   * @format uri\n   */\n  uri: string;\n"
        "  /** @minimum 0\n   * @maximum 1 */\n  priority?: number;\n"
        "  /** @maxItems 100 */\n  values: string[];\n"
        "  /** @TJS-pattern ^[a-z]+$ */\n  slug: string;\n"
        "  /** @format uri */\n  alias: URI }\n"
    )
    assert d["F"]["properties"] == {
        "uri": {"type": "string", "format": "uri", "description": "A link."},
        "priority": {"type": "number", "minimum": 0, "maximum": 1},
        "values": {"type": "array", "items": {"type": "string"}, "maxItems": 100},
        "slug": {"type": "string", "pattern": "^[a-z]+$"},
        # draft-07 ignores keywords beside $ref, so they go beside an allOf
        "alias": {"allOf": [ref("URI")], "format": "uri"},
    }


# What typescript-json-schema 0.68.0 writes with the specification's flags (`--required
# --defaultNumberType integer`) for the same input, checked once by hand; differences noted.


def test_merged_interface_is_one_definition() -> None:
    d = defs(
        "/** One. */\nexport interface G { b: string; a?: number }\n"
        "/** Two. */\nexport interface G { c: boolean; b: string }\n",
        number_as_integer=True,
    )
    assert d == {
        "G": {
            "description": "One.\nTwo.",
            "type": "object",
            "properties": {
                "b": {"type": "string"},
                "a": {"type": "integer"},
                "c": {"type": "boolean"},
            },
            "required": ["b", "c"],
        }
    }


def test_date_is_a_date_time_string() -> None:
    d = defs(
        "/** When. */\nexport type Stamp = Date;\n"
        "export interface E { at: Date; /** @format date */\n day: Date; s?: Stamp }\n"
    )
    # The official generator inlines `Stamp` at `s` (a Date alias is a "raw type" there); a
    # reference to the same definition is the same schema.
    assert d == {
        "Stamp": {"type": "string", "format": "date-time", "description": "When."},
        "E": {
            "type": "object",
            "properties": {
                "at": {"type": "string", "format": "date-time"},
                "day": {"type": "string", "format": "date"},
                "s": ref("Stamp"),
            },
            "required": ["at", "day"],
        },
    }


def test_annotated_primitive_is_the_constrained_primitive() -> None:
    # The official generator writes `allOf` of the primitive and an object requiring a
    # `minimum` key, which no value satisfies; the constraint is what the author meant.
    d = defs(
        'export type Uri = string & { readonly format: "uri" };\n'
        "export interface R { level: number & { readonly minimum: 0; readonly maximum: 1 };\n"
        '  code?: string & { readonly pattern: "^[A-Z]+$" }; u: Uri }\n',
        number_as_integer=True,
    )
    assert d == {
        "Uri": {"type": "string", "format": "uri"},
        "R": {
            "type": "object",
            "properties": {
                "level": {"type": "integer", "minimum": 0, "maximum": 1},
                "code": {"type": "string", "pattern": "^[A-Z]+$"},
                "u": ref("Uri"),
            },
            "required": ["level", "u"],
        },
    }


def test_optional_never_property_must_be_absent() -> None:
    d = defs(
        "export interface S { kind: string; radius: number }\n"
        "export interface Q extends S { side: number; radius?: never; gone?: never }\n",
        number_as_integer=True,
    )
    # `radius?: never` overrides the base's member in its position: the key must be absent (a
    # required `never` member is an error: tests/fixtures/errors/required_never.ts)
    assert d["Q"] == {
        "type": "object",
        "properties": {
            "kind": {"type": "string"},
            "radius": {"not": {}},
            "side": {"type": "integer"},
            "gone": {"not": {}},
        },
        "required": ["kind", "side"],
    }


def test_recursive_types() -> None:
    d = defs(
        "export type JSONValue = string | number | boolean | null | JSONObject | JSONArray;\n"
        "export type JSONObject = { [key: string]: JSONValue };\n"
        "export type JSONArray = JSONValue[];\n"
        "export interface Tree { label: string; children?: Tree[] }\n"
    )
    assert d == {
        "JSONValue": {
            "anyOf": [
                {"type": ["string", "number", "boolean", "null"]},
                ref("JSONObject"),
                ref("JSONArray"),
            ]
        },
        "JSONObject": {"type": "object", "additionalProperties": ref("JSONValue")},
        "JSONArray": {"type": "array", "items": ref("JSONValue")},
        "Tree": {
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": ref("Tree")},
            },
            "required": ["label"],
        },
    }


def test_literal_unions_become_enums_and_other_members_anyof() -> None:
    d = defs(
        'export type Role = "user" | "assistant";\n'
        'export type Mixed = 1 | 2.5 | "a" | true | object | Role | { k: string };\n'
        "export type Top = unknown;\nexport type Nothing = never;\n"
    )
    assert d["Role"] == {"enum": ["user", "assistant"], "type": "string"}
    assert d["Mixed"] == {
        "anyOf": [
            {"enum": [1, 2.5], "type": "number"},
            {"const": "a", "type": "string"},
            {"const": True, "type": "boolean"},
            {"type": "object"},
            ref("Role"),
            {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
        ]
    }
    assert d["Top"] == {} and d["Nothing"] == {"not": {}}


def test_output_is_deterministic() -> None:
    src = VERSION_07 + TJS
    assert json.dumps(emit(load_text(src, "t.ts"))) == json.dumps(emit(load_text(src, "t.ts")))


def test_cli_jsonschema_end_to_end(tmp_path: Path) -> None:
    schema = tmp_path / "schema.ts"
    schema.write_text(VERSION_07 + TJS, encoding="utf-8")
    faithful = run_cli("jsonschema", str(schema))
    compat = run_cli("jsonschema", str(schema), "--number-as-integer")
    assert faithful.returncode == compat.returncode == 0, faithful.stderr + compat.stderr
    assert json.loads(faithful.stdout)["definitions"]["P"]["properties"]["a"] == {"type": "number"}
    assert json.loads(compat.stdout)["definitions"]["P"]["properties"]["a"] == {"type": "integer"}
    assert faithful.stdout.index('"$schema"') < faithful.stdout.index(
        '"definitions"'
    )  # sorted keys
    out = tmp_path / "out.json"
    assert (
        run_cli("jsonschema", str(schema), "--dialect", "2020-12", "-o", str(out)).returncode == 0
    )
    assert "$defs" in json.loads(out.read_text(encoding="utf-8"))
    bad = tmp_path / "bad.ts"
    bad.write_text("export interface A { a: Missing }\n", encoding="utf-8")
    failed = run_cli("jsonschema", str(bad))
    assert (
        failed.returncode == 2
        and "undeclared type 'Missing'" in failed.stderr
        and not failed.stdout
    )


# --------------------------------------------------------------------------- the normaliser


def n7(schema: Any, **defs: Any) -> Any:
    return normalise(schema, dialect="draft-07", defs=defs)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # annotations, key order, list order
        ({"type": "string", "description": "x", "title": "t", "default": "a"}, {"type": "string"}),
        (
            {"required": ["b", "a", "a"], "type": "object"},
            {"type": "object", "required": ["a", "b"]},
        ),
        ({"enum": ["b", "a"], "type": "string"}, {"enum": ["a", "b"]}),
        ({"type": ["null", "string"]}, {"anyOf": [{"type": "string"}, {"type": "null"}]}),
        ({"type": ["string"]}, {"type": "string"}),
        # additionalProperties {} / true is absent; properties {} is absent
        ({"type": "object", "additionalProperties": {}}, {"type": "object"}),
        ({"type": "object", "additionalProperties": True, "properties": {}}, {"type": "object"}),
        # const with a consistent type; a one-value enum; 1.0 is 1
        ({"const": "x", "type": "string"}, {"const": "x"}),
        ({"enum": ["x"]}, {"const": "x"}),
        ({"const": 1.0, "type": "integer"}, {"const": 1}),
        # single-member anyOf/allOf; nested anyOf; anyOf of consts is an enum
        ({"anyOf": [{"$ref": "#/definitions/A"}]}, {"$ref": "#/definitions/A"}),
        ({"allOf": [{"type": "string"}]}, {"type": "string"}),
        (
            {"anyOf": [{"anyOf": [{"type": "string"}]}, {"type": "null"}]},
            {"type": ["string", "null"]},
        ),
        ({"anyOf": [{"const": "a"}, {"const": "b"}]}, {"enum": ["a", "b"]}),
        ({"anyOf": [{"const": "a"}, {"type": "string"}]}, {"type": "string"}),
        # integer is part of number; keywords for excluded types say nothing
        ({"type": ["integer", "number"]}, {"type": "number"}),
        ({"type": "string", "minimum": 3}, {"type": "string"}),
        # draft-07 ignores keywords beside $ref
        ({"$ref": "#/definitions/A", "type": "string"}, {"$ref": "#/definitions/A"}),
        # true / false schemas
        (True, {}),
        ({"anyOf": [{"type": "string"}, {}]}, {}),
    ],
)
def test_normaliser_equates_equivalent_spellings(a: Any, b: Any) -> None:
    assert dumps(n7(a)) == dumps(n7(b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"type": "integer"}, {"type": "number"}),
        ({"type": "object"}, {"type": "object", "additionalProperties": False}),
        ({"type": "object", "required": ["a"]}, {"type": "object"}),
        ({"const": 1}, {"const": True}),
        ({"enum": ["a", "b"]}, {"enum": ["a"]}),
        ({"type": "string", "format": "uri"}, {"type": "string"}),
        ({"type": "number", "minimum": 0}, {"type": "number"}),
        ({"const": "x", "type": "integer"}, {"const": "x"}),  # inconsistent: accepts nothing
        ({"items": {"type": "string"}}, {"items": {"type": "integer"}}),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, {"type": "string"}),
    ],
)
def test_normaliser_keeps_real_differences(a: Any, b: Any) -> None:
    assert dumps(n7(a)) != dumps(n7(b))


def test_2020_12_keeps_keywords_beside_ref() -> None:
    plain = normalise({"$ref": "#/$defs/A"}, dialect="2020-12")
    with_type = normalise({"$ref": "#/$defs/A", "type": "string"}, dialect="2020-12")
    assert plain == {"$ref": "A"} and with_type != plain


def test_allof_of_objects_merges_through_references() -> None:
    error = {"type": "object", "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
             "required": ["code", "message"]}  # fmt: skip
    official = {"allOf": [{"$ref": "#/definitions/Error"},
                          {"type": "object", "properties": {"code": {"const": -1, "type": "integer"}},
                           "required": ["code"]}]}  # fmt: skip
    merged = {"type": "object", "properties": {"code": {"const": -1}, "message": {"type": "string"}},
              "required": ["message", "code"]}  # fmt: skip
    assert n7(official, Error=error) == n7(merged)
    closed = {"allOf": [{"$ref": "#/definitions/Error"}, {"additionalProperties": False}]}
    assert "allOf" in n7(
        closed, Error=error
    )  # not merged: additionalProperties depends on its own branch


def doc7(**defs: Any) -> dict[str, Any]:
    return {"$schema": "http://json-schema.org/draft-07/schema#", "definitions": defs}


def test_compare_expands_references_and_recursion() -> None:
    ours = doc7(
        V={"anyOf": [{"type": "string"}, {"$ref": "#/definitions/A"}]},
        A={"type": "array", "items": {"$ref": "#/definitions/V"}},
    )
    theirs = doc7(
        V={"anyOf": [{"type": "array", "items": {"$ref": "#/definitions/V"}}, {"type": "string"}]},
        A={"type": "array", "items": {"$ref": "#/definitions/V"}},
    )
    assert compare(ours, theirs) == {"A": [], "V": []}


def test_compare_reports_the_unmatched_anyof_members() -> None:
    ours = doc7(
        V={"anyOf": [{"type": ["string", "null"]}, {"$ref": "#/definitions/O"}]},
        O={"type": "object"},
    )
    theirs = doc7(
        V={"anyOf": [{"type": "string"}, {"$ref": "#/definitions/O"}]}, O={"type": "object"}
    )
    diffs = compare(ours, theirs)
    assert diffs["O"] == []
    [d] = diffs["V"]
    assert (d.path, d.ours, d.theirs) == (
        "/anyOf",
        [{"type": ["null", "string"]}],
        [{"type": ["string"]}],
    )


def test_compare_reports_paths_inside_properties() -> None:
    ours = doc7(
        T={
            "type": "object",
            "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer"}}}},
        }
    )
    theirs = doc7(
        T={
            "type": "object",
            "properties": {"a": {"type": "object", "properties": {"b": {"type": "number"}}}},
        }
    )
    [d] = compare(ours, theirs)["T"]
    assert d.path == "/properties/a/properties/b"
    assert compare(ours, theirs, fold_integer=True) == {"T": []}


def test_compare_tells_true_from_one() -> None:
    ours = doc7(T={"type": "object", "properties": {"a": {"const": 1}}})
    theirs = doc7(T={"type": "object", "properties": {"a": {"const": True}}})
    [d] = compare(ours, theirs)["T"]
    assert (d.ours, d.theirs) == ({"enum": [1]}, {"enum": [True]})
