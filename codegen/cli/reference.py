"""`mcp-codegen reference SCHEMA [--template FILE] [-o FILE]` and
`mcp-codegen reference A B C ... -o DIR`: arguments and output, no logic."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import SpecError
from ..spec.options import add_spec_options
from ..write import report_warnings, write_output, write_tree
from .diff import add_labels
from .exits import EXIT_BAD_INPUT, EXIT_OK


def _program(args: argparse.Namespace, tmp: Path) -> Path | None:
    """`--program DIR|REF:DIR`: the folder of versions typedoc's program reads."""
    from ..diff.inputs import split_ref
    from ..gittree import materialize

    if not args.program:
        return None
    ref = split_ref(args.program)
    if ref is None:
        folder = Path(args.program)
        if not folder.is_dir():
            raise SpecError(f"--program {args.program}: no such folder")
        return folder
    return materialize(ref[0], ref[1], args.git_dir, tmp / "program", args.program)


def _sources(args: argparse.Namespace, tmp: Path) -> list[tuple[str, Path | None]]:
    """Each input as a schema.ts on disk with the program folder its literal order comes from:
    a version name brings its pinned folder of versions (the official program); a path or
    `REF:PATH` (its folder written out from that commit, so the template and examples beside
    it come from the same tree) has `--program`, else none."""
    from ..diff.inputs import split_ref
    from ..gittree import materialize
    from ..spec import resolve_schema_arg
    from ..spec.options import options_from_args

    program = _program(args, tmp)
    out: list[tuple[str, Path | None]] = []
    for i, arg in enumerate(args.reference_inputs):
        ref = split_ref(arg)
        if ref is not None:
            inner = PurePosixPath(ref[1])
            folder = materialize(ref[0], str(inner.parent), args.git_dir, tmp / f"in{i}", arg)
            out.append((str(folder / inner.name), program))
            continue
        path = resolve_schema_arg(arg, options_from_args(args))
        named = path != arg and not Path(arg).exists()
        out.append((path, Path(path).parent.parent if named else program))
    return out


def cmd_reference(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-reference-") as tmp:
        return _reference(args, Path(tmp))


def _reference(args: argparse.Namespace, tmp: Path) -> int:
    from ..pipeline import declared, load_many, read_overrides
    from ..reference import find_template, render_page
    from ..reference.literals import program

    sources = _sources(args, tmp)
    schemas = [s for s, _ in sources]
    earlier = [program(s, folder) for s, folder in sources]
    labels: list[str] = args.label or []
    if labels and len(labels) != len(schemas):
        raise SpecError(f"--label is given {len(labels)} time(s) for {len(schemas)} schemas")
    if len(schemas) > 1 and args.template is not None:
        print("mcp-codegen: --template applies to one schema (each version uses its own)",
              file=sys.stderr)  # fmt: skip
        return EXIT_BAD_INPUT
    if len(schemas) == 1:
        schema = declared(schemas[0])
        report_warnings(schema)
        page = render_page(schema, find_template(schemas[0], args.template), None, earlier[0])
        write_output(page, args.output)
        return EXIT_OK
    if args.output is None:
        print("mcp-codegen: several schemas make a folder: give it with -o DIR", file=sys.stderr)
        return EXIT_BAD_INPUT
    from ..reference.site import site_files

    resolved = load_many(schemas, read_overrides(args.names))
    report_warnings(*resolved)
    files = site_files(
        [declared(s) for s in schemas],
        resolved,
        [find_template(s, None) for s in schemas],
        earlier,
        labels or None,
    )  # everything is rendered before anything is written
    write_tree(Path(args.output), files)
    print(f"wrote {len(files)} files to {args.output}", file=sys.stderr)
    return EXIT_OK


def register(subparsers: Any) -> None:
    """Add the `reference` subcommand."""
    p = subparsers.add_parser(
        "reference",
        help="the Schema Reference page (MDX); with several schemas, a multi-version reference",
        description="One schema: write its Schema Reference page (MDX, the official page's "
        "structure) to stdout or -o FILE. The template is --template FILE, else the schema.mdx "
        "beside the schema (fetched and pinned with a version), else sections by @category, "
        "else by kind. Several schemas (oldest first): write DIR/index.html, a page per version "
        "(HTML and MDX) with since/until badges linking to the diff pages, and since.json.",
    )
    p.add_argument(
        "reference_inputs",
        nargs="+",
        metavar="SCHEMA",
        help="schema.ts paths, released versions or draft, REF:PATH (read from git, with the"
        " template and examples of the same commit)",
    )
    p.add_argument(
        "--program",
        metavar="DIR|REF:DIR",
        help="the folder of version folders (<name>/schema.ts) typedoc's program reads before a"
        " schema given by path: it decides the order of a union's literals (a version name"
        " brings its own; without it a path's page reads no other file)",
    )
    p.add_argument("--template", metavar="FILE", help="the page template (one schema only)")
    p.add_argument("-o", "--output", metavar="FILE|DIR", help="the page, or the folder")
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    add_labels(p)
    add_spec_options(p)
    p.set_defaults(func=cmd_reference)
