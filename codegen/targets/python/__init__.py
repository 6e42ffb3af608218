"""The Python dataclass bindings: one schema -> a package (its runtime, validators, registry,
`ir.json` and `schema.json`, the jsonschema target's document: `requires`); several schemas
with `--package` -> one installable distribution with a subpackage per version and the
application types. The machinery is in this folder:
`bindings/` (the views), `outputs` (one package), `distribution` (several versions) and
`appmodel` (the application types), imported when the target renders."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ...errors import UsageError
from ..base import Files, Option, Request, Target

JSON_SCHEMA = "jsonschema"  # the target whose documents this one embeds (`requires`)


def _check(options: Mapping[str, object], count: int) -> Mapping[str, object] | None:
    package = options.get("package")
    if count > 1 and package is None:
        raise UsageError(
            "several schemas make one distribution: give its import name with --package NAME "
            "(e.g. --package mcp_bindings)"
        )
    if package is None:
        return None
    from .distribution import check_package_name

    check_package_name(str(package))  # before the schemas are read: it is the quick check
    renames_file = options.get("app_renames")
    if renames_file is None:
        return None
    from .appmodel import load_renames

    return {"app_renames": load_renames(Path(str(renames_file)))}  # read first too


def _spell_fields(wires: tuple[str, ...]) -> tuple[str, ...]:
    from ...pynaming import attributes  # the Python targets' one name table

    return attributes(wires)


def _render(request: Request) -> Files:
    formatter = str(request.option("formatter"))
    package = request.option("package")
    if package is None:
        from .outputs import render_all

        return render_all(request.schemas[0], formatter, request)
    from .appmodel import Renames
    from .distribution import render_distribution

    renames = request.option("app_renames")
    assert renames is None or isinstance(renames, Renames)
    version = str(request.option("dist_version"))
    return render_distribution(
        list(request.schemas), str(package), version, renames, formatter, request
    )


TARGET = Target(
    name="python",
    summary="Python dataclass bindings: a package per schema, or with --package one "
    "distribution of several versions",
    render=_render,
    options=(
        Option(
            "--package",
            "write an installable distribution whose package NAME has a subpackage per "
            "protocol version (required with several schemas)",
            metavar="NAME",
        ),
        Option(
            "--dist-version",
            "the distribution's version in pyproject.toml (default: 0.1.0)",
            metavar="VERSION",
            default="0.1.0",
        ),
        Option(
            "--app-renames",
            "the reviewed type renames of the application types of a distribution (JSON: "
            '{"renames": {old: new}, "rejected": {...}}; default: schemas/app-renames.json)',
            metavar="FILE",
        ),
        Option(
            "--formatter",
            "what lays out the generated Python once ruff has sorted its imports: ruff "
            "(default, `ruff format`) or black; both pinned, both give black's style",
            choices=("ruff", "black"),
            default="ruff",
        ),
    ),
    several=True,
    requires=(JSON_SCHEMA,),  # each package's schema.json
    check_options=_check,
    spell_fields=_spell_fields,
)
