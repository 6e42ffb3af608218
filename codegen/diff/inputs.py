"""The diff's two inputs: a schema.ts path or version name, `REF:PATH` read from git, or `-`
(standard input); each with the label titles and the JSON `label` use.

`REF:PATH` is read as oasdiff reads it: the blob at REF:PATH in the repository around the current
directory (or `--git-dir DIR`), PATH relative to the repository's top. A REF git resolves is read
from git whatever files exist (`codegen/gitread.py`); a ref git cannot resolve is an input error
that says why that happens in CI (a shallow clone)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import ir
from ..errors import Diagnostic, Location, SchemaError
from ..gitread import read_ref_path, split_ref
from ..lower import lower
from ..naming import NO_OVERRIDES, Overrides
from ..parse import parse_source, read_source
from ..reading import read_stream
from ..resolve import resolver

__all__ = ["STDIN", "Input", "load_inputs", "read_input", "split_ref"]

STDIN = "-"


@dataclass(frozen=True, slots=True)
class Input:
    """One side of the diff, read: its text, the name its diagnostics use, its label, and the
    file CI annotations point at."""

    source: str  # what diagnostics and links name
    data: bytes | None  # None: read `source` from disk
    label: str | None  # None: derived from the path (`label_for`)
    file: str


def read_stdin() -> bytes:
    """Standard input within the size limit; a closed one (`<&-`) is an input error."""
    stream = sys.stdin.buffer if sys.stdin is not None else None
    if stream is None:
        raise SchemaError([Diagnostic(Location("<stdin>", 1, 1), "standard input is closed")])
    try:
        return read_stream(stream, "<stdin>", "standard input")
    except (OSError, ValueError) as err:  # a closed descriptor, a closed file object
        why = getattr(err, "strerror", None) or str(err)
        raise SchemaError(
            [Diagnostic(Location("<stdin>", 1, 1), f"cannot read standard input: {why}")]
        ) from None


def read_input(arg: str, label: str | None, git_dir: str | None, side: str) -> Input:
    """`arg` as given on the command line, after version names became paths."""
    if arg == STDIN:
        return Input("<stdin>", read_stdin(), label or "stdin", "<stdin>")
    ref = split_ref(arg, git_dir)
    if ref is not None:
        return Input(arg, read_ref_path(*ref, git_dir, arg).data, label or ref[0], ref[1])
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
