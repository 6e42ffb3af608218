"""The command line: `main` picks the parser (generation, or a subcommand), resolves every schema
argument, runs the command and turns errors into messages and exit codes (`exits`). Each module
of this package holds the commands of one part of the generator, as arguments and output only:
`generate` (generation, `ir`, `jsonschema`, `targets`), `model`, `diff` (`diff`, `rules`,
`history`), `registry`, `reference`, `spec` (`fetch`, and the options of schema arguments),
`vectors`."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence

from .. import console
from ..errors import FormatError, SchemaError, SpecError, UsageError
from ..write import OutputError
from .exits import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED
from .generate import build_parser, parse_generation
from .spec import attach_options, resolve_args

# The subcommands, named here so that a plain generation builds (and imports) none of them: the
# diff and fetch modules cost a first run more than parsing the schema does.
COMMANDS = ("targets", "ir", "jsonschema", "model", "diff", "rules", "history", "registry",
            "reference", "fetch", "vectors", "check-wire", "check-server")  # fmt: skip


def build_command_parser() -> console.ArgumentParser:
    """The parser of the subcommands (`COMMANDS`)."""
    sub = console.ArgumentParser(prog="mcp-codegen")
    cmds = sub.add_subparsers(dest="command", required=True)

    for register in _extensions():
        register(cmds)
    attach_options(_subparsers(sub))
    return sub


def _extensions() -> list[Callable[[argparse._SubParsersAction], None]]:  # type: ignore[type-arg]
    """Subcommands that live with their feature module; each exposes `register(subparsers)`."""
    from .checkers import register as register_checkers
    from .diff import register as register_diff
    from .generate import register as register_generate
    from .model import register as register_model
    from .reference import register as register_reference
    from .registry import register as register_registry
    from .spec import register as register_fetch
    from .vectors import register as register_vectors

    return [
        register_generate,
        register_model,
        register_diff,
        register_registry,
        register_reference,
        register_fetch,
        register_vectors,
        register_checkers,
    ]


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.values())
    return []


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code. Without `argv` (the console script, `python -m
    codegen`) the command line is `sys.argv` and this is the program: it ends the process
    (`_end`) instead of returning."""
    program = argv is None
    collecting = gc.isenabled()
    # A generation makes about a million objects and hardly a cycle: the collector's passes cost
    # ~5% of a run and free nothing. Off for the command, back on for an in-process caller.
    gc.disable()
    try:
        with console.routed_warnings():
            code = _run(list(sys.argv[1:] if argv is None else argv))
    finally:
        if collecting:
            gc.enable()
    if program:
        _end(code)
    return code


def _end(code: int) -> None:
    """End the program with `code` once stdout and stderr are flushed, skipping the interpreter's
    teardown (freeing every module and object one by one: ~0.03 s of a generation). Safe here:
    every output file is written, closed and swapped in, and forked workers are reaped, before a
    command returns; nothing of ours registers exit handlers. If a flush fails (a closed pipe),
    the normal exit reports it."""
    try:
        console.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


def _run(argv: list[str]) -> int:
    if not argv:
        build_parser().print_help_to_stderr()
        return EXIT_BAD_INPUT
    try:
        if argv[0] in COMMANDS:
            args = build_command_parser().parse_args(argv)
        else:
            args = parse_generation(argv)
        resolve_args(args)  # every schema argument: a path, a released version or draft
        code: int = args.func(args)
        return code
    except SchemaError as err:
        for d in err.diagnostics:
            console.warn(str(d))
        return EXIT_BAD_INPUT
    except (SpecError, OutputError, UsageError) as err:
        console.warn(f"mcp-codegen: {err}")
        return EXIT_BAD_INPUT
    except FormatError as err:  # generated code a formatter rejects, or no formatter: our bug
        console.warn_lines(f"mcp-codegen: internal error: {err}")
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception:  # noqa: BLE001 - anything else is our bug, reported as such
        import traceback

        console.warn_lines(traceback.format_exc())
        console.warn("mcp-codegen: internal error (a bug in mcp-codegen; please report it)")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
