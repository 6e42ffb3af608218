"""`mcp-codegen registry A.ts B.ts ...`: the method model of each schema as a methods x versions
table (kind, direction, result). Arguments and printing only; the model is codegen.analysis.methods."""

from __future__ import annotations

import argparse
from typing import Any

from .. import console
from ..analysis.methods import Method, MethodModel
from ..jsonout import dumps
from .exits import EXIT_OK

_ARROW = {"client_to_server": "c→s", "server_to_client": "s→c", "both": "both"}


def cell(m: Method | None) -> str:
    """`req c→s CallToolResult | InputRequiredResult`, `notif both`, or `—`."""
    if m is None:
        return "—"
    kind = "req" if m.kind == "request" else "notif"
    via = " (input)" if m.via == "input_required" else ""
    result = f" {' | '.join(m.result_types)}" if m.kind == "request" else ""
    return f"{kind} {_ARROW[m.direction]}{via}{result}"


def table(models: list[tuple[str, MethodModel]]) -> str:
    names = sorted({m.method for _, model in models for m in model.methods})
    head = "| method | " + " | ".join(label for label, _ in models) + " |"
    rule = "|---|" + "---|" * len(models)
    rows = [
        f"| `{n}` | "
        + " | ".join(cell(model.get(n)).replace("|", "\\|") for _, model in models)
        + " |"
        for n in names
    ]
    return "\n".join([head, rule, *rows]) + "\n"


def as_json(models: list[tuple[str, MethodModel]]) -> str:
    return dumps(
        {
            label: {
                "protocol_version": model.protocol_version,
                "methods": [
                    {
                        "method": m.method,
                        "kind": m.kind,
                        "direction": m.direction,
                        "via": m.via,
                        "type": m.type_name,
                        "params": m.params_type,
                        "params_optional": m.params_optional,
                        "result": m.result_type,
                        "alt_results": list(m.alt_result_types),
                        "category": m.category,
                    }
                    for m in model.methods
                ],
                "notes": list(model.notes),
            }
            for label, model in models
        }
    )


def cmd_registry(args: argparse.Namespace) -> int:
    from ..analysis.methods import method_model
    from ..analysis.versions import label_for
    from ..pipeline import load_many, read_overrides

    names = read_overrides(args.names)
    loaded = load_many(args.schemas, names)
    schemas = [(label_for(path), r) for path, r in zip(args.schemas, loaded)]
    from ..write import report_warnings

    report_warnings(*loaded)
    models = [(label, method_model(resolved)) for label, resolved in schemas]
    text = as_json(models) if args.format == "json" else table(models)
    from ..write import write_output

    write_output(text, args.output)
    for label, model in models:
        for note in model.notes:
            console.warn(f"{label}: {note}")
    return EXIT_OK


def register(subparsers: Any) -> None:
    """Add the `registry` subcommand."""
    p = subparsers.add_parser(
        "registry",
        help="print the methods x versions table (kind, direction, result type)",
        description="Read each schema's method model (message unions, method literals, result "
        "pairing) and print one row per method, one column per schema.",
    )
    p.add_argument(
        "schemas",
        nargs="+",
        metavar="SCHEMA",
        help="schema.ts paths, released versions or draft, oldest first",
    )
    p.add_argument(
        "--format",
        choices=["md", "json"],
        default="md",
        help="output format (default: md); the cross-version tables for Python are the "
        "versions.py of a distribution (mcp-codegen A.ts B.ts ... --package NAME)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument(
        "--names", metavar="FILE", help="reviewed name overrides (JSON: path -> class name)"
    )
    p.set_defaults(func=cmd_registry)
