"""`mcp-codegen model VERSION|SCHEMA ... [-o FILE]` (the published model, docs/model.md) and
`mcp-codegen model --json-schema`: arguments and output, no logic."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import SpecError
from ..write import report_warnings, write_output
from .exits import EXIT_OK


def cmd_model(args: argparse.Namespace) -> int:
    if args.json_schema:
        from ..published.schema import render_schema

        write_output(render_schema(), args.output)
        return EXIT_OK
    if not args.schemas:
        raise SpecError("model needs one or more schemas, oldest first (or --json-schema)")
    from ..analysis.versions import label_for
    from ..jsonout import dumps
    from ..pipeline import load_many, read_overrides
    from ..published import build, check_labels

    labels = [label_for(path) for path in args.schemas]
    check_labels(labels, args.schemas)  # before the schemas are read
    loaded = load_many(args.schemas, read_overrides(args.names))  # oldest first: checked there
    report_warnings(*loaded)
    write_output(dumps(build(labels, loaded)), args.output)
    return EXIT_OK


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "model",
        help="the language-neutral model of one or several versions (JSON, docs/model.md)",
    )
    p.add_argument(
        "schemas",
        nargs="*",
        help="schema.ts paths, released versions (2025-11-25) or draft, oldest first",
    )
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    p.add_argument(
        "--json-schema",
        action="store_true",
        help="print the JSON Schema (2020-12) of the model document and exit",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.set_defaults(func=cmd_model)
