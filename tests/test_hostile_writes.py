"""Writing only what is ours: an `-o` that names a device, a FIFO or a socket is refused, never
renamed over; a folder or file beside `-o` that merely looks like a leftover of a killed run
(a user's `.pkg.old-20261201` backup) is kept, and what a run does remove it says; `--package`
refuses names the package could not be imported under."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from codegen import cli, swap, write

REPO = Path(__file__).resolve().parent.parent
V1 = str(REPO / "schemas/example/v1/schema.ts")
V2 = str(REPO / "schemas/example/v2/schema.ts")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().err


def _specials(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """A FIFO, a socket, a symlink to the FIFO and a character device of our own (a `/dev/null`
    made with mknod where the tests run as root: the system's is never at stake, even if the
    code under test were wrong), each with the kind the message names."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    sock.close()
    link = tmp_path / "link"
    link.symlink_to(fifo)
    out = {"fifo": (fifo, "a FIFO"), "sock": (sock_path, "a socket"), "link": (link, "a FIFO")}
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        if os.geteuid() == 0:
            raise
    else:
        out["null"] = (null, "a character device")
    return out


@pytest.mark.parametrize(
    "command",
    [
        ("diff", V1, V2, "-o"),
        ("ir", V1, "-o"),
        ("jsonschema", V1, "-o"),
        ("reference", V1, "-o"),
        (V1, "-o"),  # a package directory
        ("history", V1, V2, "-o"),
    ],
    ids=["diff", "ir", "jsonschema", "reference", "package", "history"],
)
def test_o_naming_a_device_fifo_or_socket_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    for path, kind in _specials(tmp_path).values():
        before = os.stat(path)
        code, err = _run(capsys, *command, str(path))
        assert code == 2, err
        assert str(path) in err and f"is {kind}, not a" in err, err
        assert len(err.splitlines()) == 1
        after = os.stat(path)
        assert (after.st_ino, after.st_mode, after.st_rdev) == (
            before.st_ino,
            before.st_mode,
            before.st_rdev,
        )
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name or ".old-" in p.name]


@pytest.mark.slow
def test_folders_named_like_leftovers_are_the_user_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup beside `-o` (`cp -a pkg .pkg.old-20261201`, a generated output with its
    manifest) and look-alikes of every kind survive every run."""
    out = tmp_path / "pkg"
    assert _run(capsys, V1, "-o", str(out))[0] == 0
    backup = tmp_path / ".pkg.old-20261201"
    write.write_tree(backup, {"models.py": "# my backup\n"})
    (backup / "NOTES.md").write_text("mine\n")
    lookalikes = [tmp_path / ".pkg.tmp-abcdefgh", tmp_path / ".pkg.old-00000000"]
    for p in lookalikes:
        p.mkdir()
    note = tmp_path / ".out.json.tmp-12345678"  # beside a single-file output
    note.write_text("a file of the user's\n")
    for argv in (
        [V2, "-o", str(out)],
        [V1, "-o", str(out)],
        ["ir", V1, "-o", str(tmp_path / "out.json")],
    ):
        code, err = _run(capsys, *argv)
        assert code == 0, err
        assert "removed" not in err
    assert (backup / "NOTES.md").read_text() == "mine\n"
    assert (backup / "models.py").read_text() == "# my backup\n"
    assert all(p.is_dir() for p in lookalikes) and note.read_text() == "a file of the user's\n"
    assert not swap.journal(out).exists()  # a run that was not killed leaves no journal


@pytest.mark.slow
def test_a_killed_run_s_leftovers_are_removed_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run dies after building its temporary folder: the next run removes that one (it is
    in the journal) and says so; a look-alike beside it stays."""
    out = tmp_path / "pkg"
    assert _run(capsys, V1, "-o", str(out))[0] == 0

    def die(new: Path, target: Path) -> Path | None:
        raise KeyboardInterrupt  # the run stops before its swap

    monkeypatch.setattr(swap, "install", die)
    monkeypatch.setattr(swap, "remove", lambda path: None)  # ... and cleans up nothing
    assert _run(capsys, V2, "-o", str(out))[0] == 130
    monkeypatch.undo()
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".pkg.tmp-")]
    assert len(left) == 1 and swap.journal(out).is_file()
    lookalike = tmp_path / ".pkg.tmp-zzzzzzzz"
    lookalike.mkdir()
    code, err = _run(capsys, V2, "-o", str(out))
    assert code == 0
    assert f"mcp-codegen: removed {left[0]}, left by a killed run" in err
    assert not left[0].exists() and lookalike.is_dir() and not swap.journal(out).exists()


@pytest.mark.parametrize("name", ["__main__", "__pycache__", "__init__", "__future__", "xxsubtype"])
def test_package_names_that_cannot_be_imported_are_refused(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _run(capsys, V1, V2, "--package", name, "-o", str(tmp_path / "dist"))
    assert code == 2 and err.startswith(f"<command line>:1:1: --package {name!r}: "), err
    assert "choose another" in err and list(tmp_path.iterdir()) == []


def test_a_planted_journal_writes_nothing_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A checkout can hold `.NAME.mcp-codegen-temp` as a symlink (to a file outside) or a FIFO:
    the write is refused and nothing is appended through it."""
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched\n")
    work = tmp_path / "checkout"
    work.mkdir()
    swap.journal(work / "report.md").symlink_to(victim)
    os.mkfifo(swap.journal(work / "ir.json"))
    for argv in (
        ["diff", V1, V2, "-o", str(work / "report.md")],
        ["ir", V1, "-o", str(work / "ir.json")],
    ):
        code, err = _run(capsys, *argv)
        assert code == 2 and "cannot write" in err, err
    assert victim.read_text() == "untouched\n"
    assert sorted(p.name for p in work.iterdir()) == [
        ".ir.json.mcp-codegen-temp",
        ".report.md.mcp-codegen-temp",
    ]
