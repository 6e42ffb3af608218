"""The user's entries in an output directory: everything mcp-codegen did not write there. They
are found from the manifests (the previous output's list and the new one's), carried into the
new output as they are (hard links, so a file keeps its inode, its links and its mode; a symlink
stays a symlink, a FIFO a FIFO, an empty directory stays), and moved back from a killed run's
leftover if the target lacks them. Only the bytecode of the tool's own modules (`__pycache__/
models.cpython-311.pyc` beside a generated `models.py`) is not kept."""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Iterable
from pathlib import Path


def ancestors(paths: Iterable[str]) -> set[str]:
    """Every folder above a relative path: `a/b/c.py` -> {`a`, `a/b`}."""
    out: set[str] = set()
    for rel in paths:
        parts = rel.split("/")[:-1]
        out.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return out


def own_bytecode(rel: str, generated: set[str]) -> bool:
    """`pkg/__pycache__/models.cpython-311.pyc` when `pkg/models.py` is one of the tool's."""
    parts = rel.split("/")
    if len(parts) < 2 or parts[-2] != "__pycache__" or not parts[-1].endswith(".pyc"):
        return False
    module = "/".join([*parts[:-2], parts[-1].split(".")[0] + ".py"])
    return module in generated


def user_entries(root: Path, generated: set[str]) -> list[str]:
    """The relative paths under `root` that are the user's, outermost only (a folder of the
    user's is one entry): anything not in `generated`, looking inside the folders that hold
    generated files and inside `__pycache__`."""
    inside = ancestors(generated)
    found: list[str] = []

    def walk(folder: Path, prefix: str) -> None:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
        for entry in entries:
            rel = prefix + entry.name
            if rel in generated or own_bytecode(rel, generated):
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            if is_dir and (rel in inside or entry.name == "__pycache__"):
                walk(Path(entry.path), rel + "/")
            else:
                found.append(rel)

    walk(root, "")
    return found


def _make_parents(src_root: Path, dst_root: Path, rel: str) -> None:
    """The folders above `rel` in `dst_root`, each with the mode it has in `src_root`."""
    parts = rel.split("/")[:-1]
    for i in range(len(parts)):
        sub = "/".join(parts[: i + 1])
        dst = dst_root / sub
        if not os.path.lexists(dst):
            dst.mkdir()
            shutil.copymode(src_root / sub, dst)
        elif dst.is_symlink() or not dst.is_dir():
            raise FileExistsError(errno.EEXIST, "not a folder", str(dst))


def _link(src: Path, dst: Path) -> None:
    """`dst` becomes `src` again, a folder with all it holds (iteratively: any depth)."""
    folders: list[tuple[Path, Path]] = []
    todo = [(src, dst)]
    while todo:
        a, b = todo.pop()
        if stat.S_ISDIR(a.lstat().st_mode):
            b.mkdir()
            folders.append((a, b))
            with os.scandir(a) as it:
                todo.extend((Path(e.path), b / e.name) for e in it)
        else:
            _link_one(a, b)
    for a, b in reversed(folders):  # innermost first: a read-only folder is filled before
        shutil.copystat(a, b)


def _link_one(src: Path, dst: Path) -> None:
    """The same inode where the file system allows, else a copy of the same kind (a symlink
    with the same target, a FIFO, a file with its mode and times)."""
    info = src.lstat()
    try:
        os.link(src, dst, follow_symlinks=False)
        return
    except (OSError, NotImplementedError):  # another file system, no links, no linkat
        pass
    if stat.S_ISLNK(info.st_mode):
        os.symlink(os.readlink(src), dst)
    elif stat.S_ISFIFO(info.st_mode):
        os.mkfifo(dst, stat.S_IMODE(info.st_mode))
    else:
        shutil.copy2(src, dst, follow_symlinks=False)


def carry(old: Path, new: Path, generated: set[str]) -> None:
    """Put every user entry of `old` into `new` (before the swap: nothing is moved, so `old`
    stays whole whatever happens)."""
    for rel in user_entries(old, generated):
        _make_parents(old, new, rel)
        _link(old / rel, new / rel)


def salvage(leftover: Path, target: Path, generated: set[str]) -> list[str]:
    """Move into `target` every user entry of a leftover directory that `target` lacks (a file
    created in the old output during the swap, or the old output of an earlier version's killed
    run). Returns the entries that could not be moved (something of the user's in the way)."""
    stuck = []
    for rel in user_entries(leftover, generated):
        if os.path.lexists(target / rel):
            continue
        try:
            _make_parents(leftover, target, rel)
            os.rename(leftover / rel, target / rel)
        except OSError:
            stuck.append(rel)
    return stuck


def same_modes(old: Path, new: Path, files: Iterable[str]) -> None:
    """The folders of the new output that the old one also had keep their modes there: its
    top and the folders of generated files (the user's own folders are copied with theirs)."""
    for rel in [".", *sorted(ancestors(files))]:
        before = old / rel
        if before.is_dir() and not before.is_symlink():
            shutil.copymode(before, new / rel)
