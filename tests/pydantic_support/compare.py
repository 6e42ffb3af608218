"""Field-by-field comparison of two module descriptions (`describe.py`): every class's kind,
extra policy, fields (by wire name), their types, requiredness and defaults. `differences`
returns one readable line per difference, `Difference.kind` says which fact differs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Difference:
    cls: str
    kind: str  # missing-class | extra-class | kind | extra | missing-field | extra-field | type | required | default | attr | members
    detail: str

    def __str__(self) -> str:
        return f"{self.cls}: {self.kind}: {self.detail}"


def differences(shipped: dict[str, Any], ours: dict[str, Any]) -> list[Difference]:
    out: list[Difference] = []
    for name in sorted(shipped.keys() - ours.keys()):
        out.append(Difference(name, "missing-class", f"{shipped[name]['kind']} not generated"))
    for name in sorted(ours.keys() - shipped.keys()):
        out.append(
            Difference(name, "extra-class", f"{ours[name]['kind']} not in the shipped module")
        )
    for name in sorted(shipped.keys() & ours.keys()):
        a, b = shipped[name], ours[name]
        if a["kind"] != b["kind"]:
            out.append(Difference(name, "kind", f"shipped {a['kind']}, ours {b['kind']}"))
            continue
        if a["kind"] == "union":
            if a["members"] != b["members"]:
                out.append(
                    Difference(name, "members", f"shipped {a['members']}, ours {b['members']}")
                )
            continue
        if a["extra"] != b["extra"]:
            out.append(Difference(name, "extra", f"shipped {a['extra']!r}, ours {b['extra']!r}"))
        fa, fb = a["fields"], b["fields"]
        for wire in sorted(fa.keys() - fb.keys()):
            out.append(Difference(name, "missing-field", wire))
        for wire in sorted(fb.keys() - fa.keys()):
            out.append(Difference(name, "extra-field", wire))
        for wire in sorted(fa.keys() & fb.keys()):
            x, y = fa[wire], fb[wire]
            for fact in ("type", "required", "default", "attr"):
                if x[fact] != y[fact]:
                    out.append(Difference(name, fact, f"{wire}: shipped {x[fact]}, ours {y[fact]}"))
    return out


def report(diffs: list[Difference]) -> str:
    return "\n".join(str(d) for d in diffs) or "no differences"


# -- why a difference is not observable --------------------------------------------------------

NUMBER = (
    "schema.ts says `number`: ours is `int | float` (an int stays an int); the shipped module has "
    "`int` (schema.json's number-as-integer defect) or `float` (which turns 1 into 1.0)"
)
ALIAS = (
    "the same values: ours names a type alias (a RootModel, dumped as its root) where the shipped "
    "module spells out its members, or a union of string literals and `str` where it has `str`"
)
ATTR = (
    "the shared Python naming appends `_` to an attribute that would shadow a builtin; the SDK "
    "reads and writes wire names (aliases) only"
)


def _split(t: str) -> list[str]:
    """Top-level union members of a canonical type text."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(t):
        depth += ch == "["
        depth -= ch == "]"
        if depth == 0 and t.startswith(" | ", i):
            out.append(t[start:i])
            start = i + 3
    out.append(t[start:])
    return out


def _members(
    t: str, roots: dict[str, str], numbers: bool, stack: tuple[str, ...] = ()
) -> frozenset[str]:
    """The values a type text admits, as a set of member texts: aliases (RootModels) expanded,
    inside `list[...]` and `dict[str, ...]` too, a recursive one named where it recurs."""
    out: set[str] = set()
    for m in _split(t):
        if m in roots and m not in stack:
            out |= _members(roots[m], roots, numbers, (*stack, m))
        elif m.startswith("list["):
            inner = _members(m[5:-1], roots, numbers, stack)
            out.add("list[" + " | ".join(sorted(inner)) + "]")
        elif m.startswith("dict[str, "):
            inner = _members(m[10:-1], roots, numbers, stack)
            out.add("dict[str, " + " | ".join(sorted(inner)) + "]")
        elif numbers and m in ("int", "float"):
            out.add("number")
        else:
            out.add(m)
    if "str" in out:
        out = {m for m in out if not m.startswith("Literal['")}
    return frozenset(out)


def _roots(module: dict[str, Any]) -> dict[str, str]:
    return {n: c["fields"]["root"]["type"] for n, c in module.items() if c["kind"] == "root"}


def explain(d: Difference, shipped: dict[str, Any], ours: dict[str, Any]) -> str | None:
    """The reviewed reason a difference cannot be observed by the SDK, or None."""
    if d.kind == "attr":
        wire, _, rest = d.detail.partition(": ")
        old, new = rest.removeprefix("shipped ").split(", ours ")
        return ATTR if new == old + "_" and old in ("type", "list") else None
    if d.kind != "type":
        return None
    wire, _, rest = d.detail.partition(": ")
    a, b = rest.removeprefix("shipped ").split(", ours ")
    rs, ro = _roots(shipped), _roots(ours)
    top = (d.cls,) if wire == "root" else ()  # a recursive alias's own name stays a name
    if _members(a, rs, False, top) == _members(b, ro, False, top):
        return ALIAS
    if _members(a, rs, True, top) == _members(b, ro, True, top):
        return NUMBER
    return None
