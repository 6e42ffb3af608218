"""Facts the resolved model owns, checked through every emitter that reads them.

Each test here guards a defect found when the same fact was decided in several places: a
constraint written on a type alias, a bad tag value, a regex that does not compile.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bindings_support import generate_text

from codegen.cli import main
from codegen.diff import diff
from codegen.errors import SchemaError
from codegen.pipeline import load_text
from codegen.targets.jsonschema.emit import emit

WIDGET = """
/** @TJS-pattern {pattern} */
export type WidgetId = string;
export interface Widget {{ id: WidgetId; }}
"""


def widget(pattern: str) -> str:
    return WIDGET.format(pattern=pattern)


def test_alias_constraint_reaches_every_emitter(tmp_path: Path) -> None:
    resolved = load_text(widget("^[a-z]+$"), "w.ts")
    assert resolved.type("WidgetId").constraints.pattern == "^[a-z]+$"
    # JSON Schema: the definition of the alias carries the pattern
    schema = emit(resolved)
    assert schema["$defs"]["WidgetId"] == {"type": "string", "pattern": "^[a-z]+$"}
    # bindings: the validator rejects a value the pattern rejects, through the property too
    pkg = generate_text(widget("^[a-z]+$"), tmp_path, "widgets")
    assert pkg.is_valid("WidgetId", "abc") and not pkg.is_valid("WidgetId", "ABC")
    assert [e.path for e in pkg.errors("Widget", {"id": "ABC"})] == ["$.id"]


def test_diff_reports_a_changed_alias_constraint() -> None:
    old = load_text(widget("^[a-z]+$"), "old.ts")
    new = load_text(widget("^[0-9]+$"), "new.ts")
    findings = [(f.rule, f.subject, f.before, f.after) for f in diff(old, new).findings]
    assert findings == [
        ("constraint-changed", "WidgetId", "pattern: ^[a-z]+$", "pattern: ^[0-9]+$")
    ]


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ("@minimum abc", "t.ts:3:6: @minimum needs a number, got 'abc'"),
        ("@maxItems -1", "t.ts:3:6: @maxItems needs a non-negative integer, got '-1'"),
        ("@TJS-type float", "t.ts:3:6: @TJS-type 'float' is not supported (use one of: integer, number)"),
        ("@TJS-pattern ([a-z", ("t.ts:3:6: @TJS-pattern '([a-z' is not a valid regular expression: "
                                "unterminated character set at position 1")),
        ("@format", "t.ts:3:6: @format needs one word, got ''"),
    ],
)  # fmt: skip
def test_bad_tag_values_are_errors_at_the_tag(tags: str, message: str) -> None:
    src = f"export interface A {{\n  /**\n   * {tags}\n   */\n  x: number[];\n}}\n"
    with pytest.raises(SchemaError) as err:
        load_text(src, "t.ts")
    assert str(err.value) == message


def test_a_repeated_tag_is_an_error_at_the_second_one() -> None:
    with pytest.raises(SchemaError) as err:
        load_text("/**\n * @minimum 1\n * @minimum 2\n */\nexport type N = number;\n", "t.ts")
    assert str(err.value) == "t.ts:3:4: @minimum given twice"


@pytest.mark.parametrize("command", [["jsonschema"], ["ir"], []])
def test_every_command_rejects_a_bad_regex_at_the_tag(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = tmp_path / "bad.ts"
    schema.write_text(widget("([a-z"))
    out = tmp_path / "out"
    args = [*command, str(schema)] + ([] if command else ["-o", str(out)])
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"{schema}:2:5: @TJS-pattern '([a-z' is not a valid regular expression: "
        "unterminated character set at position 1"
    )
    assert not out.exists()


def test_tjs_type_number_is_a_property_fact_read_by_the_json_schema() -> None:
    src = "export interface A {\n  /** @TJS-type number */\n  x: number;\n  y: number;\n}\n"
    resolved = load_text(src, "t.ts")
    x, y = resolved.type("A").type.properties  # type: ignore[union-attr]
    assert (x.keeps_number, y.keeps_number) == (True, False)
    props = emit(resolved, number_as_integer=True)["$defs"]["A"]["properties"]
    assert json.dumps(props, sort_keys=True) == json.dumps(
        {"x": {"type": "number"}, "y": {"type": "integer"}}, sort_keys=True
    )
