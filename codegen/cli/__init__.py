"""Command line: arguments, exit codes and printing errors. No logic of its own.

Exit codes: 0 ok; 1 drift (`--check`) or findings over `--fail-on`; 2 bad input; 3 internal error.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import FormatError, SchemaError, SpecError
from ..write import OutputError, add_force, report_warnings, write_output
from .spec import attach_options, resolve_args

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


def cmd_generate(args: argparse.Namespace) -> int:
    from ..outputs import render_all
    from ..pipeline import load_many, read_overrides
    from ..write import differences, write_tree

    if len(args.schema) > 1 and args.package is None:
        print(
            "mcp-codegen: several schemas make one distribution: give its import name with "
            "--package NAME (e.g. --package mcp_bindings)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.package is not None and args.target == "python":
        from ..distribution import check_package_name

        check_package_name(args.package)  # before the schemas are read: it is the quick check

    if args.profile is not None and args.target != "pydantic":
        print("mcp-codegen: --profile is for --target pydantic", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.target == "pydantic" and (len(args.schema) > 1 or args.package is not None):
        print("mcp-codegen: --target pydantic takes one schema (no --package)", file=sys.stderr)
        return EXIT_BAD_INPUT
    profile = None
    if args.profile is not None:  # read first: a bad profile stops the run before any work
        from ..pydantic import load_profile

        profile = load_profile(args.profile)
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
        from ..appmodel import load_renames
        from ..distribution import render_distribution

        renames = None if args.app_renames is None else load_renames(Path(args.app_renames))
        files = render_distribution(
            loaded, args.package, args.dist_version, renames, args.formatter
        )
    target = Path(args.output)
    if args.check:
        stale = differences(target, files)
        for rel in stale:
            print(f"{target / rel}: differs from what mcp-codegen would generate", file=sys.stderr)
        return EXIT_FINDINGS if stale else EXIT_OK
    write_tree(target, files, force=args.force)
    print(f"wrote {len(files)} files to {target}", file=sys.stderr)
    return EXIT_OK


def cmd_ir(args: argparse.Namespace) -> int:
    from .. import ir
    from ..jsonout import dumps
    from ..pipeline import declared, load, read_overrides

    node = declared(args.schema) if args.declared else load(args.schema, read_overrides(args.names))
    report_warnings(node)
    write_output(dumps(ir.to_json(node)), args.output)
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


# The subcommands, named here so that a plain generation builds (and imports) none of them: the
# diff and fetch modules cost a first run more than parsing the schema does.
COMMANDS = ("ir", "jsonschema", "diff", "rules", "history", "registry", "reference", "fetch")


def build_parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The generation parser and the subcommand parser."""
    return build_main_parser(), build_command_parser()


def build_main_parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
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


def build_command_parser() -> argparse.ArgumentParser:
    sub = argparse.ArgumentParser(prog="mcp-codegen")
    cmds = sub.add_subparsers(dest="command", required=True)

    p = cmds.add_parser("ir", help="dump the intermediate model as JSON")
    _add_schema(p)
    p.add_argument(
        "--declared", action="store_true", help="dump the declared model, before resolution"
    )
    p.add_argument("-o", "--output", help="write to FILE instead of stdout")
    p.set_defaults(func=cmd_ir)

    p = cmds.add_parser("jsonschema", help="print a JSON Schema document for the schema")
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

    for register in _extensions():
        register(cmds)
    attach_options(_subparsers(sub))
    return sub


def _extensions() -> list[Callable[[argparse._SubParsersAction], None]]:  # type: ignore[type-arg]
    """Subcommands that live with their feature module; each exposes `register(subparsers)`."""
    from .diff import register as register_diff
    from .reference import register as register_reference
    from .registry import register as register_registry
    from .spec import register as register_fetch

    return [register_diff, register_registry, register_reference, register_fetch]


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.values())
    return []


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        build_main_parser().print_help(sys.stderr)
        return EXIT_BAD_INPUT
    parser = build_command_parser() if argv[0] in COMMANDS else build_main_parser()
    args = parser.parse_args(argv)
    try:
        resolve_args(args)  # every schema argument: a path, a released version or draft
        code: int = args.func(args)
        return code
    except SchemaError as err:
        for d in err.diagnostics:
            print(str(d), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (SpecError, OutputError) as err:
        print(f"mcp-codegen: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except FormatError as err:  # generated code a formatter rejects, or no formatter: our bug
        print(f"mcp-codegen: internal error: {err}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        return 130
    except Exception:  # noqa: BLE001 - anything else is our bug, reported as such
        traceback.print_exc()
        print(
            "mcp-codegen: internal error (a bug in mcp-codegen; please report it)", file=sys.stderr
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
