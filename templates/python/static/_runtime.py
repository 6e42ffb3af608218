"""Small helpers shared by the generated modules (standard library only)."""

from __future__ import annotations

import enum
import json
import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Literal, TypeAlias

JSON: TypeAlias = str | int | float | bool | None | dict[str, "JSON"] | list["JSON"]
"""Any JSON value, as `json.loads` returns it."""

JSONInput: TypeAlias = (
    str | int | float | bool | None | Mapping[str, "JSONInput"] | Sequence["JSONInput"]
)
"""Any JSON value as callers may pass it: any mapping and sequence (covariant, so a
`dict[str, int]` is one); encoding writes them as dicts and lists."""


class UnsetType(enum.Enum):
    """The type of `UNSET`: falsy, and printed as `UNSET` (like msgspec's `UnsetType`), so
    `if result.is_error:` and `tool.description or ""` do what they read as."""

    UNSET = "UNSET"

    def __bool__(self) -> Literal[False]:  # Literal: type checkers narrow `x or ""` to str
        return False

    def __repr__(self) -> str:
        return "UNSET"

    def __str__(self) -> str:
        return "UNSET"

    def __format__(self, spec: str) -> str:
        return format("UNSET", spec)


UNSET: Final = UnsetType.UNSET
"""The value of an optional field that is absent on the wire (`None` is an explicit null)."""

ABSENT: Final = object()
"""What the validators read for a key that is not there."""


@dataclass(frozen=True, slots=True)
class ErrorDetail:
    """One problem with a value: where (a JSON path such as `$.params.ref.type`) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class ValidationError(ValueError):
    """A value is not a valid instance of its type; `errors` lists every problem found."""

    def __init__(self, type_name: str, errors: list[ErrorDetail]) -> None:
        self.type_name = type_name
        self.errors: tuple[ErrorDetail, ...] = tuple(errors)
        count = f"{len(self.errors)} error" + ("" if len(self.errors) == 1 else "s")
        lines = "".join(f"\n  {e}" for e in self.errors)
        super().__init__(f"invalid {type_name} ({count}):{lines}")


Explain: TypeAlias = Callable[[Any, str, list[ErrorDetail], int], None]


def describe(value: object) -> str:
    """A short account of a value for error messages: its JSON type, and the value if short."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return "string " + (text if len(text) <= 40 else text[:36] + '..."')
    if isinstance(value, int):
        text = str(value) if -(10**30) < value < 10**30 else "of more than 30 digits"
        return f"integer {text}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, list):
        return f"array of {len(value)} item" + ("" if len(value) == 1 else "s")
    if isinstance(value, dict):
        return "object"
    if value is ABSENT:
        return "nothing"
    return f"{type(value).__name__} (not a JSON value)"


def json_kind(value: object) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    for kind, types in _KINDS:
        if isinstance(value, types):
            return kind
    return "other"


_KINDS: tuple[tuple[str, type | tuple[type, ...]], ...] = (
    ("integer", int),
    ("number", float),
    ("string", str),
    ("array", list),
    ("object", dict),
)


def key_path(path: str, key: object) -> str:
    """`$.a` + `b` -> `$.a.b`; keys that are not identifiers in brackets: `$.a["x/y"]`."""
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key) if isinstance(key, str) else repr(key)}]"


def at(path: str, n: int) -> str:
    return f"{path}[{n}]"


def mismatch(path: str, expected: str, value: object) -> ErrorDetail:
    return ErrorDetail(path, f"expected {expected}, got {describe(value)}")


def missing(path: str, key: str, expected: str) -> ErrorDetail:
    return ErrorDetail(key_path(path, key), f"required property missing (expected {expected})")


def forbidden(path: str, value: object) -> ErrorDetail:
    return ErrorDetail(path, f"must be absent, got {describe(value)}")


def too_deep(path: str, limit: int) -> ErrorDetail:
    return ErrorDetail(path, f"nested deeper than {limit} levels")


def explain_union(
    value: object,
    path: str,
    errs: list[ErrorDetail],
    expected: str,
    members: tuple[tuple[tuple[str, ...], Explain], ...],
    d: int = 0,
) -> None:
    """Errors for a value that matches no member of a union: those of the member it comes
    closest to (fewest errors; the earlier member on a tie) among the members of its JSON kind,
    else one mismatch naming the whole union."""
    kind = json_kind(value)
    best: list[ErrorDetail] = []
    for kinds, explain in members:
        if kind in kinds:
            found: list[ErrorDetail] = []
            explain(value, path, found, d)
            if found and (not best or len(found) < len(best)):
                best = found
    errs.extend(best or [mismatch(path, expected, value)])


_checked_dumps: Final[Callable[[object], str]] = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":")
).encode


def _unchecked_encoder() -> Callable[[object, int], Any] | None:
    """The C encoder `JSONEncoder.encode` makes on every call (options, closures and all, most of
    the cost of encoding a small object), made once; without the circular-reference check, which
    `dumps` leaves to `_checked_dumps`. None if the interpreter has no C encoder or a different
    signature (the output is compared with the checked encoder's on a sample)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        # (markers, default, encoder, indent, separators, sort_keys, skipkeys, allow_nan)
        args = (None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",")
        encoder: Callable[[object, int], Any] = make(*args, False, False, True)
        sample = {"a": [1, 2.5, None, True, "\u00e9\n"], "b": {}}
        if "".join(encoder(sample, 0)) != _checked_dumps(sample):
            return None
    except Exception:  # noqa: BLE001 - any surprise: keep the standard path
        return None
    return encoder


_UNCHECKED: Final = _unchecked_encoder()


def dumps(value: object) -> str:
    """`json.dumps(value, ensure_ascii=False, separators=(",", ":"))`, the same text and errors,
    without the per-call set-up: the encoder made once. Any failure (a cycle, which the
    unchecked encoder meets as a RecursionError, or a value that is not JSON) is left to the
    standard encoder, so the error raised is the one `json.dumps` raises."""
    if _UNCHECKED is not None:
        try:
            return "".join(_UNCHECKED(value, 0))
        except Exception:  # noqa: BLE001 - encoded again, for json's own error
            return _checked_dumps(value)
    return _checked_dumps(value)


# The scanner `json.loads` itself uses (the C one when there is one).
Scanner: TypeAlias = Callable[[str, int], tuple[Any, int]]
_SCAN: Final[Scanner] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def loads(text: str | bytes) -> Any:
    """`json.loads(text)`, the same value and errors; a str holding exactly one value (no
    surrounding whitespace: what senders write) goes straight to the C scanner, skipping the
    two whitespace regex passes that cost more than scanning a small message."""
    if type(text) is str:
        try:
            value, end = _SCAN(text, 0)
        except (StopIteration, ValueError):
            pass  # no value at 0 (whitespace, empty) or malformed: json.loads says which
        else:
            if end == len(text):
                return value
    return json.loads(text)


class Model:
    """The base of the generated dataclasses: `__eq__` and `__repr__` as `@dataclass` writes them
    (field by field, in order), written once here instead of compiled per class at import."""

    __slots__ = ()
    __hash__: Any = None  # unhashable, as a dataclass with eq and not frozen

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = _names(type(self))
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        items = ", ".join(f"{n}={getattr(self, n)!r}" for n in _names(type(self)))
        return f"{type(self).__qualname__}({items})"


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


# -- decoding (values are validated before they are built) ---------------------------------------


def same(value: Any) -> Any:
    return value


def extras(value: dict[str, Any], declared: frozenset[str]) -> dict[str, Any]:
    """The members of `value` whose keys the schema does not declare (the decoders call it once
    they have seen that there are some: no second containment check here)."""
    return {k: v for k, v in value.items() if k not in declared}


Member: TypeAlias = tuple[Callable[[object], bool], frozenset[str], Callable[[Any], Any]]


def by_shape(value: Any, members: Sequence[Member], fallback: Callable[[Any], Any] = same) -> Any:
    """Build a union value by shape: of the members whose validator accepts it, the one that
    declares the most of its keys; on a tie, the earlier member in the union; if none does,
    `fallback` (the union's map-like object member, or the value as it is)."""
    keys = value.keys() if isinstance(value, dict) else ()
    best: Callable[[Any], Any] = fallback
    score = -1
    for accepts, declared, build in members:
        n = len(declared.intersection(keys))
        # The key count first: a member that cannot beat the best so far is not validated.
        if n > score and accepts(value):
            best, score = build, n
    return best(value)


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def is_plain(value: Any) -> bool:
    """Whether `value` is made of dicts, lists and scalars only (exact types: no copy needed)."""
    stack = [value]  # a loop, not recursion: this runs on every encode of a JSON-valued field
    while stack:
        item = stack.pop()
        t = type(item)
        if t is dict:
            stack.extend(item.values())
        elif t is list:
            stack.extend(item)
        elif t not in _SCALARS:
            return False
    return True


def plain(value: Any) -> Any:
    """A JSON value given as any mappings and sequences (a field typed `JSONInput`), as dicts
    and lists: the value itself when it already is (the common case, walked without copying)."""
    return value if is_plain(value) else _copy_plain(value)


def _copy_plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy_plain(item) for k, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)):
        return [_copy_plain(item) for item in value]
    return value  # a scalar, or not JSON at all: the validators judge it, as on decoding


def encode_value(value: object, validate: bool = False) -> JSON:
    """The JSON form of a model object, a list (any sequence) or dict (any mapping) of them, or
    a plain JSON value; model objects are checked against the schema when `validate`."""
    if isinstance(value, Model):  # the generated classes first: the common case
        encoded: JSON = value.to_dict(validate=validate)  # type: ignore[attr-defined]
        return encoded
    if type(value) is list:  # before the getattr below, slow when it fails
        return [encode_value(item, validate) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if type(value) is dict:
        return {str(k): encode_value(item, validate) for k, item in value.items()}
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None and not isinstance(value, type):
        encoded = to_dict(validate=validate)
        return encoded
    if isinstance(value, (list, tuple)):
        return [encode_value(item, validate) for item in value]
    if isinstance(value, Mapping):
        return {str(k): encode_value(item, validate) for k, item in value.items()}
    raise ValidationError("JSON", [ErrorDetail("$", f"cannot encode {describe(value)}")])
