"""Every input of `reference` and `history` explicit: a version name brings the official
typedoc program (its page is byte-identical to the official one), `--program DIR|REF:DIR`
gives a path's, `REF:PATH` schemas are read from git, `--label` names each input."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from codegen import cli

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "reference"
PAGES = ["2025-06-18", "2025-11-25", "2026-07-28", "draft"]
TREE = {"a": 'export interface A { x: "b" | "a" }\n',
        "b": 'export interface B { y: "a" | "c" | "b" }\n'}  # fmt: skip


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True)  # fmt: skip


def _commit(repo: Path, files: dict[str, str]) -> None:
    """`files` (relative path -> text) committed in `repo` (created when missing)."""
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    if not (repo / ".git").exists():
        _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "c")


@pytest.mark.spec
@pytest.mark.parametrize("version", PAGES)
def test_version_name_page_is_the_official_page_byte_for_byte(
    spec_root: Path, tmp_path: Path, version: str
) -> None:
    """By version name: the pinned template and the official program (the pinned versions
    before it, not whatever else lies in the spec folder)."""
    out = tmp_path / "page.mdx"
    args = ["reference", version, "--spec-dir", str(spec_root), "--offline", "-o", str(out)]
    assert cli.main(args) == 0
    assert out.read_bytes() == (spec_root / version / "reference.mdx").read_bytes()


def test_program_from_git_and_schema_from_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`reference REF:PATH --program REF:DIR`: both from the commit, whatever the checkout
    holds; without --program the schema is checked alone."""
    _commit(tmp_path, {f"schema/{k}/schema.ts": v for k, v in TREE.items()})
    (tmp_path / "schema" / "a" / "schema.ts").write_text('export interface A { x: "c" }\n')
    monkeypatch.chdir(tmp_path)
    assert cli.main(["reference", "HEAD:schema/b/schema.ts", "--program", "HEAD:schema"]) == 0
    assert "y: &quot;b&quot; | &quot;a&quot; | &quot;c&quot;" in capsys.readouterr().out
    assert cli.main(["reference", "HEAD:schema/b/schema.ts"]) == 0
    assert "y: &quot;a&quot; | &quot;c&quot; | &quot;b&quot;" in capsys.readouterr().out
    assert cli.main(["reference", "schema/b/schema.ts", "--program", "HEAD:nowhere"]) == 2
    assert "--program HEAD:nowhere" in capsys.readouterr().err


def test_reference_site_and_history_from_git_with_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fixtures v1..v3 as three commits of one file; `--label` names each (file names,
    since.json, titles); a --label count that is not one per input is exit 2."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for v in ("v1", "v2", "v3"):
        _commit(repo, {"spec/schema.ts": (FIXTURES / v / "schema.ts").read_text()})
    monkeypatch.chdir(repo)
    inputs = ["HEAD~2:spec/schema.ts", "HEAD~1:spec/schema.ts", "HEAD:spec/schema.ts"]
    labels = [a for v in ("one", "two", "three") for a in ("--label", v)]
    site = tmp_path / "site"
    assert cli.main(["reference", *inputs, *labels, "-o", str(site)]) == 0
    since = json.loads((site / "since.json").read_text())
    assert since["versions"] == ["one", "two", "three"]
    assert since["types"]["Widget"]["members"]["size"]["versions"] == ["two", "three"]
    assert {"one.html", "two..three.html"} <= {p.name for p in site.iterdir()}
    history = tmp_path / "history"
    assert cli.main(["history", *inputs, *labels, "-o", str(history)]) == 0
    index = (history / "index.html").read_text()
    assert "Schema history: one → two → three" in index
    assert (history / "one..two.html").is_file()
    assert cli.main(["history", *inputs, "-o", str(history)]) == 0
    assert "HEAD~2 → HEAD~1 → HEAD" in (history / "index.html").read_text()
    capsys.readouterr()
    assert cli.main(["history", *inputs, "--label", "x", "-o", str(tmp_path / "h2")]) == 2
    assert "--label: 1 given for 3 schemas" in capsys.readouterr().err
    assert not (tmp_path / "h2").exists()


@pytest.mark.spec
def test_version_name_reads_the_pinned_versions_before_it_and_nothing_else(
    spec_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reference 2025-11-25` parses 2024-11-05, 2025-03-26, 2025-06-18 and itself: not the
    versions after it, nor a folder that is no pinned version (the spec folder's
    DRAFT-2025-v3)."""
    import codegen.parse

    seen: list[str] = []
    check = codegen.parse._syntax_errors

    def spy(src: object) -> object:
        seen.append(Path(src.path).parent.name)  # type: ignore[attr-defined]
        return check(src)

    monkeypatch.setattr(codegen.parse, "_syntax_errors", spy)
    out = tmp_path / "page.mdx"
    args = ["reference", "2025-11-25", "--spec-dir", str(spec_root), "--offline", "-o", str(out)]
    assert cli.main(args) == 0
    assert sorted(seen) == ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]


def test_program_files_that_are_not_regular_files_under_it_are_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--program DIR` is a folder of schemas, read as untrusted files: a `schema.ts` that is a
    symlink leading out of DIR, a FIFO or a symlinked folder is not read (the page is the
    schema's alone), and nothing waits on the FIFO."""
    import os

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "schema.ts").write_text('export interface O { o: "c" | "b" }\n')
    tree = tmp_path / "tree"
    for key, text in TREE.items():
        (tree / key).mkdir(parents=True)
        (tree / key / "schema.ts").write_text(text)
    (tree / "a" / "schema.ts").unlink()
    (tree / "a" / "schema.ts").symlink_to(outside / "schema.ts")
    (tree / "0").mkdir()
    os.mkfifo(tree / "0" / "schema.ts")
    (tree / "1").symlink_to(outside, target_is_directory=True)
    page = str(tree / "b" / "schema.ts")
    assert cli.main(["reference", page, "--program", str(tree)]) == 0
    assert "y: &quot;a&quot; | &quot;c&quot; | &quot;b&quot;" in capsys.readouterr().out
