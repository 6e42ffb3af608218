"""The files a reference page may read besides its schema: `{@includeCode PATH}` and the
implicit `schema.mdx` template. A schema is untrusted text, so PATH selects only a regular file
under the schema's own folder (the specification's `examples/` layout), within the input size
limit; for a schema read from git (`REF:PATH`), only a regular blob of the same tree under that
folder. Anything else (an absolute path, `..`, a symlink leading out, a device, a FIFO, a
directory) is refused with a reason, which the caller locates at the tag."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol

from .. import gitread
from ..errors import SchemaError
from ..reading import max_input_size, read_stream, size_message


class Refused(Exception):
    """Why a file cannot be read (the message completes `@includeCode PATH: ...`)."""


class Folder(Protocol):
    """The schema's folder, on disk or in a git tree."""

    label: str  # what messages call it

    def read(self, rel: str, what: str) -> bytes:
        """The file `rel` (relative to the folder), or Refused."""
        ...

    def exists(self, rel: str) -> bool:
        """Whether anything (of any kind) is at `rel`."""
        ...


def parts_of(rel: str, label: str) -> tuple[str, ...]:
    """`rel`'s path components, refusing what could leave the folder."""
    if rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        raise Refused(f"an absolute path; only files under the schema's folder {label} are read")
    parts = tuple(p for p in rel.replace("\\", "/").split("/") if p not in ("", "."))
    if ".." in parts:
        raise Refused(f"'..' leaves the schema's folder {label}; only files under it are read")
    if not parts or any("\0" in p for p in parts):
        raise Refused("not a file path")
    return parts


class DiskFolder:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.label = str(root)

    def exists(self, rel: str) -> bool:
        return os.path.lexists(self.root / rel)

    def read(self, rel: str, what: str) -> bytes:
        parts = parts_of(rel, self.label)
        root = os.path.realpath(self.root)
        path = self.root.joinpath(*parts)
        real = os.path.realpath(path)
        if os.path.commonpath([real, root]) != root:
            raise Refused(f"{path} leads to {real}, outside the schema's folder {self.label}")
        try:
            # O_NONBLOCK: opening a FIFO never waits for a writer (it is refused below)
            fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as err:
            raise Refused(f"cannot read {path}: {err.strerror or err}") from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise Refused(f"{path} is not a regular file")
        with os.fdopen(fd, "rb") as f:
            if info.st_size > max_input_size():
                raise Refused(size_message(what, info.st_size))
            try:
                return read_stream(f, str(path), what)
            except SchemaError as err:  # grew past the limit while read
                raise Refused(err.diagnostics[0].message) from None


class GitFolder:
    """The folder `tree` (a tree id) of the tree a git-read schema came from, called `label`
    (`REF:DIR`)."""

    def __init__(self, git_dir: str | None, tree: str, label: str) -> None:
        self.git_dir = git_dir
        self.tree = tree
        self.label = label
        self._entries: dict[str, gitread.Entry] | None = None

    def _files(self) -> dict[str, gitread.Entry]:
        if self._entries is None:
            try:
                self._entries = gitread.tree_files(self.git_dir, self.tree)
            except gitread.GitError as err:
                raise Refused(f"git cannot list {self.label}: {err}") from None
        return self._entries

    def exists(self, rel: str) -> bool:
        return "/".join(p for p in rel.split("/") if p not in ("", ".")) in self._files()

    def read(self, rel: str, what: str) -> bytes:
        key = "/".join(parts_of(rel, self.label))
        entry = self._files().get(key)
        name = f"{self.label.rstrip('/')}/{key}"
        if entry is None:
            raise Refused(f"cannot read {name}: no such file in that tree")
        if not gitread.is_regular(entry):
            kind = "a symlink" if entry.mode == "120000" else f"mode {entry.mode}"
            raise Refused(f"{name} is {kind}, not a regular file")
        if entry.size > max_input_size():
            raise Refused(size_message(what, entry.size))
        try:
            return gitread.blob(self.git_dir, entry.oid, entry.size, name, what)
        except gitread.GitError as err:
            raise Refused(f"git cannot read {name}: {err}") from None
