"""A schema argument -> the path of a schema.ts. One function for every command.

Order: an existing file wins; an argument that looks like a path is left to the reader (which
reports a missing file); a known version comes from the local copy (`--spec-dir`, in either
layout), else the spec cache, else the network unless `--offline`; anything else is an error
listing the known versions."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .. import console
from ..errors import SpecError
from .cache import cache_root, lookup
from .options import SpecOptions, from_environment
from .pins import Pin, known_versions, pins
from .verify import check


def _stderr(message: str) -> None:
    console.warn(message)


def resolve_schema_arg(
    arg: str, options: SpecOptions | None = None, notify: Callable[[str], None] = _stderr
) -> str:
    """The path to read for `arg` (a path, a released version such as `2025-11-25`, or `draft`).
    Raises SpecError; `notify` hears about downloads."""
    if Path(arg).is_file() or looks_like_path(arg):
        return arg
    pin = pins().get(arg)
    if pin is None:
        raise SpecError(
            f"unknown schema {arg!r}: no such file, and not a known version "
            f"(known versions: {', '.join(known_versions())})"
        )
    opts = options if options is not None else from_environment()
    if opts.spec_dir is not None:
        local = local_copy(pin, opts.spec_dir)
        if local is not None:
            return str(local)
    root = cache_root(opts)
    hit = lookup(pin, root)
    if hit is not None:
        return str(hit / "schema.ts")
    if opts.offline:
        where = f"in {opts.spec_dir} or " if opts.spec_dir is not None else ""
        raise SpecError(
            f"{pin.name} is not {where}in the spec cache ({root}) and --offline forbids "
            f"downloading it: run `mcp-codegen fetch {pin.name}` first, or use --spec-dir DIR"
        )
    from .fetch import fetch_version  # http and ssl load only for a download

    fetched = fetch_version(pin, opts, root)
    notify(describe(pin, fetched.hashes, fetched.directory))
    return str(fetched.directory / "schema.ts")


def looks_like_path(arg: str) -> bool:
    """A separator or a `.ts` suffix: meant as a file, never as a version name."""
    seps = {"/", os.sep, os.altsep or "/"}
    return any(s in arg for s in seps) or arg.endswith(".ts")


def local_copy(pin: Pin, spec_dir: Path) -> Path | None:
    """`<dir>/<version>/schema.ts` or `<dir>/schema/<version>/schema.ts`, checked against the
    pins (a copy that differs from the released file is an error, not a fallback)."""
    for candidate in (spec_dir / pin.name, spec_dir / "schema" / pin.name):
        schema = candidate / "schema.ts"
        if schema.is_file():
            check(pin, "schema.ts", schema.read_bytes(), str(schema))
            return schema
    return None


def describe(pin: Pin, hashes: tuple[tuple[str, str], ...], directory: Path) -> str:
    """One line per download: verified against the pins, or (draft) the hashes to note."""
    if pin.floats:
        listed = ", ".join(f"{rel} sha256 {h}" for rel, h in hashes)
        return f"fetched {pin.name} from {pin.ref} into {directory} (floats, not pinned: {listed})"
    return f"fetched {pin.name} at {pin.ref[:12]} into {directory} ({len(hashes)} files verified)"
