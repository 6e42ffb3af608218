"""`mcp-codegen diff OLD NEW`, `mcp-codegen rules` and `mcp-codegen history A B C ... -o DIR`:
arguments, output and exit codes, no logic."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import console
from ..diff import FAIL_LEVELS, Report, ignore, tally
from ..diff.inputs import STDIN, Input, load_inputs, read_input, split_ref
from ..diff.levels import LEVELS
from ..diff.rules import Finding
from ..errors import SpecError
from ..spec.options import add_spec_options
from ..write import add_force, check_target, report_warnings, write_output, write_tree
from .exits import EXIT_FINDINGS, EXIT_OK

FORMATS = ("md", "json", "html", "summary", "github", "junit")


def cmd_diff(args: argparse.Namespace) -> int:
    from ..diff import diff, info
    from ..diff.html import render_format as render  # html from the JSON document, else report's
    from ..pipeline import read_overrides

    if args.json_schema:
        from ..diff.report_schema import render_schema

        write_output(render_schema(), args.output)
        return EXIT_OK
    if args.old_input is None or args.new_input is None:
        raise SpecError("diff needs OLD and NEW (or --json-schema)")
    if args.fail_on_baseline and not args.baseline:
        raise SpecError("--fail-on-baseline needs --baseline")
    sides = _inputs(args)
    names = read_overrides(args.names)
    loaded = load_inputs(sides, names)
    old, new = loaded[0], loaded[1]
    report_warnings(*loaded)
    report = diff(old, new)
    report = replace(
        report,
        old=info(old, sides[0].label, sides[0].file),
        new=info(new, sides[1].label, sides[1].file),
    )
    if len(loaded) == 3:
        from ..diff.baseline import compare

        base = loaded[2]
        label = sides[2].label or info(base).label
        report = replace(report, baseline=compare(diff(base, old), diff(base, new), label))
    report = _ignoring(report, ignore.find(args.ignore, args.no_ignore), args.git_dir)
    write_output(
        render(report, args.format, args.fail_on), args.output, commands=args.format == "github"
    )
    return max(gate(report, args.fail_on), gate_baseline(report, args.fail_on_baseline))


def _ignoring(report: Report, path: str | None, git_dir: str | None) -> Report:
    """The report with the ignore file's entries applied, saying on stderr which file that was
    and which of its entries are stale."""
    if path is None:
        return report
    report = ignore.apply(report, ignore.read(path, git_dir), path)
    console.warn(f"mcp-codegen diff: ignore file {path}: {len(report.ignored)} finding(s) ignored")
    for e in report.stale:
        what = f"id {e['id']}" if "id" in e else f"rule {e['rule']} subject {e['subject']}"
        console.warn(f"mcp-codegen diff: {path}: stale entry ({what}) matches no finding")
    return report


def _known(arg: str) -> bool:
    """Whether `arg` is a file or a known version (else resolving it fails at once)."""
    from ..spec.arguments import looks_like_path
    from ..spec.pins import pins

    return Path(arg).is_file() or looks_like_path(arg) or arg in pins()


def _inputs(args: argparse.Namespace) -> list[Input]:
    """Each side as given: `-`, `REF:PATH` (git) or a path or version name (resolved here, as
    every command resolves its schema arguments)."""
    from ..spec import resolve_schema_arg
    from ..spec.options import options_from_args

    if args.old_input == STDIN and args.new_input == STDIN:
        raise SpecError("only one of OLD and NEW can be `-` (standard input)")
    sides = [
        (args.old_input, args.label_old, "old"),
        (args.new_input, args.label_new, "new"),
    ]
    if args.baseline:
        if args.baseline == STDIN:
            raise SpecError("--baseline cannot be `-` (standard input)")
        sides.append((args.baseline, None, "baseline"))
    plain = {arg for arg, _, _ in sides if arg != STDIN and split_ref(arg, args.git_dir) is None}
    # an unknown version name fails before the other side is downloaded
    paths = {a: resolve_schema_arg(a, options_from_args(args)) for a in sorted(plain, key=_known)}
    out = []
    for arg, label, side in sides:
        given = read_input(paths.get(arg, arg), label, args.git_dir, side)
        if paths.get(arg, arg) != arg and not Path(arg).exists():
            # a version name read from the spec cache or --spec-dir: annotations name the file
            # as the specification repository knows it, never the local copy
            given = replace(given, file=f"schema/{arg}/schema.ts")
        out.append(given)
    return out


def gate(report: Report, fail_on: str | None) -> int:
    """`--fail-on`: exit 1, with the count on stderr, when a root cause fails it."""
    failing = report.failing(fail_on) if fail_on else ()
    if not failing:
        return EXIT_OK
    console.warn(f"mcp-codegen diff: {fail_message(report, failing, fail_on or '')}")
    return EXIT_FINDINGS


def gate_baseline(report: Report, level: str | None) -> int:
    """`--fail-on-baseline`: exit 1 when the PR adds a root cause at or over `level` against
    the baseline (what its parent already had does not count)."""
    if not level or report.baseline is None:
        return EXIT_OK
    failing = report.baseline.failing(level)
    if not failing:
        return EXIT_OK
    per: dict[str, int] = {}
    for _, lv in failing:
        per[lv] = per.get(lv, 0) + 1
    console.warn(
        f"mcp-codegen diff: {len(failing)} root cause(s) added against the baseline"
        f" {report.baseline.label} fail --fail-on-baseline {level} ({tally.line(per)})"
    )
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
    from ..diff.report import render_rules

    write_output(render_rules(args.format), None)
    return EXIT_OK


def read_many(args: argparse.Namespace, given: list[str]) -> list[Input]:
    """Several schema arguments as `diff` reads its two: a path, a version name, or `REF:PATH`
    (git, `--git-dir`), each with its `--label` when given (one per input, in order)."""
    from ..spec import resolve_schema_arg
    from ..spec.options import options_from_args

    labels: list[str] = args.label or []
    if labels and len(labels) != len(given):
        raise SpecError(f"--label is given {len(labels)} time(s) for {len(given)} schemas")
    out = []
    for i, arg in enumerate(given):
        if arg == STDIN:
            raise SpecError("`-` (standard input) is for diff only")
        label = labels[i] if labels else None
        if split_ref(arg, args.git_dir) is not None:
            out.append(read_input(arg, label, args.git_dir, f"schema {i + 1}"))
        else:
            path = resolve_schema_arg(arg, options_from_args(args))
            out.append(read_input(path, label, None, f"schema {i + 1}"))
    return out


def cmd_history(args: argparse.Namespace) -> int:
    from ..analysis.versions import check_order
    from ..diff import info
    from ..diff.history import history_files
    from ..pipeline import read_overrides

    check_target(Path(args.output))  # before any work
    inputs = read_many(args, args.history_inputs)
    schemas = load_inputs(inputs, read_overrides(args.names))
    check_order(schemas)  # released versions oldest first, or a located exit 2
    report_warnings(*schemas)
    labels = [i.label or info(s).label for i, s in zip(inputs, schemas)]
    files = history_files(schemas, labels)  # everything is rendered before anything is written
    target = Path(args.output)
    write_tree(target, files, force=args.force)
    console.warn(f"wrote {len(files)} pages to {args.output}")
    return EXIT_OK


def add_labels(p: argparse.ArgumentParser) -> None:
    """`--label TEXT` (repeated, one per schema in order) and `--git-dir DIR` for REF:PATH."""
    p.add_argument(
        "--label",
        action="append",
        metavar="TEXT",
        help="a schema's name in titles and file names: once per schema, in order",
    )
    p.add_argument(
        "--git-dir",
        metavar="DIR",
        help="the git repository REF:PATH inputs are read from (default: the one around the"
        " current directory)",
    )


def register(subparsers: Any) -> None:
    """Add the `diff`, `rules` and `history` subcommands."""
    p = subparsers.add_parser(
        "diff",
        help="semantic diff of two schema.ts files (findings with rule ids and levels)",
        description="Compare two schemas and report every difference as a finding with a stable "
        "rule id and a level for senders and receivers (see `mcp-codegen rules`).",
    )
    # dests other than `old`/`new`: these inputs are resolved here (git refs, stdin), not by
    # the generic schema-argument resolution
    p.add_argument(
        "old_input",
        nargs="?",
        metavar="OLD",
        help="the older schema: a schema.ts path, a released version or draft, REF:PATH"
        " (read from git), or - (standard input)",
    )
    p.add_argument("new_input", nargs="?", metavar="NEW", help="the newer schema, as OLD")
    p.add_argument("--label-old", metavar="TEXT", help="the old side's name in titles and JSON")
    p.add_argument("--label-new", metavar="TEXT", help="the new side's name in titles and JSON")
    p.add_argument(
        "--git-dir",
        metavar="DIR",
        help="the git repository REF:PATH inputs are read from (default: the one around the"
        " current directory)",
    )
    p.add_argument(
        "--ignore",
        metavar="FILE",
        help='accepted findings, left out of counts and --fail-on: {"ignore": [{"id": ...,'
        ' "reason": ...} or {"rule": ..., "subject": ..., "reason": ...}]}; REF:PATH reads it'
        f" from git, such as the base branch's (default: {ignore.DEFAULT_FILE} in the current"
        " directory, the checkout under review, if there is one)",
    )
    p.add_argument(
        "--no-ignore",
        action="store_true",
        help=f"use no ignore file, not even {ignore.DEFAULT_FILE}",
    )
    p.add_argument(
        "--json-schema",
        action="store_true",
        help="print the JSON Schema (2020-12) of the JSON report document and exit",
    )
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
        "--baseline",
        metavar="SCHEMA",
        help="also judge the PR against this schema (a released version, REF:PATH or a path):"
        " the breaking and risky changes against it that the PR adds, keeps and removes",
    )
    p.add_argument(
        "--fail-on-baseline",
        choices=LEVELS,
        metavar="LEVEL",
        help="exit 1 only if the PR adds a root cause at or over LEVEL (breaking, risky,"
        " compatible, info) against --baseline; --fail-on keeps its meaning",
    )
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    add_spec_options(p)
    p.set_defaults(func=cmd_diff)

    p = subparsers.add_parser("rules", help="list every diff rule with its levels and purpose")
    p.add_argument(
        "--format", choices=["md", "json"], default="md", help="output format (default: md)"
    )
    p.set_defaults(func=cmd_rules)

    p = subparsers.add_parser(
        "history",
        help="HTML pages: method x version and type x version matrices, and a diff per pair",
        description="Compare consecutive schemas (oldest first) and write DIR/index.html, a method "
        "x version and a type x version matrix whose cells link to the pair's diff page "
        "(also written into DIR). The folder is replaced atomically; files in it that mcp-codegen did not write are kept.",
    )
    p.add_argument(
        "history_inputs",
        nargs="+",
        metavar="SCHEMA",
        help="schemas oldest first: schema.ts paths, released versions or draft, REF:PATH (read"
        " from git)",
    )
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write")
    add_labels(p)
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    add_force(p)
    add_spec_options(p)
    p.set_defaults(func=cmd_history)
