"""Decisions about generated Python are taken from what its hints are made of (`pytext.Code`:
the names they mention, the unions they spell), never by reading the hint text back: models.py
turns ruff's PYI041 off where a hint spells the number union `int | float`, not where the text
`int | float` happens to stand (in a string literal, or after a class named `...Point`)."""

from __future__ import annotations

import pytest

from codegen.pipeline import load_text
from codegen.pytext import Code, compose, union
from codegen.targets.python.bindings import render_package

NOQA = "# ruff: noqa: PYI041"


def test_code_keeps_the_unions_of_its_parts() -> None:
    number = union(Code("int"), Code("float"))
    listed = compose(f"list[{number.text}]", number)
    assert listed.text == "list[int | float]" and not listed.members
    assert listed.spells("int", "float") and not listed.spells("float", "int")
    optional = union(compose(f"dict[str, {listed.text}]", listed), Code("None"))
    assert optional.spells("int", "float") and optional.members[-1] == "None"
    point = union(Code("Point", defined=("Point",)), Code("float"))
    assert point.text == "Point | float" and not point.spells("int", "float")
    assert not compose('Literal["int | float"]').spells("int", "float")


@pytest.mark.parametrize(
    ("schema", "noqa"),
    [
        ("export interface A { n: number; }", True),
        ("export interface A { n?: number[] | null; }", True),
        ("export type N = number | string;\nexport interface A { n: N; }", True),
        ('export interface A { kind: "int | float"; }', False),  # text in a literal
        ("export interface Point { x: string; }\nexport interface A { p: Point | 1.5; }", False),
        ("export interface A { n: string; }", False),
    ],
)
def test_the_number_noqa_follows_the_number_hint(schema: str, noqa: bool) -> None:
    files = render_package(load_text(schema, "numbers.ts"), formatter=None)
    assert (NOQA in files["models.py"]) is noqa, files["models.py"]
