"""The IR's JSON form, written once: any node of `ir` (declared or resolved) as plain JSON data
tagged with its node kind (`to_json`), or as that data's text in one pass (`to_json_text`), which
`mcp-codegen ir` prints and a Python package ships as `ir.json`."""

from __future__ import annotations

import dataclasses
import enum
import functools
from typing import Any

from . import jsonout
from .errors import Location
from .ir import Obj


def to_json(node: Any) -> Any:
    """Dump any IR node as plain JSON data, tagged with its node kind."""
    if isinstance(node, enum.Enum):
        return node.value
    if isinstance(node, (str, int, float, bool)) or node is None:
        return node
    if isinstance(node, (tuple, list)):
        return [to_json(x) for x in node]
    cls = type(node)
    shape = _SHAPES[cls] if cls in _SHAPES else _SHAPES.setdefault(cls, _shape(cls))
    if shape is None:
        return node
    out: dict[str, Any] = {"node": shape[0]}
    for name in shape[1]:
        value = node.own if name == "properties" and cls is Obj else getattr(node, name)
        out[name] = str(value) if isinstance(value, Location) else to_json(value)
    if cls is Obj and node.inherits:  # the base's properties, then these
        out["inherits"] = node.inherits
    return out


def to_json_text(node: Any) -> str:
    """`jsonout.dumps(to_json(node))`, the same text, written in one pass over the nodes (the
    dump of a schema is ~15,000 of them: building the dictionaries first took half the time)."""
    out: list[str] = []
    try:
        _text(node, "\n", out)
    except jsonout.NotStringKey:  # what `dumps` leaves to the standard encoder
        return jsonout.dumps(to_json(node))
    out.append("\n")
    return "".join(out)


def _text(node: Any, newline: str, out: list[str]) -> None:
    if isinstance(node, enum.Enum):
        node = node.value
    if isinstance(node, str):
        out.append(_string(node))
        return
    if isinstance(node, (int, float, bool)) or node is None:
        out.append(jsonout.scalar(node))
        return
    if isinstance(node, (tuple, list)):
        jsonout.array(node, newline, out, _text)
        return
    inner = newline + "  "
    cls: type = type(node)
    shape = _SHAPES[cls] if cls in _SHAPES else _SHAPES.setdefault(cls, _shape(cls))
    if shape is None:  # not a node (a plain dict, say): as `to_json` leaves it
        jsonout.write(node, newline, out)
        return
    inherits = cls is Obj and node.inherits
    sep = "{" + inner
    for key, quoted in _keys(cls, bool(inherits)):
        out.append(sep + quoted)
        sep = "," + inner
        if key == "node":
            out.append(_string(shape[0]))
        elif key == "inherits" and inherits:
            out.append(_string(node.inherits))
        else:
            value = node.own if key == "properties" and cls is Obj else getattr(node, key)
            if value.__class__ is str:  # the most common value: written here, not by a call
                out.append(_string(value))
            else:
                _text(str(value) if isinstance(value, Location) else value, inner, out)
    out.append(newline + "}")


_string = jsonout.string


@functools.cache
def _keys(cls: type, inherits: bool) -> tuple[tuple[str, str], ...]:
    """A node's keys in the dump's (sorted) order, each with its text (`"name": `)."""
    shape = _SHAPES[cls]
    assert shape is not None
    keys = sorted(("node", *shape[1], *(("inherits",) if inherits else ())))
    return tuple((key, _string(key) + ": ") for key in keys)


_SHAPES: dict[type, tuple[str, tuple[str, ...]] | None] = {}


def _shape(cls: type) -> tuple[str, tuple[str, ...]] | None:
    """A dataclass's node kind and field names (looked up once per class: the IR dump of a
    schema visits ~15,000 nodes)."""
    if not dataclasses.is_dataclass(cls):
        return None
    names = tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("dump", True))
    return cls.__name__.rstrip("_"), names
