"""A distribution's validators say since when a missing member is required, on the official
schemas: a member a version requires that an earlier version of the distribution did not
(absent or optional there) is reported with check-wire's words (`required since 2026-07-28;
2025-11-25 did not declare it`); a member every version requires, the oldest version and a
single-version package say nothing more (`codegen/targets/python/bindings/required_since.py`).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import corpus
import pytest
from bindings_support import import_package, mypy_strict, ruff_check

from codegen import pyformat
from codegen.analysis.presence import object_of
from codegen.analysis.requirements import Requirement
from codegen.conformance import Version, build
from codegen.targets.python.bindings import render_package
from codegen.targets.python.bindings.required_since import required_since
from codegen.targets.python.distribution import render_distribution, versions_of
from codegen.write import write_tree

pytestmark = pytest.mark.spec

PAIR = ("2025-11-25", "2026-07-28")
ABSENT = "required since 2026-07-28; 2025-11-25 did not declare it"
OPTIONAL = "required since 2026-07-28; 2025-11-25 had it optional"


def _distribution(
    labels: tuple[str, ...], package: str, root: Path, formatter: str | None = "ruff"
) -> ModuleType:
    schemas = [corpus.resolved(v) for v in labels]
    files = render_distribution(schemas, package, formatter=formatter)
    write_tree(root, files)
    return import_package(root, package)


@pytest.fixture(scope="module")
def pair_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 2025-11-25 + 2026-07-28 distribution, laid out as the command writes it."""
    root = tmp_path_factory.mktemp("since")
    _distribution(PAIR, "mcp_since", root)
    return root


@pytest.fixture(scope="module")
def pair(pair_root: Path) -> ModuleType:
    return import_package(pair_root, "mcp_since")


def _messages(validators: ModuleType, type_name: str, value: object) -> dict[str, str]:
    return {e.path: e.message for e in validators.errors(type_name, value)}


def test_list_tools_result_names_the_version_that_made_each_member_required(
    pair: ModuleType,
) -> None:
    from mcp_since.v2026_07_28 import models

    with pytest.raises(pair.ValidationError) as caught:
        models.ListToolsResult.from_dict({"tools": []})
    found = {e.path: e.message for e in caught.value.errors}
    assert found == {
        "$.resultType": f"required property missing (expected ResultType; {ABSENT})",
        "$.ttlMs": f"required property missing (expected number; {ABSENT})",
        "$.cacheScope": f'required property missing (expected "public" | "private"; {ABSENT})',
    }
    assert f"$.resultType: required property missing (expected ResultType; {ABSENT})" in str(
        caught.value
    )


def test_call_tool_result_and_a_member_once_optional(pair: ModuleType) -> None:
    from mcp_since.v2026_07_28 import validators

    assert _messages(validators, "CallToolResult", {"content": []}) == {
        "$.resultType": f"required property missing (expected ResultType; {ABSENT})"
    }
    found = _messages(validators, "ListToolsRequest", {"method": "tools/list"})
    expected = f"required property missing (expected PaginatedRequestParams; {OPTIONAL})"
    assert found["$.params"] == expected


def test_a_member_every_version_requires_has_no_suffix(pair: ModuleType) -> None:
    from mcp_since.v2026_07_28 import validators

    found = _messages(validators, "CallToolResult", {"resultType": "complete"})
    assert found == {"$.content": "required property missing (expected array of ContentBlock)"}
    result = {"resultType": "complete", "ttlMs": 0, "cacheScope": "public"}
    found = _messages(validators, "ListToolsResult", result)
    assert found == {"$.tools": "required property missing (expected array of Tool)"}


def test_the_oldest_version_says_nothing_more(pair: ModuleType, pair_root: Path) -> None:
    from mcp_since.v2025_11_25 import validators

    assert _messages(validators, "CallToolResult", {}) == {
        "$.content": "required property missing (expected array of ContentBlock)"
    }
    text = (pair_root / "mcp_since" / "v2025_11_25" / "validators.py").read_text("utf-8")
    assert "_missing_since" not in text


def test_the_words_are_check_wires() -> None:
    """The validators' words are the cross-version reason the vectors and check-wire give."""
    model = Requirement(PAIR, [corpus.resolved(v) for v in PAIR])
    notes = required_since(PAIR, [corpus.resolved(v) for v in PAIR])
    assert notes[0] == {}
    for type_name, member in [("ListToolsResult", "resultType"), ("CallToolResult", "resultType"),
                              ("ListToolsResult", "ttlMs"), ("ListToolsRequest", "params")]:  # fmt: skip
        assert (
            model.reason(1, type_name, member) == f"`{member}` is {notes[1][(type_name, member)]}"
        )
    assert ("CallToolResult", "content") not in notes[1]


def test_a_member_required_first_in_a_draft(tmp_path: Path) -> None:
    """With 2025-11-25 and the draft, the draft made `resultType` required; with 2026-07-28
    between them, the draft keeps 2026-07-28's requirement and says so."""
    labels = ("2025-11-25", "draft")
    _distribution(labels, "mcp_since_draft", tmp_path, formatter=None)
    draft = versions_of([corpus.resolved(v) for v in labels])[1]
    assert draft.label == "draft"  # the words name the label, whatever key it negotiates as
    validators = importlib.import_module(f"mcp_since_draft.{draft.subpackage}.validators")
    found = _messages(validators, "CallToolResult", {"content": []})
    assert found == {"$.resultType": "required property missing (expected ResultType; "
                     "required since draft; 2025-11-25 did not declare it)"}  # fmt: skip
    labels = ("2025-11-25", "2026-07-28", "draft")
    notes = required_since(labels, [corpus.resolved(v) for v in labels])
    assert notes[2][("CallToolResult", "resultType")] == ABSENT
    assert notes[2] == notes[1]


def test_a_union_earlier_is_no_absence() -> None:
    """DRAFT-2025-v3's JSONRPCResponse is an object with a required `result`; 2025-11-25's was a
    union of the result and the error response: no note, the member was not left out there."""
    labels = ("2025-11-25", "DRAFT-2025-v3")
    model = Requirement(labels, [corpus.resolved(v) for v in labels])
    assert model.since(1, "JSONRPCResponse", "result") is not None  # the raw model would say so
    assert required_since(labels, [corpus.resolved(v) for v in labels])[1] == {}


def test_a_single_version_package_is_unchanged() -> None:
    files = render_package(corpus.resolved("2026-07-28"), formatter=None)
    assert "_missing_since" not in files["validators.py"]
    assert "required since" not in files["validators.py"]


@pytest.mark.slow
def test_the_notes_pass_mypy_strict_ruff_and_black(pair_root: Path, tmp_path: Path) -> None:
    pkg = pair_root / "mcp_since" / "v2026_07_28"
    text = (pkg / "validators.py").read_text("utf-8")
    assert text.count("_missing_since(") > 10
    assert pyformat.black_format(text) == text
    proc = ruff_check([pkg])
    assert proc.returncode == 0, proc.stdout
    proc = mypy_strict([pkg / "validators.py"], tmp_path / ".mypy-cache")  # and what it imports
    assert proc.returncode == 0, proc.stdout[-3000:]


@pytest.mark.slow
def test_official_examples_stay_valid(pair: ModuleType) -> None:
    from mcp_since.v2026_07_28 import validators

    examples = corpus.examples("2026-07-28")
    assert examples
    bad = [e.id for e in examples
           if e.type_name in validators.TYPES and validators.errors(e.type_name, e.instance)]  # fmt: skip
    assert bad == []


def test_the_validators_agree_with_the_vectors(pair: ModuleType) -> None:
    """Every member the 2026-07-28 vectors drop: the distribution's validators give the
    vector's cross-version reason at its path, and no other words where it gives none. Except
    where 2025-11-25's type was no object (`ClientNotification`, a union of notifications that
    each required `method`), which the vectors count as not declaring the member."""
    from mcp_since.v2026_07_28 import validators

    older = corpus.resolved(PAIR[0]).type_map()
    unions = {name for name, td in older.items() if object_of(td, older) is None}
    docs = build([Version(v, corpus.resolved(v), {}) for v in PAIR])[PAIR[1]]
    checked, noted = 0, 0
    for stem, doc in docs.items():
        if stem not in validators.TYPES or stem in unions:
            continue
        for t in doc["tests"]:
            found = _messages(validators, stem, t["data"])
            for e in t["errors"]:
                if e["code"] != "required" or e["path"] not in found:
                    continue
                words = e["reason"].partition(" is ")[2] if "since" in e["reason"] else ""
                message = found[e["path"]]
                where = f"{stem}: {t['description']}: {message}"
                assert message.endswith(f"; {words})") if words else "since" not in message, where
                checked += 1
                noted += bool(words)
    assert noted >= 30 and checked > noted
