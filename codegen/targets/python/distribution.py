"""The layout of one installable distribution for several schemas, as relative path -> text.
Pure: resolved IR in, text out.

    DIR/pyproject.toml              name, version, no dependencies (extra `fast`: orjson), flit_core
    DIR/NAME/__init__.py            re-exports the runtime and NAME.versions
    DIR/NAME/py.typed               the package is typed (PEP 561)
    DIR/NAME/_runtime.py            one runtime and one _protocol for every version, so `UNSET`,
    DIR/NAME/_protocol.py           `ValidationError` and `ProtocolError` are the same objects
    DIR/NAME/_tolerance.py          (and `Unknown`, tolerant reading's kept values)
    DIR/NAME/versions.py            the versions, negotiation, (method, version) tables
    DIR/NAME/_versioning.py         versions.py's code, and app/convert.py's (_conversion.py, with
    DIR/NAME/_conversion.py         the app): static modules, the same in every distribution
    DIR/NAME/<subpackage>/...       one version's bindings (bindings.VERSION_MODULES, importing
                                    the runtime as `.._runtime`) and its schema.json (the
                                    jsonschema target's, `outputs.schema_documents`)
    DIR/NAME/app/...                the application types of every version (appmodel.py) and
                                    their conversions (bindings.app_modules)

Which schemas answer negotiation: codegen/analysis/versions.py; the subpackage of each:
`subpackages.py`.
"""

from __future__ import annotations

import keyword
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from ... import ir
from ...errors import Diagnostic, Location, SchemaError
from ...pyformat import format_files
from ...pynaming import PyIndex
from ...templating import render, static_source
from ..base import Request
from .appmodel import AppModel, Renames, build, load_renames
from .bindings import (
    DISTRIBUTION_MODULES,
    RUNTIME_MODULES,
    VERSION_MODULES,
    Module,
    app_modules,
    render_package,
)
from .bindings.required_since import Notes, required_since
from .bindings.server_views import Side, side_view
from .bindings.validator_views import validators_view
from .bindings.versions_views import project_view, versions_view
from .bindings.views import Context
from .outputs import own_request, schema_documents
from .subpackages import PyVersion, subpackages

DIST_VERSION = "0.1.0"  # the distribution's own version unless one is given
TOP = "python/dist/"  # the templates of the top level
APP = "app"  # the subpackage of the application types
# The session modules (under server.py and client.py) and the types they build.
SESSION_SOURCES = (
    "python/static/_session.py",
    "python/static/_client.py",
    "python/static/_stdio.py",
)
SIDES: tuple[Side, ...] = ("server", "client")  # server.py and client.py
SESSION_TYPES = frozenset({"Implementation", "ServerCapabilities", "ClientCapabilities", "Result"})


@dataclass(frozen=True)
class TopView:
    """What every top-level file's header says."""

    package: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class InitView:
    example: str  # one subpackage, for the docstring
    versions_exports: tuple[str, ...]
    exports: tuple[str, ...]


_RUNTIME_EXPORTS = ("JSON", "UNSET", "ErrorDetail", "Message", "MethodInfo", "ProtocolError",
                    "Unknown", "UnknownLiteral", "UnknownMember", "UnknownMethodError",
                    "UnknownValueWarning", "UnsetType", "ValidationError", "WrongDirectionError",
                    "progress_token", "request_meta")  # fmt: skip
_VERSIONS_EXPORTS = ("LATEST_PROTOCOL_VERSION", "PROTOCOL_VERSIONS", "UnsupportedVersionError",
                     "bindings", "encode", "parse_message", "parse_result", "request_message",
                     "versions")  # fmt: skip


def check_package_name(name: str) -> None:
    """A distribution's import name: a lower-case identifier (it is the wheel's module too)
    that is no standard-library or built-in module (`json` would shadow it, or never be
    imported) and no name of Python's own (`__main__` is the running script: `import __main__`
    never finds the package)."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or keyword.iskeyword(name):
        message = f"--package {name!r}: expected a lower-case Python identifier (like mcp_bindings)"
    elif name.startswith("__") and name.endswith("__"):
        message = (f"--package {name!r}: names with double underscores on both sides are "
                   f"Python's own (__main__ is the running script, __pycache__ the bytecode "
                   f"folder), so the package could not be imported under it; choose another "
                   f"(like mcp_bindings)")  # fmt: skip
    elif name in sys.stdlib_module_names or name in sys.builtin_module_names:
        message = (f"--package {name!r}: a standard-library module of that name exists, which "
                   f"the package would shadow or be shadowed by; choose another (like mcp_{name})")  # fmt: skip
    else:
        return
    raise SchemaError([Diagnostic(Location("<command line>", 1, 1), message)])


def top_level_names() -> frozenset[str]:
    """The module names a distribution may write at its top level (which a version's
    subpackage must not take): from the lists of what it writes, so a module added there is
    reserved with it."""
    paths = (
        "versions.py",
        APP,
        *(f"{side}.py" for side in SIDES),
        *(m.path for m in (*RUNTIME_MODULES, *DISTRIBUTION_MODULES)),
        *(Path(source).name for source in SESSION_SOURCES),
    )
    return frozenset(path.removesuffix(".py") for path in paths)


def versions_of(schemas: list[ir.Resolved]) -> tuple[PyVersion, ...]:
    """The versions of a distribution of `schemas`, each with its subpackage (`subpackages`,
    none taking a top-level module's name)."""
    return subpackages(schemas, top_level_names())


def render_distribution(
    schemas: list[ir.Resolved],
    package: str,
    dist_version: str = DIST_VERSION,
    renames: Renames | None = None,
    formatter: str | None = "ruff",
    request: Request | None = None,
) -> dict[str, str]:
    """Every file of the distribution (relative to DIR); `renames`: the reviewed type renames
    of the application types (default: schemas/app-renames.json); `formatter`: what lays out
    every Python file of it, in one run (None: the views' text); `request`: the command line's,
    for `schemas` (default: one made by `outputs.own_request`)."""
    versions = versions_of(schemas)
    folders = [v.subpackage for v in versions]
    documents = schema_documents(request or own_request(schemas), folders)
    files = render_top(versions, package, dist_version, formatter=None)
    regenerate = (f"mcp-codegen <each version's schema.ts, oldest first> -o <the distribution> "
                  f"--package {package}")  # fmt: skip
    notes = required_since([v.label for v in versions], [v.resolved for v in versions])
    for v, document, since in zip(versions, documents, notes, strict=True):
        sub = f"{package}/{v.subpackage}/"
        modules = version_modules(since)
        package_files = render_package(
            v.resolved, modules, runtime="..", regenerate=regenerate, formatter=None
        )
        files.update({sub + path: text for path, text in package_files.items()})
        files[sub + "schema.json"] = document
    if has_app(versions):
        model = build([v.key for v in versions], [v.resolved for v in versions],
                      renames if renames is not None else load_renames())  # fmt: skip
        app_files = render_package(model.resolved, app_modules(model, versions), runtime="..",
                                   regenerate=regenerate, formatter=None)  # fmt: skip
        files.update({f"{package}/{APP}/{path}": text for path, text in app_files.items()})
        files.update(render_dispatch(model, versions, package))
    return files if formatter is None else format_files(files, formatter)


def version_modules(since: Notes) -> tuple[Module, ...]:
    """The modules of one version's subpackage: its validators say which members it requires
    that an earlier version of the distribution did not (`required_since.py`)."""
    if not since:
        return VERSION_MODULES
    return tuple(
        replace(m, view=lambda ctx: validators_view(ctx.index, since))
        if m.path == "validators.py"
        else m
        for m in VERSION_MODULES
    )


def render_dispatch(
    model: AppModel, versions: tuple[PyVersion, ...], package: str
) -> dict[str, str]:
    """`server.py` and `client.py` (typed handlers and the sessions over the application types)
    and the static session machinery they build on; nothing for a schema without the session's
    types (a protocol that is not MCP, such as schemas/example)."""
    if not SESSION_TYPES <= {f.name for f in model.facts}:
        return {}
    top = TopView(package, project_view(package, versions, DIST_VERSION).sources)
    header = render(TOP + "_header.j2", top=top)
    app = Context(model.resolved, PyIndex(model.resolved), "..")
    files = {f"{package}/{Path(source).name}": header + static_source(source)
             for source in SESSION_SOURCES}  # fmt: skip
    for side in SIDES:
        text = render(f"{TOP}{side}.py.j2", top=top, view=side_view(model, versions, app, side))
        files[f"{package}/{side}.py"] = text  # formatted with the rest of the distribution
    return files


def render_top(
    versions: tuple[PyVersion, ...],
    package: str,
    dist_version: str = DIST_VERSION,
    formatter: str | None = "ruff",
) -> dict[str, str]:
    """The files of the distribution other than the version subpackages: pyproject.toml, the
    package's __init__, py.typed, the runtime and versions.py."""
    check_package_name(package)
    project = project_view(package, versions, dist_version)
    top = TopView(package, project.sources)
    root = f"{package}/"
    init = InitView(
        example=versions[-1].subpackage if versions else "",
        versions_exports=tuple(sorted(n for n in _VERSIONS_EXPORTS if n != "versions")),
        exports=(*_RUNTIME_EXPORTS, *_VERSIONS_EXPORTS),
    )
    header = render(TOP + "_header.j2", top=top)
    files: dict[str, str] = {
        "pyproject.toml": render(TOP + "pyproject.toml.j2", top=top, view=project),
        root + "__init__.py": render(TOP + "__init__.py.j2", top=top, view=init),
        root + "py.typed": "",
        root + "versions.py": render(TOP + "versions.py.j2", top=top, view=versions_view(versions)),
    }
    static = DISTRIBUTION_MODULES if has_app(versions) else DISTRIBUTION_MODULES[:1]
    for m in (*RUNTIME_MODULES, *static):
        files[root + m.path] = header + static_source(m.source)
    return files if formatter is None else format_files(files, formatter)


def has_app(versions: tuple[PyVersion, ...]) -> bool:
    """Whether the distribution has application types (one version: its wire types are)."""
    return len(versions) > 1
