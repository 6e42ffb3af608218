"""Escaping and naming in the bindings: schema text reaches generated code only through escaping
(docstrings, comments, literals), so no prose, wire name or literal value can break a module or
inject code; import and `__all__` order as ruff expects; names stay Python-safe."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from bindings_support import generate_text, mypy_strict, ruff_check

from codegen import pyformat
from codegen.pytext import (
    comment,
    comment_lines,
    docstring,
    key_suffix,
    literal,
)

HOSTILE = r'''
/**
 * Ends with quotes """ and a backslash \ then {{ jinja }} {% if x %}{% endif %} and a tab	here.
 * """; import os; raise SystemExit("injected") #
 * Separators: [ ] [ ] [] and \"\"\" and a final quote"
 */
export interface Evil {
  /** Field doc with """ and a trailing backslash \ */
  "weird\"key"?: "a\nb" | "c\"\"\"d" | "{{ x }}";
  /** \"\"\" */
  kind: "x'y\\";
  "class": string;
  "from": number;
  "with space"?: boolean;
  "{% raw %}"?: "\u2028";
  "#": string;
}

/** Also "quoted" at the very end" */
export type EvilUnion = Evil | { kind: "other"; "field": string };

/** `a` \\ */
export const EVIL = "\"\"\"; raise SystemExit #\n";
'''


@pytest.mark.parametrize(
    "text",
    ['plain', 'ends with "', 'ends with \\', '"""', '""""""', 'a"""b\\"""', "tab\tand\rcr",
     "\u2028\u2029\x0c\x00", "{{ x }} {% y %}", '\\"\\"\\"', "  indented\n\n  lines  \n", '"'],
)  # fmt: skip
def test_docstrings_survive_any_text(text: str) -> None:
    lit = docstring(text, "    ")
    source = f"def f():\n    {lit}\n" if lit else "def f():\n    pass\n"
    tree = ast.parse(source)
    doc = ast.get_docstring(tree.body[0], clean=False)  # type: ignore[arg-type]
    expected = "\n".join(line.rstrip() for line in text.split("\n")).strip()
    if not expected:
        assert doc is None
    else:
        assert doc is not None
        assert [ln.strip() for ln in doc.strip().split("\n")] == [
            ln.strip() for ln in expected.split("\n")
        ]


def test_comments_and_literals_are_one_line() -> None:
    assert "\n" not in comment("a\nb\r\u2028c")
    assert all("\n" not in line for line in comment_lines("x\ny " * 50))
    for value in ["a\nb", "\u2028", "'\"", "\\"]:
        assert ast.literal_eval(literal(value)) == value
    assert literal(True) == "True" and literal(-3) == "-3" and literal(None) == "None"
    assert key_suffix("name") == ".name" and key_suffix("io.x/y") == '["io.x/y"]'


SHUFFLED = """from __future__ import annotations

from typing import cast, TypeAlias, Any as _Any, Final
from .._tolerance import UNKNOWN_TAG as _UNKNOWN_TAG
from . import validators as _v
from .._runtime import JSON, UNSET, Model as _Model

__all__ = ["b", "Ab", "AB", "a2", "a10", "Z_Z"]
x: Final = cast(TypeAlias, (_Any, _UNKNOWN_TAG, _v, JSON, UNSET, _Model))
"""


def test_the_formatter_orders_imports_and_all() -> None:
    """The views write imports and `__all__` in any order: ruff's isort (furthest parent first,
    one aliased name a line) and RUF022 (constants, classes, the rest; natural order) fix it."""
    out = pyformat.format_files({"m.py": SHUFFLED})["m.py"]
    assert out.split("\n__all__")[0].splitlines()[2:] == [
        "from typing import Any as _Any",
        "from typing import Final, TypeAlias, cast",
        "",
        "from .._runtime import JSON, UNSET",
        "from .._runtime import Model as _Model",
        "from .._tolerance import UNKNOWN_TAG as _UNKNOWN_TAG",
        "from . import validators as _v",
    ]
    assert '__all__ = ["AB", "Z_Z", "Ab", "a2", "a10", "b"]' in out
    assert pyformat.format_files({"m.py": SHUFFLED}, "black") == {"m.py": out}


@pytest.mark.slow
def test_hostile_schema_generates_a_safe_module(tmp_path: Path) -> None:
    m = generate_text(HOSTILE, tmp_path, "evil")  # importing would raise SystemExit if injected
    assert m.EVIL == '"""; raise SystemExit #\n'
    assert m.Evil.__doc__ is not None and 'raise SystemExit("injected")' in m.Evil.__doc__
    value = {
        'weird"key': "a\nb",
        "kind": "x'y\\",
        "class": "c",
        "from": 1,
        "{% raw %}": "\u2028",
        "#": "h",
    }
    obj = m.decode("Evil", value)
    assert (obj.weird_key, obj.class_, obj.from_, obj.raw, obj.field) == (
        "a\nb",
        "c",
        1,
        "\u2028",
        "h",
    )
    assert m.encode(obj) == value
    assert not m.is_valid("Evil", {**value, 'weird"key': "a\\nb"})
    assert [e.path for e in m.errors("Evil", {**value, "kind": 1})] == ["$.kind"]
    other = m.decode("EvilUnion", {"kind": "other", "field": "x"})
    assert type(other).__name__ == "EvilUnionOther" and other.field == "x"
    assert mypy_strict([tmp_path / "evil"], tmp_path / "cache").returncode == 0
    # registry.py (the method registry's module) is checked by its own tests; a schema without
    # methods, like this one, is not its concern here.
    ruff = ruff_check(
        sorted(p for p in (tmp_path / "evil").glob("*.py") if p.name != "registry.py")
    )
    assert ruff.returncode == 0, ruff.stdout


CLASHES = """
export interface A { inputSchema: string; extra?: string }
export interface JSON { a: string }
export interface ValidationError { list: list }
export interface list { None?: None }
export interface None { value: null }
export type str = "str" | JSON;
"""


@pytest.mark.slow
def test_name_clashes_follow_the_naming_rule(tmp_path: Path) -> None:
    """codegen/pynaming.py: an attribute that is a keyword, a hint's builtin or a method of
    every class gets `_`; so does a type named like a keyword or builtin. A type named like one
    of the package's own names (`JSON`, `ValidationError`) keeps its name: the package's yields."""
    m = generate_text(CLASHES, tmp_path, "clashes")
    a = m.decode("A", {"inputSchema": "x", "extra": "e", "z": 0})
    assert (a.input_schema, a.extra_, a.extra) == ("x", "e", {"z": 0})
    assert m.encode(a) == {"inputSchema": "x", "extra": "e", "z": 0}
    assert m.JSON is m.models.JSON and m.models.JSON.__name__ == "JSON"
    assert m.ValidationError is m.models.ValidationError  # the schema's type wins at the top
    assert m.validators.ValidationError.__module__.endswith("_runtime")  # the exception stays
    value = {"list": {"None": {"value": None}}}
    obj = m.decode("ValidationError", value)
    assert type(obj).__name__ == "ValidationError" and type(obj.list_).__name__ == "list_"
    assert m.encode(obj) == value and m.decode(type(obj), value) == obj
    assert m.is_valid("None", {"value": None}) and m.is_valid(m.models.None_, {"value": None})
    assert m.is_valid("str", "str") and m.is_valid("str", {"a": "b"}) and not m.is_valid("str", "x")
    assert mypy_strict([tmp_path / "clashes"], tmp_path / "cache").returncode == 0
    mine = sorted(p for p in (tmp_path / "clashes").glob("*.py") if p.name != "registry.py")
    assert ruff_check(mine).returncode == 0


CONSTRUCTS = """
export type Level = number & { readonly minimum: 0; readonly maximum: 1 };
export type Stamp = Date;
/** First declaration. */
export interface Reading {
  level: Level;
  code: string & { readonly pattern: "^[A-Z]{3}$" };
  removed?: never;
}
/** Second declaration: merged into the first. */
export interface Reading {
  at: Stamp;
  taken?: Date;
}
"""


@pytest.mark.slow
def test_merged_date_annotated_and_never_constructs_generate_and_validate(tmp_path: Path) -> None:
    m = generate_text(CONSTRUCTS, tmp_path, "constructs")
    value = {"level": 0.5, "code": "ABC", "at": "2025-01-02T03:04:05Z", "taken": "2025-01-02"}
    obj = m.decode("Reading", value)
    assert (obj.level, obj.code, obj.at, obj.taken) == (0.5, "ABC", value["at"], "2025-01-02")
    assert not m.is_valid("Reading", {**value, "removed": 1})  # `removed?: never`: absent
    assert m.encode(obj) == value
    assert m.is_valid("Reading", value)
    assert [e.path for e in m.errors("Reading", {**value, "level": 2})] == ["$.level"]
    assert [e.path for e in m.errors("Reading", {**value, "code": "abc"})] == ["$.code"]
    assert [e.path for e in m.errors("Reading", {**value, "at": 1})] == ["$.at"]
    assert not m.is_valid("Level", -1) and m.is_valid("Level", 1)
    assert mypy_strict([tmp_path / "constructs"], tmp_path / "cache").returncode == 0


PROSE_NAMES = """
/** A thing; its docs say overload, cast, NoReturn and Sequence, and _by_shape too. */
export interface Thing {
  /** name: see Mapping and Literal */
  name: string;
}
"""


def test_prose_naming_the_generators_names_imports_nothing(tmp_path: Path) -> None:
    """models.py imports what its view spelled, not every name its text happens to contain:
    docs that say `overload` or `cast` import neither (a scan of the text did, and ruff's F401
    failed on the generated module)."""
    generate_text(PROSE_NAMES, tmp_path, "prose")
    models = tmp_path / "prose" / "models.py"
    text = models.read_text(encoding="utf-8")
    assert "from typing import Any, Final\n" in text
    assert "_by_shape" not in text.split("__all__")[0]
    assert ruff_check([models]).returncode == 0, ruff_check([models]).stdout
