"""Hostile schema text that used to give broken or silently wrong code with exit 0 (or a
traceback): numbers without a finite double, lone surrogates, alias cycles, numeric property
names, conflicting intersections, a malformed `@format` of a real draft, long alias chains.
Each is a located error (exit 2, nothing written) or correct output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bindings_support import generate
from cli_support import run_cli
from cpu_cost import cpu_seconds

from codegen import ir
from codegen.errors import SchemaError
from codegen.numbers import js_string, property_key
from codegen.pipeline import declared, load_text
from codegen.targets.jsonschema.emit import emit as to_json_schema

REPO = Path(__file__).resolve().parent.parent
FORMAT_TYPO = REPO / "tests/fixtures/hostile/format_colon.ts"
INFINITE = "does not fit a double (it is Infinity in JavaScript, and JSON has no Infinity)"


def _errors(text: str) -> list[str]:
    with pytest.raises(SchemaError) as err:
        load_text(text, "t.ts")
    return [str(d) for d in err.value.diagnostics]


# -- numbers -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("export interface A { x: 1e999 }", f"t.ts:1:25: number literal '1e999' {INFINITE}"),
        ("export interface A { x: -1e999 }", f"t.ts:1:26: number literal '1e999' {INFINITE}"),
        (
            "export interface A { x: " + "9" * 4400 + " }",
            f"t.ts:1:25: number literal '{'9' * 20}...{'9' * 10} (4400 characters)' {INFINITE}",
        ),
        (
            "export interface A { x: 0x" + "f" * 300 + " }",
            f"t.ts:1:25: number literal '0x{'f' * 18}...{'f' * 10} (302 characters)' {INFINITE}",
        ),
        ("export const BIG = 1e400;", f"t.ts:1:20: number literal '1e400' {INFINITE}"),
        (
            "export type N = number & { readonly minimum: 1e999 };",
            f"t.ts:1:46: number literal '1e999' {INFINITE}",
        ),
        (
            "export interface A { x: 10n }",
            "t.ts:1:25: number literal '10n' is a bigint, which no JSON number can hold",
        ),
        (
            "export interface A { x: 017 }",
            ("t.ts:1:25: number literal '017' is a legacy octal literal, which TypeScript rejects"
            " (write 0o...)"),
        ),
        ("export interface A {\n  /** @minimum 1e999 */\n  x: number }", f"t.ts:2:7: @minimum 1e999 {INFINITE}"),
        (
            "export interface A {\n  /** @maximum " + "9" * 5000 + " */\n  x: number }",
            f"t.ts:2:7: @maximum {'9' * 20}...{'9' * 10} (5000 characters) {INFINITE}",
        ),
        (
            "export interface A {\n  /** @maxItems " + "9" * 5000 + " */\n  x: string[] }",
            f"t.ts:2:7: @maxItems {'9' * 20}...{'9' * 10} (5000 characters) {INFINITE}",
        ),
        ("export const N = NaN;", "t.ts:1:18: unsupported construct: const 'N' must be a string, number or boolean literal"),
        ("export interface A { x: NaN }", "t.ts:1:25: undeclared type 'NaN'"),
        ("export interface A {\n  /** @minimum NaN */\n  x: number }", "t.ts:2:7: @minimum needs a number, got 'NaN'"),
    ],
    ids=["1e999", "-1e999", "4400-digits", "huge-hex", "const-1e400", "annotation", "bigint",
         "legacy-octal", "@minimum-1e999", "@maximum-5000-digits", "@maxItems-5000-digits",
         "const-NaN", "type-NaN", "@minimum-NaN"],
)  # fmt: skip
def test_number_without_a_finite_double_is_a_located_error(text: str, expected: str) -> None:
    assert _errors(text) == [expected]


def test_finite_numbers_are_kept_exactly() -> None:
    r = load_text(
        "export interface A { a: 0x10; b: 1_000; c: .5; d: 1e3; e: 12345678901234567890123;"
        " f: 1.7976931348623157e308 }",
        "t.ts",
    )
    obj = r.type("A").type
    assert isinstance(obj, ir.Obj)
    assert [p.type for p in obj.properties] == [
        ir.Lit(16, "number"),
        ir.Lit(1000, "number"),
        ir.Lit(0.5, "number"),
        ir.Lit(1000.0, "number"),
        ir.Lit(12345678901234567890123, "number"),
        ir.Lit(1.7976931348623157e308, "number"),
    ]


def test_cli_infinite_number_exit_2_nothing_written(tmp_path: Path) -> None:
    (tmp_path / "inf.ts").write_text(
        "export interface A {\n  /** @minimum 1e999 */\n  x: 1e999;\n}\n"
    )
    for args in (["inf.ts", "-o", "out"], ["inf.ts", "--target", "zod", "-o", "out"], ["jsonschema", "inf.ts"]):  # fmt: skip
        proc = run_cli(*args, cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        # the literal is found while reading the text, before the tags are read
        assert proc.stderr.splitlines() == [f"inf.ts:3:6: number literal '1e999' {INFINITE}"]
        assert "Infinity" not in proc.stdout and not (tmp_path / "out").exists()


# -- strings -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        (r'"\uD800"', "t.ts:1:25: string literal has a lone surrogate \\uD800, which is not a Unicode character"),
        (r'"a\uDFFFb"', "t.ts:1:25: string literal has a lone surrogate \\uDFFF, which is not a Unicode character"),
        (r'"\u{D83D}"', "t.ts:1:25: string literal has a lone surrogate \\uD83D, which is not a Unicode character"),
        (r'"\u{110000}"', "t.ts:1:26: escape '\\u{110000}' is beyond U+10FFFF, the last character"),
    ],
    ids=["lone-high", "lone-low", "braced", "beyond-unicode"],
)  # fmt: skip
def test_string_literal_without_unicode_text_is_a_located_error(
    literal: str, expected: str
) -> None:
    assert _errors(f"export interface A {{ x: {literal} }}") == [expected]


def test_lone_surrogate_in_a_key_is_a_located_error_exit_2(tmp_path: Path) -> None:
    (tmp_path / "s.ts").write_text('export interface A {\n  "\\uD800": string;\n}\n')
    proc = run_cli("s.ts", "-o", "out", cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (
        2,
        "s.ts:2:3: string literal has a lone surrogate \\uD800, which is not a Unicode character\n",
    )
    assert not (tmp_path / "out").exists()


def test_surrogate_pair_escapes_are_one_character_in_every_target(tmp_path: Path) -> None:
    r = load_text('export interface A { x: "\\uD83D\\uDE00"; y?: "\\u{1F600}" }', "t.ts")
    obj = r.type("A").type
    assert isinstance(obj, ir.Obj) and {p.type for p in obj.properties} == {ir.Lit("😀", "string")}
    py = generate(r, tmp_path, "surrogates")
    assert py.is_valid("A", {"x": "😀", "y": "😀"}) and not py.is_valid("A", {"x": "\ud83d"})
    schema = json.dumps(to_json_schema(r), ensure_ascii=False).encode("utf-8")  # no lone half
    assert "😀".encode() in schema


# -- alias cycles --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cyclic"),
    [
        ("export type A = B;\nexport type B = A;\n", ["1:8: Type alias 'A'", "2:8: Type alias 'B'"]),
        ("export type A = A;\n", ["1:8: Type alias 'A'"]),
        ("export type A = B | string;\nexport type B = C;\nexport type C = A | null;\n",
         ["1:8: Type alias 'A'", "2:8: Type alias 'B'", "3:8: Type alias 'C'"]),
        ("export type A = string;\nexport type B = A | C;\nexport type C = B;\n",
         ["2:8: Type alias 'B'", "3:8: Type alias 'C'"]),
    ],
    ids=["pair", "self", "through-unions", "beside-a-good-one"],
)  # fmt: skip
def test_alias_cycle_is_a_located_error_as_in_typescript(text: str, cyclic: list[str]) -> None:
    assert _errors(text) == [f"t.ts:{c} circularly references itself" for c in cyclic]


@pytest.mark.parametrize(
    "text",
    [
        "export type J = string | number | { [key: string]: J } | J[];\n",
        "export type A = { next?: A } | null;\n",
        "export interface N { next?: L }\nexport type L = N | null;\n",
        "export type T = Record<string, T> | string;\n",
    ],
    ids=["json", "inline-object", "through-interface", "record"],
)
def test_recursion_through_objects_and_arrays_stays_allowed(text: str) -> None:
    assert load_text(text, "t.ts").types


def test_cli_alias_cycle_exit_2(tmp_path: Path) -> None:
    (tmp_path / "c.ts").write_text("export type A = B;\nexport type B = A;\n")
    proc = run_cli("c.ts", "-o", "out", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        "c.ts:1:8: Type alias 'A' circularly references itself",
        "c.ts:2:8: Type alias 'B' circularly references itself",
    ]
    assert not (tmp_path / "out").exists()


# -- numeric property names ----------------------------------------------------------------------


def test_numeric_property_names_take_the_key_typescript_gives_them(tmp_path: Path) -> None:
    text = "export interface A { 0x10: string; 1e3: string; 0b11: string; 1_001: number; .5: string; 0o17?: string; 1e21?: string }"  # fmt: skip
    r = load_text(text, "t.ts")
    obj = r.type("A").type
    assert isinstance(obj, ir.Obj)
    keys = ["16", "1000", "3", "1001", "0.5", "15", "1e+21"]
    assert [p.name for p in obj.properties] == keys
    assert sorted(to_json_schema(r)["$defs"]["A"]["properties"]) == sorted(keys)
    py = generate(r, tmp_path, "numeric_keys")
    value = {"16": "a", "1000": "b", "3": "c", "1001": 1, "0.5": "d"}
    assert py.is_valid("A", value) and not py.is_valid("A", {**value, "16": 1})
    assert not py.is_valid("A", {"0x10": "a", "1e3": "b", "0b11": "c", "1_001": 1, ".5": "d"})


def test_numeric_property_names_equal_after_conversion_are_duplicates() -> None:
    assert _errors("export interface A { 1e3: string; 1000: string }") == [
        "t.ts:1:35: duplicate property '1000' in 'A'"
    ]


@pytest.mark.parametrize(
    ("x", "text"),
    [(16.0, "16"), (0.5, "0.5"), (1e21, "1e+21"), (1e-7, "1e-7"), (1.5e-6, "0.0000015"),
     (123456789012345678901234.0, "1.2345678901234569e+23"), (-2.5, "-2.5"), (1e300, "1e+300")],
)  # fmt: skip
def test_number_to_string_is_javascripts(x: float, text: str) -> None:
    assert js_string(x) == text  # node: String(x)


def test_property_key_of_a_bigint_and_of_infinity() -> None:
    assert (property_key("10n"), property_key("1e999")) == ("10", "Infinity")


# -- conflicting intersections --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("export type T = { a: string } & { a: number };",
         "t.ts:1:35: property 'a' is string on one side of '&' and number on the other: no value is both (TypeScript makes it never)"),
        ('export type T = { a: "x" } & { a: "y" };',
         "t.ts:1:32: property 'a' is \"x\" on one side of '&' and \"y\" on the other: no value is both (TypeScript makes it never)"),
        ("export interface B { a: boolean }\nexport type T = B & { a?: null };",
         "t.ts:2:23: property 'a' is boolean on one side of '&' and null on the other: no value is both (TypeScript makes it never)"),
        ("export interface X { y: { a: 1 } & { a: 2 } }",
         "t.ts:1:38: property 'a' is 1 on one side of '&' and 2 on the other: no value is both (TypeScript makes it never)"),
    ],
    ids=["string-number", "two-literals", "required-and-optional", "inline"],
)  # fmt: skip
def test_conflicting_intersection_member_is_a_located_error(text: str, expected: str) -> None:
    assert _errors(text) == [expected]


def test_compatible_intersections_keep_the_narrower_type_and_optional_never_means_absent() -> None:
    r = load_text(
        'export type T = { a: string; b?: number; c: number } & { a: "x"; b?: "no"; c: 1 };', "t.ts"
    )
    obj = r.type("T").type
    assert isinstance(obj, ir.Obj)
    assert {p.name: p.type for p in obj.properties} == {
        "a": ir.Lit("x", "string"),
        "b": ir.Prim(ir.PrimKind.NEVER),  # both optional: the key must be absent
        "c": ir.Lit(1, "number"),
    }


# -- a malformed @format of a real draft ---------------------------------------------------------


def test_format_typo_of_real_drafts_is_a_warning_and_kept_as_the_official_generator_does(
    tmp_path: Path,
) -> None:
    assert "* @format: uri" in FORMAT_TYPO.read_text(encoding="utf-8")
    r = load_text(FORMAT_TYPO.read_bytes(), "format_colon.ts")
    assert [str(w) for w in r.warnings] == [
        (
            "format_colon.ts:6:6: @format ': uri' is not one word (meant '@format uri'?); kept as"
            " written, as the official generator does"
        )
    ]
    props = to_json_schema(r)["$defs"]["Link"]["properties"]
    assert props["uri"] == {"description": "Where it points.", "format": ": uri", "type": "string"}
    assert props["name"] == {"type": "string"}
    assert declared(str(FORMAT_TYPO)).declarations  # the declared IR reads too
    shutil_out = tmp_path / "out"
    proc = run_cli(str(FORMAT_TYPO), "-o", str(shutil_out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[0].endswith(
        "format_colon.ts:6:6: warning: @format ': uri' is not one word (meant '@format uri'?);"
        " kept as written, as the official generator does"
    )
    written = json.loads((shutil_out / "schema.json").read_text(encoding="utf-8"))
    assert written["$defs"]["Link"]["properties"]["uri"]["format"] == ": uri"


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("@minimum abc", "@minimum needs a number, got 'abc'"),
        ("@maxItems -1", "@maxItems needs a non-negative integer, got '-1'"),
        ("@format", "@format needs one word, got ''"),
    ],
)
def test_tag_values_that_cannot_be_used_stay_errors(tag: str, expected: str) -> None:
    assert _errors(f"export interface A {{\n  /** {tag} */\n  x: string[] }}") == [
        f"t.ts:2:7: {expected}"
    ]


# -- scale: one small linear-time check (the benchmarks measure the big shapes) --------------------


def _alias_chain(n: int) -> str:
    links = "".join(f"export type A{i} = A{i + 1};\n" for i in range(n))
    return f"export interface Root {{ x: string }}\n{links}export type A{n} = Root;\n"


@pytest.mark.slow
def test_alias_chain_generates_without_recursion_limits_in_linear_time(tmp_path: Path) -> None:
    small, big = _alias_chain(300), _alias_chain(3000)
    costs = []
    for n, text in ((300, small), (3000, big)):
        r = load_text(text, f"chain{n}.ts")
        costs.append(cpu_seconds(lambda r=r, n=n: generate(r, tmp_path, f"chain{n}")))  # type: ignore[misc]
    py = generate(load_text(big, "chain.ts"), tmp_path, "chain_check")
    assert py.is_valid("A0", {"x": "y"}) and not py.is_valid("A0", {"x": 1})
    # 10x the chain: linear costs ~10x, quadratic ~100x. Only the ratio is compared.
    assert costs[1] / costs[0] < 30, costs


@pytest.mark.parametrize(
    "text",
    [
        "".join(f"export interface E{i} extends E{i - 1} {{ p{i}: string }}\n" for i in range(1200, 0, -1))
        + "export interface E0 { p0: string }\n",
        "".join(f"export type E{i} = E{i + 1} & {{ p{i}: string }};\n" for i in range(1200))
        + "export interface E1200 { p1200: string }\n",
    ],
    ids=["extends-declared-last-first", "intersections"],
)  # fmt: skip
def test_long_chains_of_bases_resolve_without_recursion_limits(text: str) -> None:
    first = load_text(text, "chain.ts").types[0].type
    assert isinstance(first, ir.Obj) and len(first.properties) == 1201
