"""View models of a distribution's `app` subpackage (the application types): its `__init__.py`
and `convert.py` (the per-version facts `to_app`/`to_wire` read). The dataclasses, codec and
validators of the application types are the wire modules rendered for the merged schema
(codegen/targets/python/appmodel.py), so they follow the wire bindings' conventions by construction.

Pure: the application model and the versions in, plain template contexts out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .... import ir
from ....analysis.shapes import children, is_class_obj
from ....pynaming import PyIndex, former_aliases
from ....pytext import code_literal
from ..appmodel import AppModel
from ..subpackages import PyVersion
from .app_registry_views import AppMethodsView, app_methods_view
from .views import Context, models_exports

CONVERT_EXPORTS = ("ConversionError", "to_app", "to_wire", "parse_message", "parse_result",
                   "serialize", "FIELDS", "WIRE_NAMES", "APP_NAMES", "VERSIONS", "RESULTS",
                   "lookup_method", "MethodName", "RequestMethod", "MessageObject",
                   "ResultObject")  # fmt: skip


@dataclass(frozen=True)
class FieldRow:
    attr: str  # literal of the application attribute
    wire: str  # literal of the JSON member
    present: str  # tuple literal of version indexes
    required: str  # tuple literal of version indexes
    literals: str  # dict literal: version index -> the strings it allows ("{}" when none)
    const: str  # literal of a constant field's value, or "None"
    cls: str  # literal of the application class of the field's value (or items), or "None"
    declared: str  # tuple literal of the version indexes that declare it


@dataclass(frozen=True)
class ConvertView:
    versions: tuple[str, ...]  # literals, oldest first
    subpackages: tuple[tuple[str, str], ...]  # (subpackage literal, version literal)
    wire_names: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # app class -> (v, wire)
    app_names: tuple[tuple[str, str], ...]  # ("(version, wire class)" literal, app class literal)
    fields: tuple[tuple[str, tuple[FieldRow, ...]], ...]  # app class literal -> rows
    methods: AppMethodsView  # the typed entry points (app_registry_views.py)
    holds: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # app class -> (attr, classes)
    order: tuple[tuple[str, str], ...]  # "(app class, version index)" -> tuple of members


@dataclass(frozen=True)
class AppInitView:
    imports: tuple[str, ...]  # lines before the models import
    models: tuple[str, ...]
    exports: tuple[str, ...]  # literals
    former: tuple[tuple[str, str], ...]  # (former name, reviewed name): deprecated aliases
    own: Mapping[str, str]  # the former-names block's names as spelled here (`former`)


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def convert_view(model: AppModel, versions: tuple[PyVersion, ...], app: Context) -> ConvertView:
    keys = list(model.keys)
    indexes = {v.key: PyIndex(v.resolved) for v in versions}
    facts = {f.name: f for f in model.facts}
    wire_rows, app_rows, field_rows, hold_rows, order_rows = [], [], [], [], []
    classes = {c.name for c in app.index.dataclasses()}
    for c in app.index.dataclasses():
        f = facts.get(c.name)
        if f is None:
            continue
        py = app.index.py_name(c.name)
        wires = []
        for key, wire in f.wire_names.items():
            wire_py = indexes[key].py_name(wire)
            wires.append((code_literal(key), code_literal(wire_py)))
            if wire_py != py:
                app_rows.append(
                    (_tuple([code_literal(key), code_literal(wire_py)]), code_literal(py))
                )
        wire_rows.append((code_literal(py), tuple(wires)))
        by_wire = {ff.wire: ff for ff in f.fields}
        app_order = [fld.prop.name for fld in c.fields]
        for key, wire in f.wire_names.items():
            wire_class = indexes[key].classes.get(wire)
            if wire_class is None or wire in indexes[key].plain_json:
                continue
            own = list(wire_class.wire_names)
            if [w for w in app_order if w in own] != own:  # the wire class lists them otherwise
                at = _tuple([code_literal(py), str(keys.index(key))])
                order_rows.append((at, _tuple([code_literal(w) for w in own])))
        rows, holds = [], []
        for fld in c.fields:
            held = _held_classes(app, fld.prop.type, classes)
            if held:
                holds.append((code_literal(fld.attr), _tuple([code_literal(n) for n in held])))
            ff = by_wire[fld.prop.name]
            lits = ", ".join(
                f"{keys.index(k)}: frozenset({_tuple([code_literal(s) for s in sorted(v)])})"
                for k, v in ff.literals.items()
            )
            rows.append(
                FieldRow(
                    code_literal(fld.attr),
                    code_literal(fld.prop.name),
                    _tuple([str(keys.index(k)) for k in ff.present]),
                    _tuple([str(keys.index(k)) for k in ff.required]),
                    "{" + lits + "}",
                    code_literal(ff.const.value) if ff.const is not None else "None",
                    code_literal(_value_class(app, fld.prop.type)),
                    _tuple([str(keys.index(k)) for k in ff.declared]),
                )
            )
        field_rows.append((code_literal(py), tuple(rows)))
        if holds:
            hold_rows.append((code_literal(py), tuple(holds)))
    return ConvertView(
        versions=tuple(code_literal(k) for k in keys),
        subpackages=tuple((code_literal(v.subpackage), code_literal(v.key)) for v in versions),
        wire_names=tuple(wire_rows),
        app_names=tuple(app_rows),
        fields=tuple(field_rows),
        methods=app_methods_view(model, versions, app),
        holds=tuple(hold_rows),
        order=tuple(order_rows),
    )


def _held_classes(app: Context, t: ir.TypeExpr, classes: set[str]) -> tuple[str, ...]:
    """The application classes a value of `t` can be or contain without another class around
    it (through aliases, unions, arrays and maps), by Python name, sorted: where the one-pass
    conversions look for objects with work to do (`_conversion.Passes`)."""
    found: set[str] = set()
    seen: set[str] = set()
    todo = [t]
    while todo:
        u = todo.pop()
        if isinstance(u, ir.Ref):
            if u.name in classes:
                found.add(u.name)
            elif u.name not in seen:
                seen.add(u.name)
                todo.append(app.index.typedefs[u.name].type)
            continue
        if isinstance(u, ir.Obj) and is_class_obj(u):
            if u.name in classes:  # else a payload handed over as plain JSON: no class inside
                found.add(u.name)
            continue
        todo.extend(children(u))
    return tuple(sorted(app.index.py_name(n) for n in found))


def _value_class(app: Context, t: ir.TypeExpr) -> str | None:
    """The dataclass a field holds (directly or as array items), if it is one class."""
    target = app.index.target(t)
    if isinstance(target, ir.Array):
        target = target.item
    name = app.index.class_of(target)
    dataclasses = {c.name for c in app.index.dataclasses()}
    return app.index.py_name(name) if name is not None and name in dataclasses else None


def app_init_view(app: Context) -> AppInitView:
    """The schema's names win here too (`codegen/pynaming.py`): a conversion entry point or
    `UNSET` that an application type's name took stays in its module (`convert`, `_runtime`)."""
    names, own = app.index.names.exports(
        models_exports(app), [*CONVERT_EXPORTS, "UNSET", "decode", "encode"]
    )

    def line(module: str, items: list[str]) -> tuple[str, ...]:
        mine = [n for n in items if n in own]
        return (f"from {module} import {', '.join(mine)}",) if mine else ()

    imports = line(".._runtime", ["UNSET"]) + line(".codec", ["decode", "encode"])
    imports += line(".convert", list(CONVERT_EXPORTS))
    exports = sorted({*names, *own})
    classes = (c.name for c in app.index.dataclasses())
    declared = (td.name for td in app.resolved.types)
    aliases, spelled = former_aliases(classes, declared, app.index.py_name, [*names, *own])
    return AppInitView(
        imports, tuple(names), tuple(code_literal(n) for n in exports), aliases, spelled
    )
