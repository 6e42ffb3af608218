"""typedoc's program, read only as asked (`codegen/reference/program.py`): a version name
brings the pinned versions before it (its page is the official page byte for byte), a path
parses no other file without `--program`, and `--program DIR` reads only regular files under
DIR, each once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from codegen import cli

PAGES = ["2025-06-18", "2025-11-25", "2026-07-28", "draft"]
TREE = {"a": 'export interface A { x: "b" | "a" }\n',
        "b": 'export interface B { y: "a" | "c" | "b" }\n'}  # fmt: skip
ALONE = "y: &quot;a&quot; | &quot;c&quot; | &quot;b&quot;"  # as written


def _parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every file parsed from now on (every read of a schema goes through it)."""
    import codegen.parse

    seen: list[str] = []
    check = codegen.parse._syntax_errors

    def spy(src: Any) -> Any:
        seen.append(src.path)
        return check(src)

    monkeypatch.setattr(codegen.parse, "_syntax_errors", spy)
    return seen


@pytest.mark.spec
@pytest.mark.parametrize("version", PAGES)
def test_version_name_page_is_the_official_page_byte_for_byte(
    spec_root: Path, tmp_path: Path, version: str
) -> None:
    out = tmp_path / "page.mdx"
    args = ["reference", version, "--spec-dir", str(spec_root), "--offline", "-o", str(out)]
    assert cli.main(args) == 0
    assert out.read_bytes() == (spec_root / version / "reference.mdx").read_bytes()


@pytest.mark.spec
def test_version_name_parses_the_pinned_versions_before_it_and_nothing_else(
    spec_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reference 2025-11-25` parses 2024-11-05, 2025-03-26, 2025-06-18 and itself: not the
    versions after it, nor a folder that is no pinned version (the spec folder's
    DRAFT-2025-v3)."""
    seen = _parsed(monkeypatch)
    out = tmp_path / "page.mdx"
    args = ["reference", "2025-11-25", "--spec-dir", str(spec_root), "--offline", "-o", str(out)]
    assert cli.main(args) == 0
    assert sorted(Path(p).parent.name for p in seen) == [
        "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]  # fmt: skip


def test_a_path_parses_no_other_file_without_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sibling that does not even parse changes nothing, because nothing but the page's
    schema is read; `--program DIR` parses exactly the files that sort before it, once."""
    for key, text in {**TREE, "0": "export interface {{ broken\n"}.items():
        (tmp_path / key).mkdir()
        (tmp_path / key / "schema.ts").write_text(text, encoding="utf-8")
    page = str(tmp_path / "b" / "schema.ts")
    seen = _parsed(monkeypatch)
    assert cli.main(["reference", page]) == 0
    assert ALONE in capsys.readouterr().out
    assert seen == [page]
    seen.clear()
    assert (
        cli.main(["reference", page, page, "--program", str(tmp_path), "-o", str(tmp_path / "s")])
        == 0
    )
    assert sorted(seen) == sorted(
        [page, page, f"{tmp_path}/0/schema.ts", f"{tmp_path}/a/schema.ts"]
    )


def test_program_files_that_are_not_regular_files_under_it_are_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--program DIR` is a folder of schemas read as untrusted files: a `schema.ts` that is a
    symlink leading out of DIR, a FIFO or a symlinked folder is not read (the page stays the
    schema's alone), and nothing waits on the FIFO."""
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
    assert ALONE in capsys.readouterr().out
