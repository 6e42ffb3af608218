"""`mcp-codegen history A B C ... -o DIR`: arguments and output, no logic."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..write import add_force, report_warnings, write_tree

EXIT_OK = 0


def cmd_history(args: argparse.Namespace) -> int:
    from ..pipeline import load_many, read_overrides
    from .history import history_files

    schemas = load_many(args.schemas, read_overrides(args.names))
    report_warnings(*schemas)
    files = history_files(schemas)  # everything is rendered before anything is written
    target = Path(args.output)
    write_tree(target, files, force=args.force)
    print(f"wrote {len(files)} pages to {args.output}", file=sys.stderr)
    return EXIT_OK


def register(subparsers: Any) -> None:
    """Add the `history` subcommand."""
    p = subparsers.add_parser(
        "history",
        help="HTML pages: method x version and type x version matrices, and a diff per pair",
        description="Compare consecutive schemas (oldest first) and write DIR/index.html, a method "
        "x version and a type x version matrix whose cells link to the pair's diff page "
        "(also written into DIR). The folder is replaced atomically; files in it that mcp-codegen did not write are kept.",
    )
    p.add_argument(
        "schemas",
        nargs="+",
        help="schemas oldest first: schema.ts paths, released versions or draft",
    )
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write")
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    add_force(p)
    p.set_defaults(func=cmd_history)
