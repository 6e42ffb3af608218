"""The Go target: one Go module, standard library only, with one package per protocol version.

`mcp-codegen A B ... --target go -o DIR --module PATH` writes `go.mod` (module PATH), the
shared JSON machinery `internal/wire` and, per schema, a package named after its version
(`v20251125`, `draft`, `vdraft2025v3`: codegen/targets/go/names.py) with the types and their
codecs, the method registry, the conformance hook and a test of the official examples and the
test vectors. Resolved IR -> views (`package.py`, `decls.py`, `structs.py`, `gotypes.py`) -> the templates
under `templates/go/`; the text is already as gofmt lays it out (the tests run gofmt as the
judge), so generating needs no Go. docs/targets-go.md has the mapping.
"""

from __future__ import annotations

import re

from ... import ir
from ...errors import Diagnostic, Location, SchemaError
from ...templating import render as render_template
from ...templating import static_source
from ..base import Files, Option, Request, Target
from .names import package_names
from .package import build

# The `go` directive: generics, sync.OnceValues (1.21), and no newer than go-sdk's 1.25.
GO_VERSION = "1.22"
WIRE = ("text.go", "decode.go", "encode.go")  # JSON text and paths; decoding; encoding
# A module path: slash-separated elements of letters, digits and `._~-`, none starting or ending
# with a dot (so no `.` or `..` element); go.mod is the only place it is written.
_ELEMENT = r"[A-Za-z0-9_~-](?:[A-Za-z0-9._~-]*[A-Za-z0-9_~-])?"
_MODULE = re.compile(rf"{_ELEMENT}(?:/{_ELEMENT})*")


def render(request: Request) -> Files:
    module = str(request.option("module") or "")
    schemas = list(request.schemas)
    if not _MODULE.fullmatch(module):
        where = Location(schemas[0].source if schemas else "<input>", 1, 1)
        raise SchemaError([Diagnostic(where, f"--module {module!r} is not a Go module path")])
    files: Files = {
        "go.mod": render_template("go/go.mod.j2", module=module, go_version=GO_VERSION),
    }
    for name in WIRE:  # the shared runtime: real Go source under templates/go/wire/
        source = static_source(f"go/wire/{name}").rstrip("\n")
        files[f"internal/wire/{name}"] = render_template("go/static.go.j2", source=source)
    labels = list(request.labels) or [_label(r) for r in schemas]
    for resolved, (package, version), label in zip(schemas, package_names(schemas), labels):
        view = build(resolved, package, version, label, module)
        for name in ("types", "codec", "registry", "conformance", "conformance_test"):
            files[f"{package}/{name}.go"] = render_template(f"go/{name}.go.j2", v=view)
    return files


def _label(resolved: ir.Resolved) -> str:
    from ...analysis.versions import label_for

    return label_for(resolved.source)


TARGET = Target(
    name="go",
    summary="one Go module (standard library only), a package per protocol version",
    render=render,
    options=(
        Option("--module", "the Go module path written to go.mod", metavar="PATH", required=True),
    ),
    several=True,
)
