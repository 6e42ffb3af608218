"""`mcp-codegen vectors VERSION|SCHEMA ... -o DIR`: the conformance test vectors of each schema,
`DIR/<version label>/<Type>.json` (and `json-text.json`). Arguments and writing only; the
vectors are codegen.conformance."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .. import console
from ..errors import Diagnostic, Location, SchemaError, SpecError
from .exits import EXIT_FINDINGS, EXIT_OK


def read_examples(schema_path: str) -> dict[str, list[tuple[str, Any]]]:
    """The official examples beside a schema.ts (`examples/<Type>/<name>.json`: regular files
    only), sorted; one that is not JSON is a located SchemaError."""
    root = Path(schema_path).parent / "examples"
    out: dict[str, list[tuple[str, Any]]] = {}
    if not root.is_dir() or root.is_symlink():
        return out
    paths = [p for p in root.glob("*/*.json") if p.is_file() and not p.is_symlink()]
    for path in sorted(paths, key=lambda p: (p.parent.name, p.name)):
        try:
            value = json.loads(path.read_bytes())
        except json.JSONDecodeError as err:
            where = Location(str(path), err.lineno, err.colno)
            raise SchemaError([Diagnostic(where, f"example is not JSON: {err.msg}")]) from err
        except (OSError, ValueError) as err:
            raise SchemaError(
                [Diagnostic(Location(str(path), 1, 1), f"unreadable example: {err}")]
            ) from err
        out.setdefault(path.parent.name, []).append((path.name, value))
    return out


def render(schemas: list[str]) -> dict[str, str]:
    """Relative path -> text of every vector file."""
    from ..analysis.versions import label_for
    from ..conformance import Version, build
    from ..jsonout import dumps
    from ..pipeline import load_many
    from ..write import report_warnings

    labels = [label_for(s) for s in schemas]
    if len(set(labels)) != len(labels):
        raise SpecError(f"two schemas share the version label {_repeated(labels)!r}")
    loaded = load_many(schemas)  # released versions oldest first, or a located exit 2
    report_warnings(*loaded)
    versions = [Version(label, r, read_examples(s)) for label, r, s in zip(labels, loaded, schemas)]
    docs = build(versions)
    return {
        f"{label}/{stem}.json": dumps(doc) for label, d in docs.items() for stem, doc in d.items()
    }


def _repeated(labels: list[str]) -> str:
    return next(label for label in labels if labels.count(label) > 1)


def _extra(target: Path, files: dict[str, str]) -> list[str]:
    """Vector files under a version's folder that would no longer be written."""
    labels = {rel.split("/", 1)[0] for rel in files}
    found = (p.relative_to(target).as_posix() for label in sorted(labels)
             for p in sorted((target / label).glob("*.json")))  # fmt: skip
    return [rel for rel in found if rel not in files]


def cmd_vectors(args: argparse.Namespace) -> int:
    from ..write import differences, write_tree

    files = render(args.schemas)
    target = Path(args.output)
    if args.check:
        stale = differences(target, files) + _extra(target, files)
        for rel in stale:
            console.warn(f"{target / rel}: differs from what mcp-codegen would generate")
        return EXIT_FINDINGS if stale else EXIT_OK
    write_tree(target, files, force=args.force)
    tests = sum(text.count('"description": ') for text in files.values())
    console.warn(f"wrote {len(files)} files ({tests} vectors) to {target}")
    return EXIT_OK


def register(subparsers: Any) -> None:
    """Add the `vectors` subcommand."""
    from ..write import add_force

    p = subparsers.add_parser(
        "vectors",
        help="write language-neutral conformance test vectors for each version",
        description="For every named type of each schema: instances that must be accepted and "
        "rejected, with the expected error paths and codes and the cross-version reasons "
        "(docs/conformance.md).",
    )
    p.add_argument(
        "schemas",
        nargs="+",
        metavar="SCHEMA",
        help="schema.ts paths, released versions or draft; dated versions oldest first",
    )
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="output directory")
    p.add_argument(
        "--check", action="store_true", help="exit 1 if DIR differs from what would be written"
    )
    add_force(p)
    p.set_defaults(func=cmd_vectors)
