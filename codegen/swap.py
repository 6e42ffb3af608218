"""Putting a finished output directory in place of the old one, and cleaning up after a run that
was killed. One job: the file-system moves; what goes into the directories is codegen/write.py's.

The swap is one `renameat2(RENAME_EXCHANGE)` where the platform has it (Linux 3.15+, glibc 2.28+,
most local file systems): the target path names the old output, then the new one, never nothing.
Elsewhere it is two renames (target -> `.NAME.old-*`, new -> target); a run killed between them
leaves the old output whole under `.NAME.old-*`, and the next run puts it back (`recover`).

Temporary directories are `.NAME.tmp-XXXXXXXX` (the new output being built) and
`.NAME.old-XXXXXXXX` (the previous output after the swap), beside the target; runs writing into
one folder hold an exclusive lock on it (flock), so a leftover is always from a dead run.

A name is not enough to make a folder ours (a user's `.pkg.old-20261201` backup has one): every
temporary entry is listed in the journal `.NAME.mcp-codegen-temp` beside the target *before* it
is created, and only listed entries are ever cleaned up. The journal is removed once it lists
nothing that exists, so after a run that was not killed there is none."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
# what renameat2 answers when the kernel or the file system lacks the exchange
_UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV}


def _renameat2() -> Any:
    """libc's renameat2, or None (ctypes is loaded only when a directory is swapped)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        func = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a libc without it (glibc before 2.28, others)
        return None
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int
    return func


def exchange(a: Path, b: Path) -> bool:
    """Swap the names `a` and `b` in one step; False (nothing done) where that is impossible."""
    func = _renameat2()
    if func is None:
        return False
    if func(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    import ctypes

    err = ctypes.get_errno()
    if err in _UNSUPPORTED:
        return False
    raise OSError(err, os.strerror(err), str(b))


_JOURNAL_MAX = 1 << 16  # bytes: a journal is a few names; a larger file is no journal of ours
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"


def journal(target: Path) -> Path:
    return target.parent / f".{target.name}.mcp-codegen-temp"


def _pattern(target: Path) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(target.name)}\.(tmp|old)-[A-Za-z0-9_]{{8}}")


def listed(target: Path) -> list[str]:
    """The names the journal lists (that could be ours by their form); none if it is absent or
    not a regular file of a journal's size."""
    path = journal(target)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return []
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _JOURNAL_MAX:
            return []
        text = f.read(_JOURNAL_MAX).decode("utf-8", "replace")
    pattern = _pattern(target)
    return sorted({n for n in text.splitlines() if pattern.fullmatch(n)})


def _open_journal(target: Path, flags: int) -> int:
    """The journal opened for writing: never through a symlink, never a FIFO or a device (a
    checkout could plant one beside `-o`), else OSError."""
    path = journal(target)
    fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | flags, 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    return fd


def _enlist(target: Path, name: str) -> None:
    fd = _open_journal(target, os.O_APPEND | os.O_CREAT)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(name + "\n")


def forget(target: Path) -> None:
    """Drop the journal's names that no longer exist; the journal itself once none is left."""
    names = [n for n in listed(target) if os.path.lexists(target.parent / n)]
    path = journal(target)
    try:
        if names:
            with os.fdopen(_open_journal(target, os.O_TRUNC), "w", encoding="utf-8") as f:
                f.write("".join(n + "\n" for n in names))
        elif stat.S_ISREG(os.lstat(path).st_mode):
            path.unlink()
    except OSError:
        pass  # absent, or retried by the next run


def _new_name(target: Path, kind: str) -> Path:
    import secrets

    token = "".join(secrets.choice(_NAME_CHARS) for _ in range(8))
    path = target.parent / f".{target.name}.{kind}-{token}"
    _enlist(target, path.name)  # listed first: a kill right after creating it leaves it known
    return path


def temp_dir(target: Path, kind: str) -> Path:
    """A new empty directory `.NAME.<kind>-XXXXXXXX` beside `target` (kind: tmp or old), listed
    in the journal."""
    while True:
        path = _new_name(target, kind)
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue


def temp_file(target: Path) -> tuple[int, Path]:
    """A new file `.NAME.tmp-XXXXXXXX` beside the file `target`, listed in the journal: its
    descriptor (open for writing) and path."""
    while True:
        path = _new_name(target, "tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), path
        except FileExistsError:
            continue


def install(new: Path, target: Path) -> Path | None:
    """Put the directory `new` at `target`. Returns the directory now holding the previous
    output (to be emptied by the caller), or None if there was none."""
    if not os.path.lexists(target):
        os.rename(new, target)
        return None
    if exchange(new, target):
        return new
    old = temp_dir(target, "old")
    os.rmdir(old)  # only its name: the rename below creates it
    os.rename(target, old)
    try:
        os.rename(new, target)
    except BaseException:
        os.rename(old, target)
        raise
    return old


def leftovers(target: Path, folders: bool = True) -> list[Path]:
    """The temporary directories earlier runs left for `target` (listed in its journal), or with
    `folders=False` the temporary files of an earlier single-file write. A folder or file that
    only looks like one is the user's and never returned."""
    found = []
    for name in listed(target):
        path = target.parent / name
        if os.path.lexists(path) and not path.is_symlink() and path.is_dir() == folders:
            found.append(path)
    return found


def restore_if_missing(target: Path, found: list[Path]) -> list[Path]:
    """A run killed between the two renames of the fallback left no target and the previous
    output under `.NAME.old-*`: put the newest back. Returns the leftovers still to clean."""
    if os.path.lexists(target):
        return found
    olds = [p for p in found if p.name.startswith(f".{target.name}.old-")]
    if not olds:
        return found
    newest = max(olds, key=lambda p: p.stat().st_mtime_ns)
    os.rename(newest, target)
    return [p for p in found if p != newest]


def remove(path: Path) -> None:
    """Delete a temporary directory whatever it holds: any depth (no recursion), read-only
    folders of the user's included (only folders are made writable: files are hard links
    shared with the output). Best effort: what stays is retried by the next run."""
    todo: list[tuple[str, bool]] = [(str(path), False)]
    while todo:
        name, emptied = todo.pop()
        try:
            if emptied:
                os.rmdir(name)
                continue
            info = os.lstat(name)
            if not stat.S_ISDIR(info.st_mode):
                os.unlink(name)
                continue
            if info.st_mode & 0o300 != 0o300:
                os.chmod(name, stat.S_IMODE(info.st_mode) | 0o300)
            todo.append((name, True))
            with os.scandir(name) as it:
                todo.extend((entry.path, False) for entry in it)
        except OSError:
            continue


UNLOCKED_GRACE = 600.0  # seconds: without a lock, a younger leftover may be a live run's


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[bool]:
    """Hold an exclusive lock on `folder` (the target's parent) for the whole write: two runs
    writing beside each other take turns, and each may clean up what a dead run left. The lock
    dies with its process, so a killed run never blocks the next. Yields whether the lock is
    held (not on Windows, nor in a folder that cannot be opened): see `dead`."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; runs are not serialised there
        yield False
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(fd)


def dead(leftover: Path, exclusive: bool) -> bool:
    """Whether a leftover is surely no live run's: always under the lock, else once it is
    older than UNLOCKED_GRACE."""
    if exclusive:
        return True
    try:
        return time.time() - leftover.lstat().st_mtime > UNLOCKED_GRACE
    except OSError:
        return False
