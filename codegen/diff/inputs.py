"""The diff's two inputs: a schema.ts path or version name, `REF:PATH` read from git, or `-`
(standard input); each with the label titles and the JSON `label` use.

`REF:PATH` is read as oasdiff reads it: `git show REF:PATH` in the repository around the current
directory (or `--git-dir DIR`), PATH relative to the repository's top. A ref git cannot resolve is
an input error that says why that happens in CI (a shallow clone)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import ir
from ..errors import Diagnostic, Location, SchemaError
from ..lower import lower
from ..naming import NO_OVERRIDES, Overrides
from ..parse import parse_source, read_source
from ..resolve import resolver

STDIN = "-"
# `origin/main:schema/draft/schema.ts`, `HEAD~1:schema.ts`, `v1.2:./x.ts`: a ref, a colon, a
# path. A drive letter (`C:\x`) is a path, not a ref.
_REF_PATH = re.compile(r"^(?P<ref>[^:\s][^:]*?):(?P<path>[^:]+)$")


@dataclass(frozen=True, slots=True)
class Input:
    """One side of the diff, read: its text, the name its diagnostics use, its label, and the
    file CI annotations point at."""

    source: str  # what diagnostics and links name
    data: bytes | None  # None: read `source` from disk
    label: str | None  # None: derived from the path (`label_for`)
    file: str


def split_ref(arg: str) -> tuple[str, str] | None:
    """(REF, PATH) for a `REF:PATH` argument that is no existing file, else None."""
    if Path(arg).exists():
        return None
    m = _REF_PATH.match(arg)
    if m is None or (len(m["ref"]) == 1 and m["ref"].isalpha()):
        return None
    return m["ref"], m["path"]


def _git_show(ref: str, path: str, git_dir: str | None, arg: str) -> bytes:
    cmd = ["git", "-C", git_dir or ".", "show", f"{ref}:{path}"]
    try:
        done = subprocess.run(cmd, capture_output=True, check=False)
    except OSError as err:
        raise _error(arg, f"cannot run git to read {arg}: {err.strerror}") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise _error(
            arg,
            f"git cannot read {arg} ({why[0] if why else 'no output'}). If {ref!r} is a"
            " branch, tag or older commit, a shallow clone may not have it: CI checkouts"
            " fetch depth 1 by default (actions/checkout: `fetch-depth: 0`, or"
            f" `git fetch --depth=1 origin {_branch(ref)}`)",
        )
    return done.stdout


def _error(arg: str, message: str) -> SchemaError:
    return SchemaError([Diagnostic(Location(arg, 1, 1), message)])


def read_input(arg: str, label: str | None, git_dir: str | None, side: str) -> Input:
    """`arg` as given on the command line, after version names became paths."""
    if arg == STDIN:
        return Input("<stdin>", sys.stdin.buffer.read(), label or "stdin", "<stdin>")
    ref = split_ref(arg)
    if ref is not None:
        return Input(arg, _git_show(*ref, git_dir, arg), label or ref[0], ref[1])
    if label is None and Path(arg).exists() and not Path(arg).is_file():
        label = side  # a pipe (`<(git show ...)` is /dev/fd/63): its name says nothing
    return Input(arg, None, label, arg)


def load_inputs(inputs: Sequence[Input], overrides: Overrides = NO_OVERRIDES) -> list[ir.Resolved]:
    """Parse, lower and resolve each input with one names file (as `pipeline.load_many`)."""
    out, used = [], set()
    for i in inputs:
        src = read_source(i.source) if i.data is None else parse_source(i.source, i.data)
        r = resolver(lower(src), overrides)
        out.append(r.run())
        used |= r.namer.used
    overrides.check_used(used)
    return out


def _branch(ref: str) -> str:
    """The branch to fetch for a ref: `origin/main~3` -> `main`."""
    name = re.split(r"[~^@]", ref, maxsplit=1)[0]
    return name.removeprefix("origin/") or ref
