"""zod schemas in TypeScript: one schema -> `index.ts`; several with `--package` -> one module
per version. The machinery (`module`, `views`, `tstypes`, `tstext`, `layout`) is imported when
the target renders; its text is in prettier's layout already (the tests run the pinned prettier
as the judge)."""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import UsageError
from ..base import Files, Option, Request, Target


def _check(options: Mapping[str, object], count: int) -> None:
    if count > 1 and options.get("package") is None:
        raise UsageError(
            "several schemas make one module per version: give --package NAME "
            "(e.g. --package mcp_bindings)"
        )


def _render(request: Request) -> Files:
    from .module import render_zod

    package = request.option("package")
    return render_zod(list(request.schemas), None if package is None else str(package))


TARGET = Target(
    name="zod",
    summary="TypeScript zod schemas: index.ts for one schema, or with --package a module per "
    "version",
    render=_render,
    options=(
        Option(
            "--package",
            "write one module per version (v2025_11_25.ts, draft.ts; required with several "
            "schemas)",
            metavar="NAME",
        ),
    ),
    several=True,
    check_options=_check,
)
