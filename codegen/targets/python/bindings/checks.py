"""Type expressions -> the Python text of straight-line checks.

The `Compiler` follows a type to `Pred`s (a boolean expression over one variable and the
statement that explains a failure; the leaves, a JSON kind or literals, are preds.py's) and to
`Check`s in statement position. Arrays and maps nested inside an expression are hoisted into
helper functions with structural names (`_is_list_of_Tool`), so every check stays a single
expression or one loop.

Depth: functions on a type cycle take `d`, the nesting depth, and give up past `MAX_DEPTH`; a call
passes `d + 1` when it checks a child value and `d` when it checks the same value again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .... import ir
from ....analysis.shapes import P, describe, is_class_obj, is_never, json_literal, structural_key
from ....pynaming import HelperNames, PyIndex
from ....pytext import code_literal, literal
from ....records import record
from .exprs import FALSE, TRUE, Expr, build, joined
from .preds import (
    Pred,
    Says,
    anything,
    empty_first,
    length,
    literals,
    mismatch,
    prim,
    unknown_literal,
)

T = TypeVar("T")


@record
class Check:
    """A check of one value in statement position: an expression, or a loop over a container."""

    kind: str  # "expr" | "list" | "dict" | "none"
    var: str
    path: str  # Python expression of the value's JSON path
    bad: Expr = FALSE  # expr: failure condition
    ok: Expr = TRUE  # expr: success condition
    explain: str = "pass"  # expr: explanation statement
    # expr with constraints: the type's failure condition and explanation, and the constraints'
    # explanation; written as an if/else statement (`explain` is then unused)
    type_bad: str = ""
    type_explain: str = ""
    constraint_explain: str = ""
    expected: str = ""  # description of what is expected, for "missing" messages
    expected_literal: str = '""'  # the same as a Python literal
    # list / dict
    item: Pred | None = None
    len_bad: str = ""  # list: length constraint failure condition ("" if none)
    len_explain: str = ""
    named: str = ""  # expr: the key of the named check whose call alone `ok` is (`is_Tool(x)`)


@dataclass
class Helper:
    """A hoisted function checking a nested array, map or record."""

    key: str  # structural name part: list_of_Tool
    t: ir.TypeExpr


@dataclass
class Compiler:
    index: PyIndex
    recursive: frozenset[str] = frozenset()  # function keys that take `d`
    helpers: dict[str, Helper] = field(default_factory=dict)
    helper_names: HelperNames = field(init=False)
    patterns: dict[str, str] = field(default_factory=dict)  # constant name -> regex
    calls: dict[str, set[str]] = field(default_factory=dict)  # function key -> keys it calls
    current: str = ""  # key of the function being compiled
    has_d: bool = False
    # Compiling a JSON Schema payload (`Tool.inputSchema`): its `object` members are checked to be
    # dicts, not walked (decoding a tool list would spend most of its time there); the payload
    # stays the parsed JSON value, and `dumps` refuses what in it is not JSON.
    shallow: bool = False
    # Function key -> its check as one expression, written over the variable where a parent
    # checks such a value instead of a call (found by a first pass; inline_checks.py).
    inline: dict[str, Expr] = field(default_factory=dict)
    # Function keys called as members of an undiscriminated union (`is_A(x) or is_B(x)`): their
    # is_ functions read required keys with `.get`, since a member that fails is the usual case
    # there and a KeyError costs more than the lookups it saves.
    union_members: set[str] = field(default_factory=set)
    _in_union: int = 0
    # Function keys of objects that accept `{}` (no required field): a call is written after an
    # inline test of the empty object, the usual value of a capability (`"tools": {}`).
    empty_ok: frozenset[str] = frozenset()
    # Compiling the checks an explanation runs (`_explain_*`): calls, nothing inline (they run
    # only on invalid values; inlining there would double the module for no gain).
    plain: bool = False
    _differs: bool = False  # a plain compile met something the is_ function writes inline

    def __post_init__(self) -> None:
        self.helper_names = self.index.names.validators_helpers()

    # -- functions ------------------------------------------------------------------------------

    def enter(self, key: str, shallow: bool = False) -> None:
        self.current = key
        self.has_d = key in self.recursive
        self.shallow = shallow
        self.calls.setdefault(key, set())

    def depth_arg(self, key: str | None, child: bool) -> str:
        """The depth argument for a call (`, d + 1` for a child value, `, d` for the same value),
        or "" when the callee does not take one (`key` None: explain functions, which all do).
        """
        if not self.has_d or (key is not None and key not in self.recursive):
            return ""
        return ", d + 1" if child else ", d"

    def fn_names(self, key: str) -> tuple[str, str]:
        """(`is_` function, `_explain_` function) of a named type or helper key."""
        if key in self.helpers:
            return f"_is_{key}", f"_explain_{key}"
        stem = self.index.names.stem(key)
        return f"is_{stem}", f"_explain_{stem}"

    # -- expressions ----------------------------------------------------------------------------

    def pred(self, t: ir.TypeExpr, v: str, path: str, child: bool) -> Pred:
        if self.index.accepts_anything(t):
            return self._anything(v, path)
        if isinstance(t, ir.Prim):
            return self._prim(t.kind, v, path)
        if isinstance(t, ir.Lit):
            return literals([t], v, path, json_literal(t))
        if isinstance(t, ir.Ref):
            td = self.index.typedefs[t.name]
            target = td.type
            if _inlinable(target, self.index) and td.constraints.is_empty():
                inner = self.pred(target, v, path, child)
                expected = f"{t.name} ({describe(target, self.index)})"
                if inner.says is Says.JSON:  # says what in it is not JSON
                    return inner
                if inner.says is Says.ENUM:  # an enum: said the same way
                    explain = unknown_literal(path, expected, v)
                    return Pred(inner.ok, inner.bad, explain, inner.anything, Says.ENUM)
                return Pred(inner.ok, inner.bad, mismatch(path, expected, v), inner.anything)
            return self._named(t.name, v, path, child)
        if isinstance(t, ir.Obj):
            if is_class_obj(t):
                return self._named(t.name, v, path, child)
            if t.index is None or self.index.accepts_anything(t.index.value):
                return self._prim(P.OBJECT, v, path)
            return self._hoist(t, v, path, child)
        if isinstance(t, ir.Map):
            return self._hoist(t, v, path, child)
        if isinstance(t, ir.Array):
            return self._hoist(t, v, path, child)
        if isinstance(t, ir.Union_):
            return self._union(t, v, path, child)
        if isinstance(t, ir.Intersection):
            return self._intersection(t, v, path, child)
        ir.not_resolved(t)

    def _prim(self, kind: P, v: str, path: str) -> Pred:
        if kind in (P.UNKNOWN, P.ANY):
            return self._anything(v, path)
        return prim(kind, v, path, self.shallow)

    def _named(self, key: str, v: str, path: str, child: bool) -> Pred:
        self.calls.setdefault(self.current, set()).add(key)
        if self._in_union:
            self.union_members.add(key)
        is_fn, explain_fn = self.fn_names(key)
        depth = self.depth_arg(key, child)
        call = build("{fn}({v}" + depth + ")", v, fn=is_fn)
        named = "" if depth else key
        inlined = v.isidentifier() and (key in self.inline or (key in self.empty_ok and not depth))
        if self.plain or not inlined:
            self._differs |= inlined
        elif key in self.inline:
            call, named = self.inline[key].over(v), ""
        elif key in self.empty_ok and not depth:  # d = 0: {} is valid
            call, named = empty_first(v, call), ""
        explain = f"{explain_fn}({v}, {path}, errs{self.depth_arg(None, child)})"
        return Pred(call, build("not {call}", v, call=call), explain, False, Says.CALL, explain_fn,
                    named)  # fmt: skip

    def _hoist(self, t: ir.TypeExpr, v: str, path: str, child: bool) -> Pred:
        key = self.helper_key(t)
        return self._named(key, v, path, child)

    def _union(self, t: ir.Union_, v: str, path: str, child: bool) -> Pred:
        members = t.members
        if any(self.index.accepts_anything(m) for m in members):
            return self._anything(v, path)
        expected = describe(t, self.index)
        has_string = any(isinstance(m, ir.Prim) and m.kind is P.STRING for m in members)
        lits = [
            m for m in members if isinstance(m, ir.Lit) and not (has_string and m.kind == "string")
        ]
        others = [m for m in members if not isinstance(m, ir.Lit) and not is_never(m)]
        if lits and not others:
            return literals(lits, v, path, expected)
        if not lits and len(others) == 1:  # `"a" | "b" | string` is just a string
            return self.pred(others[0], v, path, child)
        parts: list[Expr] = []
        explainers: list[str] = []
        lit_done = False
        for m in members:
            if isinstance(m, ir.Lit):
                if lits and not lit_done:
                    parts.append(literals(lits, v, path, expected).ok)
                    lit_done = True
                continue
            if m not in others:
                continue
            self._in_union += 1
            try:
                p = self.pred(m, v, path, child)
            finally:
                self._in_union -= 1
            parts.append(p.ok)
            if p.explainer:
                kinds = tuple(sorted(self.index.kinds(m)))
                kinds_text = ", ".join(code_literal(k) for k in kinds) + (
                    "," if len(kinds) == 1 else ""
                )
                explainers.append(f"(({kinds_text}), {p.explainer})")
        if not parts:
            return self._prim(P.NEVER, v, path)
        ok = joined(" or ", parts, v, parens=len(parts) > 1)
        bad = build("not {ok}", v, ok=ok)
        if explainers:
            members_text = f"({', '.join(explainers)},)"
            depth = self.depth_arg(None, False)
            explain = f"_explain_union({v}, {path}, errs, {code_literal(expected)}, {members_text}{depth})"
            return Pred(ok, bad, explain, False, Says.CALL, "_explain_union")
        return Pred(ok, bad, mismatch(path, expected, v))

    def _intersection(self, t: ir.Intersection, v: str, path: str, child: bool) -> Pred:
        preds = [self.pred(m, v, path, child) for m in t.members]
        preds = [p for p in preds if not p.anything] or [self._anything(v, path)]
        if len(preds) == 1:
            return preds[0]
        ok = joined(" and ", [p.ok for p in preds], v, parens=True)
        explain = "; ".join(f"({p.explain}) if {p.bad.text} else None" for p in preds)
        return Pred(ok, build("not {ok}", v, ok=ok), explain)

    # -- statements -----------------------------------------------------------------------------

    def checks(self, *args: Any, **kw: Any) -> tuple[Check, Check]:
        """`check(...)` for the is_ function (small checks inline) and plain for the
        explanation; compiled once when the two are the same."""
        return self._twice(self.check, *args, **kw)

    def preds(self, *args: Any, **kw: Any) -> tuple[Pred, Pred]:
        """`pred(...)` twice, as `checks`."""
        return self._twice(self.pred, *args, **kw)

    def _twice(self, compile_: Callable[..., T], *args: Any, **kw: Any) -> tuple[T, T]:
        """(the is_ function's, the explanation's) compile of one value: plain first; again
        with the inline forms only if the plain compile met one (`_differs`)."""
        self.plain, self._differs = True, False
        try:
            explain = compile_(*args, **kw)
        finally:
            self.plain = False
        return (compile_(*args, **kw) if self._differs else explain), explain

    def _anything(self, v: str, path: str) -> Pred:
        self._differs |= self.plain and v.isidentifier()
        return anything(v, path, not self.plain)

    def check(
        self,
        t: ir.TypeExpr,
        v: str,
        path: str,
        child: bool,
        constraints: ir.Constraints = ir.NO_CONSTRAINTS,
        nullable: bool = False,
    ) -> Check:
        """A check in statement position: loops for arrays and maps, an expression otherwise."""
        nullable = nullable and not ir.has_null(t)
        expected = describe(t, self.index) + (" | null" if nullable else "")
        exp = code_literal(expected)
        if not nullable:
            if isinstance(t, ir.Array):
                item = self.pred(t.item, "i", f"_at({path}, n)", True)
                len_bad, len_explain = length(constraints, v, path)
                return Check("list", v, path, item=item, len_bad=len_bad, len_explain=len_explain,
                             expected=expected, expected_literal=exp)  # fmt: skip
            value = dict_value(t, self.index)
            if value is not None:
                item = self.pred(value, "i", f"_key({path}, k)", True)
                return Check("dict", v, path, item=item, expected=expected, expected_literal=exp)
        p = self.pred(t, v, path, child)
        bad, ok, explain, named = p.bad, p.ok, p.explain, p.named
        extra_bad, extra_explain = self._constraints(t, constraints, v, path)
        split = ("", "", "")  # the type's failure and explanation, the constraints' explanation
        if extra_bad is not None:
            bad = build("({bad} or {extra})", v, bad=bad, extra=extra_bad)
            ok = build("not {bad}", v, bad=bad)
            explain = f"{p.explain} if {p.bad.text} else {extra_explain}"
            named = ""
            if not nullable:  # in statement position: if/else statements, not a ternary
                split = (p.bad.text, p.explain, extra_explain)
        if nullable:
            bad = build("({v} is not None and {bad})", v, bad=bad)
            ok = build("({v} is None or {ok})", v, ok=ok)
            named = ""
        return Check(
            "expr",
            v,
            path,
            bad=bad,
            ok=ok,
            explain=explain,
            expected=expected,
            expected_literal=exp,
            type_bad=split[0],
            type_explain=split[1],
            constraint_explain=split[2],
            named=named,
        )

    def _constraints(
        self, t: ir.TypeExpr, c: ir.Constraints, v: str, path: str
    ) -> tuple[Expr | None, str]:
        """Numeric bounds and patterns; each applies only to values of its kind (as in JSON
        Schema). `@format` is an annotation, as in JSON Schema, and is not checked."""
        kinds = self.index.kinds(t)
        parts: list[Expr] = []
        words: list[str] = []
        numeric = kinds <= {"integer", "number"}
        guard = "" if numeric else "(type({v}) is int or type({v}) is float) and "
        if c.minimum is not None:
            parts.append(build(guard + "{v} < {n}", v, n=code_literal(c.minimum)))
            words.append(f">= {literal(c.minimum)}")
        if c.maximum is not None:
            parts.append(build(guard + "{v} > {n}", v, n=code_literal(c.maximum)))
            words.append(f"<= {literal(c.maximum)}")
        if c.pattern is not None:
            name = self.pattern(c.pattern)
            sguard = "" if kinds <= {"string"} else "type({v}) is str and "
            parts.append(build(sguard + "{re}.search({v}) is None", v, re=name))
            words.append(f"matching {c.pattern!r}")
        if not parts:
            return None, ""
        what = describe(t, self.index) + " " + " and ".join(words)
        return joined(" or ", parts, v, parens=True), mismatch(path, what, v)

    def pattern(self, regex: str) -> str:
        """The module constant holding `regex` (compiled; resolve has checked that it compiles)."""
        name = "_RE_" + hashlib.sha256(regex.encode("utf-8")).hexdigest()[:10]
        self.patterns[name] = regex
        return name

    # -- helpers --------------------------------------------------------------------------------

    def helper_key(self, t: ir.TypeExpr) -> str:
        key = self.helper_names.key(structural_key(t))
        self.helpers.setdefault(key, Helper(key, t))
        return key


def dict_value(t: ir.TypeExpr, index: PyIndex) -> ir.TypeExpr | None:
    """The value type of a `dict[str, V]` that needs a loop (V is not `unknown`), else None."""
    if isinstance(t, ir.Obj) and not t.properties and t.index is not None:
        value = t.index.value
    else:
        return None
    return None if index.accepts_anything(value) else value


def _inlinable(t: ir.TypeExpr, index: PyIndex) -> bool:
    """Aliases checked inline instead of by a call: primitives, literals, unions of them, and
    objects of anything (`Record<string, unknown>`, checked by `_json_members`)."""
    if isinstance(t, (ir.Prim, ir.Lit)):
        return True
    if isinstance(t, ir.Union_):
        return all(isinstance(m, (ir.Prim, ir.Lit)) for m in t.members)
    if isinstance(t, ir.Obj) and not t.properties:
        return t.index is None or index.accepts_anything(t.index.value)
    return False
