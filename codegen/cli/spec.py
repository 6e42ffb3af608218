"""`mcp-codegen fetch [VERSION...]`, and the command-line side of schema arguments: which
arguments are schemas, their options, resolving them before a command runs."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from .. import console
from ..errors import SpecError
from ..reading import SizeError, max_input_size, parse_size, set_max_input_size
from ..spec.arguments import describe, resolve_schema_arg
from ..spec.cache import cache_root, lookup
from ..spec.options import add_spec_options, options_from_args
from ..spec.pins import known_versions, pins
from .exits import EXIT_OK

# Positional arguments that name schemas, in any command (one schema, or a list of them).
SCHEMA_DESTS = frozenset({"schema", "schemas", "old", "new"})


def takes_schemas(parser: argparse.ArgumentParser) -> bool:
    return any(not a.option_strings and a.dest in SCHEMA_DESTS for a in parser._actions)


def attach_options(parsers: Iterable[argparse.ArgumentParser]) -> None:
    """Give every parser with a schema argument the options that say where schemas come from."""
    for parser in parsers:
        if takes_schemas(parser):
            add_spec_options(parser)


def resolve_args(args: argparse.Namespace) -> None:
    """Replace every schema argument in `args` by the path to read (SpecError if impossible)."""
    _input_limit(getattr(args, "max_input_size", None))
    options = options_from_args(args)
    for dest in sorted(SCHEMA_DESTS & set(vars(args))):
        value = getattr(args, dest)
        if isinstance(value, str):
            setattr(args, dest, resolve_schema_arg(value, options))
        elif isinstance(value, list):
            setattr(args, dest, [resolve_schema_arg(str(v), options) for v in value])


def _input_limit(option: str | None) -> None:
    """`--max-input-size` for this run; a bad value (or `$MCP_CODEGEN_MAX_INPUT_SIZE`) is exit 2
    before anything is read."""
    try:
        set_max_input_size(parse_size(option, "--max-input-size") if option else None)
        max_input_size()
    except SizeError as err:
        raise SpecError(str(err)) from None


def cmd_fetch(args: argparse.Namespace) -> int:
    options = options_from_args(args)
    root = cache_root(options)
    known = pins()
    names = args.versions or [n for n, p in known.items() if not p.floats]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SpecError(
            f"unknown version {unknown[0]!r} (known versions: {', '.join(known_versions())})"
        )
    from ..spec.fetch import fetch_version  # http and ssl load only for a download

    for name in names:
        pin = known[name]
        hit = None if pin.floats or args.force else lookup(pin, root)
        if hit is not None:
            console.say(f"{name}: already in {hit} ({len(pin.files)} files verified)")
            continue
        fetched = fetch_version(pin, options, root)
        console.say(describe(pin, fetched.hashes, fetched.directory))
    return EXIT_OK


def register(subparsers: Any) -> None:
    """Add the `fetch` subcommand."""
    p = subparsers.add_parser(
        "fetch",
        help="download official schemas into the spec cache, verified against the pins",
        description="Download schema.ts, schema.json, the reference page template schema.mdx (where "
        "a version has one) and examples/ of released versions from the "
        "specification repository at the pinned commit, verify every file's sha256, and store "
        "them in the spec cache ($MCP_SPEC_CACHE_DIR, default mcp-codegen/spec under the "
        "platform cache directory). `draft` floats: fetched from the default branch, hashes "
        "reported, never checked.",
    )
    p.add_argument(
        "versions",
        nargs="*",
        metavar="VERSION",
        help=f"released versions or draft (default: every released version; known: "
        f"{', '.join(known_versions())})",
    )
    p.add_argument(
        "--force", action="store_true", help="download even if the cache already has the version"
    )
    add_spec_options(p, local=False)
    p.set_defaults(func=cmd_fetch)
