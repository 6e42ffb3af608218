"""The one registry of output kinds. Each entry names a plugin module that defines `TARGET`
(`base.Target`); a plugin is imported only when its target is used or listed, so a plain
generation imports one target. Adding a target: a folder under `codegen/targets/`, one line
here, its templates, tests and docs."""

from __future__ import annotations

import importlib

from .base import Files, Option, Request, Target

__all__ = ["Files", "Option", "Request", "Target", "get", "names"]

_PLUGINS: dict[str, str] = {
    # name -> module (under codegen.targets) defining TARGET
    "go": "go",
    "rust": "rust",
}


def names() -> list[str]:
    return sorted(_PLUGINS)


def get(name: str) -> Target:
    """The target called `name`; KeyError when there is none."""
    module = importlib.import_module(f"{__name__}.{_PLUGINS[name]}")
    target = module.TARGET
    assert isinstance(target, Target) and target.name == name, name
    return target
