"""Atomic output: render everything first, write into a temporary directory next to the target,
then swap it in (codegen/swap.py). A failed run leaves the previous output byte-identical; what
the generator did not write there (not in its manifest) is carried over as it is, never deleted
(codegen/keep.py). Every path problem is an OutputError: one line, exit 2."""

from __future__ import annotations

import argparse
import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from . import console, ir, keep, swap

MANIFEST = ".mcp-codegen-manifest.json"


def report_warnings(*models: ir.Schema | ir.Resolved) -> None:
    """Every command prints the warnings of the models it read, `file:line:col: warning: ...`;
    they never change the exit code."""
    for model in models:
        for d in model.warnings:
            console.warn(f"{d.loc}: warning: {d.message}")


def _manifest(folder: Path) -> set[str] | None:
    """The files a previous run wrote into `folder` (its manifest included), or None if `folder`
    holds no readable manifest of mcp-codegen."""
    path = folder / MANIFEST
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("generator") != "mcp-codegen":
        return None
    files = data.get("files")
    if not isinstance(files, list):
        return None
    return {str(p) for p in files} | {MANIFEST}


def write_tree(target: Path, files: Mapping[str, str], force: bool = False) -> None:
    """Make `target` a directory holding `files` (relative path -> text) and the user's own
    entries: a previous output of mcp-codegen is replaced, everything in it the tool did not
    write is kept as it is. A folder that is no output of mcp-codegen is written into only if
    it is empty or `force`; a file of the user's where the tool writes one, only if `force`.
    At every instant `target` holds the whole old output or the whole new one (codegen/swap.py).
    Raises OutputError (nothing changed) when it cannot."""
    shown = target
    target = _checked_target(target)
    _make_folder(target.parent, shown)
    try:
        with swap.locked(target.parent) as exclusive:
            _recover(target, exclusive)
            previous = _previous_output(target, shown, force)
            _check_conflicts(target, shown, files, previous, force)
            _replace(target, files, previous)
    except OSError as err:
        raise OutputError(f"cannot write {shown}: {_reason(err)}") from err


def _reason(err: OSError) -> str:
    where = f" ({err.filename})" if err.filename else ""
    return f"{err.strerror or err}{where}"


def check_target(target: Path) -> None:
    """Refuse an impossible `-o DIR` before any work (the write checks again)."""
    _checked_target(target)


def _checked_target(target: Path) -> Path:
    """The real path to write (symlinks followed): never a file, never the working directory
    or a folder above it (the swap would take the shell's directory away)."""
    real = Path(os.path.realpath(target))
    odd = _special(real)
    if odd:
        raise OutputError(
            f"{target} is {odd}, not a directory: mcp-codegen writes a directory and never "
            "replaces anything else; give another -o"
        )
    if os.path.lexists(real) and not real.is_dir():
        raise OutputError(
            f"{target} is a file, not a directory: mcp-codegen writes a directory and never "
            "replaces a file; give another -o"
        )
    try:
        cwd = Path(os.path.realpath(os.getcwd()))
    except OSError:
        return real
    if real == cwd or real in cwd.parents:
        raise OutputError(
            f"-o {target} is the current directory or contains it: mcp-codegen replaces its "
            "output directory as a whole; give a directory of its own (e.g. -o out)"
        )
    return real


def _special(path: Path) -> str | None:
    """What `path` is when it exists and is neither a regular file nor a directory (a device, a
    FIFO, a socket): never renamed over (as root, `-o /dev/null` would replace the system's)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kinds = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))  # fmt: skip
    return next((name for test, name in kinds if test(mode)), "a special file")


def _make_folder(folder: Path, shown: Path) -> None:
    existing = folder
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"cannot write {shown}: {existing} is a file, not a directory")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"cannot write {shown}: cannot create {folder}: {_reason(err)}") from err


def _recover(target: Path, exclusive: bool) -> None:
    """Clean up after killed runs (no other run holds the lock, so every leftover is dead):
    their user entries that `target` lacks are moved into it first. Only what the journal lists
    is a leftover (`swap.leftovers`); each one removed or put back is said on stderr."""
    found = [p for p in swap.leftovers(target) if swap.dead(p, exclusive)]
    rest = swap.restore_if_missing(target, found)
    for back in sorted(set(found) - set(rest)):
        console.warn(f"mcp-codegen: put back {target} from {back.name}, left by a killed run")
    for leftover in rest:
        generated = _manifest(leftover)
        stuck = []
        if generated is not None and target.is_dir():
            stuck = keep.salvage(leftover, target, generated | (_manifest(target) or set()))
        if stuck:
            console.warn(
                f"mcp-codegen: warning: kept {leftover}: it holds {stuck[0]} (of a killed run), "
                f"which {target} lacks and could not take"
            )
            continue
        swap.remove(leftover)
        console.warn(f"mcp-codegen: removed {leftover}, left by a killed run")
    swap.forget(target)


def _previous_output(target: Path, shown: Path, force: bool) -> set[str] | None:
    """What the tool wrote into `target` before (None: `target` does not exist yet)."""
    if not os.path.lexists(target):
        return None
    generated = _manifest(target)
    if generated is not None:
        return generated
    if force or not any(target.iterdir()):
        return set()
    raise OutputError(
        f"{shown} is not empty and is no output of mcp-codegen (it has no {MANIFEST}): "
        "refusing to write into it; give --force to write there anyway (what mcp-codegen "
        "does not generate is kept)"
    )


def _check_conflicts(
    target: Path, shown: Path, files: Mapping[str, str], previous: set[str] | None, force: bool
) -> None:
    """A user's entry where a generated file goes: a directory (or a non-directory where a
    generated folder goes) always stops the run; a file of the user's stops it unless
    `force` (then it is overwritten)."""
    if previous is None:
        return
    for folder in sorted(keep.ancestors(files)):
        path = target / folder
        if os.path.lexists(path) and (path.is_symlink() or not path.is_dir()):
            raise OutputError(
                f"{shown / folder} is in the way: mcp-codegen writes a package folder there; "
                "move it away"
            )
    for rel in sorted(files):
        path = target / rel
        if not os.path.lexists(path):
            continue
        if path.is_dir() and not path.is_symlink():
            raise OutputError(
                f"{shown / rel} is a directory where mcp-codegen writes a file; move it away"
            )
        if rel not in previous and not force:
            raise OutputError(
                f"{shown / rel} was not written by mcp-codegen (its manifest does not list it) "
                "and would be overwritten: move it away, or give --force to overwrite it"
            )


def _replace(target: Path, files: Mapping[str, str], previous: set[str] | None) -> None:
    """Build the new output beside `target` (the user's entries linked in), then swap; the
    journal forgets the temporary folders once they are gone, whatever happened."""
    try:
        _build_and_swap(target, files, previous)
    finally:
        swap.forget(target)


def _build_and_swap(target: Path, files: Mapping[str, str], previous: set[str] | None) -> None:
    tmp = swap.temp_dir(target, "tmp")
    installed = False
    try:
        # the manifest first: a killed run's leftover says what in it is generated
        manifest = {"generator": "mcp-codegen", "files": sorted([*files, MANIFEST])}
        (tmp / MANIFEST).write_bytes((json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
        for rel, text in sorted(files.items()):
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(text.encode("utf-8"))
        if previous is not None:
            keep.carry(target, tmp, previous | set(files) | {MANIFEST})
            keep.same_modes(target, tmp, files)
        else:
            os.chmod(tmp, 0o777 & ~_umask())  # an ordinary new folder, not mkdtemp's 0700
        old = swap.install(tmp, target)
        installed = True
    finally:
        if not installed:
            swap.remove(tmp)
    if old is not None:
        # entries made in the old output while this run built the new one
        keep.salvage(old, target, (previous or set()) | set(files) | {MANIFEST})
        swap.remove(old)


def differences(target: Path, files: Mapping[str, str]) -> list[str]:
    """Relative paths whose content under `target` differs from `files` (for `--check`)."""
    out = []
    for rel, text in sorted(files.items()):
        path = target / rel
        try:
            same = path.is_file() and path.read_bytes() == text.encode("utf-8")
        except OSError:
            same = False
        if not same:
            out.append(rel)
    return out


def write_output(text: str, path: str | None, commands: bool = False) -> None:
    """A command's output: to FILE atomically when `-o FILE` was given, else to stdout through
    `console` (`commands`: the text is GitHub workflow commands, `--format github`)."""
    if path:
        write_file(Path(path), text)
    elif commands:
        console.workflow_commands(text)
    else:
        console.document(text)


class OutputError(Exception):
    """The output cannot be written where it was asked for (reported, exit code 2)."""


def add_force(parser: argparse.ArgumentParser) -> None:
    """`--force`, for every command that writes an output directory."""
    parser.add_argument(
        "--force",
        action="store_true",
        help="write into a non-empty folder that is no output of mcp-codegen, and overwrite "
        "files of the user's where generated files go (other files are kept either way)",
    )


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_file(path: Path, text: str) -> None:
    """Write one file atomically (temp file in the same directory, then rename). The folder must
    exist: a mistyped `-o` path is an error, not a new directory tree. The file gets the mode
    an ordinary new file gets (0666 less the umask; an existing file keeps its mode), not the
    0600 of the temporary file. A symlink to a file stays one (its file is rewritten); a
    directory is never replaced."""
    real = Path(os.path.realpath(path))
    if real.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory")
    odd = _special(real)
    if odd:
        raise OutputError(
            f"cannot write {path}: it is {odd}, not a regular file; mcp-codegen replaces only"
            " regular files (write to stdout without -o, or give a file path)"
        )
    if not real.parent.is_dir():
        what = "is not a directory" if os.path.lexists(real.parent) else "does not exist"
        raise OutputError(f"cannot write {path}: folder {real.parent} {what}")
    try:
        with swap.locked(real.parent) as exclusive:
            for stale in swap.leftovers(real, folders=False):  # a killed run's temp file
                if swap.dead(stale, exclusive):
                    stale.unlink()
                    console.warn(f"mcp-codegen: removed {stale}, left by a killed run")
            mode = real.stat().st_mode & 0o7777 if real.exists() else 0o666 & ~_umask()
            fd, tmp = swap.temp_file(real)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(text.encode("utf-8"))
                os.chmod(tmp, mode)
                os.replace(tmp, real)
            except BaseException:
                os.unlink(tmp)
                raise
            finally:
                swap.forget(real)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {_reason(err)}") from err
