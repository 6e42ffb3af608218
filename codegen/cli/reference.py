"""`mcp-codegen reference SCHEMA [--template FILE] [--program DIR|REF:DIR] [-o FILE]` and
`mcp-codegen reference A B C ... [--label L ...] -o DIR`: arguments and output, no logic."""

from __future__ import annotations

import argparse
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import console
from ..errors import SpecError
from ..write import report_warnings, write_output, write_tree
from .exits import EXIT_BAD_INPUT, EXIT_OK

if TYPE_CHECKING:
    from .. import ir
    from ..reference import Folder, Program


def _read(arg: str, git_dir: str | None) -> tuple[ir.Schema, Folder]:
    """A schema argument: a file (its includes from its folder) or `REF:PATH` (the blob and its
    includes from that commit's tree, whatever the checkout holds)."""
    from ..gitread import read_ref_path, split_ref
    from ..lower import lower
    from ..parse import parse_source
    from ..pipeline import declared
    from ..reference import DiskFolder
    from ..reference.folder import GitFolder

    ref = split_ref(arg, git_dir)
    if ref is None:
        return declared(arg), DiskFolder(Path(arg).parent)
    blob = read_ref_path(*ref, git_dir, arg)
    folder = posixpath.dirname(ref[1])
    label = f"{ref[0]}:{folder + '/' if folder else ''}"
    return lower(parse_source(arg, blob.data)), GitFolder(git_dir, blob.folder or "", label)


def _programs(args: argparse.Namespace) -> list[Program]:
    """typedoc's program of each page: `--program` for every input; else a version name's
    official one (the pinned versions before it); else none (the schema checked alone)."""
    from ..reference import program
    from ..spec.options import options_from_args
    from ..spec.pins import pins

    if args.program is not None:
        return [program.from_arg(args.program, args.git_dir)] * len(args.schemas)
    given = getattr(args, "given", {}).get("schemas", args.schemas)
    options = options_from_args(args)
    return [
        program.official(name, options) if name in pins() and path != name else program.ALONE
        for name, path in zip(given, args.schemas)
    ]


def cmd_reference(args: argparse.Namespace) -> int:
    from ..pipeline import read_overrides, resolve_many
    from ..reference import find_template, render_page

    schemas: list[str] = args.schemas
    labels: list[str] | None = args.label
    if len(schemas) > 1 and args.template is not None:
        console.warn("mcp-codegen: --template applies to one schema (each version uses its own)")
        return EXIT_BAD_INPUT
    if labels is not None and len(labels) != len(schemas):
        raise SpecError(f"--label: {len(labels)} given for {len(schemas)} schemas (one each)")
    programs = _programs(args)
    if len(schemas) == 1:
        schema, folder = _read(schemas[0], args.git_dir)
        report_warnings(schema)
        template = find_template(schemas[0], args.template, folder)
        write_output(render_page(schema, template, None, folder, programs[0]), args.output)
        return EXIT_OK
    if args.output is None:
        console.warn("mcp-codegen: several schemas make a folder: give it with -o DIR")
        return EXIT_BAD_INPUT
    from ..reference.site import site_files

    read = [_read(s, args.git_dir) for s in schemas]
    declared = [schema for schema, _ in read]
    resolved = resolve_many(declared, read_overrides(args.names))
    report_warnings(*resolved)
    templates = [find_template(s, None, folder) for s, (_, folder) in zip(schemas, read)]
    folders = [folder for _, folder in read]
    files = site_files(declared, resolved, templates, folders, programs, labels)
    # everything is rendered before anything is written
    write_tree(Path(args.output), files)
    console.warn(f"wrote {len(files)} files to {args.output}")
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
        "(HTML and MDX) with since/until badges linking to the diff pages, and since.json. "
        "A schema is a path, a version name or REF:PATH (read from git with its includes and "
        "template). A version name's page is checked in the official typedoc program (the "
        "versions before it); a path's only with --program: without it, a union's string "
        "literals may be ordered differently from typedoc's.",
    )
    p.add_argument(
        "schemas", nargs="+", help="schema.ts paths, REF:PATH, released versions or draft"
    )
    p.add_argument("--template", metavar="FILE", help="the page template (one schema only)")
    p.add_argument("-o", "--output", metavar="FILE|DIR", help="the page, or the folder")
    p.add_argument(
        "--program",
        metavar="DIR|REF:DIR",
        help="typedoc's program: every DIR/*/schema.ts (on disk or in git), checked in path "
        "order before the page's schema (which orders a union's string literals as typedoc does)",
    )
    p.add_argument(
        "--label",
        action="append",
        metavar="TEXT",
        help="a schema's name in titles, file names and since.json (repeat: one per schema, in order)",
    )
    p.add_argument("--git-dir", metavar="DIR", help="the repository REF:PATH inputs are read from")
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    p.set_defaults(func=cmd_reference)
