"""The diff in CI: git and stdin inputs with labels, ignore files, the report's JSON Schema,
and the CI formats on small inputs (the official pairs are in test_diff_counts.py)."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import corpus
import jsonschema
import pytest
from cli_support import run_cli

from codegen.cli import main
from codegen.diff import diff
from codegen.diff.ci import ANNOTATIONS_PER_KIND, render_github, render_summary
from codegen.diff.report import render_json, render_markdown
from codegen.diff.report_schema import schema

REPO = Path(__file__).resolve().parent.parent
REPORTS = REPO / "generated" / "reports"
FIXTURES = REPO / "tests" / "fixtures" / "diff"
EXAMPLE = REPO / "schemas" / "example"
GIT = shutil.which("git")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose schema.ts is the example's v1, then v2."""
    if GIT is None:
        pytest.skip("git is not installed")
    r = tmp_path / "repo"
    r.mkdir()
    _git(r, "init", "-q")
    shutil.copy(EXAMPLE / "v1" / "schema.ts", r / "schema.ts")
    _git(r, "add", "schema.ts")
    _git(r, "commit", "-qm", "v1")
    shutil.copy(EXAMPLE / "v2" / "schema.ts", r / "schema.ts")
    _git(r, "commit", "-qam", "v2")
    return r


def _json(r: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert r.returncode == 0, r.stderr
    return dict(json.loads(r.stdout))


def _strip(doc: dict[str, Any]) -> list[Any]:
    return [{k: v for k, v in f.items() if k != "lines"} for f in doc["findings"]]


# ---------------------------------------------------------------------------------------------
# Inputs


@pytest.mark.slow
def test_git_refs_give_the_same_findings_as_the_files_labelled_by_ref(repo: Path) -> None:
    by_ref = _json(run_cli("diff", "HEAD~1:schema.ts", "HEAD:schema.ts", "--format", "json",
                           cwd=repo))  # fmt: skip
    files = _json(
        run_cli("diff", str(EXAMPLE / "v1" / "schema.ts"), str(EXAMPLE / "v2" / "schema.ts"),
                "--format", "json")
    )  # fmt: skip
    assert by_ref["findings"] == files["findings"]
    assert (by_ref["old"]["label"], by_ref["new"]["label"]) == ("HEAD~1", "HEAD")
    assert by_ref["old"]["sha256"] == files["old"]["sha256"]
    md = run_cli("diff", "HEAD~1:schema.ts", "HEAD:schema.ts", "--git-dir", str(repo)).stdout
    assert "# Schema diff: HEAD\\~1 → HEAD" in md
    github = run_cli("diff", "HEAD~1:schema.ts", "HEAD:schema.ts", "--format", "github",
                     cwd=repo).stdout  # fmt: skip
    assert "file=schema.ts," in github  # the path in the repository, where the PR shows it


def test_unknown_ref_is_a_clear_error_mentioning_shallow_clones(repo: Path) -> None:
    r = run_cli("diff", "origin/main:schema.ts", "HEAD:schema.ts", cwd=repo)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("origin/main:schema.ts:1:1: git cannot read origin/main:schema.ts")
    assert "shallow clone" in r.stderr and "git fetch --depth=1 origin main" in r.stderr


@pytest.mark.slow
def test_stdin_and_labels(tmp_path: Path) -> None:
    v1, v2 = EXAMPLE / "v1" / "schema.ts", EXAMPLE / "v2" / "schema.ts"
    done = run_cli_stdin(v1.read_bytes(), "diff", "-", str(v2), "--format", "json",
                         "--label-old", "before", "--label-new", "after")  # fmt: skip
    doc = json.loads(done.stdout)
    files = json.loads(run_cli("diff", str(v1), str(v2), "--format", "json").stdout)
    assert doc["findings"] == files["findings"]
    assert (doc["old"]["label"], doc["new"]["label"]) == ("before", "after")
    plain = json.loads(run_cli_stdin(v1.read_bytes(), "diff", "-", str(v2), "--format",
                                     "json").stdout)  # fmt: skip
    assert plain["old"]["label"] == "stdin"
    both = run_cli("diff", "-", "-")
    assert both.returncode == 2 and "only one of OLD and NEW" in both.stderr


def run_cli_stdin(data: bytes, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        input=data,
        capture_output=True,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def test_a_pipe_is_labelled_by_its_side_not_its_fd_number(tmp_path: Path) -> None:
    v1, v2 = EXAMPLE / "v1" / "schema.ts", EXAMPLE / "v2" / "schema.ts"
    r = subprocess.run(
        ["bash", "-c", f'"$0" -m codegen diff <(cat {v1}) <(cat {v2}) --format summary',
         sys.executable],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("## Schema diff: old → new\n")


# ---------------------------------------------------------------------------------------------
# Ignore files


@pytest.mark.spec
def test_ignore_every_breaking_root_cause_passes_the_gate_and_lists_them(
    spec_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    r = diff(corpus.resolved("2025-11-25"), corpus.resolved("2026-07-28"))
    breaking = [f for f in r.failing("breaking")]
    assert len(breaking) == json.loads(render_json(r))["summary"]["roots"]["breaking"] > 0
    entries: list[dict[str, str]] = [
        {"id": f.id, "reason": "accepted in review"} for f in breaking[1:]
    ]
    first = breaking[0]
    entries.append({"rule": first.rule, "subject": first.subject, "reason": "by rule"})
    stale = {"id": "f0000000000", "reason": "an old baseline entry"}
    (tmp_path / ".mcp-codegen-diff.json").write_text(
        json.dumps({"ignore": [*entries, stale]}), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    args = ["diff", str(spec_root / "2025-11-25" / "schema.ts"),
            str(spec_root / "2026-07-28" / "schema.ts")]  # fmt: skip
    assert main([*args, "--fail-on", "breaking"]) == 0
    out, err = capsys.readouterr()
    assert f"ignore file .mcp-codegen-diff.json: {len(breaking)} finding(s) ignored" in err
    assert "stale entry (id f0000000000) matches no finding" in err
    assert "0 breaking" not in out and "## Ignored" in out and "## Stale ignore entries" in out
    ignored = out.split("## Ignored")[1]
    for f in breaking:
        assert f"`{f.rule}`" in ignored and f.subject.split(".")[0] in ignored
    assert "accepted in review" in ignored and "`id f0000000000`" in out
    assert not any(line.startswith("| breaking |") for line in out.splitlines())
    assert main([*args, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr()[0])
    assert doc["summary"]["roots"]["breaking"] == 0
    assert doc["ignore"]["stale"] == [stale] and len(doc["ignore"]["ignored"]) == len(breaking)
    jsonschema.validate(doc, schema())
    # --no-ignore: the file is not read, the gate fails again
    assert main([*args, "--fail-on", "breaking", "--no-ignore"]) == 1
    capsys.readouterr()


def test_ignore_file_errors_are_located(tmp_path: Path, capsys: Any) -> None:
    d = FIXTURES / "property-added-required"
    bad = tmp_path / "ignore.json"
    for text, message in (
        ("{", "not JSON"),
        ('{"ignore": [{"id": "f1"}]}', "an entry is {id, reason} or {rule, subject, reason}"),
        ('{"ignore": [{"id": "f1", "reason": " "}]}', "the reason must say why"),
        ("[]", 'an ignore file is {"ignore": [entry, ...]}'),
    ):
        bad.write_text(text, encoding="utf-8")
        assert main(["diff", str(d / "old.ts"), str(d / "new.ts"), "--ignore", str(bad)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"{bad}:1:") and message in err, err


# ---------------------------------------------------------------------------------------------
# The report's JSON Schema


@pytest.mark.slow
def test_json_schema_is_2020_12_and_every_committed_report_validates(capsys: Any) -> None:
    assert main(["diff", "--json-schema"]) == 0
    printed = json.loads(capsys.readouterr()[0])
    assert printed == schema()
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(printed)
    validator = jsonschema.Draft202012Validator(printed)
    reports = sorted(REPORTS.glob("*.json"))
    assert len(reports) >= 8
    for path in reports:
        doc = json.loads(path.read_text(encoding="utf-8"))
        errors = list(validator.iter_errors(doc))
        assert not errors, (path.name, errors[0].message)
        for mutate in _MUTATIONS:
            bad = copy.deepcopy(doc)
            mutate(bad)
            assert not validator.is_valid(bad), (path.name, mutate.__doc__)


def _level(d: dict[str, Any]) -> None:
    """a level no format-1 reader knows"""
    d["findings"][0]["level"] = "severe"


def _rule(d: dict[str, Any]) -> None:
    """a rule id that does not exist"""
    d["findings"][0]["rule"] = "property-vanished"


def _roots(d: dict[str, Any]) -> None:
    """summary.roots without its breaking count"""
    del d["summary"]["roots"]["breaking"]


def _format(d: dict[str, Any]) -> None:
    """another format version"""
    d["format"] = "mcp-codegen-diff/2"


def _id(d: dict[str, Any]) -> None:
    """an id that is not a finding id"""
    d["findings"][-1]["id"] = "not-an-id"


_MUTATIONS = (_level, _rule, _roots, _format, _id)


# ---------------------------------------------------------------------------------------------
# Formats on small inputs


def test_empty_diff_is_short_in_every_format(capsys: Any) -> None:
    ts = str(EXAMPLE / "v1" / "schema.ts")
    for fmt, most in (("md", 10), ("summary", 4), ("github", 0), ("junit", 6)):
        assert main(["diff", ts, ts, "--format", fmt]) == 0
        out = capsys.readouterr()[0]
        assert len(out.splitlines()) <= most, (fmt, out)
        assert "None" not in out
    html = main(["diff", ts, ts, "--format", "html"])
    assert html == 0 and "No changes." in capsys.readouterr()[0]


def test_github_annotations_escape_and_stop_at_ten_of_each_kind() -> None:
    r = diff(
        _load(EXAMPLE / "v1" / "schema.ts"),
        _load(EXAMPLE / "v2" / "schema.ts"),
    )
    lines = render_github(r).splitlines()
    errors = [line for line in lines if line.startswith("::error ")]
    warnings = [line for line in lines if line.startswith("::warning ")]
    assert 0 < len(errors) <= ANNOTATIONS_PER_KIND and len(warnings) <= ANNOTATIONS_PER_KIND
    for line in errors + warnings:
        props, message = line.split("::", 2)[1:]
        assert props.split(" ", 1)[1].startswith("file=") and ",line=" in props
        assert ",title=" in props and "\n" not in message
    counts = json.loads(render_json(r))["summary"]["roots"]
    acting = counts["breaking"] + counts["risky"]
    if acting > len(errors) + len(warnings):
        assert lines[-1].startswith("::notice ") and f"{acting - len(errors) - len(warnings)} more"
    else:
        assert not lines[-1].startswith("::notice ")


def test_summary_says_what_it_cut() -> None:
    r = diff(_load(EXAMPLE / "v1" / "schema.ts"), _load(EXAMPLE / "v2" / "schema.ts"))
    full = render_summary(r)
    assert "cut to fit" not in full
    short = render_summary(r, limit=2500)
    assert len(short) < 2500 < len(full)
    cut = re.search(r"… and (\d+) more breaking or risky root causes, cut to fit", short)
    assert cut is not None
    listed = short.count("\n- **")
    assert listed + int(cut.group(1)) == full.count("\n- **")


def test_junit_fail_on_sets_the_failures(capsys: Any) -> None:
    v1, v2 = str(EXAMPLE / "v1" / "schema.ts"), str(EXAMPLE / "v2" / "schema.ts")
    counts = json.loads(render_json(diff(_load(Path(v1)), _load(Path(v2)))))["summary"]["roots"]
    for fail_on, want in (
        (None, counts["breaking"]),
        ("risky", counts["breaking"] + counts["risky"]),
    ):
        extra = ["--fail-on", fail_on] if fail_on else []
        main(["diff", v1, v2, "--format", "junit", *extra])
        root = ET.fromstring(capsys.readouterr()[0])
        suite = root.find("testsuite")
        assert suite is not None
        assert len(suite.findall("testcase/failure")) == want == int(suite.get("failures", "-1"))
        wire = sum(v for k, v in counts.items() if k in ("breaking", "risky", "compatible", "info"))
        assert len(suite.findall("testcase")) == wire


def test_markdown_shows_maxitems_and_a_field_added_deprecated() -> None:
    d = FIXTURES / "constraint-tightened--max-items-added"
    md = render_markdown(diff(_load(d / "old.ts"), _load(d / "new.ts")))
    assert "(none) → `maxItems: 100`" in md, md
    d = FIXTURES / "property-added-optional--deprecated"
    r = diff(_load(d / "old.ts"), _load(d / "new.ts"))
    md = render_markdown(r)
    assert "`name?: string` (added already `@deprecated`)" in md
    assert "### Deprecations\n\n`Thing.name`" in md
    assert json.loads(render_json(r))["findings"][0]["deprecated"] is True


def _load(path: Path) -> Any:
    from codegen.pipeline import load

    return load(str(path))
