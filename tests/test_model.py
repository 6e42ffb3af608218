"""The published model (`mcp-codegen model`, docs/model.md): the seven official versions' document
validates against `model --json-schema` and agrees with the official `schema.json` files on every
type and member; since/until come from the one presence model the reference's `since.json` is
written from; versions are given oldest first; a member keeps its history through an inline
object a later version extracted (`lineage`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import corpus
import pytest
from cli_support import REPO
from jsonschema import Draft202012Validator  # type: ignore[import-untyped,unused-ignore]

from codegen import cli
from codegen.analysis.presence import presence
from codegen.cli.exits import EXIT_BAD_INPUT, EXIT_OK
from codegen.pipeline import load_text
from codegen.published import FORMAT, build
from codegen.published.schema import schema


@pytest.fixture(scope="module")
def official(spec_root: Path) -> tuple[list[str], dict[str, Any]]:
    labels = corpus.version_names()
    resolved = [corpus.resolved(v) for v in labels]
    return labels, build(labels, resolved)


def test_the_format_has_a_valid_json_schema() -> None:
    Draft202012Validator.check_schema(schema())
    assert schema()["properties"]["format"] == {"const": FORMAT}


@pytest.mark.spec
def test_the_official_model_validates_against_its_json_schema(
    official: tuple[list[str], dict[str, Any]],
) -> None:
    labels, model = official
    errors = list(Draft202012Validator(schema()).iter_errors(model))
    assert [e.message for e in errors[:5]] == []
    assert model["versions"] == labels and len(labels) == 7
    broken = dict(model, types={"X": {"versions": [], "kind": "class"}})
    assert not Draft202012Validator(schema()).is_valid(broken)


def _properties(defs: dict[str, Any], node: dict[str, Any]) -> set[str] | None:
    """The property names of an official definition: its own, those of the definition it
    `$ref`s, or of every part of its `allOf`; None when it is no object."""
    if "properties" in node:
        return set(node["properties"])
    if "$ref" in node:
        return _properties(defs, defs[node["$ref"].rsplit("/", 1)[1]])
    if "allOf" in node:
        parts = [_properties(defs, p) for p in node["allOf"]]
        return set().union(*(p for p in parts if p is not None))
    return None


@pytest.mark.spec
def test_versions_agree_with_the_official_schema_json_on_every_type_and_member(
    official: tuple[list[str], dict[str, Any]],
) -> None:
    labels, model = official
    checked = 0
    for label in labels:
        defs = corpus.definitions(label)
        ours = {name for name, t in model["types"].items() if label in t["versions"]}
        assert ours == set(defs), label
        for name, node in defs.items():
            members = model["types"][name].get("members", {})
            mine = {wire for wire, m in members.items() if label in m["versions"]}
            assert mine == (_properties(defs, node) or set()), f"{label} {name}"
            checked += len(mine)
    assert checked > 2000  # 2,332 members over the seven versions


@pytest.mark.spec
def test_since_json_and_the_model_read_the_same_owner(
    official: tuple[list[str], dict[str, Any]],
) -> None:
    """The reference site writes `since.json` as `presence(...).to_json()`
    (codegen/reference/site.py); the model's versions and deprecations are the same facts."""
    labels, model = official
    since = presence(labels, [corpus.resolved(v) for v in labels]).to_json()
    assert since["versions"] == model["versions"]
    assert set(since["types"]) == set(model["types"])
    for name, facts in since["types"].items():
        t = model["types"][name]
        assert facts["versions"] == t["versions"]
        assert facts["deprecated"] == t.get("deprecated", [])
        assert t["since"] == facts["versions"][0]
        assert t.get("until") == (
            None if labels[-1] in facts["versions"] else facts["versions"][-1]
        )
        for wire, m in facts["members"].items():
            assert m["versions"] == t["members"][wire]["versions"], f"{name}.{wire}"
            assert m["deprecated"] == t["members"][wire].get("deprecated", [])


@pytest.mark.spec
def test_official_lineage_methods_and_variants(official: tuple[list[str], dict[str, Any]]) -> None:
    labels, model = official
    name = model["types"]["CallToolRequestParams"]["members"]["name"]
    assert name["since"] == "2025-11-25"
    assert name["lineage"] == {"since": "2024-11-05", "from": "CallToolRequest.params"}
    call = model["methods"]["tools/call"]
    assert list(call["definitions"]) == labels and call["since"] == labels[0]
    assert call["definitions"]["2025-11-25"]["direction"] == "client_to_server"
    assert call["definitions"]["2025-11-25"]["result"] == "CallToolResult"
    content = model["types"]["ContentBlock"]
    assert content["discriminator"] == "type" and content["since"] == "2025-06-18"
    assert "AudioContent" in content["variants"]
    version = model["constants"]["LATEST_PROTOCOL_VERSION"]
    assert version["value"] == corpus.resolved(labels[-1]).protocol_version  # the newest's
    assert version["versions"] == labels and "until" not in version
    levels = {v["value"]: v["since"] for v in model["types"]["LoggingLevel"]["values"]}
    assert levels["debug"] == labels[0] and model["types"]["LoggingLevel"]["kind"] == "enum"


V1 = """export const LATEST_PROTOCOL_VERSION = "2020-01-01";
export interface A { p: { x: string }; gone: number }
export type Mode = "a" | "b";
export type U = A;
"""
V2 = """export const LATEST_PROTOCOL_VERSION = "2021-01-01";
export interface A { p: P; /** @deprecated use p */ q?: string }
export interface P { x: string; y?: number }
export type Mode = "a" | "c";
export interface B { b: true }
export type U = A | B;
"""


def test_since_until_lineage_variants_and_values_of_a_small_pair() -> None:
    v1, v2 = load_text(V1, "2020-01-01/schema.ts"), load_text(V2, "2021-01-01/schema.ts")
    model = build(["2020-01-01", "2021-01-01"], [v1, v2])
    a = model["types"]["A"]["members"]
    assert a["gone"]["until"] == "2020-01-01" and "until" not in a["p"]
    assert a["q"]["deprecated"] == ["2021-01-01"] and a["q"]["since"] == "2021-01-01"
    assert a["p"]["type"] == {"kind": "ref", "name": "P"}  # the newest version's
    p = model["types"]["P"]["members"]
    assert p["x"]["lineage"] == {"since": "2020-01-01", "from": "A.p"}
    assert "lineage" not in p["y"]
    assert model["inline_types"]["AP"]["until"] == "2020-01-01"
    values = {v["value"]: (v["since"], v.get("until")) for v in model["types"]["Mode"]["values"]}
    assert values == {"a": ("2020-01-01", None), "b": ("2020-01-01", "2020-01-01"),
                      "c": ("2021-01-01", None)}  # fmt: skip
    assert model["types"]["U"]["variants"]["B"]["since"] == "2021-01-01"
    assert model["constants"]["LATEST_PROTOCOL_VERSION"]["value"] == "2021-01-01"


def test_versions_out_of_order_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = {}
    for label, text in (("2020-01-01", V1), ("2021-01-01", V2), ("draft", V2)):
        (tmp_path / label).mkdir()
        paths[label] = str(tmp_path / label / "schema.ts")
        Path(paths[label]).write_text(text)
    out = tmp_path / "model.json"
    code = cli.main(["model", paths["2021-01-01"], paths["2020-01-01"], "-o", str(out)])
    assert code == EXIT_BAD_INPUT and not out.exists()
    err = capsys.readouterr().err
    assert (
        f"{paths['2020-01-01']}:1:1: versions are given oldest first: 2020-01-01 comes after" in err
    )
    args = ["model", paths["2020-01-01"], paths["draft"], paths["2021-01-01"], "-o", str(out)]
    assert cli.main(args) == EXIT_OK  # a draft keeps the place it is given
    assert json.loads(out.read_text())["versions"] == ["2020-01-01", "draft", "2021-01-01"]
    assert cli.main(["model", "--json-schema", "-o", str(out)]) == EXIT_OK
    assert json.loads(out.read_text()) == schema()


def test_the_model_document_in_the_docs_is_valid() -> None:
    """docs/model.md's example document is one the schema accepts."""
    text = (REPO / "docs" / "model.md").read_text()
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    Draft202012Validator(schema()).validate(json.loads(example))
