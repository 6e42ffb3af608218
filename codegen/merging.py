"""Declaration merging: an interface declared more than once is one interface, as in TypeScript.

Member order follows TypeScript, whose binder puts every declaration's members into one symbol
table in source order; `getPropertiesOfType`, which typescript-json-schema iterates for
`properties` (and `--propOrder`), lists the first declaration's members, then each later
declaration's new ones (checked with typescript-json-schema 0.68.0). A member redeclared later
keeps its first position. `extends` lists are concatenated in declaration order. Documentation is
joined the way TypeScript's `getDocumentationComment` joins a merged symbol's comments (one line
break between non-empty ones), which is the `description` typescript-json-schema writes.

Any other repeated name (two type aliases, an alias and an interface, two constants) is an error:
TypeScript rejects those.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from . import ir
from .errors import Collector, Location


def merge_declarations(
    decls: Iterable[ir.Decl], errors: Collector, loc: Callable[[object], Location]
) -> list[ir.Decl]:
    """One declaration per name, in first-declaration order; merged interfaces merged."""
    out: dict[str, ir.Decl] = {}
    for d in decls:
        first = out.get(d.name)
        if first is None:
            out[d.name] = d
        elif isinstance(first, ir.Interface) and isinstance(d, ir.Interface):
            out[d.name] = _merge(first, d, errors, loc)
        else:
            errors.add(loc(d), f"duplicate declaration '{d.name}' (first declared at {loc(first)})")
    return list(out.values())


def _merge(
    a: ir.Interface, b: ir.Interface, errors: Collector, loc: Callable[[object], Location]
) -> ir.Interface:
    earlier: dict[str, ir.Property] = {}
    for p in a.body.properties:
        earlier.setdefault(p.name, p)
    props = list(a.body.properties)
    for p in b.body.properties:
        q = earlier.get(p.name)
        if q is None:
            props.append(p)  # a repeat inside `b` itself stays, for the duplicate-property check
            continue
        # `a: T` then `a?: T` is the same mismatch under strictNullChecks (`T | undefined`).
        if q.type != p.type or q.optional != p.optional:
            errors.add(
                loc(p),
                f"subsequent property declarations must have the same type: '{p.name}' in "
                f"'{a.name}' differs from its declaration at {loc(q)}",
            )
            continue
        # TypeScript reads modifiers from the first declaration; documentation from all.
        merged = dataclasses.replace(q, doc=join_docs(q.doc, p.doc))
        props[props.index(q)] = merged
        earlier[p.name] = merged
    index = a.body.index
    if b.body.index is not None:
        if index is not None:
            errors.add(
                loc(b.body.index),
                f"duplicate index signature in '{a.name}' (first declared at {loc(index)})",
            )
        else:
            index = b.body.index
    bases = a.bases + tuple(base for base in b.bases if base not in a.bases)
    body = dataclasses.replace(a.body, properties=tuple(props), index=index)
    return dataclasses.replace(a, bases=bases, body=body, doc=join_docs(a.doc, b.doc))


def join_docs(a: ir.Doc, b: ir.Doc) -> ir.Doc:
    text = "\n".join(t for t in (a.text, b.text) if t)
    return ir.Doc(text, a.tags + b.tags)
