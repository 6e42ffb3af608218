"""The one target interface: what an output kind declares, and the one function it implements.

A target is a plugin: a folder `codegen/targets/<name>/` whose `__init__.py` defines `TARGET`, a
`Target`. The command line reads the declarations (name, summary, options, one or several
versions) from the registry (`codegen.targets`) and calls `render` with the resolved models; the
files it returns go through the shared atomic writer and `--check`. Nothing outside a target's
folder and the registry imports a target package.

A plugin's `__init__.py` stays light (declarations only; `render` imports the machinery when it
runs): listing the targets, or refusing another target's option, imports every plugin.

Formatting belongs to `render`: a Python target lays its text out with the pinned ruff
(`codegen.pyformat`) inside `render`, where it overlaps the rendering; a target whose language
has a formatter of its own (prettier, rustfmt, gofmt) writes text that formatter leaves as it
is, and its tests run the formatter as the judge. So the bytes never depend on what the user's
machine has installed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .. import ir
    from ..analysis.presence import Presence

# Relative POSIX path -> the file's text. Every target returns this; the writer owns the disk.
Files = dict[str, str]


@dataclass(frozen=True)
class Option:
    """One command-line option a target takes. Several targets may declare the same flag (their
    help and default may differ); the command line refuses a flag the chosen target does not
    declare, naming the target."""

    flag: str  # "--module"
    help: str
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    default: object = None
    required: bool = False
    switch: bool = False  # a flag without a value (store_true)

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class Request:
    """What a target renders from: the resolved schemas (oldest first) and its options' values
    (every declared option by `dest`, defaults filled in)."""

    schemas: tuple[ir.Resolved, ...]
    options: Mapping[str, object] = field(default_factory=dict)
    labels: tuple[str, ...] = ()  # the inputs' version labels, in order ("2025-11-25", "draft")
    target: str | None = None  # the target it is for: `output_of` serves what that one requires
    _outputs: dict[str, Files] = field(default_factory=dict, init=False, repr=False, compare=False)

    def option(self, dest: str) -> object:
        return self.options.get(dest)

    def output_of(self, name: str) -> Files:
        """The files the target `name` renders from the same schemas and labels, its options at
        their defaults: rendered through the registry on first use (so a caller can ask while
        its formatter runs in another process), then kept. `name` must be in the `requires` of
        this request's target (ValueError otherwise, as for an unknown target or a cycle)."""
        from . import get, requirements

        if self.target is None or name not in get(self.target).requires:
            raise ValueError(f"target {self.target!r} does not declare {name!r} in `requires`")
        if name not in self._outputs:
            requirements(self.target)  # every name known, no cycle: before anything renders
            target = get(name)
            defaults = {o.dest: o.default for o in target.options}
            request = Request(self.schemas, defaults, self.labels, name)
            self._outputs[name] = target.render(request)
        return self._outputs[name]

    @cached_property
    def presence(self) -> Presence:
        """Since/until of every type, member and method across the schemas given."""
        from ..analysis.presence import presence

        return presence(self.labels, self.schemas)


@dataclass(frozen=True)
class Target:
    name: str
    summary: str  # one line, for `mcp-codegen targets` and --help
    render: Callable[[Request], Files]
    options: tuple[Option, ...] = ()
    several: bool = False  # takes several versions (oldest first) in one output
    # Targets whose output this one embeds (python: jsonschema's schema.json), which `render`
    # reads through `Request.output_of`; never each other's modules.
    requires: tuple[str, ...] = ()
    # Called with the options' values and the number of schemas before any schema is read, so
    # a bad option stops the run at once: raises UsageError (or SchemaError, located) for a
    # combination the target refuses; returns the values `render` sees instead of some (e.g. a
    # profile read from its file), or None.
    check_options: Callable[[Mapping[str, object], int], Mapping[str, object] | None] | None = None
    # The names this target gives the properties of one object, from their wire names in order
    # (collisions within the object settled as the target settles them), or None when the
    # target spells no properties of its own. The diff reads it through the registry
    # (`codegen.targets.field_spellings`): a property whose spelling changes between two
    # versions is a `generated-name-changed` finding, though its wire name stays the same.
    spell_fields: Callable[[tuple[str, ...]], tuple[str, ...]] | None = None

    def option(self, dest: str) -> Option | None:
        return next((o for o in self.options if o.dest == dest), None)


def option_dests(targets: Sequence[Target]) -> set[str]:
    return {o.dest for t in targets for o in t.options}
