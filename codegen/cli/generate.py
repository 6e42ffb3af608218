"""`mcp-codegen SCHEMA...` (generation through the chosen target of `codegen.targets`),
`mcp-codegen ir` and `mcp-codegen jsonschema`: arguments and output, no logic, no target's
name."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import console
from ..write import add_force, report_warnings, write_output
from .exits import EXIT_FINDINGS, EXIT_OK
from .spec import attach_options

if TYPE_CHECKING:
    from ..targets.base import Option, Target


def cmd_generate(args: argparse.Namespace) -> int:
    """Every target the same way: its options checked before the schemas are read, the schemas
    loaded, `render` called, and its files written atomically (or compared, `--check`)."""
    from ..analysis.versions import label_for
    from ..errors import UsageError
    from ..pipeline import load_many, read_overrides
    from ..targets import Request, get
    from ..write import check_target, differences, write_tree

    target = get(args.target)
    if len(args.schema) > 1 and not target.several:
        raise UsageError(f"--target {target.name} takes one schema ({len(args.schema)} given)")
    options: dict[str, object] = {o.dest: getattr(args, o.dest) for o in target.options}
    if target.check_options is not None:
        options.update(target.check_options(options, len(args.schema)) or {})
    if not args.check:
        check_target(Path(args.output))  # a device or a file as -o: refused before any work
    loaded = load_many(args.schema, read_overrides(args.names))
    report_warnings(*loaded)
    labels = tuple(label_for(r.source) for r in loaded)
    files = target.render(Request(tuple(loaded), options, labels, target.name))
    out = Path(args.output)
    if args.check:
        stale = differences(out, files)
        for rel in stale:
            console.warn(f"{out / rel}: differs from what mcp-codegen would generate")
        return EXIT_FINDINGS if stale else EXIT_OK
    write_tree(out, files, force=args.force)
    console.warn(f"wrote {len(files)} files to {out}")
    return EXIT_OK


def cmd_ir(args: argparse.Namespace) -> int:
    from .. import ir
    from ..pipeline import declared, load, read_overrides

    node = declared(args.schema) if args.declared else load(args.schema, read_overrides(args.names))
    report_warnings(node)
    write_output(ir.to_json_text(node), args.output)
    return EXIT_OK


def cmd_jsonschema(args: argparse.Namespace) -> int:
    """The jsonschema target's one document, to stdout or FILE."""
    from ..analysis.versions import label_for
    from ..pipeline import load, read_overrides
    from ..targets import Request, get

    resolved = load(args.schema, read_overrides(args.names))
    report_warnings(resolved)
    options = {"number_as_integer": args.number_as_integer, "dialect": args.dialect}
    request = Request((resolved,), options, (label_for(resolved.source),), "jsonschema")
    write_output(get("jsonschema").render(request)["schema.json"], args.output)
    return EXIT_OK


def _add_schema(p: argparse.ArgumentParser) -> None:
    p.add_argument("schema", help="a schema.ts path, a released version (2025-11-25) or draft")
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )


def parse_generation(argv: Sequence[str]) -> argparse.Namespace:
    """The generation command's arguments. Only the chosen target's options are known (so only
    its plugin is imported); a flag of another target is a UsageError naming both."""
    parser = build_parser(argv)
    args, extra = parser.parse_known_args(argv)
    flags = [a for a in extra if a.startswith("-")]
    from ..errors import UsageError
    from ..targets import get, names

    if not flags:
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        # a required option is checked here, after another target's flag would have been named
        for o in get(args.target).options:
            if o.required and getattr(args, o.dest) is None:
                raise UsageError(f"--target {args.target} needs {o.flag} {o.metavar or ''}".strip())
        return args

    flag = flags[0].split("=", 1)[0]
    owners = [n for n in names() if any(o.flag.startswith(flag) for o in get(n).options)]
    if not owners:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    takes = ", ".join(f"--target {n}" for n in owners)
    raise UsageError(f"--target {args.target} does not take {flag} (an option of {takes})")


def _chosen_target(argv: Sequence[str]) -> str | None:
    """The --target of `argv` (the default when absent), or None when it names no target."""
    from ..targets import DEFAULT, names

    pre = console.ArgumentParser(add_help=False)
    pre.add_argument("--target", default=DEFAULT)
    known, _ = pre.parse_known_args(argv)
    return known.target if known.target in names() else None


def build_parser(argv: Sequence[str] | None = None) -> console.ArgumentParser:
    """The generation command's parser (the one without a subcommand): the shared arguments
    and the options of the target `argv` chooses; of every target for help (no `argv`, or -h)."""
    from ..targets import DEFAULT, get, names

    every = argv is None or "-h" in argv or "--help" in argv
    chosen = None if argv is None else _chosen_target(argv)
    shown = names() if every else [chosen] if chosen is not None else []
    targets = [get(n) for n in shown]
    listing = "; ".join(f"{t.name}: {t.summary}" for t in targets) if every else ""
    main = console.ArgumentParser(
        prog="mcp-codegen",
        description="Generate bindings from an MCP schema.ts, one output kind (target) a run "
        "(`mcp-codegen targets` lists them). Subcommands: targets, ir, jsonschema, model, diff, "
        "rules, history, registry, reference, fetch (each has --help).",
    )
    main.add_argument(
        "schema",
        nargs="+",
        help="path to a schema.ts, a released version (2025-11-25) or draft; several (oldest "
        "first) for a target that takes several versions",
    )
    main.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    main.add_argument(
        "-o",
        "--output",
        default="out",
        help="output directory (default: ./out); what each target writes there: `mcp-codegen "
        "targets`",
    )
    main.add_argument(
        "--target",
        choices=names(),
        default=DEFAULT,
        help=f"the output kind (default: {DEFAULT}){': ' + listing if listing else ''}",
    )
    _add_target_options(main, targets, every)
    main.add_argument(
        "--check", action="store_true", help="exit 1 if OUTPUT differs from what would be generated"
    )
    add_force(main)
    main.set_defaults(func=cmd_generate)
    attach_options([main])
    return main


def _add_target_options(
    parser: argparse.ArgumentParser, targets: Sequence[Target], every: bool
) -> None:
    """One argument per flag; a flag several targets declare shows each one's help."""
    by_flag: dict[str, list[tuple[str, Option]]] = {}
    for t in targets:
        for o in t.options:
            by_flag.setdefault(o.flag, []).append((t.name, o))
    group = parser.add_argument_group("target options", "each target takes its own")
    for flag, declared in by_flag.items():
        option = declared[0][1]
        if every:
            help = " | ".join(f"{name}: {o.help}" for name, o in declared)
        else:
            help = option.help
        if option.switch:
            group.add_argument(flag, action="store_true", help=help)
        else:
            group.add_argument(
                flag,
                metavar=option.metavar,
                choices=option.choices,
                default=option.default,
                help=help,
            )


def register(subparsers: Any) -> None:
    """Add the `ir`, `jsonschema` and `targets` subcommands."""
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

    p = subparsers.add_parser("targets", help="list the output kinds (--target NAME)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_targets)


def cmd_targets(args: argparse.Namespace) -> int:
    """`mcp-codegen targets`: each target's name and summary (`--format json`: and options)."""
    from ..jsonout import dumps
    from ..targets import get, names

    targets = [get(n) for n in names()]
    if args.format == "json":
        console.document(dumps([_target_json(t) for t in targets]))
    else:
        width = max(len(t.name) for t in targets)
        for t in targets:
            console.say(f"{t.name.ljust(width)}  {t.summary}")
    return EXIT_OK


def _target_json(t: Target) -> dict[str, object]:
    options = [
        {
            "flag": o.flag,
            "help": o.help,
            "metavar": o.metavar,
            "default": o.default,
            "choices": None if o.choices is None else list(o.choices),
            "required": o.required,
            "switch": o.switch,
        }
        for o in t.options
    ]
    return {"name": t.name, "summary": t.summary, "several": t.several, "options": options}
