"""A profile's entries checked as Python and against the module they shape: every problem is a
located error (exit 2, nothing written), never a module that fails to format (exit 3), fails to
import, or silently means something else.

`entries(section)` runs before anything is rendered: each entry has the shape its setting needs,
`base` is `module:Class` and can be imported (below), `header` is a docstring and comments,
a leniency's annotation is a type expression, a union alias's name is an identifier.
`against_module(...)` runs on the module's names: no two classes share a name (a `names` entry
would merge one into the other), a union alias rebinds no name the module defines or imports,
and a leniency names only what the module has.

A base outside pydantic is looked up without running any code: its top-level package is found
on the import path (not imported), its submodules by their files, and the class must be defined
(or imported) at the top of the module's source. A package that is not installed where the
generator runs (the consumer's own, as `mcp_types` for the SDK) is taken as written: it is
imported when the generated module is.
"""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import keyword
import re
import string
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ...errors import Diagnostic
from .profile import Section

_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
# what an annotation may name besides the module's classes (builtins and what the module imports)
_TYPE_NAMES = frozenset(
    {"str", "int", "float", "bool", "bytes", "list", "dict", "tuple", "set", "frozenset",
     "None", "Any", "Literal", "Annotated"}
)  # fmt: skip
_TYPE_NODES = (
    ast.Expression, ast.Name, ast.Load, ast.Subscript, ast.Tuple, ast.List, ast.Constant,
    ast.BinOp, ast.BitOr,
)  # fmt: skip
_HEADER_FIELDS = frozenset({"version", "sha256"})


def _identifier(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def entries(section: Section) -> list[Diagnostic]:
    """The section's entries that cannot be written as the module needs them."""
    out: list[Diagnostic] = []

    def bad(key: str, message: str) -> None:
        out.append(Diagnostic(section.loc(key), message))

    base = section.get("base", "pydantic:BaseModel")
    why = base_problem(str(base))
    if why:
        bad("base", f"profile setting 'base' {base!r}: {why}")
    header = section.get("header", [])
    why = header_problem(header)
    if why:
        bad("header", f"profile setting 'header': {why}")
    for alias, entry in section.entries("union_aliases").items():
        members = entry.get("members") if isinstance(entry, dict) else None
        if not _identifier(alias):
            bad(alias, f"profile entry union_aliases['{alias}']: not a Python identifier")
        if (
            not isinstance(members, list)
            or not members
            or not all(isinstance(m, str) for m in members)
        ):
            bad(alias, f"profile entry union_aliases['{alias}'] needs \"members\": [class, ...]")
    for old, entry in section.entries("links").items():
        if not isinstance(entry, dict) or not isinstance(entry.get("to"), str) or not old:
            bad(old, f'profile entry links[{old!r}] needs "to": text (and a non-empty key)')
    for key, entry in section.entries("leniencies").items():
        text = entry.get("annotation") if isinstance(entry, dict) else None
        why = annotation_problem(text) if isinstance(text, str) else 'needs "annotation": text'
        if why:
            bad(key, f"profile entry leniencies['{key}']: {why}")
    return out


def header_problem(header: Any) -> str | None:
    """Why the header lines cannot open the module: they must be text with no fields but
    {version} and {sha256}, making a docstring and comments."""
    if not isinstance(header, list) or not all(isinstance(line, str) for line in header):
        return "a list of lines (text)"
    try:
        fields = {f for line in header for _, f, _, _ in string.Formatter().parse(line) if f}
        text = "\n".join(line.format(version="1", sha256="0" * 64) for line in header)
        tree = ast.parse(text)
    except (ValueError, IndexError, KeyError, SyntaxError) as err:
        return f"not a docstring and comments ({err.__class__.__name__}: {err})"
    if fields - _HEADER_FIELDS:
        return f"unknown field {{{min(fields - _HEADER_FIELDS)}}} (known: {{version}}, {{sha256}})"
    docstring = len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)
    if tree.body and not (
        docstring and isinstance(getattr(tree.body[0], "value", None), ast.Constant)
    ):
        return "only a docstring and comments may open the module (no statements)"
    return None


def annotation_problem(text: str) -> str | None:
    """Why `text` is no type expression: names, subscripts, `|` and literals only."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as err:
        return f"annotation {text!r} is not Python ({err.msg})"
    for node in ast.walk(tree):
        if not isinstance(node, _TYPE_NODES):
            return f"annotation {text!r} is not a type expression ({node.__class__.__name__})"
    return None


def annotation_names(text: str) -> tuple[str, ...]:
    """The names a leniency's annotation (checked by `annotation_problem`) mentions, in the
    order it writes them."""
    found = [n for n in ast.walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)]
    found.sort(key=lambda n: (n.lineno, n.col_offset))
    return tuple(dict.fromkeys(n.id for n in found))


def annotation_members(text: str) -> tuple[str, ...]:
    """The top-level members of a leniency's annotation if it is a union (`A | B[C | D]`: `A`,
    `B[C | D]`), else none."""
    found: list[str] = []

    def walk(node: ast.expr) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            walk(node.left)
            walk(node.right)
        else:
            found.append(ast.get_source_segment(text, node) or "")

    walk(ast.parse(text, mode="eval").body)
    return tuple(found) if len(found) > 1 else ()


def base_problem(base: str) -> str | None:
    """Why `module:Class` cannot be imported (None: it can, or its package is not installed
    here and it is taken as written)."""
    module, _, name = base.rpartition(":")
    if not module or not _DOTTED.fullmatch(module) or not _identifier(name):
        return "a base class is written module:Class (e.g. pydantic:BaseModel)"
    if any(keyword.iskeyword(part) for part in module.split(".")):
        return f"{module} is not a module name (a keyword)"
    if module == "pydantic":
        import pydantic

        found = getattr(pydantic, name, None)
        if not (isinstance(found, type) and issubclass(found, pydantic.BaseModel)):
            return f"pydantic has no model class {name}"
        return None
    return _lookup(module, name)


def _lookup(module: str, name: str) -> str | None:
    parts = module.split(".")
    spec = importlib.machinery.PathFinder.find_spec(parts[0])
    if spec is None:
        return None  # not installed here: the consumer's own package, imported with the module
    for i, part in enumerate(parts[1:], 1):
        where = spec.submodule_search_locations
        if where is None:
            return f"{'.'.join(parts[:i])} is a module, not a package: it has no {part}"
        spec = importlib.machinery.PathFinder.find_spec(".".join(parts[: i + 1]), list(where))
        if spec is None:
            return f"no module {'.'.join(parts[: i + 1])} (looked up without importing)"
    origin = spec.origin
    if origin is None or not origin.endswith(".py"):
        return None  # a namespace package or an extension: nothing to read
    try:
        tree = ast.parse(Path(origin).read_text(encoding="utf-8"))
    except (OSError, ValueError, SyntaxError):
        return f"{module} ({origin}) cannot be read"
    if name not in _top_level_names(tree.body):
        return f"{module} defines no {name} (looked up in {origin} without importing)"
    return None


def _top_level_names(body: Iterable[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for node in body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.If, ast.Try)):  # `try: from x import Y` / `if TYPE_CHECKING`
            out |= _top_level_names(node.body)
            for handler in getattr(node, "handlers", []):
                out |= _top_level_names(handler.body)
            out |= _top_level_names(node.orelse)
    return out


def against_module(
    section: Section,
    classes: Mapping[str, str],
    paths: Mapping[str, str],
    defined: set[str],
    imported: set[str],
) -> list[Diagnostic]:
    """Entries that would merge two classes, rebind a name or name what the module lacks.
    `classes`: IR name -> Python class name (every type's); `paths`: inline path -> IR name
    (what a `names` entry renames); `defined`: the classes the module defines; `imported`: the
    names it imports."""
    out: list[Diagnostic] = []
    names = section.entries("names")
    by_py: dict[str, list[str]] = {}
    for ir_name, py in classes.items():
        by_py.setdefault(py, []).append(ir_name)
    for py, ir_names in sorted(by_py.items()):
        if len(ir_names) < 2:
            continue
        for key in sorted(k for k in names if paths.get(k) in ir_names) or ["names"]:
            out.append(Diagnostic(section.loc(key), (
                f"profile entry names['{key}'] names a class {py}, as "
                f"{' and '.join(sorted(ir_names))} would be: one class would replace the other"
            )))  # fmt: skip
    for alias in sorted(section.entries("union_aliases")):
        if alias in defined | imported or alias in classes.values():
            out.append(Diagnostic(section.loc(alias), (
                f"profile entry union_aliases['{alias}'] would rebind {alias}, which the module "
                "defines or imports: give the alias a name of its own"
            )))  # fmt: skip
    known = defined | _TYPE_NAMES
    for key, entry in section.entries("leniencies").items():
        missing = sorted(set(annotation_names(entry["annotation"])) - known)
        if missing:
            out.append(Diagnostic(section.loc(key), (
                f"profile entry leniencies['{key}']: the module has no {missing[0]} (an "
                f"annotation may name its classes and {', '.join(sorted(_TYPE_NAMES))})"
            )))  # fmt: skip
    return out
