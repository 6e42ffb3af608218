"""The functions of validators.py, one view each: `is_<Type>` and `_explain_<Type>` of a named
type (an object, a union dispatched on its discriminator, any other type's check, a class whose
inherited fields its base checks) or of a hoisted helper, with everything the template prints
for it: function names, check expressions, the JSON path expressions, docstrings and the
dispatch rule comments. `validator_views` runs the builder in its two passes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .... import ir
from ....analysis.shapes import is_class_obj
from ....analysis.typeindex import ClassDef, Discriminator
from ....pynaming import PyIndex
from ....pytext import code_literal, comment_lines, docstring, key_suffix, literal
from ....records import record
from .checks import Check, Compiler, Helper
from .exprs import Expr, build
from .preds import Pred
from .required_since import Notes, missing_statement


@record
class FieldView:
    wire: str  # Python literal of the wire name
    optional: bool
    check: Check  # as the explanation runs it (calls)
    missing: str  # statement reporting the field as missing
    get: str  # how the is_ function reads a required field: `v["k"]` (inside its `try`)
    safe_get: Expr  # the same read that never raises: `v.get("k")`, or with `_ABSENT`
    inline_bad: str  # the failure condition with that read inlined when it is used once ("")
    is_check: Check  # as the is_ function runs it (small checks inline)


@record
class CaseView:
    test: str  # condition on `t`, the discriminator value
    is_call: str
    explain_call: str


@record
class FunctionView:
    kind: str  # "object" | "check" | "dispatch"
    name: str  # the type (or helper) it checks
    is_fn: str
    explain_fn: str
    recursive: bool
    is_params: str  # parameters of the is_ function
    doc: str  # docstring literal of the is_ function
    comment: tuple[str, ...] = ()  # how a union is decided (lines)
    fields: tuple[FieldView, ...] = ()
    is_fields: tuple[FieldView, ...] = ()  # the fields the is_ function checks before returning
    last: str = ""  # kind "object": statement reading the field that the return statement checks
    final: str = "True"  # kind "object": what the is_ function returns after its checks
    declares_x: bool = False  # whether the is_ function assigns `x` (annotated `object` first)
    subscripts: bool = False  # kind "object": reads a required key by subscript (in a `try`)
    keys: str = ""  # name of the frozenset of declared wire names ("" when unused)
    extras: Pred | None = None  # values under undeclared keys (typed index signature)
    is_extras: Pred | None = None  # the same as the is_ function checks them
    check: Check | None = None  # kind "check": the whole value
    is_check: Check | None = None  # the same as the is_ function checks it
    disc: str = ""  # kind "dispatch": discriminator wire literal
    disc_missing: str = ""
    disc_mismatch: str = ""
    cases: tuple[CaseView, ...] = ()
    name_literal: str = ""  # kind "chain": the type's name as the tables key it


def _path(wire: str) -> str:
    return f"p + {code_literal(key_suffix(wire))}"


class FunctionBuilder:
    def __init__(
        self,
        index: PyIndex,
        recursive: frozenset[str],
        inline: dict[str, Expr] | None = None,
        union_members: frozenset[str] = frozenset(),
        empty_ok: frozenset[str] = frozenset(),
        since: Notes | None = None,
    ) -> None:
        self.index = index
        self.since = since or {}  # a distribution's version: `required_since.py`
        self.noted = False  # whether a statement uses a note
        self.c = Compiler(index, recursive, inline=dict(inline or {}), empty_ok=empty_ok)
        self.union_members = union_members
        self.key_sets: dict[str, str] = {}
        self.chain = self.chains()
        self.own: dict[str, FunctionView] = {}  # a chained class -> the check of its own fields

    def named(self) -> list[tuple[str, FunctionView]]:
        """Named types in source order, each declared type followed by its inline classes."""
        out: list[tuple[str, FunctionView]] = []
        done: set[str] = set()
        inline: dict[str, list[ClassDef]] = {}  # grouped once: a scan per type is quadratic
        for cls in self.index.classes.values():
            inline.setdefault(cls.obj.path[0] if cls.obj.path else "", []).append(cls)
        for td in self.index.resolved.types:
            out.append((td.name, self.typedef(td)))
            done.add(td.name)
            for cls in inline.get(td.name, ()):
                if cls.name not in done:
                    out.append(
                        (
                            cls.name,
                            self.object(cls.name, cls.obj.properties, cls.obj.index, cls),
                        )
                    )
                    done.add(cls.name)
        for cls in self.index.classes.values():  # inline classes reached only through others
            if cls.name not in done:
                out.append(
                    (
                        cls.name,
                        self.object(cls.name, cls.obj.properties, cls.obj.index, cls),
                    )
                )
                done.add(cls.name)
        return out

    def helpers(self) -> list[FunctionView]:
        out: dict[str, FunctionView] = {}
        while len(out) < len(self.c.helpers):
            for key, helper in list(self.c.helpers.items()):
                if key not in out:
                    out[key] = self.helper(helper)
        return [out[k] for k in sorted(out)]

    # -- per kind -------------------------------------------------------------------------------

    def typedef(self, td: ir.TypeDef) -> FunctionView:
        if is_class_obj(td.type):
            cls = self.index.classes[td.name]
            if td.name in self.chain:
                return self.chained(cls)
            return self.object(td.name, cls.obj.properties, cls.obj.index, cls)
        disc = self.index.discriminator(td.type)
        if disc is not None:
            return self.dispatch(td.name, disc)
        self.c.enter(td.name)
        t = td.type
        if isinstance(t, ir.Ref):  # a rename checks what the chain of renames ends at
            t = ir.Ref(self.index.renamed(t.name), t.loc)
        is_check, check = self.c.checks(t, "v", "p", False, td.constraints)
        return self._fn("check", td.name, f"Whether `v` is a valid {td.name}.", check=check,
                        is_check=is_check)  # fmt: skip

    def _fn(
        self, kind: str, name: str, doc: str, key: str | None = None, **kw: Any
    ) -> FunctionView:
        is_fn, explain_fn = self.c.fn_names(key or name)
        recursive = (key or name) in self.c.recursive
        params = "v: object, d: int = 0" if recursive else "v: object"
        return FunctionView(
            kind,
            name,
            is_fn,
            explain_fn,
            recursive,
            params,
            docstring(doc, "    "),
            **kw,
        )

    def object(
        self,
        name: str,
        props: tuple[ir.Property, ...],
        index: ir.Index | None,
        cls: ClassDef | None,
        key: str | None = None,
    ) -> FunctionView:
        payload = cls is not None and cls.name in self.index.plain_json
        self.c.enter(key or name, shallow=payload)
        in_union = (key or name) in self.union_members
        fields = []
        for p in props:
            path = _path(p.name)
            is_check, check = self.c.checks(p.type, "x", path, True, p.constraints, p.nullable)
            note = self.since.get((name, p.name), "") if cls is not None else ""
            self.noted |= bool(note)
            missing = missing_statement(p.name, check.expected, note)
            # A required value that may not be null can be read with a plain `.get`: a missing
            # key reads as None, which the check rejects anyway.
            plain = not p.nullable and "null" not in self.index.kinds(p.type)
            read = "{v}.get({k})" if plain else "{v}.get({k}, _ABSENT)"
            safe_get = build(read, "v", k=code_literal(p.name))
            # The is_ function reads a required value by subscript (a dict subscript costs less
            # than a `.get` call); a missing key raises the KeyError its `try` turns into False.
            # Not in a member of an undiscriminated union, where failing is the usual case.
            get = safe_get.text if in_union else f"v[{code_literal(p.name)}]"
            inline = ""
            if is_check.kind == "expr" and is_check.bad.uses == 1:  # `x` read once: inline
                inline = is_check.bad.at(get)
            fields.append(
                FieldView(code_literal(p.name), p.optional, check, missing, get, safe_get, inline, is_check)
            )  # fmt: skip
        extras = is_extras = None
        if index is not None and not self.index.accepts_anything(index.value):
            is_extras, extras = self.c.preds(index.value, "x", "_key(p, k)", True)
        keys = ""
        if extras is not None and props:
            keys = "_KEYS_" + (key or self.index.names.stem(name))
            self.key_sets[keys] = (
                "frozenset({" + ", ".join(code_literal(p.name) for p in props) + "})"
            )
        what = f"a valid {name}" if cls is not None else f"a JSON object of {name}"
        is_fields, last, final = _fold_last(fields, extras)
        return self._fn("object", name, f"Whether `v` is {what}.", key, fields=tuple(fields), keys=keys,
                        extras=extras, is_extras=is_extras, is_fields=is_fields, last=last, final=final,
                        declares_x=bool(last) or any(not f.inline_bad for f in is_fields) or extras is not None,
                        subscripts=not in_union and (bool(last) or any(not f.optional and f.is_check.kind != "none" for f in is_fields)))  # fmt: skip

    def chained(self, cls: ClassDef) -> FunctionView:
        """A class that checks its inherited fields through its base's checks (`ir.Obj.inherits`):
        its own fields get a function of their own, listed in the tables `_OWN` and `_EXTENDS`,
        and the check walks the chain of bases in a loop. An `extends` chain of n classes is
        then written in O(n) lines and checked without one Python frame per link."""
        base = self.chain[cls.name]
        own = self.object(cls.name, cls.obj.own, cls.obj.index, cls)
        self.c.calls[cls.name].add(base)
        stem = self.index.names.stem(cls.name)
        self.own[cls.name] = replace(
            own, is_fn=f"_is_own_{stem}", explain_fn=f"_explain_own_{stem}",
            doc=docstring(f"Whether `v` is an object with valid fields of {cls.name}'s own.", "    "),
        )  # fmt: skip
        return self._fn("chain", cls.name, f"Whether `v` is a valid {cls.name}.",
                        name_literal=code_literal(cls.name))  # fmt: skip

    def chains(self) -> dict[str, str]:
        """Class -> its base, for the classes whose inherited fields their base checks: both
        handed over as plain JSON or neither, no typed index signature (whose check must skip
        every declared key), neither on a cycle (their checks pass a depth on)."""
        out = {}
        for cls in self.index.classes.values():
            base, index = cls.obj.inherits, cls.obj.index
            if not base or base not in self.index.classes:
                continue
            if not cls.obj.starts_with(self.index.classes[base].obj):
                continue
            if index is not None and not self.index.accepts_anything(index.value):
                continue
            if (base in self.index.plain_json) != (cls.name in self.index.plain_json):
                continue
            if cls.name in self.c.recursive or base in self.c.recursive:
                continue
            out[cls.name] = base
        return out

    def dispatch(self, name: str, disc: Discriminator) -> FunctionView:
        self.c.enter(name)
        cases = []
        values: list[str] = []
        for member, lits in disc.members:
            is_fn, explain_fn = self.c.fn_names(member)
            self.c.calls[name].add(member)
            d_is = self.c.depth_arg(member, False)
            d_explain = self.c.depth_arg(None, False)
            is_call = f"{is_fn}(v{d_is})"
            if member in self.c.inline and not d_is:  # a small check: inline, no frame
                is_call = self.c.inline[member].at("v")
            if len(lits) == 1:
                test = f"t == {code_literal(lits[0])}"
            else:
                test = f"t in ({', '.join(code_literal(v) for v in lits)})"
            cases.append(CaseView(test, is_call, f"{explain_fn}(v, p, errs{d_explain})"))
            values.extend(literal(v) for v in lits)  # message text: repr spelling
        expected = "one of " + ", ".join(values)
        wire = code_literal(disc.wire)
        rule = comment_lines(
            f"Discriminated by {literal(disc.wire)}: each member requires its own literal value "
            "there, so that value alone picks the member to check."
        )
        return self._fn(
            "dispatch",
            name,
            f"Whether `v` is a valid {name}.",
            comment=rule,
            disc=wire,
            disc_missing=f"errs.append(_missing(p, {wire}, {code_literal(expected)}))",
            # a tag no member declares: a member a tolerant reader keeps (_tolerance.py)
            disc_mismatch=f"errs.append(_unknown_member(p, {wire}, {code_literal(expected)}, t, "
            f"{code_literal(name)}))",
            cases=tuple(cases),
        )

    def helper(self, h: Helper) -> FunctionView:
        t = h.t
        self.c.enter(h.key)
        if isinstance(t, ir.Map):  # fixed keys: checked like an object with those properties
            keys = ir.record_keys(t)
            props = tuple(ir.Property(k, t.value, optional=False) for k in keys)
            return self.object(h.key, props, ir.Index(t.value), None, key=h.key)
        is_check, check = self.c.checks(t, "v", "p", False)
        return self._fn(
            "check",
            h.key,
            "Whether `v` is a valid nested value.",
            key=h.key,
            check=check,
            is_check=is_check,
        )


def _fold_last(
    fields: list[FieldView], extras: Pred | None
) -> tuple[tuple[FieldView, ...], str, str]:
    """The is_ function returns the last field's check directly when it is an expression
    (`return x is _ABSENT or type(x) is str`) rather than `if ...: return False; return True`.
    Returns the fields checked before, the statement reading the last one ("" if none) and the
    returned expression."""
    fields = list(fields)
    while extras is None and fields and fields[-1].optional and fields[-1].is_check.kind == "none":
        fields.pop()  # nothing to check
    if extras is not None or not fields or fields[-1].is_check.kind not in ("expr", "none"):
        return tuple(fields), "", "True"
    last = fields[-1]
    if last.is_check.kind == "none":
        return tuple(fields[:-1]), "", "True" if last.optional else f"{last.wire} in v"
    ok = last.is_check.ok
    if last.optional:  # `in`, not a `.get` call: the key is usually absent (`_meta`)
        read = f"v[{last.wire}]"
        if ok.uses == 1:
            return tuple(fields[:-1]), "", f"{last.wire} not in v or {ok.at(read)}"
        first = ok.at("x", first=f"x := {read}")
        return tuple(fields[:-1]), "", f"{last.wire} not in v or {first}"
    if ok.uses == 1:  # `.get`: a subscript's Any would make the result Any
        return tuple(fields[:-1]), "", ok.at(last.safe_get.text)
    return tuple(fields[:-1]), f"x = {last.get}", ok.text
