"""Reading `REF:PATH` from git so that nothing in the argument can be taken as an option: the
revision only ever travels on `git cat-file --batch-check`'s standard input (a line is a
revision, never an option), everything else is an object id git printed. A blob's size is
known before it is read, so the input size limit holds for git too."""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
from dataclasses import dataclass

from .errors import Diagnostic, Location, SchemaError
from .reading import max_input_size, too_large

# what ls-tree prints for a regular file (executable or not); 120000 is a symlink
_REGULAR = frozenset({"100644", "100755"})


class GitError(Exception):
    """git could not be run or refused; the message is git's first line (or the OS's)."""


@dataclass(frozen=True, slots=True)
class Entry:
    mode: str
    oid: str
    size: int


def _git(git_dir: str | None, args: list[str], stdin: bytes = b"") -> bytes:
    cmd = ["git", "-C", git_dir or ".", *args]
    try:
        done = subprocess.run(cmd, input=stdin, capture_output=True, check=False)
    except OSError as err:
        raise GitError(f"cannot run git: {err.strerror}") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(why[0] if why else f"git exited with {done.returncode}")
    return done.stdout


def lookup(git_dir: str | None, revisions: list[str]) -> list[tuple[str, str, int] | None]:
    """(object id, type, size) of each revision (`main^{tree}`, `main:schema.ts`), None where
    git finds nothing. Revisions with a line break or NUL never reach git (None)."""
    safe = [r for r in revisions if not any(c in r for c in "\n\r\0")]
    out: dict[str, tuple[str, str, int] | None] = {}
    if safe:
        text = _git(
            git_dir, ["cat-file", "--batch-check"], "".join(r + "\n" for r in safe).encode()
        )
        for rev, line in zip(safe, text.decode("utf-8", "replace").splitlines()):
            parts = line.split(" ")
            ok = len(parts) == 3 and parts[2].isdigit() and not line.endswith(" missing")
            out[rev] = (parts[0], parts[1], int(parts[2])) if ok else None
    return [out.get(r) for r in revisions]


def resolves(git_dir: str | None, ref: str) -> bool:
    """Whether `ref` names a commit, tag or tree in the repository (False outside of one)."""
    if ref.startswith("-"):
        return False
    try:
        return lookup(git_dir, [f"{ref}^{{tree}}"])[0] is not None
    except GitError:
        return False


def blob(git_dir: str | None, oid: str, size: int, name: str, what: str) -> bytes:
    """The blob `oid` (a hex id git gave), refused before reading when over the size limit."""
    if size > max_input_size():
        raise too_large(name, what, size)
    return _git(git_dir, ["cat-file", "blob", oid])


def tree_files(git_dir: str | None, tree: str) -> dict[str, Entry]:
    """Every entry under the tree `tree` (a hex id), by path relative to it."""
    text = _git(git_dir, ["ls-tree", "-r", "-l", "-z", tree])
    out = {}
    for record in text.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, _kind, oid, size = meta.decode().split()
        out[path.decode("utf-8", "replace")] = Entry(mode, oid, int(size) if size.isdigit() else 0)
    return out


def is_regular(entry: Entry) -> bool:
    return entry.mode in _REGULAR


# `origin/main:schema/draft/schema.ts`, `HEAD~1:schema.ts`, `v1.2:./x.ts`: a ref, a colon, a
# path. A drive letter (`C:\x`) is a path, not a ref; so is anything starting with `.` or `/`
# (no ref can: git check-ref-format), which is how a file with a colon in its name is named.
_REF_PATH = re.compile(r"^(?P<ref>[^:\s./][^:]*?):(?P<path>[^:]+)$")


def _error(arg: str, message: str) -> SchemaError:
    return SchemaError([Diagnostic(Location(arg, 1, 1), message)])


def split_ref(arg: str, git_dir: str | None) -> tuple[str, str] | None:
    """(REF, PATH) for an argument meant as `REF:PATH`, else None (a file or version name).
    A REF that resolves in git wins over any file of the same name, so a file a checkout adds
    (`origin/main:schema.ts`) cannot stand in for the git side; a file of that name beside a
    REF git does not know is ambiguous (exit 2: `./NAME` names the file)."""
    m = _REF_PATH.match(arg)
    if m is None or (len(m["ref"]) == 1 and m["ref"].isalpha()):
        return None
    ref, path = m["ref"], m["path"]
    if ref.startswith("-"):
        raise _error(arg, f"a git ref cannot start with '-' ({ref!r}); write ./{arg} for a file")
    if resolves(git_dir, ref):
        return ref, path
    if os.path.lexists(arg):
        raise _error(
            arg,
            f"{arg} is a file, and reads as REF:PATH too, but git knows no ref {ref!r} here"
            f" (a shallow clone?): write ./{arg} to read the file, or fetch {ref}",
        )
    return ref, path


@dataclass(frozen=True, slots=True)
class GitSchema:
    data: bytes
    folder: str | None  # the tree id of PATH's folder in the same commit


def read_ref_path(
    ref: str, path: str, git_dir: str | None, arg: str, what: str = "schema"
) -> GitSchema:
    """The blob `REF:PATH` (within the size limit) and the tree of its folder."""
    folder = posixpath.dirname(path)
    folder = "./" if folder == "." else folder
    try:
        hit, tree = lookup(git_dir, [f"{ref}:{path}", f"{ref}:{folder}"])
        if hit is not None and hit[1] == "blob":
            return GitSchema(blob(git_dir, hit[0], hit[2], arg, what),
                             tree[0] if tree is not None and tree[1] == "tree" else None)  # fmt: skip
        if resolves(git_dir, ref):
            raise _error(arg, f"git cannot read {arg}: {ref} has no file {path}")
        why = f"git knows no ref {ref!r}"
    except GitError as err:
        why = str(err)
    raise _error(
        arg,
        f"git cannot read {arg} ({why}). If {ref!r} is a branch, tag or older commit, a"
        " shallow clone may not have it: CI checkouts fetch depth 1 by default"
        f" (actions/checkout: `fetch-depth: 0`, or `git fetch --depth=1 origin {_branch(ref)}`)",
    )


def _branch(ref: str) -> str:
    """The branch to fetch for a ref: `origin/main~3` -> `main`."""
    name = re.split(r"[~^@]", ref, maxsplit=1)[0]
    return name.removeprefix("origin/") or ref
