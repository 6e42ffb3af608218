"""Ignore files that cannot hide: a pull request that adds `.mcp-codegen-diff.json` accepting
every finding makes no output format say "No changes"; each says how many findings the file
took out and which file (GitHub a `::notice`, JUnit skipped cases with their reasons), and
`--ignore REF:PATH` reads the base branch's file instead. Labels cannot mention anyone."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from codegen import cli

REPO = Path(__file__).resolve().parent.parent
V1 = REPO / "schemas" / "example" / "v1" / "schema.ts"
V2 = REPO / "schemas" / "example" / "v2" / "schema.ts"
IGNORE = ".mcp-codegen-diff.json"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
                   check=True, capture_output=True)  # fmt: skip


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def pr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> int:
    """A checkout whose base branch holds v1 and no ignore file; the pull request brings v2 and
    an ignore file accepting every finding. Returns how many findings that is."""
    if shutil.which("git") is None:
        pytest.fail("git is not installed")
    monkeypatch.chdir(tmp_path)
    _git(tmp_path, "init", "-q", "-b", "base")
    shutil.copy(V1, tmp_path / "schema.ts")
    _git(tmp_path, "add", "schema.ts")
    _git(tmp_path, "commit", "-qm", "v1")
    _git(tmp_path, "checkout", "-qb", "pr")
    shutil.copy(V2, tmp_path / "schema.ts")
    code, out, _ = _run(capsys, "diff", "base:schema.ts", "schema.ts", "--format", "json")
    assert code == 0
    findings = json.loads(out)["findings"]
    assert any(f["level"] == "breaking" for f in findings)
    entries = [{"id": f["id"], "reason": "@org/team said so"} for f in findings]
    (tmp_path / IGNORE).write_text(json.dumps({"ignore": entries}))
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "v2, and accept it all")
    return len(entries)


def _diff(capsys: pytest.CaptureFixture[str], fmt: str, *more: str) -> tuple[int, str, str]:
    return _run(capsys, "diff", "base:schema.ts", "schema.ts", "--format", fmt, *more)


def test_no_format_says_no_changes_when_an_ignore_file_took_everything(
    pr: int, capsys: pytest.CaptureFixture[str]
) -> None:
    n = pr
    said = f"{n} finding(s) ignored"
    _, out, _ = _diff(capsys, "summary")
    assert "No changes" not in out and said in out and f"`{IGNORE}`" in out
    assert out.count("\n- `") >= min(n, 20)  # each ignored finding with its reason
    _, out, _ = _diff(capsys, "md")
    assert "No changes" not in out and said in out and IGNORE in out
    _, out, _ = _diff(capsys, "html")
    assert "No changes." not in out and said in out and IGNORE in out
    _, out, _ = _diff(capsys, "json")
    doc = json.loads(out)
    assert doc["ignore"]["file"] == IGNORE and len(doc["ignore"]["ignored"]) == n
    _, out, _ = _diff(capsys, "github")
    notices = [line for line in out.splitlines() if line.startswith("::notice")]
    assert len(notices) == 1 and f"{n} finding(s) ignored by the ignore file {IGNORE}" in out
    _, out, _ = _diff(capsys, "junit")
    root = ET.fromstring(out)
    suite = root.find("testsuite")
    assert suite is not None and suite.get("skipped") == str(n) and suite.get("tests") == str(n)
    skipped = root.findall(".//testcase/skipped")
    assert len(skipped) == n
    assert all(s.get("message") == f"ignored by {IGNORE}: @org/team said so" for s in skipped)


def test_a_partial_ignore_is_said_before_the_findings(
    pr: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads((tmp_path / IGNORE).read_text())
    doc["ignore"] = doc["ignore"][:1]
    (tmp_path / IGNORE).write_text(json.dumps(doc))
    _, out, _ = _diff(capsys, "summary")
    head, _, rest = out.partition("### What to do")
    assert "**1 finding(s) ignored**" in head and rest
    _, out, _ = _diff(capsys, "md")
    assert out.index("1 finding(s) ignored") < out.index("## What to do")
    _, out, _ = _diff(capsys, "junit")
    assert len(ET.fromstring(out).findall(".//testcase/skipped")) == 1


def test_ignore_read_from_the_base_side(pr: int, capsys: pytest.CaptureFixture[str]) -> None:
    """The base branch has no ignore file: naming it there is an error, not a silent pass;
    with the base's own file, the PR's cannot widen what is accepted."""
    code, out, err = _diff(capsys, "summary", "--ignore", f"base:{IGNORE}", "--fail-on", "breaking")
    assert code == 2 and out == "" and f"base has no file {IGNORE}" in err
    # the PR's file is what the gate would have used by default
    code, _, _ = _diff(capsys, "summary", "--fail-on", "breaking")
    assert code == 0
    # the base accepts nothing: its file is read from git, the PR's file is not
    _git(Path.cwd(), "checkout", "-q", "base")
    Path(IGNORE).write_text(json.dumps({"ignore": []}))
    _git(Path.cwd(), "add", IGNORE)
    _git(Path.cwd(), "commit", "-qm", "base's ignore file")
    _git(Path.cwd(), "checkout", "-q", "pr")
    assert json.loads(Path(IGNORE).read_text())["ignore"]  # the PR's, accepting everything
    code, out, err = _run(capsys, "diff", "base~1:schema.ts", "schema.ts", "--format", "summary",
                          "--ignore", f"base:{IGNORE}", "--fail-on", "breaking")  # fmt: skip
    assert code == 1 and "ignored" not in out.split("\n\n", 2)[1], out
    assert "fail --fail-on breaking" in err


@pytest.mark.parametrize("label", ["@org/team", "@everyone", "hi @someone and @a-b_c"])
def test_labels_mention_nobody_in_markdown(label: str, capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("summary", "md"):
        code, out, _ = _run(capsys, "diff", str(V1), str(V2), "--format", fmt,
                            "--label-old", label, "--label-new", label)  # fmt: skip
        assert code == 0
        # neither comments nor code spans are rendered as mentions
        shown = re.sub(r"<!--.*?-->|`[^`]*`", "", out, flags=re.DOTALL)
        assert shown.count("@&#8203;") >= 2 * label.count("@"), shown[:300]
        assert re.findall(r"@(?!&#8203;)", shown) == []
