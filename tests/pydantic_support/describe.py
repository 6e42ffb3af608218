"""Describe every class of one pydantic module as JSON (run in a subprocess, with the module's
package on PYTHONPATH): `python describe.py MODULE...` prints {module: {class: {kind, extra, fields}}}.

Annotations are written canonically so two modules that spell one type differently compare
equal: union members sorted, `Optional[X]` as a union with None, literal values sorted, classes
by name.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import types
import typing
from typing import Any

from pydantic import BaseModel


def canon(t: Any) -> str:
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if t is type(None) or t is None:
        return "None"
    if t is Any:
        return "Any"
    if origin in (typing.Union, types.UnionType):
        return " | ".join(sorted({canon(a) for a in args}))  # typing flattens nested unions
    if origin is typing.Literal:
        return "Literal[" + ", ".join(sorted(repr(a) for a in args)) + "]"
    if origin is typing.Annotated:
        return canon(args[0])
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(canon(a) for a in args)}]"
    if isinstance(t, type):
        return t.__name__
    if isinstance(t, typing.ForwardRef):
        return t.__forward_arg__
    return repr(t)


def describe(module_name: str) -> dict[str, Any]:
    mod = importlib.import_module(module_name)
    out: dict[str, Any] = {}
    for name, obj in vars(mod).items():
        if not (inspect.isclass(obj) and issubclass(obj, BaseModel)):
            continue
        if obj.__module__ != mod.__name__ or obj.__name__ != name or not name.isidentifier():
            continue  # a re-export, or a parametrized generic (`RootModel[str]`)
        obj.model_rebuild()  # a deferred model: resolve its annotations first
        root = bool(getattr(obj, "__pydantic_root_model__", False))
        fields = {}
        for attr, f in obj.model_fields.items():
            fields[f.alias or attr] = {
                "attr": attr,
                "type": canon(f.annotation),
                "required": f.is_required(),
                "default": None if f.is_required() else repr(f.default),
            }
        out[name] = {
            "kind": "root" if root else "model",
            "extra": obj.model_config.get("extra"),
            "populate_by_name": bool(
                obj.model_config.get("populate_by_name") or obj.model_config.get("validate_by_name")
            ),
            "fields": fields,
        }
    for name, obj in vars(mod).items():
        if isinstance(obj, types.UnionType) and not name.startswith("_"):
            out[name] = {"kind": "union", "members": [a.__name__ for a in typing.get_args(obj)]}
    return out


if __name__ == "__main__":
    json.dump({name: describe(name) for name in sys.argv[1:]}, sys.stdout, sort_keys=True)
