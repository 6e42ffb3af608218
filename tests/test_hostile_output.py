"""Hostile output paths: mcp-codegen writes only what it owns. A previous output keeps every entry
the tool did not write, exactly as it was (symlinks, hard links, FIFOs, empty folders, modes); a
folder that is no output of mcp-codegen, a file, the working directory are refused; every path
or option problem is one line and exit 2; a run killed at any instant leaves the whole old or
the whole new output and nothing behind that the next run does not clean up."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import read_only

from codegen import cli, ir, swap, write
from codegen.pipeline import load
from codegen.targets import Request
from codegen.targets.python import outputs

REPO = Path(__file__).resolve().parent.parent
V1 = str(REPO / "schemas/example/v1/schema.ts")
V2 = str(REPO / "schemas/example/v2/schema.ts")
MANIFEST = write.MANIFEST
STDLIB_NAMES = ["json", "typing", "dataclasses", "enum", "collections", "re", "os", "sys"]


_RENDER_ALL = outputs.render_all
_RENDERED: dict[str, dict[str, str]] = {}


def _render_all(
    resolved: ir.Resolved, formatter: str = "ruff", request: Request | None = None
) -> dict[str, str]:
    """The real output of a schema, rendered once per session (by the schema's sha256)."""
    key = f"{resolved.sha256}:{formatter}"
    if key not in _RENDERED:
        _RENDERED[key] = _RENDER_ALL(resolved, formatter, request)
    return dict(_RENDERED[key])


def rendered(path: str) -> dict[str, str]:
    return _render_all(load(path))


@pytest.fixture(autouse=True)
def _render_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI renders through the cache above: the output is the real one, made once."""
    monkeypatch.setattr(outputs, "render_all", _render_all)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().err


def one_line(err: str) -> str:
    """The single error line of a refused run (no traceback, nothing else)."""
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("mcp-codegen: ") or lines[0].startswith("<command line>"), err
    return lines[0]


def snapshot(root: Path) -> dict[str, tuple[str, object]]:
    """Every entry under `root` by kind: file bytes and mode, symlink target, FIFO, folder mode."""
    out: dict[str, tuple[str, object]] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            out[rel] = ("link", os.readlink(path))
        elif stat.S_ISFIFO(info.st_mode):
            out[rel] = ("fifo", stat.S_IMODE(info.st_mode))
        elif stat.S_ISDIR(info.st_mode):
            out[rel] = ("dir", stat.S_IMODE(info.st_mode))
        else:
            out[rel] = ("file", (path.read_bytes(), stat.S_IMODE(info.st_mode)))
    return out


def siblings(path: Path) -> list[str]:
    """Everything beside `path` whose name starts with `.NAME.` (temporary leftovers)."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(f".{path.name}."))


def add_user_entries(out: Path, outside: Path) -> dict[str, tuple[str, object]]:
    """Every kind of entry a user may keep in an output folder; returns their snapshot."""
    outside.mkdir(exist_ok=True)
    (outside / "shared.txt").write_text("linked\n")
    (outside / "real.txt").write_text("pointed at\n")
    (out / "empty").mkdir()
    (out / "to_dir").symlink_to(outside)
    (out / "dangling").symlink_to(outside / "nothing-here")
    (out / "to_file").symlink_to(outside / "real.txt")
    os.mkfifo(out / "fifo")
    os.link(outside / "shared.txt", out / "hard.txt")
    (out / "__pycache__").mkdir(exist_ok=True)
    (out / "__pycache__" / "notes.txt").write_text("mine\n")
    (out / "notes").mkdir()
    (out / "notes" / "todo.md").write_text("- keep me\n")
    (out / "notes" / "todo.md").chmod(0o640)
    (out / "notes").chmod(0o750)
    (out / "USER.md").write_text("readme\n")
    return user_part(out, write._manifest(out) or set())


def user_part(out: Path, generated: set[str]) -> dict[str, tuple[str, object]]:
    """The entries of `out` that are not generated (bytecode aside)."""
    return {
        k: v
        for k, v in snapshot(out).items()
        if k not in generated and not (k.startswith("__pycache__/") and k.endswith(".pyc"))
    }


# ------------------------------------------------------------------ files are never replaced


def test_o_an_existing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    (tmp_path / "link.txt").symlink_to(notes)
    for given in (notes, tmp_path / "link.txt"):
        code, err = run(capsys, V2, "-o", str(given))
        assert code == 2
        assert one_line(err) == (
            f"mcp-codegen: {given} is a file, not a directory: mcp-codegen writes a directory "
            "and never replaces a file; give another -o"
        )
    assert notes.read_text() == "my notes\n" and (tmp_path / "link.txt").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "notes.txt"]


def test_user_entries_of_a_previous_output_are_kept_as_they_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pkg"
    assert run(capsys, V1, "-o", str(out))[0] == 0
    out.chmod(0o751)
    (out / "__pycache__").mkdir()
    (out / "__pycache__" / "models.cpython-311.pyc").write_bytes(b"stale bytecode")
    before = add_user_entries(out, tmp_path / "outside")
    inode = (out / "hard.txt").stat().st_ino

    assert run(capsys, V2, "-o", str(out))[0] == 0
    generated = set(rendered(V2)) | {MANIFEST}
    assert user_part(out, generated) == {k: v for k, v in before.items() if k not in generated}
    assert stat.S_IMODE(out.stat().st_mode) == 0o751  # the folder's own mode too
    assert (out / "hard.txt").stat().st_ino == inode  # still the file outside, not a copy
    (tmp_path / "outside" / "shared.txt").write_text("changed outside\n")
    assert (out / "hard.txt").read_text() == "changed outside\n"
    assert not (out / "__pycache__" / "models.cpython-311.pyc").exists()  # the tool's own
    assert {rel: (out / rel).read_text() for rel in rendered(V2)} == rendered(V2)
    assert siblings(out) == []


def test_history_keeps_symlinks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "history"
    assert run(capsys, "history", V1, V2, "-o", str(out))[0] == 0
    (out / "latest.html").symlink_to("v1..v2.html")
    (out / "assets").symlink_to(tmp_path)
    assert run(capsys, "history", V2, V1, "-o", str(out))[0] == 0
    assert os.readlink(out / "latest.html") == "v1..v2.html"
    assert os.readlink(out / "assets") == str(tmp_path)


def test_a_distribution_keeps_user_files_and_drops_what_it_no_longer_generates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dist"
    assert run(capsys, V1, "--package", "mcp_x", "-o", str(out))[0] == 0
    (out / "mcp_x" / "v1_0" / "local.py").write_text("# mine\n")
    (out / "tox.ini").write_text("[tox]\n")
    (out / "mcp_x" / "v1_0").chmod(0o700)
    assert run(capsys, V2, "--package", "mcp_x", "-o", str(out))[0] == 0
    assert sorted(p.name for p in (out / "mcp_x" / "v1_0").iterdir()) == ["local.py"]
    assert stat.S_IMODE((out / "mcp_x" / "v1_0").stat().st_mode) == 0o700
    assert (out / "tox.ini").read_text() == "[tox]\n" and (out / "mcp_x" / "v2_0").is_dir()
    assert siblings(out) == []


def test_o_a_symlink_to_a_folder_writes_into_that_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to("real")
    assert run(capsys, V2, "-o", str(tmp_path / "link"))[0] == 0
    assert run(capsys, V2, "-o", str(tmp_path / "link"))[0] == 0
    assert os.readlink(tmp_path / "link") == "real" and (tmp_path / "real" / "models.py").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def test_a_read_only_folder_of_the_user_is_kept_and_nothing_is_left_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pkg"
    assert run(capsys, V1, "-o", str(out))[0] == 0
    (out / "frozen").mkdir()
    (out / "frozen" / "a.txt").write_text("a\n")
    (out / "frozen").chmod(0o555)
    try:
        assert run(capsys, V2, "-o", str(out))[0] == 0
        assert (out / "frozen" / "a.txt").read_text() == "a\n"
        assert stat.S_IMODE((out / "frozen").stat().st_mode) == 0o555
        assert siblings(out) == []
    finally:
        (out / "frozen").chmod(0o755)


@pytest.mark.slow  # every path operation walks 1,100 components: quadratic in the depth
def test_a_user_folder_1100_levels_deep_is_kept(tmp_path: Path) -> None:
    """Carrying and removing folders needs no recursion (Python's limit is 1,000 frames)."""
    out = tmp_path / "pkg"
    write.write_tree(out, {"a.py": "x = 1\n"})
    deepest = out / "u"
    deepest.mkdir()
    for _ in range(1100):  # not os.makedirs: it recurses
        deepest = deepest / "d"
        deepest.mkdir()
    (deepest / "leaf.txt").write_text("deep\n")
    try:
        write.write_tree(out, {"a.py": "x = 2\n"})
        assert (deepest / "leaf.txt").read_text() == "deep\n"
        assert (out / "a.py").read_text() == "x = 2\n" and siblings(out) == []
    finally:
        swap.remove(out / "u")  # pytest's own clean-up recurses


# ----------------------------------------------------------- folders that are not the tool's


def test_a_folder_that_is_no_output_is_refused_unless_empty_or_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "project"
    out.mkdir()
    (out / "main.py").write_text("print('mine')\n")
    code, err = run(capsys, V2, "-o", str(out))
    assert code == 2
    assert one_line(err) == (
        f"mcp-codegen: {out} is not empty and is no output of mcp-codegen (it has no "
        f"{MANIFEST}): refusing to write into it; give --force to write there anyway (what "
        "mcp-codegen does not generate is kept)"
    )
    assert snapshot(out) == {"main.py": ("file", (b"print('mine')\n", 0o644))}
    assert run(capsys, V2, "-o", str(out), "--force")[0] == 0
    assert (out / "main.py").read_text() == "print('mine')\n" and (out / "models.py").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(capsys, V2, "-o", str(empty))[0] == 0 and (empty / MANIFEST).is_file()


def test_a_user_file_where_a_generated_file_goes_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert run(capsys, V2, "-o", str(out), "--target", "zod")[0] == 0  # an output without models.py
    (out / "models.py").write_text("# my own models\n")
    code, err = run(capsys, V2, "-o", str(out))
    assert code == 2
    assert one_line(err) == (
        f"mcp-codegen: {out / 'models.py'} was not written by mcp-codegen (its manifest does "
        "not list it) and would be overwritten: move it away, or give --force to overwrite it"
    )
    assert (out / "models.py").read_text() == "# my own models\n"
    assert not (out / "codec.py").exists()
    assert run(capsys, V2, "-o", str(out), "--force")[0] == 0
    assert (out / "models.py").read_text() == rendered(V2)["models.py"]


def test_a_user_folder_where_a_generated_file_goes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pkg"
    assert run(capsys, V2, "-o", str(out))[0] == 0
    (out / "models.py").unlink()
    (out / "models.py").mkdir()
    (out / "models.py" / "mine.txt").write_text("x\n")
    before = snapshot(out)
    for force in ([], ["--force"]):
        code, err = run(capsys, V2, "-o", str(out), *force)
        assert code == 2
        assert one_line(err) == (
            f"mcp-codegen: {out / 'models.py'} is a directory where mcp-codegen writes a file; "
            "move it away"
        )
        assert snapshot(out) == before and siblings(out) == []


def test_the_working_directory_and_its_parents_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "work" / "here"
    here.mkdir(parents=True)
    (here / "mine.txt").write_text("x\n")
    monkeypatch.chdir(here)
    for given in (".", "..", str(here), "../here", "../.."):
        code, err = run(capsys, V2, "-o", given, "--force")
        assert code == 2
        assert one_line(err) == (
            f"mcp-codegen: -o {given} is the current directory or contains it: mcp-codegen "
            "replaces its output directory as a whole; give a directory of its own (e.g. -o out)"
        )
    assert sorted(p.name for p in here.iterdir()) == ["mine.txt"]
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["here"]


def test_the_mode_of_a_new_folder_is_the_usual_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    umask = os.umask(0o027)
    try:
        assert run(capsys, V2, "-o", str(tmp_path / "pkg"))[0] == 0
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "pkg").stat().st_mode) == 0o750


# ------------------------------------------------------------- one line, exit 2, never exit 3


def test_output_path_errors_are_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (tmp_path / "file.txt").write_text("x\n")
    (tmp_path / "reports").mkdir()
    cases = {
        (V2, "-o", str(locked / "pkg")): f"cannot write {locked / 'pkg'}: ",
        (V2, "-o", str(tmp_path / "file.txt" / "pkg")): (
            f"mcp-codegen: cannot write {tmp_path / 'file.txt' / 'pkg'}: "
            f"{tmp_path / 'file.txt'} is a file, not a directory"
        ),
        ("diff", V1, V2, "-o", str(tmp_path / "reports")): (
            f"mcp-codegen: cannot write {tmp_path / 'reports'}: it is a directory"
        ),
        ("ir", V1, "-o", str(locked / "ir.json")): f"cannot write {locked / 'ir.json'}: ",
        ("history", V1, V2, "-o", str(locked / "pages")): f"cannot write {locked / 'pages'}: ",
    }
    with read_only(locked):
        for argv, expected in cases.items():
            code, err = run(capsys, *argv)
            assert code == 2, err
            assert expected in one_line(err)
    assert list(locked.iterdir()) == [] and list((tmp_path / "reports").iterdir()) == []


@pytest.mark.parametrize("name", STDLIB_NAMES)
def test_package_names_of_the_standard_library_are_refused(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(capsys, V1, V2, "--package", name, "-o", str(tmp_path / "dist"))
    assert code == 2
    assert one_line(err) == (
        f"<command line>:1:1: --package {name!r}: a standard-library module of that name "
        f"exists, which the package would shadow or be shadowed by; choose another (like "
        f"mcp_{name})"
    )
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- what killed runs leave


def test_leftovers_of_killed_runs_are_cleaned_and_user_files_recovered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An earlier version's kill between its two renames left the user's file only in
    `.pkg.old-*`, and a rerun wrote a fresh `pkg` without it; a kill mid-build left a
    `.pkg.tmp-*`. The next run puts the file back and removes both."""
    out = tmp_path / "pkg"
    assert run(capsys, V1, "-o", str(out))[0] == 0
    old = tmp_path / ".pkg.old-abcd1234"
    write.write_tree(old, rendered(V1))
    (old / "USER.md").write_text("only here\n")
    partial = tmp_path / ".pkg.tmp-wxyz_987"
    partial.mkdir()
    (partial / "models.py").write_text("half a file")
    killed_run_left(out, old, partial)
    code, err = run(capsys, V2, "-o", str(out))
    assert code == 0
    assert (out / "USER.md").read_text() == "only here\n"
    assert siblings(out) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["pkg"]
    assert f"mcp-codegen: removed {old}, left by a killed run" in err
    assert f"mcp-codegen: removed {partial}, left by a killed run" in err


def killed_run_left(target: Path, *leftovers: Path) -> None:
    """Make `leftovers` what a killed run leaves: entries its journal lists."""
    with swap.journal(target).open("a") as f:
        f.writelines(p.name + "\n" for p in leftovers)


def test_without_a_lock_only_old_leftovers_are_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no lock can be taken (Windows), a young leftover may be a live run's: it is left
    alone until it is older than swap.UNLOCKED_GRACE."""

    @contextlib.contextmanager
    def unlocked(folder: Path) -> Iterator[bool]:
        yield False

    monkeypatch.setattr(swap, "locked", unlocked)
    out = tmp_path / "pkg"
    write.write_tree(out, rendered(V1))
    live = tmp_path / ".pkg.tmp-l1ve0000"
    live.mkdir()
    killed_run_left(out, live)
    write.write_tree(out, rendered(V2))
    assert siblings(out) == sorted([live.name, swap.journal(out).name])
    past = time.time() - swap.UNLOCKED_GRACE - 60
    os.utime(live, (past, past))
    write.write_tree(out, rendered(V1))
    assert siblings(out) == []


def test_a_kill_between_the_fallback_renames_is_recovered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without renameat2 the swap is two renames; a kill between them leaves no target and the
    old output whole under `.pkg.old-*`: the next run puts it back, user files included."""
    out = tmp_path / "pkg"
    assert run(capsys, V1, "-o", str(out))[0] == 0
    (out / "USER.md").write_text("mine\n")
    os.rename(out, tmp_path / ".pkg.old-0123abcd")
    write.write_tree(tmp_path / ".pkg.tmp-0123abcd", rendered(V2))  # the complete new one
    killed_run_left(out, tmp_path / ".pkg.old-0123abcd", tmp_path / ".pkg.tmp-0123abcd")
    assert run(capsys, V2, "-o", str(out))[0] == 0
    assert (out / "USER.md").read_text() == "mine\n" and (out / "models.py").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pkg"]


def test_failure_mid_swap_leaves_the_old_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fallback's second rename fails (once): the first is undone."""
    out = tmp_path / "pkg"
    write.write_tree(out, rendered(V1))
    before = snapshot(out)
    monkeypatch.setattr(swap, "exchange", lambda a, b: False)
    real = os.rename

    failed: list[object] = []

    def rename(src: object, dst: object) -> None:
        if str(dst) == str(out) and not failed:
            failed.append(src)
            raise OSError(5, "Input/output error (injected)")
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(write.OutputError, match="Input/output error"):
        write.write_tree(out, rendered(V2))
    monkeypatch.undo()
    assert snapshot(out) == before and siblings(out) == []


# ------------------------------------------------------------------------------ SIGKILL


CHILD = r"""
import json, os, sys, time
from collections.abc import Iterator
from pathlib import Path
from codegen import swap, write

files = json.loads(Path(sys.argv[1]).read_text())
target, window = Path(sys.argv[2]), sys.argv[3]

def pause():
    print("WINDOW", flush=True)
    time.sleep(60)

if window == "before-exchange":
    real = swap.exchange
    swap.exchange = lambda a, b: (pause(), real(a, b))[1]
elif window == "after-exchange":
    real = swap.exchange
    swap.exchange = lambda a, b: (real(a, b), pause())[0]
elif window == "between-renames":
    swap.exchange = lambda a, b: False
    real_rename = os.rename
    def rename(src, dst):
        real_rename(src, dst)
        if str(src) == str(target):
            pause()
    os.rename = rename
print("READY", flush=True)
start = time.perf_counter()
write.write_tree(target, files)
print(f"DONE {time.perf_counter() - start}", flush=True)
"""


def _child(files: Path, target: Path, window: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path])}
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(files), str(target), window],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_for(proc: subprocess.Popen[str], word: str) -> None:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == word, line


def _complete(out: Path, outputs_: list[dict[str, str]]) -> bool:
    """`out` holds one of `outputs_` whole: its manifest and every file byte for byte."""
    listed = write._manifest(out)
    for files in outputs_:
        if listed == set(files) | {MANIFEST} and all(
            (out / rel).read_text() == text for rel, text in files.items()
        ):
            return True
    return False


@pytest.mark.slow
def test_sigkill_at_random_instants_and_in_the_swap_window(tmp_path: Path) -> None:
    old, new = rendered(V1), rendered(V2)
    paths: dict[str, Path] = {}
    for name, files in (("old", old), ("new", new)):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(files))
    out = tmp_path / "run" / "pkg"
    out.parent.mkdir()
    write.write_tree(out, old)
    users = add_user_entries(out, tmp_path / "outside")
    inode = (out / "hard.txt").stat().st_ino

    def user_files_intact() -> None:
        assert user_part(out, set(old) | set(new) | {MANIFEST}) == users
        assert (out / "hard.txt").stat().st_ino == inode

    # how long one write takes, unkilled (the random instants fall within it, and a little after)
    proc = _child(paths["new"], out, "none")
    _wait_for(proc, "READY")
    assert proc.stdout is not None
    span = 1.5 * float(proc.stdout.readline().split()[1])
    assert proc.wait(60) == 0
    user_files_intact()
    assert _complete(out, [new])

    rng = random.Random(23)
    windows = ["before-exchange", "after-exchange", "between-renames"] + ["none"] * 20
    for i, window in enumerate(windows):
        proc = _child(paths["old"] if i % 2 == 0 else paths["new"], out, window)
        _wait_for(proc, "READY")
        if window == "none":
            time.sleep(rng.uniform(0, span))
        else:
            _wait_for(proc, "WINDOW")
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
        if window == "between-renames":
            assert not out.exists()  # the fallback's one gap; the old output is beside it
            found = [n.split("-")[0] for n in siblings(out)]
            assert found == [".pkg.mcp", ".pkg.old", ".pkg.tmp"]  # the journal lists them
        else:
            assert out.is_dir() and not out.is_symlink()
            assert _complete(out, [old, new]), window
            user_files_intact()
        # the next run cleans up and finds every user entry
        write.write_tree(out, new if i % 2 == 0 else old)
        assert siblings(out) == [] and sorted(p.name for p in out.parent.iterdir()) == ["pkg"]
        assert _complete(out, [new if i % 2 == 0 else old])
        user_files_intact()


def test_concurrent_pairs_end_with_one_complete_output(tmp_path: Path) -> None:
    """Runs writing one target at once take turns (a lock on its folder): each pair ends with
    one whole output, the user's entries and no temporary directory."""
    old, new = rendered(V1), rendered(V2)
    paths = {"old": tmp_path / "old.json", "new": tmp_path / "new.json"}
    paths["old"].write_text(json.dumps(old))
    paths["new"].write_text(json.dumps(new))
    out = tmp_path / "run" / "pkg"
    out.parent.mkdir()
    write.write_tree(out, old)
    users = add_user_entries(out, tmp_path / "outside")
    for _ in range(4):
        pair = [_child(paths["old"], out, "none"), _child(paths["new"], out, "none")]
        assert [p.wait(60) for p in pair] == [0, 0]
        assert _complete(out, [old, new]) and siblings(out) == []
        assert user_part(out, set(old) | set(new) | {MANIFEST}) == users
