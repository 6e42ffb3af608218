"""`mcp-codegen diff OLD NEW` and `mcp-codegen rules`: arguments and exit codes, no logic."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..write import report_warnings, write_output
from . import FAIL_LEVELS, Report, tally
from .rules import Finding

EXIT_OK, EXIT_FINDINGS = 0, 1
FORMATS = ("md", "json", "html", "summary", "github", "junit")


def cmd_diff(args: argparse.Namespace) -> int:
    from ..pipeline import load_many, read_overrides
    from . import diff
    from .html import render_format as render  # html from the JSON document, else report's

    names = read_overrides(args.names)
    old, new = load_many([args.old, args.new], names)
    report_warnings(old, new)
    report = diff(old, new)
    write_output(render(report, args.format, args.fail_on), args.output)
    return gate(report, args.fail_on)


def gate(report: Report, fail_on: str | None) -> int:
    """`--fail-on`: exit 1, with the count on stderr, when a root cause fails it."""
    failing = report.failing(fail_on) if fail_on else ()
    if not failing:
        return EXIT_OK
    print(f"mcp-codegen diff: {fail_message(report, failing, fail_on or '')}", file=sys.stderr)
    return EXIT_FINDINGS


def fail_message(report: Report, failing: tuple[Finding, ...], fail_on: str) -> str:
    levels = tally.root_levels(report.findings)
    per: dict[str, int] = {}
    for f in failing:
        key = "documentation" if f.category == "documentation" else levels.get(f.id, f.level)
        per[key] = per.get(key, 0) + 1
    return (
        f"{len(failing)} root cause(s) fail --fail-on {fail_on} ({tally.line(per, with_docs=True)})"
    )


def cmd_rules(args: argparse.Namespace) -> int:
    from .report import render_rules

    write_output(render_rules(args.format), None)
    return EXIT_OK


def register(subparsers: Any) -> None:
    """Add the `diff` and `rules` subcommands."""
    p = subparsers.add_parser(
        "diff",
        help="semantic diff of two schema.ts files (findings with rule ids and levels)",
        description="Compare two schemas and report every difference as a finding with a stable "
        "rule id and a level for senders and receivers (see `mcp-codegen rules`).",
    )
    p.add_argument("old", help="the older schema: a schema.ts path, a released version or draft")
    p.add_argument("new", help="the newer schema: a schema.ts path, a released version or draft")
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="md",
        help="output format (default: md): md, json, html, summary (Markdown that fits a PR"
        " comment), github (workflow annotations), junit (XML test report)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE instead of stdout (its folder must exist)",
    )
    p.add_argument(
        "--fail-on",
        choices=FAIL_LEVELS,
        help="exit 1 when a finding is at or over this level (breaking, risky), is a wire-breaking"
        " finding of level breaking (wire), breaks code that names generated declarations (api),"
        " or exists at all, documentation included (any)",
    )
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    p.set_defaults(func=cmd_diff)

    p = subparsers.add_parser("rules", help="list every diff rule with its levels and purpose")
    p.add_argument(
        "--format", choices=["md", "json"], default="md", help="output format (default: md)"
    )
    p.set_defaults(func=cmd_rules)
