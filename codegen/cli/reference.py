"""`mcp-codegen reference SCHEMA [--template FILE] [-o FILE]` and
`mcp-codegen reference A B C ... -o DIR`: arguments and output, no logic."""

from __future__ import annotations

import argparse
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import console
from ..write import report_warnings, write_output, write_tree
from .exits import EXIT_BAD_INPUT, EXIT_OK

if TYPE_CHECKING:
    from .. import ir
    from ..reference import Folder


def _read(arg: str) -> tuple[ir.Schema, Folder]:
    """A schema argument: a file (its includes from its folder) or `REF:PATH` (the blob and its
    includes from that commit's tree, whatever the checkout holds)."""
    from ..gitread import read_ref_path, split_ref
    from ..lower import lower
    from ..parse import parse_source
    from ..pipeline import declared
    from ..reference import DiskFolder
    from ..reference.folder import GitFolder

    ref = split_ref(arg, None)
    if ref is None:
        return declared(arg), DiskFolder(Path(arg).parent)
    blob = read_ref_path(*ref, None, arg)
    folder = posixpath.dirname(ref[1])
    label = f"{ref[0]}:{folder + '/' if folder else ''}"
    return lower(parse_source(arg, blob.data)), GitFolder(None, blob.folder or "", label)


def cmd_reference(args: argparse.Namespace) -> int:
    from ..pipeline import read_overrides, resolve_many
    from ..reference import find_template, render_page

    schemas: list[str] = args.schemas
    if len(schemas) > 1 and args.template is not None:
        console.warn("mcp-codegen: --template applies to one schema (each version uses its own)")
        return EXIT_BAD_INPUT
    if len(schemas) == 1:
        schema, folder = _read(schemas[0])
        report_warnings(schema)
        page = render_page(schema, find_template(schemas[0], args.template, folder), None, folder)
        write_output(page, args.output)
        return EXIT_OK
    if args.output is None:
        console.warn("mcp-codegen: several schemas make a folder: give it with -o DIR")
        return EXIT_BAD_INPUT
    from ..reference.site import site_files

    read = [_read(s) for s in schemas]
    declared = [schema for schema, _ in read]
    resolved = resolve_many(declared, read_overrides(args.names))
    report_warnings(*resolved)
    templates = [find_template(s, None, folder) for s, (_, folder) in zip(schemas, read)]
    files = site_files(declared, resolved, templates, [folder for _, folder in read])
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
        "(HTML and MDX) with since/until badges linking to the diff pages, and since.json.",
    )
    p.add_argument("schemas", nargs="+", help="schema.ts paths, released versions or draft")
    p.add_argument("--template", metavar="FILE", help="the page template (one schema only)")
    p.add_argument("-o", "--output", metavar="FILE|DIR", help="the page, or the folder")
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    p.set_defaults(func=cmd_reference)
