"""Atomic output: render everything first, write into a temporary directory next to the target,
then swap it in. A failed run leaves the previous output byte-identical; files in the target that
the generator did not produce (not in its manifest) are carried over, never deleted."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from . import ir

MANIFEST = ".mcp-codegen-manifest.json"


def report_warnings(*models: ir.Schema | ir.Resolved) -> None:
    """Every command prints the warnings of the models it read, `file:line:col: warning: ...`;
    they never change the exit code."""
    for model in models:
        for d in model.warnings:
            print(f"{d.loc}: warning: {d.message}", file=sys.stderr)


def _previous_manifest(target: Path) -> set[str]:
    try:
        data = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
        return {str(p) for p in data.get("files", [])}
    except (OSError, ValueError, AttributeError):
        return set()


def write_tree(target: Path, files: Mapping[str, str]) -> None:
    """Replace the generated files under `target` with `files` (relative path -> text)."""
    target = target.resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    backup: Path | None = None
    try:
        for rel, text in sorted(files.items()):
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(text.encode("utf-8"))
        manifest = {"generator": "mcp-codegen", "files": sorted([*files, MANIFEST])}
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        if target.exists():
            # Keep the user's own files: everything the previous run did not generate.
            generated = _previous_manifest(target)
            for path in sorted(target.rglob("*")):
                rel = path.relative_to(target).as_posix()
                if path.is_file() and rel not in generated and rel not in files and rel != MANIFEST:
                    if "__pycache__" in path.parts:
                        continue
                    (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, tmp / rel)
            backup = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            os.rmdir(backup)
            os.replace(target, backup)
        os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if backup is not None and backup.exists() and not target.exists():
            os.replace(backup, target)
        raise
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def differences(target: Path, files: Mapping[str, str]) -> list[str]:
    """Relative paths whose content under `target` differs from `files` (for `--check`)."""
    out = []
    for rel, text in sorted(files.items()):
        path = target / rel
        if not path.is_file() or path.read_bytes() != text.encode("utf-8"):
            out.append(rel)
    return out


def write_output(text: str, path: str | None) -> None:
    """A command's output: to FILE atomically when `-o FILE` was given, else to stdout."""
    if path:
        write_file(Path(path), text)
    else:
        sys.stdout.write(text)


class OutputError(Exception):
    """The output cannot be written where it was asked for (reported, exit code 2)."""


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_file(path: Path, text: str) -> None:
    """Write one file atomically (temp file in the same directory, then rename). The folder must
    exist: a mistyped `-o` path is an error, not a new directory tree. The file gets the mode
    an ordinary new file gets (0666 less the umask; an existing file keeps its mode), not the
    0600 of the temporary file."""
    if not path.parent.is_dir():
        raise OutputError(f"cannot write {path}: folder {path.parent} does not exist")
    try:
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from err
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
