"""View models shared by the package's modules (`Context`, the generated-file header) and those of
its two small schema-dependent modules, `codec.py` (decoders and encoders by type name) and
`__init__.py` (the re-exports). models.py's view: `models_views`; its classes': `class_views`."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import PurePath

from .... import ir
from ....analysis.shapes import is_class_obj
from ....pynaming import PyIndex, former_aliases
from ....pytext import code_literal, comment, docstring
from ....records import record
from .hints import Hints


@record
class Context:
    resolved: ir.Resolved
    index: PyIndex
    runtime: str = "."  # the relative import prefix of the package holding _runtime.py

    @cached_property
    def hints(self) -> Hints:
        return Hints(self.index)


@record
class HeaderView:
    source: str  # file name only: the output must not depend on where the schema was read
    sha256: str
    title: str
    regenerate: str  # the command that writes this file again (in the header's "Do not edit")


def header_view(resolved: ir.Resolved, regenerate: str | None = None) -> HeaderView:
    """`regenerate`: the command for the header; default, the one-schema package's command."""
    name = PurePath(resolved.source).name
    command = regenerate if regenerate is not None else f"mcp-codegen {name} -o <this directory>"
    return HeaderView(
        comment(name), resolved.sha256, comment(f"the protocol schema in {name}"), comment(command)
    )


@record
class DecoderView:
    name: str  # Python literal of the type name
    build: str  # callable building a validated value


@record
class CodecView:
    decoders: tuple[DecoderView, ...]
    uses_same: bool  # whether some type decodes as the JSON value itself
    encoders: tuple[tuple[str, str], ...]  # (class, Python literal of its type name)


def codec_view(ctx: Context) -> CodecView:
    """Decoders by schema name (and by Python name too where a class had to be renamed)."""
    index = ctx.index
    builders: list[tuple[str, str]] = []
    for td in ctx.resolved.types:
        py = index.py_name(td.name)
        if is_class_obj(td.type):
            builders.append((td.name, f"_m.{py}._from_valid"))
        elif index.is_raw(td.type):
            builders.append((td.name, "_same"))
        else:
            builders.append((td.name, f"_m.{index.names.builders[td.name]}"))
    for c in index.classes.values():
        if c.name not in index.typedefs:
            raw = c.name in index.plain_json
            builders.append((c.name, "_same" if raw else f"_m.{index.py_name(c.name)}._from_valid"))
    renamed = index.names.renamed
    builders += [(renamed[n], b) for n, b in builders if n in renamed]
    decoders = tuple(DecoderView(code_literal(n), b) for n, b in builders)
    encoders = tuple(
        (f"_m.{index.py_name(c.name)}", code_literal(c.name)) for c in index.dataclasses()
    )
    return CodecView(decoders, any(d.build == "_same" for d in decoders), encoders)


@record
class InitView:
    doc: str
    before: tuple[str, ...]  # import lines before the models import
    models: tuple[str, ...]  # the schema's names, re-exported from models
    after: tuple[str, ...]  # import lines after it
    exports: tuple[str, ...]
    former: tuple[tuple[str, str], ...]  # (former name, reviewed name): deprecated aliases
    own: Mapping[str, str]  # the former-names block's names as spelled here (`former`)


def init_view(ctx: Context) -> InitView:
    names = models_exports(ctx)
    runtime = ["JSON", "UNSET", "ErrorDetail", "UnsetType", "ValidationError"]
    api = ["decode", "encode", "errors", "is_valid", "validate"]
    tolerance = ["Unknown", "UnknownLiteral", "UnknownMember", "UnknownValueWarning"]
    name = PurePath(ctx.resolved.source).name
    doc = (
        f"Python bindings for the protocol schema in {name}: dataclasses (`models`), a codec "
        "(`decode`, `encode`, `Type.from_dict`/`from_json`, `obj.to_dict()`/`to_json()`) and "
        "validators (`validate`, "
        "`is_valid`, `errors`, per-type `validators.is_<Type>`)."
    )
    models, own = ctx.index.names.exports(names, [*runtime, *tolerance, *api, "validators"])

    def line(module: str, items: list[str]) -> list[str]:
        mine = [n for n in items if n in own]
        return [f"from {module} import {', '.join(mine)}"] if mine else []

    before = line(".", ["validators"]) + line(f"{ctx.runtime}_runtime", runtime)
    before += line(f"{ctx.runtime}_tolerance", tolerance) + line(".codec", ["decode", "encode"])
    classes = (c.name for c in ctx.index.dataclasses())
    declared = (td.name for td in ctx.resolved.types)
    aliases, spelled = former_aliases(classes, declared, ctx.index.py_name, [*models, *own])
    return InitView(
        docstring(doc, ""),
        tuple(before),
        tuple(models),
        tuple(line(".validators", ["errors", "is_valid", "validate"])),
        tuple(code_literal(n) for n in sorted({*models, *own})),
        aliases,
        spelled,
    )


def models_exports(ctx: Context) -> tuple[str, ...]:
    index = ctx.index
    names = [index.py_name(c.name) for c in ctx.resolved.consts]
    names += [index.py_name(td.name) for td in ctx.resolved.types if not is_class_obj(td.type)]
    names += [index.py_name(c.name) for c in index.dataclasses()]
    return tuple(names)
