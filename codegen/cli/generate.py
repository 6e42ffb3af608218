"""`mcp-codegen SCHEMA...` (generation), `mcp-codegen ir` and `mcp-codegen jsonschema`:
arguments and output, no logic."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .. import console
from ..write import add_force, report_warnings, write_output
from .exits import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK
from .spec import attach_options


def cmd_generate(args: argparse.Namespace) -> int:
    from ..outputs import render_all
    from ..pipeline import load_many, read_overrides
    from ..write import check_target, differences, write_tree

    if len(args.schema) > 1 and args.package is None:
        console.warn(
            "mcp-codegen: several schemas make one distribution: give its import name with "
            "--package NAME (e.g. --package mcp_bindings)"
        )
        return EXIT_BAD_INPUT
    if args.package is not None and args.target == "python":
        from ..distribution import check_package_name

        check_package_name(args.package)  # before the schemas are read: it is the quick check

    if args.profile is not None and args.target != "pydantic":
        console.warn("mcp-codegen: --profile is for --target pydantic")
        return EXIT_BAD_INPUT
    if args.target == "pydantic" and (len(args.schema) > 1 or args.package is not None):
        console.warn("mcp-codegen: --target pydantic takes one schema (no --package)")
        return EXIT_BAD_INPUT
    if not args.check:
        check_target(Path(args.output))  # a device or a file as -o: refused before any work
    profile = None
    if args.profile is not None:  # read first: a bad profile stops the run before any work
        from ..pydantic import load_profile

        profile = load_profile(args.profile)
    renames = None
    if args.app_renames is not None and args.package is not None:  # read first too
        from ..appmodel import load_renames

        renames = load_renames(Path(args.app_renames))
    loaded = load_many(args.schema, read_overrides(args.names))
    report_warnings(*loaded)
    if args.target == "pydantic":
        from ..pydantic import render_pydantic

        files = render_pydantic(loaded[0], profile)
    elif args.target == "zod":
        from ..zod import render_zod

        files = render_zod(loaded, args.package)
    elif args.package is None:
        files = render_all(loaded[0], args.formatter)
    else:
        from ..distribution import render_distribution

        files = render_distribution(
            loaded, args.package, args.dist_version, renames, args.formatter
        )
    target = Path(args.output)
    if args.check:
        stale = differences(target, files)
        for rel in stale:
            console.warn(f"{target / rel}: differs from what mcp-codegen would generate")
        return EXIT_FINDINGS if stale else EXIT_OK
    write_tree(target, files, force=args.force)
    console.warn(f"wrote {len(files)} files to {target}")
    return EXIT_OK


def cmd_ir(args: argparse.Namespace) -> int:
    from .. import ir
    from ..pipeline import declared, load, read_overrides

    node = declared(args.schema) if args.declared else load(args.schema, read_overrides(args.names))
    report_warnings(node)
    write_output(ir.to_json_text(node), args.output)
    return EXIT_OK


def cmd_jsonschema(args: argparse.Namespace) -> int:
    from ..jsonout import dumps
    from ..jsonschema_out import emit
    from ..pipeline import load, read_overrides

    resolved = load(args.schema, read_overrides(args.names))
    report_warnings(resolved)
    write_output(
        dumps(emit(resolved, number_as_integer=args.number_as_integer, dialect=args.dialect)),
        args.output,
    )
    return EXIT_OK


def _add_schema(p: argparse.ArgumentParser) -> None:
    p.add_argument("schema", help="a schema.ts path, a released version (2025-11-25) or draft")
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )


def build_parser() -> console.ArgumentParser:
    """The generation command's parser (the one without a subcommand)."""
    main = console.ArgumentParser(
        prog="mcp-codegen",
        description="Generate Python bindings, validators, a method registry and JSON Schema from an "
        "MCP schema.ts. Subcommands: ir, jsonschema, diff, rules, history, registry, reference, fetch "
        "(each has --help).",
    )
    main.add_argument(
        "schema",
        nargs="+",
        help="path to a schema.ts; several (oldest first, with --package) make one distribution",
    )
    main.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    main.add_argument(
        "-o",
        "--output",
        default="out",
        help="output directory (default: ./out): the package itself for one schema without "
        "--package, else the distribution (pyproject.toml and the package NAME)",
    )
    main.add_argument(
        "--package",
        metavar="NAME",
        help="write an installable distribution whose package NAME has a subpackage per "
        "protocol version (required with several schemas)",
    )
    main.add_argument(
        "--dist-version",
        default="0.1.0",
        metavar="VERSION",
        help="the distribution's version in pyproject.toml (default: 0.1.0)",
    )
    main.add_argument(
        "--target",
        choices=["python", "zod", "pydantic"],
        default="python",
        help="python (default): the package or distribution; zod: a TypeScript module of zod "
        "schemas (index.ts), or with --package one module per version; pydantic: one module "
        "of pydantic v2 models (__init__.py)",
    )
    main.add_argument(
        "--profile",
        metavar="NAME|FILE",
        help="with --target pydantic: the reviewed conventions of one consumer (a JSON file, or "
        "a shipped name: python-sdk)",
    )
    main.add_argument(
        "--app-renames",
        metavar="FILE",
        help="the reviewed type renames of the application types of a distribution (JSON: "
        '{"renames": {old: new}, "rejected": {...}}; default: schemas/app-renames.json)',
    )
    main.add_argument(
        "--formatter",
        choices=["ruff", "black"],
        default="ruff",
        help="what lays out the generated Python: ruff (default, `ruff format`) or black; both "
        "pinned, both give black's style",
    )
    main.add_argument(
        "--check", action="store_true", help="exit 1 if OUTPUT differs from what would be generated"
    )
    add_force(main)
    main.set_defaults(func=cmd_generate)
    attach_options([main])
    return main


def register(subparsers: Any) -> None:
    """Add the `ir` and `jsonschema` subcommands."""
    p = subparsers.add_parser("ir", help="dump the intermediate model as JSON")
    _add_schema(p)
    p.add_argument(
        "--declared", action="store_true", help="dump the declared model, before resolution"
    )
    p.add_argument("-o", "--output", help="write to FILE instead of stdout")
    p.set_defaults(func=cmd_ir)

    p = subparsers.add_parser("jsonschema", help="print a JSON Schema document for the schema")
    _add_schema(p)
    p.add_argument(
        "--number-as-integer",
        action="store_true",
        help="render bare TS `number` as `integer`, like the official schema.json files",
    )
    p.add_argument(
        "--dialect",
        choices=["draft-07", "2020-12"],
        help="default: chosen from the protocol version",
    )
    p.add_argument("-o", "--output", help="write to FILE instead of stdout")
    p.set_defaults(func=cmd_jsonschema)
