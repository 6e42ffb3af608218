"""Where a finding's annotation goes in the NEW schema.ts (a pull request annotates its head).

A finding whose subject still stands in the new file has its line (`Finding.new_line`: for a
removed member, its nearest surviving parent). A removed type or method has none: it is shown
where its former users are (the declarations and properties that named it in the old file,
followed up while they are gone too), so an annotation never lands on an unrelated line."""

from __future__ import annotations

from collections.abc import Iterable

from .. import ir
from ..analysis.methods import MethodModel
from ..analysis.users import user_paths
from .locate import Locator
from .rules import Finding

_DEPTH = 4  # users of users of ... a removed type: a few steps, never forever


def _former_users(old: ir.Resolved, new: Locator, name: str) -> int | None:
    types = old.type_map()
    todo, seen = [name], {name}
    for _ in range(_DEPTH):
        later: list[str] = []
        for n in todo:
            for path in user_paths(types, n):
                line = new.line("type", path)
                if line is not None:
                    return line
                if path[0] not in seen:
                    seen.add(path[0])
                    later.append(path[0])
        todo = later
    return None


def anchor_lines(
    findings: Iterable[Finding],
    old: ir.Resolved,
    new: ir.Resolved,
    old_m: MethodModel,
    new_m: MethodModel,
) -> dict[str, int]:
    """Finding id -> its line in the new schema.ts, for the findings that have one."""
    where = Locator(new, new_m)
    out: dict[str, int] = {}
    for f in findings:
        line = f.new_line
        if line is None and f.category == "method":
            m = old_m.get(f.subject)
            line = _former_users(old, where, m.type_name) if m is not None else None
        elif line is None and f.category != "constant":
            root = f.subject.split(".", 1)[0].split("[", 1)[0]
            line = _former_users(old, where, root)
        if line is not None:
            out[f.id] = line
    return out
