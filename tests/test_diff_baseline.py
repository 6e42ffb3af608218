"""`diff OLD NEW --baseline B`: a PR judged against a release as well as against its parent;
`--fail-on-baseline LEVEL` fails only on what the PR adds against B (fixtures reduced from spec
commit 970851ea, which makes `mode` optional again after its parent made it required)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from cli_support import run_cli

from codegen import ir
from codegen.diff import diff
from codegen.diff.baseline import compare
from codegen.diff.report_schema import schema
from codegen.pipeline import load

D = Path(__file__).parent / "fixtures" / "spec-prs" / "970851ea"


def _load(name: str) -> ir.Resolved:
    return load(str(D / f"{name}.ts"))


def test_a_pr_removing_a_breaking_change_adds_nothing() -> None:
    base, old, new = _load("baseline"), _load("old"), _load("new")
    b = compare(diff(base, old), diff(base, new), "release")
    assert b.failing("breaking") == ()
    assert [(f.rule, f.subject) for f, _ in b.removed] == [
        ("property-added-required", "ElicitRequestParams.mode")
    ]
    worse = compare(diff(base, old), diff(base, _load("worse")), "release")
    assert [(f.rule, f.subject, lv) for f, lv in worse.failing("breaking")] == [
        ("property-added-required", "ElicitRequestParams.timeoutMs", "breaking")
    ]


@pytest.mark.slow
def test_gate_against_the_baseline(tmp_path: Path) -> None:
    """Passes the PR that removes a breaking change against the baseline (though --fail-on,
    against the parent, still fails it), fails the one that adds one; the baseline may come
    from git (`REF:PATH`)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "schema.ts").write_bytes((D / "baseline.ts").read_bytes())
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "add", "schema.ts"], check=True)
    subprocess.run([*git, "commit", "-qm", "release"], check=True)
    old, new, worse = (str(D / f"{n}.ts") for n in ("old", "new", "worse"))
    base = ["--baseline", "HEAD:schema.ts", "--git-dir", str(tmp_path)]
    ok = run_cli("diff", old, new, *base, "--fail-on-baseline", "breaking", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    doc = json.loads(ok.stdout)
    jsonschema.validate(doc, schema())
    assert doc["baseline"]["label"] == "HEAD" and doc["baseline"]["added"] == []
    assert [r["subject"] for r in doc["baseline"]["removed"]] == ["ElicitRequestParams.mode"]
    parent = run_cli("diff", old, new, "--fail-on", "breaking", "--format", "summary")
    assert parent.returncode == 1  # --fail-on keeps its meaning
    bad = run_cli(
        "diff", old, worse, *base, "--fail-on-baseline", "breaking", "--format", "summary"
    )
    assert bad.returncode == 1
    assert "added against the baseline HEAD fail --fail-on-baseline breaking" in bad.stderr
    assert "### Against the baseline `HEAD`" in bad.stdout
    assert "- **breaking** `property-added-required` `ElicitRequestParams.timeoutMs`" in bad.stdout


def test_fail_on_baseline_needs_a_baseline() -> None:
    out = run_cli("diff", str(D / "old.ts"), str(D / "new.ts"), "--fail-on-baseline", "risky")
    assert out.returncode == 2 and "--fail-on-baseline needs --baseline" in out.stderr
