"""A folder of a git commit, written out: `REF:DIR` inputs whose files are read beside the schema
(the reference page's template and `@includeCode` examples, typedoc's program of sibling
versions) come from the same tree as the schema, never from the working copy.

Names and contents from git are data: every path is checked to stay inside the folder written,
only regular files are written, and the count and total size are bounded."""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

from .errors import Diagnostic, Location, SchemaError

MAX_FILES = 5000
MAX_BYTES = 200 * 1024 * 1024


def _fail(arg: str, message: str) -> SchemaError:
    return SchemaError([Diagnostic(Location(arg, 1, 1), message)])


def _git(git_dir: str | None, *args: str, data: bytes | None = None) -> bytes:
    cmd = ["git", "-C", git_dir or ".", *args]
    done = subprocess.run(cmd, input=data, capture_output=True, check=False)
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise OSError(why[0] if why else f"git {args[0]} failed")
    return done.stdout


def materialize(ref: str, folder: str, git_dir: str | None, dest: Path, arg: str) -> Path:
    """Write the files under `folder` in commit `ref` below `dest` (keeping their paths) and
    return `dest / folder`; a located exit-2 error (`arg`) when git cannot read them."""
    base = PurePosixPath(folder.strip("/") or ".")
    if base.is_absolute() or ".." in base.parts or ref.startswith("-"):
        raise _fail(arg, f"{arg}: the folder must be a path inside the repository")
    try:
        names = _git(git_dir, "ls-tree", "-r", "-z", "--name-only", ref, "--", f"{base}/")
        paths = [n for n in names.decode("utf-8", "replace").split("\0") if n]
        if len(paths) > MAX_FILES:
            raise OSError(f"more than {MAX_FILES} files under {folder}")
        request = "".join(f"{ref}:{p}\n" for p in paths).encode("utf-8")
        blobs = _git(git_dir, "cat-file", "--batch", data=request) if paths else b""
    except OSError as err:
        raise _fail(arg, f"git cannot read {arg}: {err}") from None
    total, at = 0, 0
    for name in paths:
        header_end = blobs.index(b"\n", at)
        header = blobs[at:header_end].split()
        at = header_end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # a submodule or a missing object: nothing to write
        size = int(header[2])
        body, at = blobs[at : at + size], at + size + 1
        total += size
        rel = PurePosixPath(name)
        if rel.is_absolute() or ".." in rel.parts or total > MAX_BYTES:
            raise _fail(arg, f"{arg}: {name!r} cannot be written safely")
        target = dest.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
    out = dest.joinpath(*base.parts)
    if not out.is_dir():
        raise _fail(arg, f"{arg}: no such folder in {ref}")
    return out
