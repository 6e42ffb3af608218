"""Hostile includes: a schema's `{@includeCode PATH}` and its implicit `schema.mdx` template read
only regular files under the schema's own folder (or, for a schema read from git, regular blobs
of the same tree under that folder), within the input size limit. Everything else is a located
exit 2 and nothing of the refused file reaches the page."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from codegen import cli

SCHEMA = """\
/**
 * A thing.
 *
 * @example Included
 * {{@includeCode {path}}}
 */
export interface Thing {{
  a: string;
}}
"""
SECRET = "TOP-SECRET-VALUE"


def _tree(tmp_path: Path, include: str) -> Path:
    """tmp/secret.txt beside tmp/spec/, whose schema.ts includes `include`; examples/ holds a
    regular file, a symlink in and a symlink out, a FIFO and a link to a device."""
    (tmp_path / "secret.txt").write_text(SECRET)
    spec = tmp_path / "spec"
    ex = spec / "examples"
    ex.mkdir(parents=True)
    (ex / "ok.json").write_text('{"ok": true}\n')
    (ex / "in.json").symlink_to("ok.json")
    (ex / "out.json").symlink_to("../../secret.txt")
    (ex / "zero.json").symlink_to("/dev/zero")
    (ex / "sub").mkdir()
    os.mkfifo(ex / "fifo.json")
    (spec / "schema.ts").write_text(SCHEMA.format(path=include))
    return spec / "schema.ts"


def _reference(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["reference", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("include", "why"),
    [
        ("/proc/self/environ", "an absolute path"),
        ("/etc/passwd", "an absolute path"),
        ("../../etc/passwd", "'..' leaves the schema's folder"),
        ("../secret.txt", "'..' leaves the schema's folder"),
        ("./examples/../../secret.txt", "'..' leaves the schema's folder"),
        ("/dev/zero", "an absolute path"),
        ("/dev/stdin", "an absolute path"),
        ("./examples/out.json", "outside the schema's folder"),
        ("./examples/zero.json", "outside the schema's folder"),
        ("./examples/fifo.json", "is not a regular file"),
        ("./examples/sub", "is not a regular file"),
        ("./examples/none.json", "No such file"),
    ],
)
def test_include_outside_the_folder_or_not_a_file_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], include: str, why: str
) -> None:
    schema = _tree(tmp_path, include)
    out_file = tmp_path / "page.mdx"
    code, out, err = _reference(capsys, str(schema), "-o", str(out_file))
    assert code == 2, err
    assert f"{schema}:5:4: @includeCode {include}: " in err and why in err, err
    assert SECRET not in out + err and not out_file.exists()
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_includes_inside_the_folder_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for n, include in enumerate(("./examples/ok.json", "examples/in.json")):
        (tmp_path / str(n)).mkdir()
        schema = _tree(tmp_path / str(n), include)
        code, out, err = _reference(capsys, str(schema))
        assert code == 0, err
        assert "&quot;ok&quot;" in out or '"ok"' in out


def test_include_and_template_within_the_size_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = _tree(tmp_path, "./examples/ok.json")
    (schema.parent / "examples" / "ok.json").write_text('{"big": "' + "x" * 2000 + '"}\n')
    code, _, err = _reference(capsys, str(schema), "--max-input-size", "1K")
    assert code == 2
    assert "@includeCode ./examples/ok.json is larger than the input size limit of 1 KiB" in err
    assert "--max-input-size" in err and "MCP_CODEGEN_MAX_INPUT_SIZE" in err
    monkeypatch.setenv("MCP_CODEGEN_MAX_INPUT_SIZE", "1K")
    assert _reference(capsys, str(schema))[0] == 2
    assert _reference(capsys, str(schema), "--max-input-size", "1M")[0] == 0


@pytest.mark.parametrize("target", ["/proc/self/environ", "/dev/zero", "../secret.txt"])
def test_implicit_template_is_a_file_of_the_folder_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    schema = _tree(tmp_path, "./examples/ok.json")
    (schema.parent / "schema.mdx").symlink_to(target)
    code, out, err = _reference(capsys, str(schema))
    assert code == 2
    assert f"{schema.parent}/schema.mdx:1:1: template: " in err
    assert SECRET not in out + err and "PATH=" not in out + err


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def test_git_schema_includes_blobs_of_its_own_tree_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reference REF:PATH`: includes come from the same commit's tree, not from the checkout;
    a symlink blob is refused even when it points inside."""
    schema = _tree(tmp_path, "./examples/ok.json")
    (schema.parent / "examples" / "fifo.json").unlink()
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    (schema.parent / "examples" / "ok.json").write_text('{"changed": 1}\n')  # the checkout moves
    monkeypatch.chdir(tmp_path)
    code, out, err = _reference(capsys, "HEAD:spec/schema.ts")
    assert code == 0, err
    assert "ok" in out and "changed" not in out
    for include, why in [
        ("./examples/in.json", "is a symlink, not a regular file"),
        ("./examples/out.json", "is a symlink, not a regular file"),
        ("../secret.txt", "'..' leaves"),
        ("/proc/self/environ", "an absolute path"),
        ("./examples/nope.json", "no such file in that tree"),
    ]:
        schema.write_text(SCHEMA.format(path=include))
        _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", include)
        code, out, err = _reference(capsys, "HEAD:spec/schema.ts")
        assert code == 2 and f"HEAD:spec/schema.ts:5:4: @includeCode {include}: " in err, err
        assert why in err and SECRET not in out + err


@pytest.mark.parametrize(
    "tag", ["{@include ../secret.txt}", "{@include /proc/self/environ}", "{@inline ../secret.txt}"]
)
def test_other_include_tags_read_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tag: str
) -> None:
    """Only `{@includeCode}` reads a file; typedoc's other inline tags stay text on the page."""
    schema = _tree(tmp_path, "./examples/ok.json")
    schema.write_text(schema.read_text().replace(" * A thing.", f" * A thing. {tag}"))
    code, out, err = _reference(capsys, str(schema))
    assert code == 0, err
    assert SECRET not in out and "PATH=" not in out
