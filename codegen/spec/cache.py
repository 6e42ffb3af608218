"""The spec cache: `<root>/<version>/` holds a version's files exactly as pinned. A version
appears there whole or not at all: files are written to a staging directory beside it, verified,
and the directory is swapped into place (codegen/swap.py). A download holds a lock on the cache,
so the staging directories a killed download left are removed by the next one."""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .. import swap
from .options import SpecOptions, default_cache_dir
from .pins import Pin
from .verify import sha256_hex


def cache_root(options: SpecOptions) -> Path:
    return options.cache_dir if options.cache_dir is not None else default_cache_dir()


def lookup(pin: Pin, root: Path) -> Path | None:
    """The cached version directory, if it holds every file of the pins with the pinned hash
    (a floating version: every file present). Anything else is a miss, refetched."""
    target = root / pin.name
    for rel, expected in pin.files:
        path = target / rel
        if not path.is_file():
            return None
        if expected is not None and sha256_hex(path.read_bytes()) != expected:
            return None
    return target


@contextlib.contextmanager
def staging(root: Path, name: str) -> Iterator[Path]:
    """A fresh directory beside the cache entry (same file system, so `install` is a rename),
    removed afterwards whatever happened: a failed download leaves nothing behind. The cache is
    locked meanwhile; what killed downloads of `name` left is removed first."""
    root.mkdir(parents=True, exist_ok=True)
    with swap.locked(root) as exclusive:
        for stale in root.glob(f".{glob.escape(name)}.*"):
            ours = stale.name.endswith((".partial", ".old")) and stale.is_dir()
            if ours and swap.dead(stale, exclusive):
                swap.remove(stale)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".partial", dir=root))
        try:
            yield tmp
        finally:
            swap.remove(tmp)


def install(staged: Path, root: Path, name: str) -> Path:
    """Move a complete, verified staging directory to `<root>/<name>`, replacing what was there."""
    target = root / name
    if os.path.lexists(target) and swap.exchange(staged, target):
        return target  # `staged` now holds the previous files, removed by `staging`
    old: Path | None = None
    if os.path.lexists(target):
        old = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".old", dir=root))
        os.replace(target, old / name)
    os.replace(staged, target)
    if old is not None:
        swap.remove(old)
    return target
