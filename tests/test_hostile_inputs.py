"""Inputs that cannot be swapped or blown up: a `REF:PATH` whose REF resolves is read from git
whatever files the checkout holds; a REF starting with `-` never reaches git; one size limit
for every schema, template, settings file, git blob and standard input, checked before the
whole is read; settings JSON that is deep or holds a 5,000-digit number is a located exit 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codegen import cli

REPO = Path(__file__).resolve().parent.parent
V1 = REPO / "schemas" / "example" / "v1" / "schema.ts"
V2 = REPO / "schemas" / "example" / "v2" / "schema.ts"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
                   check=True, capture_output=True)  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with branch `base` at v1 and v2 checked out, as the current directory."""
    if shutil.which("git") is None:
        pytest.fail("git is not installed")
    r = tmp_path / "repo"
    r.mkdir()
    _git(r, "init", "-q", "-b", "work")
    shutil.copy(V1, r / "schema.ts")
    _git(r, "add", "schema.ts")
    _git(r, "commit", "-qm", "v1")
    _git(r, "branch", "base")
    shutil.copy(V2, r / "schema.ts")
    _git(r, "commit", "-qam", "v2")
    monkeypatch.chdir(r)
    return r


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _cli(*argv: str, stdin: int | bytes | None = None, cwd: Path = REPO) -> tuple[int, str, float]:
    """The real program in a child process: (exit code, stderr, seconds)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "codegen", *argv], cwd=cwd, capture_output=True,
                          timeout=120, check=False, stdin=stdin if isinstance(stdin, int) else None,
                          input=stdin if isinstance(stdin, bytes) else None)  # fmt: skip
    return done.returncode, done.stderr.decode(), time.monotonic() - start


# --------------------------------------------------------------------------- swapped inputs


def test_a_file_named_like_the_git_side_cannot_replace_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pull request adds `base:schema.ts` (its own schema): git's `base` is still read."""
    shutil.copy(V2, repo / "base:schema.ts")
    code, out, err = _run(capsys, "diff", "base:schema.ts", "schema.ts", "--format", "json",
                          "--fail-on", "breaking")  # fmt: skip
    doc = json.loads(out)
    assert doc["findings"] and doc["old"]["label"] == "base", err
    assert code == 1
    # `./NAME` is how the file is named
    code, out, _ = _run(capsys, "diff", "./base:schema.ts", "schema.ts", "--format", "json")
    assert code == 0 and json.loads(out)["findings"] == []


def test_a_file_beside_a_ref_git_lacks_is_ambiguous(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shallow clone without origin/main, and the checkout holds `origin/main:schema.ts`."""
    (repo / "origin").mkdir()
    shutil.copy(V2, repo / "origin" / "main:schema.ts")
    code, out, err = _run(capsys, "diff", "origin/main:schema.ts", "schema.ts",
                          "--fail-on", "breaking")  # fmt: skip
    assert code == 2 and out == ""
    assert err.startswith("origin/main:schema.ts:1:1: origin/main:schema.ts is a file")
    assert "write ./origin/main:schema.ts" in err


@pytest.mark.parametrize("ref", ["--output=/tmp/pwned", "-p", "--end-of-options", "-"])
def test_refs_starting_with_a_dash_are_refused(
    repo: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, ref: str
) -> None:
    target = tmp_path / "written"
    arg = f"{ref.replace('/tmp/pwned', str(target))}:schema.ts"
    for argv in (["diff", "--", arg, "schema.ts"], ["reference", "--", arg]):
        code, out, err = _run(capsys, *argv)
        assert code == 2 and out == "", err
        assert "cannot start with '-'" in err or "No such file" in err
        assert not target.exists()


def test_git_is_never_handed_the_argument_as_an_option(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Odd but legal-looking refs travel on stdin to cat-file: no option, no second line."""
    for arg in ["base --output=x:schema.ts", "base\n--batch:schema.ts", "HEAD@{-1}:schema.ts"]:
        code, _, err = _run(capsys, "diff", arg, "schema.ts")
        assert code == 2 and "git cannot read" in err, err
    assert not (repo / "x").exists()


# --------------------------------------------------------------------------- size limits


def test_every_input_kind_has_the_size_limit(
    repo: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    small = tmp_path / "small.ts"
    small.write_text("export interface A {\n  a: string;\n}\n")
    big = tmp_path / "big.ts"
    big.write_text(small.read_text() + "// " + "x" * 4096 + "\n")
    names = tmp_path / "names.json"
    names.write_text(json.dumps({"a": "B" * 4096}))
    cases = [
        ["ir", str(big)],
        ["diff", str(big), str(small)],
        ["reference", str(small), "--template", str(big)],
        ["ir", str(small), "--names", str(names)],
        ["diff", str(small), str(small), "--ignore", str(names)],
    ]
    for argv in cases:
        code, _, err = _run(capsys, *argv, "--max-input-size", "4K")
        assert code == 2, (argv, err)
        assert "is larger than the input size limit of 4 KiB" in err, err
        assert "--max-input-size" in err and "$MCP_CODEGEN_MAX_INPUT_SIZE" in err
    # a git blob: refused from its size in the tree, before it is read
    code, _, err = _run(capsys, "diff", "base:schema.ts", str(small), "--max-input-size", "4K")
    assert code == 2, err
    assert err.startswith("base:schema.ts:1:1: schema is larger than the input size limit of 4 KiB")


@pytest.mark.parametrize("size", ["0", "-1", "lots", "1T", "4 KB"])
def test_a_bad_limit_is_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, size: str
) -> None:
    code, _, err = _run(capsys, "ir", str(V1), "--max-input-size", size)
    assert code == 2 and "--max-input-size: expected a size" in err
    monkeypatch.setenv("MCP_CODEGEN_MAX_INPUT_SIZE", size)
    code, _, err = _run(capsys, "ir", str(V1))
    assert code == 2 and "$MCP_CODEGEN_MAX_INPUT_SIZE: expected a size" in err


@pytest.mark.slow
def test_dev_zero_and_closed_stdin_are_refused_quickly(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        code, err, took = _cli("diff", "-", str(V1), stdin=zero.fileno())
    assert code == 2 and "<stdin>:1:1: standard input is larger than" in err and took < 20
    code, err, took = _cli("ir", "/dev/zero")
    assert code == 2 and "/dev/zero:1:1: schema is larger than" in err and took < 20
    code, err, took = _cli("reference", str(V1), "--template", "/dev/zero")
    assert code == 2 and "/dev/zero:1:1: template is larger than" in err and took < 20
    # `diff - x <&-`: no standard input at all
    done = subprocess.run(f"{sys.executable} -m codegen diff - {V1} <&-", shell=True, cwd=REPO,
                          capture_output=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert b"<stdin>:1:1: standard input is closed" in done.stderr


# --------------------------------------------------------------------------- settings JSON

DEEP = "[" * 100_000 + "]" * 100_000
DIGITS = '{"ignore": [{"id": ' + "9" * 5000 + ', "reason": "x"}]}'


def _settings(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "settings.json"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "text", [DEEP, DIGITS, '{"a":\n  ' + "1" * 5000 + "}"], ids=["deep", "digits", "digits-line-2"]
)
@pytest.mark.parametrize("option", ["--ignore", "auto", "--names", "--app-renames", "--profile"])
def test_deep_or_long_numbers_in_settings_are_located_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    option: str, text: str,
) -> None:  # fmt: skip
    path = _settings(tmp_path, text)
    monkeypatch.chdir(tmp_path)
    if option == "auto":
        path.rename(tmp_path / ".mcp-codegen-diff.json")
        path = tmp_path / ".mcp-codegen-diff.json"
        argv = ["diff", str(V1), str(V2)]
    elif option == "--ignore":
        argv = ["diff", str(V1), str(V2), "--ignore", str(path)]
    elif option == "--names":
        argv = ["ir", str(V1), "--names", str(path)]
    elif option == "--app-renames":
        argv = [str(V1), str(V2), "--package", "pkg", "--app-renames", str(path), "-o", "out"]
    else:
        argv = [str(V1), "--target", "pydantic", "--profile", str(path), "-o", "out"]
    code, _, err = _run(capsys, *argv)
    assert code == 2, err
    name = str(path) if option != "auto" else ".mcp-codegen-diff.json"
    assert err.startswith(f"{name}:"), err
    assert "nested too deep" in err or "number too long" in err
    if text != DEEP:  # the number's own line and column
        line = 2 if text.startswith('{"a":\n') else 1
        assert err.startswith(f"{name}:{line}:"), err
    assert "Traceback" not in err and not (tmp_path / "out").exists()
