"""The semantic diff: one before/after fixture per rule with its exact findings, mirror and identity
properties, the rule table, the JSON format and the command line.

Fixtures live in tests/fixtures/diff/<rule-id>/{old,new}.ts with the expected findings in
expected.json (`pytest --update-golden` rewrites them; review the diff before committing). More
cases of a rule live in `<rule-id>--<case>/` (a level once wrong, kept right).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import re
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from cli_support import run_cli
from golden_files import check_golden

from codegen.analysis.methods import method_model
from codegen.cli import main
from codegen.diff import FORMAT, Report, diff
from codegen.diff.book import RULES
from codegen.diff.change import Facts, What
from codegen.diff.compare import compare
from codegen.diff.levels import CATEGORIES, LEVELS
from codegen.diff.report import finding_json, render_markdown, render_rules, to_json
from codegen.diff.rules import Finding
from codegen.pipeline import load

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "diff"
RULE_DIRS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def rule_of(fixture_dir: str) -> str:
    return fixture_dir.split("--")[0]


EXAMPLE = REPO / "schemas" / "example"


def rel(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def fixture(rule: str) -> Report:
    d = FIXTURES / rule
    return diff(load(str(d / "old.ts")), load(str(d / "new.ts")), "old", "new")


def reverse(rule: str) -> Report:
    d = FIXTURES / rule
    return diff(load(str(d / "new.ts")), load(str(d / "old.ts")), "new", "old")


RENAMES = ("type-renamed", "type-renamed-changed")


def mirror_key(f: Finding, renamed: dict[str, str]) -> tuple[str, str, str | None, str | None]:
    """What the same change looks like when OLD and NEW are swapped. Subjects inside a renamed
    type are named by the NEW name, which is the old name the other way round."""
    rule = RULES[f.rule]
    subject = f.after if f.rule in RENAMES and f.after else f.subject
    root = re.match(r"[^.\[]+", subject)
    if root and root.group(0) in renamed and f.rule not in RENAMES:
        subject = renamed[root.group(0)] + subject[root.end() :]
    return rule.mirror, subject, f.after, f.before


def key(f: Finding) -> tuple[str, str, str | None, str | None]:
    return f.rule, f.subject, f.before, f.after


def assert_mirrors(forward: Report, backward: Report) -> None:
    renamed = {
        f.after: f.before for f in forward.findings if f.rule in RENAMES and f.after and f.before
    }
    want = Counter(mirror_key(f, renamed) for f in forward.findings)
    got = Counter(key(f) for f in backward.findings)
    assert want == got, {"only forward": want - got, "only backward": got - want}


# ---------------------------------------------------------------------------------------------
# One fixture pair per rule


def test_every_rule_has_a_fixture() -> None:
    assert sorted(d for d in RULE_DIRS if "--" not in d) == sorted(RULES)
    assert {rule_of(d) for d in RULE_DIRS} == set(RULES)


@pytest.mark.parametrize("rule", RULE_DIRS)
def test_fixture_findings(rule: str, update_golden: bool) -> None:
    report = fixture(rule)
    found = {f.rule for f in report.findings}
    assert rule_of(rule) in found, f"fixture {rule} does not trigger its rule"
    text = json.dumps([finding_json(f) for f in report.findings], indent=2, sort_keys=True) + "\n"
    check_golden(FIXTURES / rule / "expected.json", text, update_golden)


@pytest.mark.parametrize("rule", RULE_DIRS)
def test_fixture_mirrors(rule: str) -> None:
    assert_mirrors(fixture(rule), reverse(rule))


@pytest.mark.parametrize("rule", RULE_DIRS)
def test_fixture_identity_is_empty(rule: str) -> None:
    for name in ("old.ts", "new.ts"):
        schema = load(str(FIXTURES / rule / name))
        assert diff(schema, schema).findings == ()


# ---------------------------------------------------------------------------------------------
# Rules


def test_rules_are_consistent() -> None:
    for r in RULES.values():
        assert r.category in CATEGORIES, r.id
        assert r.sender in LEVELS and r.receiver in LEVELS, r.id
        assert r.mirror in RULES, r.id
        assert RULES[r.mirror].mirror == r.id, r.id
        assert r.purpose and r.why and re.fullmatch(r"[a-z]+(-[a-z]+)+", r.id), r.id
        if r.category == "documentation":
            assert (r.sender, r.receiver) == ("info", "info"), r.id


RULE_ID = re.compile(r"[a-z]+(-[a-z]+)+")


def _hyphen_edged(n: ast.AST) -> bool:
    return (
        isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and "-" in n.value[:1] + n.value[-1:]
    )


def _assembles_id(n: ast.AST) -> bool:
    """An f-string, `+` or `"-".join` that glues a hyphen to a computed piece: how rule ids were
    once built (`f"method-{kind}-retyped"`), which no grep finds."""
    if isinstance(n, ast.JoinedStr):
        texts = [v.value if isinstance(v, ast.Constant) else None for v in n.values]
        return any(
            (isinstance(a, str) and b is None and a.endswith("-"))
            or (a is None and isinstance(b, str) and b.startswith("-"))
            for a, b in pairwise(texts)
        )
    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
        return _hyphen_edged(n.left) or _hyphen_edged(n.right)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "join":
        return isinstance(n.func.value, ast.Constant) and n.func.value.value == "-"
    return False


def test_rule_ids_are_written_out() -> None:
    """Every rule id can be grepped: defined once as `id="..."`, never assembled from pieces,
    and every hyphenated word in codegen/diff is a defined id (a misspelt id fails here)."""
    defined: Counter[str] = Counter()
    for path in sorted((REPO / "codegen" / "diff").rglob("*.py")):
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{rel(path)}:{getattr(n, 'lineno', '?')}"
            if isinstance(n, ast.keyword) and n.arg == "id" and isinstance(n.value, ast.Constant):
                defined[str(n.value.value)] += 1
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                assert not RULE_ID.fullmatch(n.value) or n.value in RULES, f"{where}: {n.value!r}"
            assert not _assembles_id(n), f"{where}: a rule id built from pieces"
    assert defined == dict.fromkeys(RULES, 1), "each rule id is defined exactly once"


def test_change_kinds_all_occur() -> None:
    """`What` lists exactly the kinds of change compare produces: each occurs in some fixture."""
    seen: set[What] = set()
    for rule in RULE_DIRS:
        old, new = load(str(FIXTURES / rule / "old.ts")), load(str(FIXTURES / rule / "new.ts"))
        for a, b in ((old, new), (new, old)):
            seen |= {c.what for c in compare(a, b, method_model(a), method_model(b))}
    assert seen == set(What)


def _table_rows(markdown: str) -> list[list[str]]:
    rows = []
    for line in markdown.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            rows.append(cells)
    return rows


def test_rules_command_matches_docs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    printed = _table_rows(capsys.readouterr().out)
    documented = _table_rows((REPO / "docs" / "diff-rules.md").read_text(encoding="utf-8"))
    assert [r[0] for r in printed] == [f"`{r}`" for r in RULES]
    assert documented == printed, "docs/diff-rules.md disagrees with `mcp-codegen rules`"


def test_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in data] == list(RULES)
    assert data[0] == {**data[0], "level": RULES[data[0]["id"]].level}


def test_every_rule_reasoning_is_documented() -> None:
    doc = (REPO / "docs" / "diff-rules.md").read_text(encoding="utf-8")
    for r in RULES:
        assert f"### `{r}`" in doc, f"docs/diff-rules.md has no reasoning section for {r}"


# ---------------------------------------------------------------------------------------------
# Formats


def test_json_format_is_documented_and_stable() -> None:
    report = diff(load(str(EXAMPLE / "v1" / "schema.ts")), load(str(EXAMPLE / "v2" / "schema.ts")))
    data = to_json(report)
    assert data["format"] == FORMAT == "mcp-codegen-diff/1"
    assert list(data) == ["format", "old", "new", "summary", "findings"]
    doc = (REPO / "docs" / "diff-json-format.md").read_text(encoding="utf-8")
    keys: set[str] = set(data) | set(data["old"]) | set(data["summary"])
    for f in data["findings"]:
        keys |= set(f) | set(f["levels"])
    for k in keys:
        assert f"`{k}`" in doc, f"docs/diff-json-format.md does not describe `{k}`"
    s = data["summary"]
    levels = ("breaking", "risky", "compatible", "info", "documentation")
    assert sum(s[k] for k in levels) == s["total"] == len(data["findings"])
    assert s["total"] - s["echoes"] == s["roots"]["total"]
    ids = {f["id"] for f in data["findings"]}
    assert len(ids) == len(data["findings"])
    assert {f["echo_of"] for f in data["findings"]} - {None} <= ids


def test_markdown_opens_with_what_to_do_and_folds_documentation() -> None:
    report = diff(load(str(EXAMPLE / "v1" / "schema.ts")), load(str(EXAMPLE / "v2" / "schema.ts")))
    md = render_markdown(report)
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings == [
        "## What to do",
        "## Migration by method",
        "## Details",
        "## Documentation-only changes",
    ]
    levels = [LEVELS.index(f.level) for f in report.findings]
    assert levels == sorted(levels)
    assert "<details>" in md.split("## Documentation-only changes")[1]
    assert_markdown_keeps_every_finding(report, md)


def assert_markdown_keeps_every_finding(report: Report, md: str) -> None:
    """Nothing of the JSON is lost: every finding is written out under its anchor (echoes under
    their root), or is documentation-only and counted in the folded section."""
    details = (md.split("## Details") + [""])[1].split("## Documentation-only changes")[0]
    docs = [f for f in report.findings if f.category == "documentation"]
    assert ("## Details" in md) == any(f.category != "documentation" for f in report.findings)
    assert ("## Documentation-only changes" in md) == bool(docs)  # empty sections left out
    for f in report.findings:
        if f.category != "documentation":
            assert details.count(f'<a id="{f.id}"></a>') == 1, (f.rule, f.subject)
    folded = (md.split("## Documentation-only changes") + [""])[1]
    assert not docs or f"<summary>{len(docs)} documentation-only changes" in folded
    for f in docs:
        assert f"`{f.subject}`" in folded, f.subject
    for target in re.findall(r"\]\(#(f[0-9a-f]{10}(?:_\d+)?)\)", md):
        assert f'<a id="{target}"></a>' in details, target


def test_markdown_carries_no_prose() -> None:
    """Descriptions never reach a report: no sentence of any doc comment appears in it."""
    old, new = load(str(EXAMPLE / "v1" / "schema.ts")), load(str(EXAMPLE / "v2" / "schema.ts"))
    report = diff(old, new)
    text = render_markdown(report) + json.dumps(to_json(report))
    docs = [t.doc.text for s in (old, new) for t in s.types] + [
        p.doc.text for s in (old, new) for t in s.types if hasattr(t.type, "properties")
        for p in t.type.properties  # type: ignore[union-attr]
    ]  # fmt: skip
    for d in docs:
        for sentence in re.split(r"(?<=[.!?])\s+", d):
            if len(sentence) >= 20:
                assert sentence not in text


# ---------------------------------------------------------------------------------------------
# Command line


V1, V2 = "schemas/example/v1/schema.ts", "schemas/example/v2/schema.ts"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((V1, V2), 0),
        ((V1, V2, "--fail-on", "breaking"), 1),
        ((V1, V2, "--fail-on", "risky"), 1),
        ((V1, V2, "--fail-on", "any"), 1),
        ((V1, V1, "--fail-on", "any"), 0),
    ],
)
def test_diff_exit_codes(
    args: tuple[str, ...], code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", *args]) == code


def test_fail_on_levels() -> None:
    old = load(str(FIXTURES / "property-added-optional" / "old.ts"))
    new = load(str(FIXTURES / "property-added-optional" / "new.ts"))
    report = diff(old, new)  # one compatible finding
    assert not report.fails("breaking") and not report.fails("risky") and report.fails("any")
    docs = diff(load(str(FIXTURES / "description-changed" / "old.ts")),
                load(str(FIXTURES / "description-changed" / "new.ts")))  # fmt: skip
    assert not docs.fails("risky") and docs.fails("any")


def test_diff_writes_json_file(tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    assert main(["diff", V1, V2, "--format", "json", "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["old"]["label"] == "v1" and data["new"]["label"] == "v2"
    assert (
        out.read_text(encoding="utf-8")
        == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    )


def test_diff_bad_input_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ts"
    bad.write_text("export interface X { a: ; }\n", encoding="utf-8")
    r = run_cli("diff", V1, str(bad))
    assert r.returncode == 2 and f"{bad}:1:" in r.stderr and r.stdout == ""
    r = run_cli("diff", V1, str(tmp_path / "missing.ts"))
    assert r.returncode == 2


@pytest.mark.slow
def test_diff_is_deterministic_across_hash_seeds() -> None:
    outs = {run_cli("diff", V1, V2, "--format", fmt, env={"PYTHONHASHSEED": seed}).stdout
            for seed in ("0", "1", "12345") for fmt in ("json",)}  # fmt: skip
    assert len(outs) == 1 and outs.pop().startswith("{")
    mds = {run_cli("diff", V2, V1, env={"PYTHONHASHSEED": seed}).stdout for seed in ("0", "7")}
    assert len(mds) == 1


def test_example_mirrors_and_identity() -> None:
    v1, v2 = load(str(EXAMPLE / "v1" / "schema.ts")), load(str(EXAMPLE / "v2" / "schema.ts"))
    assert_mirrors(diff(v1, v2), diff(v2, v1))
    assert diff(v1, v1).findings == () and diff(v2, v2).findings == ()


def test_finding_json_round_trip_fields() -> None:
    f = fixture("property-added-required").findings[0]
    data: dict[str, Any] = finding_json(f)
    assert data["levels"] == {"sender": "breaking", "receiver": "compatible"}
    assert data["level"] == "breaking" and data["subject"] == "Thing.note"


def test_rules_output_lists_every_rule() -> None:
    text = render_rules()
    for r in RULES:
        assert f"`{r}`" in text


def test_fail_on_wire_and_api() -> None:
    renamed = fixture("type-renamed")  # same data under a new name: api only
    assert renamed.fails("api") and not renamed.fails("wire")
    required = fixture("property-added-required")  # old senders' messages rejected: wire
    assert required.fails("wire") and not required.fails("api")
    assert all("wire" in f.breaks and f.level == "breaking" for f in required.failing("wire"))


def test_fail_on_any_message_counts_what_failed() -> None:
    d = FIXTURES / "description-changed"
    r = run_cli("diff", str(d / "old.ts"), str(d / "new.ts"), "--fail-on", "any")
    assert r.returncode == 1
    assert "1 root cause(s) fail --fail-on any (1 documentation)" in r.stderr, r.stderr


def test_output_needs_an_existing_folder_and_gets_a_normal_mode(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "d.md"
    r = run_cli("diff", V1, V2, "-o", str(missing))
    assert r.returncode == 2 and "does not exist" in r.stderr
    assert not (tmp_path / "no").exists()
    out = tmp_path / "d.md"
    assert main(["diff", V1, V2, "-o", str(out)]) == 0
    mask = os.umask(0o022)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask
    assert [p.name for p in tmp_path.iterdir()] == ["d.md"]  # no temporary file left


def test_markdown_escapes_schema_text() -> None:
    from codegen.diff.markdown import code, text

    assert text("<script>*x*</script>") == "\\<script\\>\\*x\\*\\</script\\>"
    assert code("a`b") == "``a`b``" or code("a`b") == "`` a`b ``"
    assert code("``") == "``` `` ```"
    assert code("x\ny") == "`x y`"


def test_markdown_keeps_hostile_schema_text_inert(tmp_path: Path) -> None:
    """Literals and labels from the schema never become markup: literals stay in code spans
    nothing can close, a label cannot end the header comment or open a tag."""
    old_dir, new_dir = tmp_path / "v--><script>1", tmp_path / "v*2*"
    old_dir.mkdir()
    new_dir.mkdir()
    (old_dir / "schema.ts").write_text('export type K = "a";\n', encoding="utf-8")
    hostile = '"a" | "</script><script>alert(1)</script>" | "``x``" | "[l](javascript:x)"'
    (new_dir / "schema.ts").write_text(f"export type K = {hostile};\n", encoding="utf-8")
    report = diff(load(str(old_dir / "schema.ts")), load(str(new_dir / "schema.ts")))
    md = render_markdown(report)
    outside = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", md)  # drop every code span
    assert outside.count("-->") == 1  # the header comment's own end
    body = outside.split("-->", 1)[1]
    assert "<script>" not in body and "javascript:" not in body
    assert "# Schema diff: v--\\>\\<script\\>1 → v\\*2\\*" in md
    assert_markdown_keeps_every_finding(report, md)


def test_rules_show_the_conditions_that_change_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--format", "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    alt = rows["method-result-alternative-added"]["conditions"]
    assert [(c["fact"], c["sender"], c["receiver"]) for c in alt] == [
        ("on_request", "compatible", "compatible")
    ]
    assert main(["rules"]) == 0
    assert "when the alternative answers only requests that ask for it" in capsys.readouterr().out
    # a wider value is one change however it is spelt: risky for receivers
    widened, added = RULES["type-widened"], RULES["union-member-added"]
    assert (widened.sender, widened.receiver) == (added.sender, added.receiver)
    facts = {f.name for f in dataclasses.fields(Facts)}
    for r in RULES.values():
        for c in r.conditions:
            assert c.fact in facts and c.sender in LEVELS and c.receiver in LEVELS, r.id
