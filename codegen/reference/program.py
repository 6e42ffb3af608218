"""typedoc's program: the schema files the specification's typedoc run checks together, which
decides the order of a union's string literals on a page (`literals.py`). It is never guessed
from the files beside a schema: a version name brings the official program (the pinned
versions, each from the same `--spec-dir` or cache), a path has one only when given
(`--program DIR` or `--program REF:DIR`: every `DIR/*/schema.ts`), else it is checked alone.

A file's place in the program is `FOLDER/schema.ts` (TypeScript checks the files in path
order); a page's schema takes its own folder's name, so a copy of `2025-11-25/schema.ts` beside
`--program` stands where the official file stands. Files are read only when a page needs them
(those that sort before it), once each."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .. import gitread, ir
from ..errors import Diagnostic, Location, SchemaError
from ..lower import lower
from ..parse import parse_source
from ..spec import SpecOptions, resolve_schema_arg
from ..spec.pins import pins
from .folder import DiskFolder, Folder, GitFolder, Refused

SCHEMA_FILE = "schema.ts"


def place_of(path: str) -> str:
    """A schema's place in a program: `FOLDER/FILE` (`draft/schema.ts`)."""
    p = path.replace("\\", "/")
    return f"{posixpath.basename(posixpath.dirname(p))}/{posixpath.basename(p)}"


@dataclass
class Program:
    """Schema files by their place, each read (and parsed) at most once."""

    loaders: dict[str, Callable[[], ir.Schema | None]]
    _read: dict[str, ir.Schema | None] = field(default_factory=dict)

    def before(self, place: str) -> Iterator[ir.Schema]:
        """The files TypeScript checks before the one at `place`, in its order (by code point);
        a file that cannot be read or does not parse is left out, as it would have failed the
        official build."""
        for key in sorted(self.loaders):
            if key >= place:
                break
            if key not in self._read:
                self._read[key] = self.loaders[key]()
            schema = self._read[key]
            if schema is not None:
                yield schema


def _parsed(folder: Folder, rel: str) -> ir.Schema | None:
    name = f"{folder.label.rstrip('/')}/{rel}"
    try:
        return lower(parse_source(name, folder.read(rel, "a program file")))
    except (Refused, SchemaError, UnicodeDecodeError):
        return None


def _loader(folder: Folder, rel: str) -> Callable[[], ir.Schema | None]:
    return lambda: _parsed(folder, rel)


def from_paths(paths: dict[str, str]) -> Program:
    """Files on disk by place (the pinned versions: `{"2024-11-05/schema.ts": path}`)."""
    return Program({
        place: _loader(DiskFolder(Path(path).parent), Path(path).name)
        for place, path in paths.items()
    })  # fmt: skip


def official(version: str, options: SpecOptions) -> Program:
    """The specification repository's program as a version's page sees it: the pinned versions
    whose folders sort before `version`'s, each read from `--spec-dir` or the cache (fetched if
    missing, as any version argument)."""
    place = f"{version}/{SCHEMA_FILE}"
    return from_paths({
        f"{name}/{SCHEMA_FILE}": resolve_schema_arg(name, options)
        for name in pins()
        if f"{name}/{SCHEMA_FILE}" < place
    })  # fmt: skip


def from_arg(arg: str, git_dir: str | None = None) -> Program:
    """`--program DIR` (every regular `DIR/*/schema.ts`) or `--program REF:DIR` (the same in
    that commit's tree); a folder that is neither is a located error."""
    ref = gitread.split_ref(arg, git_dir)
    if ref is None:
        root = Path(arg)
        if not root.is_dir():
            raise _error(arg, f"--program {arg}: not a folder")
        folder = DiskFolder(root)
        subs = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.is_symlink())
        return Program({
            f"{name}/{SCHEMA_FILE}": _loader(folder, f"{name}/{SCHEMA_FILE}")
            for name in subs
            if (root / name / SCHEMA_FILE).is_file()
        })  # fmt: skip
    rev = f"{ref[0]}:{ref[1].strip('/') or '.'}"
    try:
        hit = gitread.lookup(git_dir, [rev])[0]
        files = gitread.tree_files(git_dir, hit[0]) if hit and hit[1] == "tree" else None
    except gitread.GitError as err:
        raise _error(arg, f"--program {arg}: git cannot read it: {err}") from None
    if hit is None or files is None:
        raise _error(arg, f"--program {arg}: git knows no folder {ref[1]} at {ref[0]}")
    tree = GitFolder(git_dir, hit[0], f"{arg.rstrip('/')}/")
    return Program({
        rel: _loader(tree, rel)
        for rel, entry in files.items()
        if rel.count("/") == 1 and rel.endswith(f"/{SCHEMA_FILE}") and gitread.is_regular(entry)
    })  # fmt: skip


def _error(arg: str, message: str) -> SchemaError:
    return SchemaError([Diagnostic(Location(arg, 1, 1), message)])
