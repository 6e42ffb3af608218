"""`mcp-codegen reference SCHEMA [--template FILE] [-o FILE]` and
`mcp-codegen reference A B C ... -o DIR`: arguments and output, no logic."""

from __future__ import annotations

import argparse
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import console
from ..errors import SpecError
from ..spec.options import add_spec_options
from ..write import report_warnings, write_output, write_tree
from .diff import add_labels
from .exits import EXIT_BAD_INPUT, EXIT_OK

if TYPE_CHECKING:
    from .. import ir
    from ..reference import Folder


def _read(arg: str, git_dir: str | None) -> tuple[ir.Schema, Folder, str] | None:
    """A `REF:PATH` argument: the blob and its includes from that commit's tree, whatever the
    checkout holds, and PATH (its place in typedoc's program); None for anything else."""
    from ..gitread import read_ref_path, split_ref
    from ..lower import lower
    from ..parse import parse_source
    from ..reference.folder import GitFolder

    ref = split_ref(arg, git_dir)
    if ref is None:
        return None
    blob = read_ref_path(*ref, git_dir, arg)
    folder = posixpath.dirname(ref[1])
    label = f"{ref[0]}:{folder + '/' if folder else ''}"
    return lower(parse_source(arg, blob.data)), GitFolder(git_dir, blob.folder or "", label), ref[1]


def _sources(args: argparse.Namespace) -> list[tuple[ir.Schema, Folder, tuple[ir.Schema, ...]]]:
    """Each input with its includes' folder and the schemas typedoc's program checks before it:
    a version name brings its pinned folder of versions (the official program); a path or
    `REF:PATH` has `--program DIR|REF:DIR`, else none (the page then reads that file alone)."""
    from ..gitread import split_ref
    from ..pipeline import declared
    from ..reference import DiskFolder
    from ..reference.program import from_arg, official, place_of
    from ..spec import resolve_schema_arg
    from ..spec.options import options_from_args

    spec = args.program
    git_program = spec is not None and split_ref(spec, args.git_dir) is not None
    if spec is not None and not git_program and not Path(spec).is_dir():
        raise SpecError(f"--program {spec}: no such folder")
    given = from_arg(spec, args.git_dir) if spec is not None else None  # each file read once

    def earlier(source: str) -> tuple[ir.Schema, ...]:
        return tuple(given.before(place_of(source))) if given is not None else ()

    out: list[tuple[ir.Schema, Folder, tuple[ir.Schema, ...]]] = []
    for arg in args.reference_inputs:
        from_git = _read(arg, args.git_dir)
        if from_git is not None:
            schema, folder, place = from_git
            out.append((schema, folder, earlier(place)))
            continue
        path = resolve_schema_arg(arg, options_from_args(args))
        named = path != arg and not Path(arg).exists()
        # a version name: the pinned versions before it, not whatever else the folder holds
        before = (
            tuple(official(arg, options_from_args(args)).before(place_of(path)))
            if named
            else earlier(path)
        )
        out.append((declared(path), DiskFolder(Path(path).parent), before))
    return out


def cmd_reference(args: argparse.Namespace) -> int:
    from ..pipeline import read_overrides, resolve_many
    from ..reference import find_template, render_page

    schemas: list[str] = args.reference_inputs
    labels: list[str] = args.label or []
    if labels and len(labels) != len(schemas):
        raise SpecError(f"--label is given {len(labels)} time(s) for {len(schemas)} schemas")
    if len(schemas) > 1 and args.template is not None:
        console.warn("mcp-codegen: --template applies to one schema (each version uses its own)")
        return EXIT_BAD_INPUT
    if len(schemas) > 1 and args.output is None:
        console.warn("mcp-codegen: several schemas make a folder: give it with -o DIR")
        return EXIT_BAD_INPUT
    read = _sources(args)
    if len(schemas) == 1:
        schema, folder, before = read[0]
        report_warnings(schema)
        template = find_template(schema.source, args.template, folder)
        page = render_page(schema, template, None, folder, before)
        write_output(page, args.output)
        return EXIT_OK
    from ..reference.site import site_files

    declared = [schema for schema, _, _ in read]
    resolved = resolve_many(declared, read_overrides(args.names))
    report_warnings(*resolved)
    templates = [find_template(s.source, None, folder) for s, folder, _ in read]
    files = site_files(
        declared,
        resolved,
        templates,
        [folder for _, folder, _ in read],
        [before for _, _, before in read],
        labels or None,
    )  # everything is rendered before anything is written
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
