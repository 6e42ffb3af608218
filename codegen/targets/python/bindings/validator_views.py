"""The view model of validators.py: one `is_<Type>` and one `_explain_<Type>` per named type
(declared types and named inline objects), plus hoisted helpers for nested arrays and maps, and
the tables (`TYPES`, the chains' `_EXTENDS` and `_OWN`) that name them.

Built in two passes over `validator_functions.FunctionBuilder`: the first finds the call graph,
the members of undiscriminated unions and the small object checks to inline; the second writes
the functions with depth arguments on cycles and those checks inline.
"""

from __future__ import annotations

from ....analysis.shapes import cyclic
from ....pynaming import PyIndex
from ....pytext import code_literal
from ....records import record
from . import inline_checks
from .checks import Check
from .exprs import Expr
from .preds import empty_first
from .required_since import Notes
from .validator_functions import FunctionBuilder, FunctionView


@record
class TypeEntry:
    name: str  # Python literal of the type name
    is_fn: str
    explain_fn: str


@record
class ValidatorsView:
    functions: tuple[FunctionView, ...]
    key_sets: tuple[tuple[str, str], ...]  # (constant name, frozenset literal)
    patterns: tuple[tuple[str, str], ...]  # (constant name, regex literal)
    types: tuple[TypeEntry, ...]
    extends: tuple[tuple[str, str], ...] = ()  # chained class -> its base (name literals)
    own: tuple[TypeEntry, ...] = ()  # each class a chain reaches -> the check of its own fields
    since: bool = False  # whether a missing member's error says since when it is required


def _inline(
    functions: list[FunctionView], recursive: frozenset[str], empty_ok: frozenset[str]
) -> dict[str, Expr]:
    """Function key -> the inline expression of its check, for the small object checks
    (`inline_checks.py`), from the first pass's functions (which inline nothing but the test of
    an empty object before a call to a check that takes `{}`)."""

    def ok(c: Check) -> Expr:  # what the second pass's `Compiler._named` writes for a call
        return empty_first("x", c.ok) if c.named in empty_ok else c.ok

    out = {}
    for f in functions:
        if f.kind != "object" or f.name in recursive or f.extras is not None:
            continue
        fields = ((fld.wire, fld.optional, fld.is_check.kind, ok(fld.is_check), fld.safe_get)
                  for fld in f.fields)  # fmt: skip
        expr = inline_checks.object_expression(fields)
        if expr is not None:
            out[f.name] = expr
    return out


def _accepts_empty(f: FunctionView) -> bool:
    """Whether the check takes `{}` (at depth 0): an object without required fields, or a map."""
    if f.kind == "object":
        return all(fld.optional for fld in f.fields)
    return f.kind == "check" and f.is_check is not None and f.is_check.kind == "dict"


def validators_view(index: PyIndex, since: Notes | None = None) -> ValidatorsView:
    """`since`: a distribution's version's notes on the members it newly requires."""
    # Pass 1 finds the call graph (with helpers), the union members and the small checks to
    # inline; pass 2 renders with depth arguments on cycles and those checks inline.
    first = FunctionBuilder(index, frozenset())
    named = first.named()
    first_helpers = first.helpers()
    graph = {k: tuple(sorted(v)) for k, v in first.c.calls.items()}
    recursive = cyclic(graph)
    functions = [f for _, f in named] + first_helpers
    empty_ok = frozenset(f.name for f in functions if _accepts_empty(f))
    inline = _inline(functions, recursive, empty_ok)
    b = FunctionBuilder(index, recursive, inline, frozenset(first.c.union_members), empty_ok, since)
    named = b.named()
    helpers = b.helpers()
    functions = list(b.own.values()) + [f for _, f in named] + helpers
    by_name = dict(named)
    reached = sorted(set(b.chain) | set(b.chain.values()))
    own = tuple(TypeEntry(code_literal(n), (b.own.get(n) or by_name[n]).is_fn,
                          (b.own.get(n) or by_name[n]).explain_fn) for n in reached)  # fmt: skip
    extends = tuple((code_literal(c), code_literal(base)) for c, base in sorted(b.chain.items()))
    # By schema name, and by Python name too where a class had to be renamed (`None_`).
    types = tuple(TypeEntry(code_literal(n), f.is_fn, f.explain_fn) for n, f in named)
    renamed = index.names.renamed
    types += tuple(
        TypeEntry(code_literal(renamed[n]), f.is_fn, f.explain_fn) for n, f in named if n in renamed
    )
    return ValidatorsView(
        functions=tuple(functions),
        key_sets=tuple(sorted(b.key_sets.items())),
        patterns=tuple(sorted((n, code_literal(r)) for n, r in b.c.patterns.items())),
        types=types,
        extends=extends,
        own=own,
        since=b.noted,
    )
