"""Random schemas in the supported TypeScript subset (hypothesis strategies), and random valid
instances of their types computed from the resolved IR. Used by the fuzzing tests."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from hypothesis import strategies as st

from codegen import ir

PROP_NAMES = ["name", "value", "type", "class", "from", "list", "_meta", "inputSchema", "a-b", "$ref",
              "io.example/x", "match", "None", "self", "isError", "données"]  # fmt: skip
STRINGS = ["a", "text", "'q'", '"dq"', "back\\slash", "{{ x }}", "line\nbreak", "é", "\u202e"]


@dataclass
class _Builder:
    draw: st.DrawFn
    decls: list[str] = field(default_factory=list)
    interfaces: dict[str, list[str]] = field(default_factory=dict)  # name -> property names
    aliases: list[str] = field(default_factory=list)
    consts: list[str] = field(default_factory=list)

    def type_text(self, depth: int) -> str:
        d = self.draw
        choices = ["string", "number", "boolean", "literal", "null_union", "array", "union_lits"]
        if self.interfaces or self.aliases:
            choices += ["ref", "ref", "array_ref"]
        if self.consts:
            choices.append("typeof")
        if depth < 3:
            choices += ["inline", "record", "index_obj", "union_mixed"]
        kind = d(st.sampled_from(choices))
        if kind == "literal":
            return d(
                st.sampled_from(
                    [json.dumps(d(st.sampled_from(STRINGS))), "42", "-1", "true", "0.5"]
                )
            )
        if kind == "null_union":
            return f"{self.type_text(depth + 1)} | null"
        if kind == "array":
            return f"({self.type_text(depth + 1)})[]"
        if kind == "union_lits":
            lits = d(st.lists(st.sampled_from(STRINGS), min_size=2, max_size=4, unique=True))
            return " | ".join(json.dumps(x) for x in lits)
        if kind in ("ref", "array_ref"):
            target = d(st.sampled_from(sorted([*self.interfaces, *self.aliases])))
            return f"{target}[]" if kind == "array_ref" else target
        if kind == "typeof":
            return f"typeof {d(st.sampled_from(self.consts))}"
        if kind == "inline":
            return self.body(depth + 1)
        if kind == "record":
            return f"Record<string, {self.type_text(depth + 1)}>"
        if kind == "index_obj":
            return f"{{ [key: string]: {self.type_text(depth + 1)} }}"
        if kind == "union_mixed":
            return f"{self.type_text(depth + 1)} | {self.type_text(depth + 1)}"
        return kind

    def body(self, depth: int, names: list[str] | None = None) -> str:
        d = self.draw
        props = (
            names
            if names is not None
            else d(st.lists(st.sampled_from(PROP_NAMES), max_size=4, unique=True))
        )
        lines = []
        for p in props:
            opt = "?" if d(st.booleans()) else ""
            key = p if p.isidentifier() else json.dumps(p)
            doc = d(
                st.sampled_from(
                    ["", '/** Doc with """ and \\\\ and {{ x }}. */ ', "/** @TJS-type integer */ "]
                )
            )
            t = self.type_text(depth)
            if doc.startswith("/** @TJS") and t != "number":
                doc = ""
            lines.append(f"{doc}{key}{opt}: {t};")
        return "{ " + " ".join(lines) + " }"

    def declare(self, i: int) -> None:
        d = self.draw
        kind = d(st.sampled_from(["interface", "interface", "alias", "const"]))
        name = f"T{i}"
        if kind == "const":
            value = d(st.sampled_from(['"v1"', "-32000", "7", '"x\\"y"']))
            self.decls.append(f"export const C{i} = {value};")
            self.consts.append(f"C{i}")
            return
        if kind == "alias":
            self.decls.append(f"export type {name} = {self.type_text(0)};")
            self.aliases.append(name)
            return
        names = d(st.lists(st.sampled_from(PROP_NAMES), max_size=5, unique=True))
        extends = ""
        if self.interfaces and d(st.booleans()):
            base = d(st.sampled_from(sorted(self.interfaces)))
            base_props = self.interfaces[base]
            omit = [p for p in base_props if d(st.booleans())][:2]
            if omit:
                extends = f" extends Omit<{base}, {' | '.join(json.dumps(p) for p in omit)}>"
            else:
                extends = f" extends {base}"
            names = [n for n in names if n not in base_props]
            inherited = [p for p in base_props if p not in omit]
        else:
            inherited = []
        self.decls.append(
            f'/** Interface {name} """ */\nexport interface {name}{extends} {self.body(0, names)}'
        )
        self.interfaces[name] = inherited + names


@st.composite
def schemas(draw: st.DrawFn) -> str:
    b = _Builder(draw)
    for i in range(draw(st.integers(min_value=1, max_value=6))):
        b.declare(i)
    if not b.interfaces and not b.aliases:
        b.decls.append("export interface Root { name: string }")
    return "\n".join(b.decls) + "\n"


# -- instances -----------------------------------------------------------------------------------


def instance(resolved: ir.Resolved, t: ir.TypeExpr, rnd: random.Random, depth: int = 0) -> object:
    """A random JSON value valid for `t`. Deep recursion is cut by preferring empty choices."""
    types = resolved.type_map()
    deep = depth > 6
    if isinstance(t, ir.Prim):
        k = t.kind
        if k is ir.PrimKind.STRING:
            return rnd.choice(STRINGS)
        if k is ir.PrimKind.NUMBER:
            return rnd.choice([0, -3, 2.5, 1e20])
        if k is ir.PrimKind.INTEGER:
            return rnd.choice([0, 7, -12])
        if k is ir.PrimKind.BOOLEAN:
            return rnd.choice([True, False])
        if k is ir.PrimKind.NULL:
            return None
        if k is ir.PrimKind.OBJECT:
            return {"k": [1, "x"]}
        return rnd.choice([None, 1, "s", [True], {"a": {"b": None}}])  # unknown / any
    if isinstance(t, ir.Lit):
        return t.value
    if isinstance(t, ir.Ref):
        return instance(resolved, types[t.name].type, rnd, depth + 1)
    if isinstance(t, ir.Array):
        return (
            []
            if deep
            else [instance(resolved, t.item, rnd, depth + 1) for _ in range(rnd.randint(0, 2))]
        )
    if isinstance(t, ir.Union_):
        members = [
            m for m in t.members if not (isinstance(m, ir.Prim) and m.kind is ir.PrimKind.NEVER)
        ]
        if deep:
            flat = [m for m in members if isinstance(m, (ir.Prim, ir.Lit))]
            members = flat or members
        return instance(resolved, rnd.choice(members), rnd, depth + 1)
    if isinstance(t, ir.Map):
        if isinstance(t.key, ir.Prim):
            return {} if deep else {"k1": instance(resolved, t.value, rnd, depth + 1)}
        keys = [
            m.value
            for m in (t.key.members if isinstance(t.key, ir.Union_) else (t.key,))
            if isinstance(m, ir.Lit)
        ]
        return {str(k): instance(resolved, t.value, rnd, depth + 1) for k in keys}
    if isinstance(t, ir.Obj):
        out: dict[str, object] = {}
        for p in t.properties:
            if p.optional and (deep or rnd.random() < 0.4):
                continue
            out[p.name] = instance(resolved, p.type, rnd, depth + 1)
        if t.index is not None and not deep and rnd.random() < 0.5:
            out["x-extra"] = instance(resolved, t.index.value, rnd, depth + 1)
        elif t.index is None and rnd.random() < 0.3:
            out["x-unknown-key"] = {"kept": True}  # objects are open: unknown keys must survive
        return out
    raise AssertionError(f"no instance for {t!r}")
