"""The one registry of output kinds. Each entry names a plugin module that defines `TARGET`
(`base.Target`); a plugin is imported only when its target is used or listed, so a plain
generation imports the target it renders and those it requires (`Target.requires`: python
embeds jsonschema's output, read through `Request.output_of`, never through its modules).
Adding a target: a folder under `codegen/targets/`, one line here, its templates, tests and
docs. `register` adds a target defined elsewhere for the life of the process (a test's target,
a program embedding the generator); `unregister` removes it."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Files, Option, Request, Target

__all__ = [
    "Files",
    "Option",
    "Request",
    "Target",
    "field_spellings",
    "get",
    "names",
    "register",
    "requirements",
    "unregister",
]

_PLUGINS: dict[str, str] = {
    # name -> module (under codegen.targets) defining TARGET
    "go": "go",
    "jsonschema": "jsonschema",
    "pydantic": "pydantic",
    "python": "python",
    "rust": "rust",
    "zod": "zod",
}

DEFAULT = "python"

_REGISTERED: dict[str, Target] = {}  # targets given to `register`, by name


def names() -> list[str]:
    return sorted({*_PLUGINS, *_REGISTERED})


def get(name: str) -> Target:
    """The target called `name`; KeyError when there is none."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    module = importlib.import_module(f"{__name__}.{_PLUGINS[name]}")
    target = module.TARGET
    assert isinstance(target, Target) and target.name == name, name
    return target


def requirements(name: str) -> tuple[str, ...]:
    """Every target `name` requires (`Target.requires`), directly or through another, each
    after those it requires itself. ValueError naming the chain for an unknown target or a
    cycle: a plugin's declaration is wrong, not the user's input."""
    order: list[str] = []

    def visit(chain: tuple[str, ...]) -> None:
        if chain[-1] not in names():
            path = " -> ".join(chain)
            raise ValueError(f"unknown target {chain[-1]!r} (required along {path})")
        for needed in get(chain[-1]).requires:
            if needed in chain:
                path = " -> ".join((*chain, needed))
                raise ValueError(f"targets require each other in a cycle: {path}")
            visit((*chain, needed))
            if needed not in order:
                order.append(needed)

    visit((name,))
    return tuple(order)


def field_spellings() -> dict[str, Callable[[tuple[str, ...]], tuple[str, ...]]]:
    """Every target that spells properties of its own (`Target.spell_fields`), by name in name
    order: what the diff asks instead of knowing a language's spelling. Imports every plugin
    (they are light)."""
    out = {}
    for name in names():
        spell = get(name).spell_fields
        if spell is not None:
            out[name] = spell
    return out


def register(target: Target) -> None:
    """Make `target` available under its name (ValueError if the name is taken)."""
    if target.name in _PLUGINS or target.name in _REGISTERED:
        raise ValueError(f"a target named {target.name!r} exists")
    _REGISTERED[target.name] = target


def unregister(name: str) -> None:
    """Remove a target given to `register` (KeyError for any other name)."""
    del _REGISTERED[name]
