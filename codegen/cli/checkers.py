"""`mcp-codegen check-wire [--version V] FILE|-` (recorded traffic) and `mcp-codegen check-server
[--version V ...] [--timeout S] -- CMD ARGS...` (a live stdio server). Arguments and printing
only; the checks are codegen.conformance.wire and codegen.conformance.server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .. import console
from ..errors import SpecError
from .exits import EXIT_FINDINGS, EXIT_OK

DEFAULT_TIMEOUT = 10.0  # seconds per request of check-server


def _versions(args: argparse.Namespace) -> Any:
    from ..conformance.known import Versions
    from ..spec.options import options_from_args

    return Versions(options_from_args(args))


def _known(versions: Any, name: str) -> str:
    label = versions.label_of(name)
    if label is None:
        raise SpecError(f"unknown version {name!r} (known: {', '.join(versions.labels)})")
    versions.resolved(label)  # a SpecError when its schema cannot be had
    return str(label)


def _read(source: str) -> list[str]:
    """The lines of FILE or stdin; a line that is not UTF-8 is kept as a marker the checker
    reports (it is not JSON). SpecError (exit 2) when the input cannot be read at all."""
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as err:
        raise SpecError(f"cannot read {source}: {err.strerror or err}") from err
    out = []
    for raw in data.split(b"\n"):
        try:
            out.append(raw.decode("utf-8").rstrip("\r"))
        except UnicodeDecodeError as err:
            out.append(f"\x00not UTF-8 at byte {err.start}")
    return out


def cmd_check_wire(args: argparse.Namespace) -> int:
    from ..conformance import report
    from ..conformance.wire import WireChecker

    versions = _versions(args)
    fixed = _known(versions, args.version) if args.version else None
    lines = _read(args.file)
    result = WireChecker(versions, fixed).lines(lines)
    name = "<stdin>" if args.file == "-" else args.file
    if args.format == "json":
        text = report.as_json(result.violations, result.messages, result.notes)
    elif args.format == "github":
        text = report.as_github(name, result.violations)
    else:
        text = report.as_text(name, result.violations, result.messages, result.notes)
    (console.workflow_commands if args.format == "github" else console.document)(text)
    return EXIT_FINDINGS if result.violations else EXIT_OK


def cmd_check_server(args: argparse.Namespace) -> int:
    from ..conformance.report import sentence
    from ..conformance.server import check_version, table
    from ..console import escape_line as esc

    argv = list(args.command)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        raise SpecError("no server command: mcp-codegen check-server [options] -- CMD ARGS...")
    if not (0 < args.request_timeout <= 3600):
        raise SpecError(
            f"--timeout must be a number of seconds in (0, 3600], not {args.request_timeout}"
        )
    versions = _versions(args)
    wanted = args.version or [v for v in versions.labels if v[:1].isdigit()]
    labels = [_known(versions, v) for v in wanted]
    try:
        runs = [check_version(argv, label, versions, args.request_timeout) for label in labels]
    except OSError as err:
        raise SpecError(f"cannot start {argv[0]}: {err.strerror or err}") from err
    out = [table(runs)]
    for r in runs:
        for v in r.violations:
            out.append(
                f"{r.asked}: message {v.line} ({esc(v.direction)}, {esc(v.method or '?')}): {sentence(v)}"
            )
        for note in r.notes:
            out.append(f"{r.asked}: note: {esc(note)}")
        if r.stopped:
            out.append(f"{r.asked}: stopped: {esc(r.stopped)}")
    console.document("\n".join(out) + "\n")
    failed = any(r.violations or r.stopped for r in runs)
    return EXIT_FINDINGS if failed else EXIT_OK


def _spec_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--spec-dir", metavar="DIR", help="local copy of the specification")
    p.add_argument("--offline", action="store_true", help="never download official schemas")


def register(subparsers: Any) -> None:
    """Add the `check-wire` and `check-server` subcommands."""
    p = subparsers.add_parser(
        "check-wire",
        help="check recorded JSON-RPC traffic against each message's protocol version",
        description="Read one message per line, or records {direction, message, session?, "
        "version?} (dir: c2s|s2c), learn each session's version, pair responses with "
        "requests, and report every message that its version does not accept "
        "(docs/conformance.md). Exit 1 when one is invalid, 2 when the input cannot be read.",
    )
    p.add_argument("file", metavar="FILE", help="the recorded traffic, or - for stdin")
    p.add_argument("--version", metavar="V", help="check every message against version V")
    p.add_argument("--format", choices=["text", "json", "github"], default="text")
    _spec_options(p)
    p.set_defaults(func=cmd_check_wire)

    p = subparsers.add_parser(
        "check-server",
        help="start a stdio server and check what it sends in each version",
        description="For each version (default: every released version): negotiate it, call "
        "ping and the list methods of the declared capabilities (prompts/get, resources/read "
        "on the first entries), check every message both ways as check-wire does, and print "
        "a version x method table. A version the server refuses is reported, not a failure; "
        "a server that hangs or exits is. Exit 1 on any violation.",
    )
    p.add_argument("--version", action="append", metavar="V", help="a version to check "
                   "(repeat for several; default: every released version)")  # fmt: skip
    p.add_argument(
        "--timeout",
        dest="request_timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for each answer (default {DEFAULT_TIMEOUT:g})",
    )
    _spec_options(p)
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- CMD ARGS...: the server")
    p.set_defaults(func=cmd_check_server)
