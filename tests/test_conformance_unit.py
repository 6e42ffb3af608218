"""The conformance package on small schemas of its own (no official files): the cross-version
reasons and the same instance valid where it is accepted, the checker's paths and codes, the
JSON-text rules of check-wire, and the escaping of peer text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from codegen.analysis.requirements import Requirement
from codegen.conformance import Version, build
from codegen.conformance.check import Checker
from codegen.conformance.wire import parse_json
from codegen.console import escape_line
from codegen.pipeline import load_text

V1 = """
export interface R { a?: string; "x-y"?: number }
export type Kind = "one" | "two";
"""
V2 = """
export interface R {
  a: string;
  b: number;
  /** @minimum 0 */
  "x-y"?: number;
  kind: Kind;
}
export type Kind = "one" | "two";
export type U = A | B;
export interface A { type: "a"; n: number }
export interface B { type: "b"; s: string }
"""


@pytest.fixture(scope="module")
def docs() -> dict[str, dict[str, dict[str, Any]]]:
    versions = [Version(label, load_text(text, f"{label}.ts"), {})
                for label, text in (("v1", V1), ("v2", V2))]  # fmt: skip
    return build(versions)


def test_reasons_name_the_versions() -> None:
    model = Requirement(["v1", "v2"], [load_text(V1, "v1.ts"), load_text(V2, "v2.ts")])
    assert model.reason(1, "R", "a") == "`a` is required since v2; v1 had it optional"
    assert model.reason(1, "R", "b") == "`b` is required since v2; v1 did not declare it"
    assert model.reason(1, "R", "kind") == "`kind` is required since v2; v1 did not declare it"
    assert model.accepting("R", "b") == [0]


def test_dropped_member_is_invalid_here_and_valid_where_accepted(docs: Any) -> None:
    [dropped] = [
        t for t in docs["v2"]["R"]["tests"] if t["description"].startswith("`$.b` dropped")
    ]
    assert dropped["errors"] == [{"path": "$.b", "code": "required",
                                  "reason": "`b` is required since v2; v1 did not declare it"}]  # fmt: skip
    older = [t for t in docs["v1"]["R"]["tests"] if t["data"] == dropped["data"]]
    assert [t["valid"] for t in older] == [True]


def test_codes_and_paths(docs: Any) -> None:
    errors = {(e["path"], e["code"]) for t in docs["v2"]["R"]["tests"] for e in t["errors"]}
    assert {("$.a", "type"), ('$["x-y"]', "minimum"), ('$["x-y"]', "type"),
            ("$.kind", "enum"), ("$", "type")} <= errors  # fmt: skip
    union = {t["description"]: t for t in docs["v2"]["U"]["tests"]}
    assert [e["path"] for e in union["discriminator `type` broken"]["errors"]] == ["$.type", "$"]
    assert {e["path"] for e in union["an empty object: no member of the union accepts it"]
            ["errors"]} >= {"$.type"}  # fmt: skip
    kinds = [t["data"] for t in docs["v2"]["Kind"]["tests"] if t["valid"]]
    assert "one" in kinds and "two" in kinds


def test_checker_takes_fractions_for_numbers_and_refuses_bool() -> None:
    checker = Checker(load_text(V2, "v2.ts"))
    value = {"a": "x", "b": 1.5, "kind": "one"}
    assert checker.errors("R", value) == []
    assert [(p.path, p.code) for p in checker.errors("R", {**value, "b": True})] == [
        ("$.b", "type")
    ]


@pytest.mark.parametrize(
    ("text", "why"),
    [('{"a": 1, "a": 2}', 'key "a" given twice'), ('{"a": NaN}', "NaN is not JSON"),
     ("[1e400]", "too large"), ("[" * 300 + "]" * 300, "nested deeper than 256"),
     ("{} {}", "not JSON")],
)  # fmt: skip
def test_wire_json_rules_refuse(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_json(text)


def test_wire_json_rules_accept() -> None:
    assert parse_json('[18446744073709551616, 1e2, "\\ud800"]') == [2**64, 100.0, "\ud800"]
    assert parse_json(json.dumps({"a": [[]] * 2})) == {"a": [[], []]}


def test_peer_text_escaped() -> None:
    # peer text is quoted through the one console escaping: one harmless line, whatever it holds
    assert escape_line("a\n::error::x") == "a\\n::error::x"
    assert escape_line("::stop-commands::x").startswith("\\")
    assert escape_line("\u2028\x85\u200b") == "\\u2028\\x85\\u200b"
    assert escape_line("héllo 😀") == "héllo 😀"
