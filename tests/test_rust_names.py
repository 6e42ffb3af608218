"""The Rust target's spellings on small inputs: field names, doc comments, name collisions."""

from __future__ import annotations

import pytest

from codegen.errors import SchemaError
from codegen.pipeline import load_text
from codegen.targets import Request, get
from codegen.targets.rust import text as rs


@pytest.mark.parametrize(
    ("wire", "field"),
    [
        ("listChanged", "list_changed"),
        ("_meta", "meta"),
        ("URLElicitation", "url_elicitation"),
        ("io.modelcontextprotocol/logLevel", "io_modelcontextprotocol_log_level"),
        ("$schema", "schema"),
        ("type", "r#type"),
        ("self", "self_"),
        ("2fa", "f_2fa"),
    ],
)
def test_field_names(wire: str, field: str) -> None:
    assert rs.ident(rs.snake(wire)) == field


def test_doc_links_urls_and_fences() -> None:
    text = (
        "Follows the {@link MetaObject | `_meta` key rules}, see {@link Tool} and {@link Nope}"
        " at https://example.com/x. a<b [k]\n```\ncode <x>\n```"
    )
    lines = rs.doc_lines(text, lambda t: t if t in ("MetaObject", "Tool") else None)
    assert lines == [
        (
            "Follows the [`_meta` key rules](MetaObject), see [`Tool`] and `Nope` at"
            " <https://example.com/x>. a\\<b \\[k\\]"
        ),
        "```text",
        "code <x>",
        "```",
    ]


def test_a_path_name_taken_by_a_declared_type_is_an_error() -> None:
    schema = load_text(
        'export interface AB { x: "a" | "b"; }\nexport interface ABX { y: string; }\n', "s.ts"
    )
    with pytest.raises(SchemaError, match="'ABX' of AB.x is taken by ABX"):
        get("rust").render(Request((schema,), {"package": "p"}, ("s",)))


def test_one_version_renders_a_crate() -> None:
    schema = load_text(
        '/**\n * A thing.\n * @deprecated use Other\n */\nexport interface Thing { kind: "a"; n?: number; }\n',
        "s.ts",
    )
    files = get("rust").render(Request((schema,), {"package": "p"}, ("s",)))
    assert sorted(files) == [
        "Cargo.toml", "src/lib.rs", "src/runtime.rs", "src/s/mod.rs", "src/s/registry.rs",
        "src/s/types.rs", "tests/conformance.rs",
    ]  # fmt: skip
    types = files["src/s/types.rs"]
    assert (
        '#[deprecated(note = "use Other")]\n#[derive(Debug, Clone, PartialEq)]\npub struct Thing {'
        in types
    )
    assert 'o.lit("kind", rt::Lit::Str("a"))?;' in types
    assert "pub n: Option<json::Number>," in types


def test_a_number_constant_is_never_truncated() -> None:
    """`1.5` is checked as 1.5 (it was written `Int(1)`: accepting 1, refusing 1.5); an
    integral one, however spelled, stays an integer constant."""
    schema = load_text("export interface V { half: 1.5; code: -32042; tiny?: 1e-7; }\n", "s.ts")
    types = get("rust").render(Request((schema,), {"package": "p"}, ("s",)))["src/s/types.rs"]
    assert 'o.lit("half", rt::Lit::Num(1.5))?;' in types
    assert 'o.lit("code", rt::Lit::Int(-32042))?;' in types
    assert 'o.opt_lit("tiny", rt::Lit::Num(1e-07))?' in types
    assert "Lit::Int(1)" not in types
