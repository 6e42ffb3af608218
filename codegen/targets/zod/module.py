"""The zod target: one TypeScript module of zod schemas per schema version.

Same pipeline as the Python target: resolved IR -> views (here: laid-out declarations, constants
and the method table, `module_view`) -> the Jinja2 template `templates/zod/module.ts.j2`. The
text is already in prettier's layout (tests run the pinned prettier as the judge), so
generating needs no node.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from ... import ir
from ...analysis.methods import Method, method_model
from ...analysis.typeindex import TypeIndex
from ...errors import Diagnostic, Location, SchemaError
from ...templating import render
from .layout import Arr, Atom, Obj, Prop, layout, statement
from .tstext import comment_text, doc_comment, ts_key, ts_string
from .views import HELPER_NAMES, Declaration, declarations, helpers, literal, schema_name

TEMPLATE = "zod/module.ts.j2"
ZOD_IMPORT = 'import * as z from "zod";'


@dataclass(frozen=True)
class ConstView:
    doc: tuple[str, ...]
    text: str  # `export const X = ...;`


@dataclass(frozen=True)
class ModuleView:
    source: str  # comment-safe
    sha256: str
    regenerate: str  # comment-safe
    helpers: tuple[str, ...]  # helper definitions the schemas use
    consts: tuple[ConstView, ...]
    declarations: tuple[Declaration, ...]
    schemas: str  # `export const SCHEMAS = {...} as const;`
    methods: str  # `export const METHODS = {...} as const;`


def _method_entry(m: Method, known: set[str]) -> Prop:
    def ref(name: str | None) -> Atom:
        return Atom(schema_name(name) if name is not None and name in known else "null")

    props = (
        Prop("kind", Atom(ts_string(m.kind))),
        Prop("direction", Atom(ts_string(m.direction))),
        Prop("message", ref(m.type_name)),
        Prop("params", ref(m.params_type)),
        Prop("paramsOptional", Atom("true" if m.params_optional else "false")),
        Prop("result", ref(m.result_type)),
        Prop("altResults", Arr(tuple(ref(n) for n in m.alt_result_types))),
    )
    return Prop(ts_key(m.method), Obj(props))


def module_view(resolved: ir.Resolved, regenerate: str | None = None) -> ModuleView:
    index = TypeIndex(resolved)
    decls, used = declarations(index)
    extra = helpers(used)
    known = {d.name for d in decls}
    name = PurePath(resolved.source).name
    command = regenerate or f"mcp-codegen {name} --target zod -o <this directory>"
    consts = tuple(
        ConstView(
            tuple(doc_comment(c.doc.text)),
            statement(f"export const {c.name} =", Atom(literal(c.value))),
        )
        for c in resolved.consts
    )
    _check_unique(resolved, ["z", "SCHEMAS", "METHODS", *(HELPER_NAMES[h] for h in extra),
                             *(c.name for c in resolved.consts),
                             *(schema_name(d.name) for d in decls)])  # fmt: skip
    table = Obj(tuple(Prop(ts_key(d.name), Atom(schema_name(d.name))) for d in decls))
    methods = Obj(tuple(_method_entry(m, known) for m in method_model(resolved).methods))
    return ModuleView(
        comment_text(name).replace("\n", " "),
        resolved.sha256,
        comment_text(command).replace("\n", " "),
        extra,
        consts,
        tuple(decls),
        statement("export const SCHEMAS = ", Atom(_as_const(table))),
        statement("export const METHODS = ", Atom(_as_const(methods))),
    )


def _check_unique(resolved: ir.Resolved, values: list[str]) -> None:
    """Every value the module declares once: a constant named like a schema (`FooSchema` next
    to a type `Foo`), `z`, `SCHEMAS` or `METHODS` would be a TypeScript error, reported here."""
    seen: set[str] = set()
    problems = []
    for name in values:
        if name in seen:
            message = f"'{name}' would be declared twice in the zod module; rename the constant"
            const = next((c for c in resolved.consts if c.name == name), None)
            loc = const.loc if const is not None and const.loc is not None else None
            problems.append(Diagnostic(loc or Location(resolved.source, 1, 1), message))
        seen.add(name)
    if problems:
        raise SchemaError(problems)


def _as_const(o: Obj) -> str:
    return layout(o, 0, "", 0) + " as const"


def render_module(resolved: ir.Resolved, regenerate: str | None = None) -> str:
    """The zod module for one schema, as text."""
    return render(TEMPLATE, view=module_view(resolved, regenerate), zod_import=ZOD_IMPORT)


SINGLE_MODULE = "index.ts"


def render_zod(schemas: list[ir.Resolved], package: str | None) -> dict[str, str]:
    """The files of `--target zod`: one schema without --package is `index.ts`; with
    --package, one module per version, named from its key by the shared rule
    (`v2025_11_25.ts`, `draft.ts`; codegen/targets/spelling.py): a file name, so no keywords."""
    from ...analysis.versions import identify
    from ..spelling import version_names

    if package is None:
        return {SINGLE_MODULE: render_module(schemas[0])}
    command = "mcp-codegen <each version's schema.ts, oldest first> --target zod -o <this directory> --package NAME"
    versions = identify(schemas)
    names = version_names(versions, what="module", keywords=())
    return {f"{name}.ts": render_module(v.resolved, command) for v, name in zip(versions, names)}
