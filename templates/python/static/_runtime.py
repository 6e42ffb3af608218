"""Small helpers shared by the generated modules (standard library only; JSON text goes through
orjson when it is installed, see "JSON text: the accelerated path")."""

from __future__ import annotations

import enum
import importlib
import json
import linecache
import os
import re
import reprlib
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Literal,
    NamedTuple,
    NoReturn,
    TypeAlias,
    TypeVar,
)

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

# -- PEP 702 deprecation markers ------------------------------------------------------------
# Checkers read `typing_extensions.deprecated` (their bundled stubs know it, nothing is installed);
# at run time Python 3.13's `warnings.deprecated` (it warns when a deprecated class is
# instantiated by a call; decoding never calls it), before that a marker that only records the
# message as `__deprecated__`, so the package stays standard-library-only on 3.10.
if TYPE_CHECKING:  # `as`: re-exported to the models (mypy --strict)
    from typing_extensions import deprecated as deprecated  # noqa: PLC0414
elif sys.version_info >= (3, 13):
    from warnings import deprecated
else:

    def deprecated(message, /, *, category=DeprecationWarning, stacklevel=1):
        def mark(arg):
            arg.__deprecated__ = message
            return arg

        return mark


def deprecated_field(cls: str, field: str, message: str, stacklevel: int = 3) -> None:
    """The `DeprecationWarning` of a deprecated field (its wire name) set when constructing
    `cls`, at the caller's line: PEP 702 marks no attribute (checkers see a deprecated
    `__init__` overload where `__init__` is written out)."""
    warning = f"{cls}.{field} is deprecated: {message}"
    warnings.warn(warning, DeprecationWarning, stacklevel=stacklevel)


MAX_DEPTH: Final = 256
"""How deep arrays and objects may nest: in a value of any JSON (`unknown`, a `{[key: string]:
unknown}` map, an undeclared member), counted from where it starts, and in a recursive type;
JSON text nested deeper than the parser can follow is rejected at this depth from its top."""


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


# Errors that say a value is one the version does not know (tolerant reading, _tolerance.py).


@dataclass(frozen=True, slots=True)
class UnknownDetail(ErrorDetail):
    """An error a tolerant reader may set aside: at `at` is a value the version does not know of
    the union or literal type `expected` (`kind` "member": a union member with an unknown tag;
    "literal": a string none of the literals is)."""

    at: str
    expected: str
    kind: Literal["member", "literal"]


def unknown_literal(path: str, expected: str, value: object) -> ErrorDetail:
    """The validators' error for a value none of a union of string literals is."""
    detail = mismatch(path, expected, value)
    if not isinstance(value, str):  # an UnknownLiteral too (converting one to another version)
        return detail  # another kind of value: a plain type error, never tolerated
    return UnknownDetail(path, detail.message, path, expected, "literal")


def unknown_member(path: str, key: str, expected: str, tag: object, union: str) -> ErrorDetail:
    """The validators' error for a union member whose tag (at `key`) no member declares."""
    detail = mismatch(key_path(path, key), expected, tag)
    if not isinstance(tag, str):
        return detail
    return UnknownDetail(detail.path, detail.message, path, union, "member")


@dataclass(frozen=True, slots=True)
class ConstDetail(ErrorDetail):
    """A constant member (`"type": "text"`) with another value: where every object member of a
    union refuses a value at the same key, the value is a member none of them is (`explain_union`
    says so with an `UnknownDetail`)."""


def const_mismatch(path: str, expected: str, value: object) -> ErrorDetail:
    """The validators' error for a value that is not the one literal of its type."""
    return ConstDetail(path, mismatch(path, expected, value).message)


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
    tags: set[str] | None = None  # where every member refuses the value's constant
    for kinds, explain in members:
        if kind in kinds:
            found: list[ErrorDetail] = []
            explain(value, path, found, d)
            consts = {e.path for e in found if isinstance(e, ConstDetail)}
            tags = consts if tags is None else tags & consts
            if found and (not best or len(found) < len(best)):
                best = found
    if tags and isinstance(value, dict):
        for key, tag in value.items():  # a tag none of the members declares: an unknown member
            if key_path(path, key) in tags:
                errs.append(unknown_member(path, key, expected, tag, expected))
                return
    errs.extend(best or [mismatch(path, expected, value)])


# -- any JSON: what `unknown` and undeclared members may hold ------------------------------------

JSON_SCALARS: Final = frozenset({str, int, bool, type(None)})
"""The types of the JSON values that need no test but their type (a float must be finite)."""


def is_json(value: object) -> bool:
    """Whether `value` is JSON as `json.loads` gives it: dicts with str keys, lists, str, int,
    finite floats, bool, None, arrays and objects nested at most `MAX_DEPTH` levels. A loop, not
    recursion (a cycle is too deep); as fast as a walk in Python goes, for the validators'
    fast path."""
    if type(value) in JSON_SCALARS:
        return True
    if type(value) is float:
        return value - value == 0.0  # nan and inf give nan
    if type(value) is dict:
        return not value or json_members(value)
    return type(value) is list and json_items(value)


def is_json_object(value: object) -> bool:
    """Whether `value` is a JSON object (`object`, `{[key: string]: unknown}`)."""
    return type(value) is dict and (not value or json_members(value))


def json_members(value: dict[Any, Any], depth: int = 1) -> bool:
    """Whether a dict's keys are strings and its members JSON (`value` nested at level `depth`).
    The validators' fast path, written inline as `type(x) is dict and (not x or
    _json_members(x))`: an object's members in one loop, the objects in it by recursion
    (cheaper than a stack for the small payloads of messages: `data`, `arguments`,
    `structuredContent`), arrays by `json_items`, down to `_RECURSE` levels; below that `_walk`."""
    for k, x in value.items():
        if type(k) is not str:
            return False
        t = type(x)
        if t in JSON_SCALARS:
            continue
        if t is float:
            if x - x != 0.0:
                return False
        elif t is dict:
            if x and not (json_members(x, depth + 1) if depth < _RECURSE else _walk(x, depth + 1)):
                return False
        elif t is list:
            if x and not (json_items(x, depth + 1) if depth < _RECURSE else _walk(x, depth + 1)):
                return False
        else:
            return False
    return True


def json_items(value: list[Any], depth: int = 1) -> bool:
    """Whether a list's items are JSON (`value` nested at level `depth`), as `json_members`."""
    for x in value:
        t = type(x)
        if t in JSON_SCALARS:
            continue
        if t is float:
            if x - x != 0.0:
                return False
        elif t is dict:
            if x and not (json_members(x, depth + 1) if depth < _RECURSE else _walk(x, depth + 1)):
                return False
        elif t is list:
            if x and not (json_items(x, depth + 1) if depth < _RECURSE else _walk(x, depth + 1)):
                return False
        else:
            return False
    return True


_RECURSE: Final = 8
"""How deep `json_members` recurses (far less than `MAX_DEPTH`: the interpreter's stack is the
caller's too)."""


def _walk(value: object, depth: int) -> bool:
    """`value` (a list or dict at nesting level `depth`) and everything in it is JSON."""
    stack: list[tuple[Any, int]] = [(value, depth)]
    while stack:
        item, d = stack.pop()
        if type(item) is dict:
            for k in item:
                if type(k) is not str:
                    return False
            item = item.values()
        for x in item:
            t = type(x)
            if t in JSON_SCALARS:  # the usual member first: one test
                continue
            if t is dict or t is list:
                if x:
                    if d >= MAX_DEPTH:
                        return False
                    stack.append((x, d + 1))
            elif t is float:
                if x - x != 0.0:
                    return False
            else:
                return False
    return True


_Where: TypeAlias = "tuple[_Where, object] | None"


def not_json(value: object, path: str = "$", text: bool = False) -> ErrorDetail | None:
    """The first place where `value` is not JSON (depth first, as `is_json` walks), with its JSON
    path; None if it is JSON. `text`: also integers too long for `str()` (JSON text output)."""
    digits = sys.get_int_max_str_digits() if text and hasattr(sys, "get_int_max_str_digits") else 0
    # (value, where: None or (parent's where, key or index), depth); paths made only for the error
    stack: list[tuple[object, _Where, int]] = [(value, None, 0)]

    def here(where: _Where) -> str:
        keys: list[object] = []
        while where is not None:
            where, key = where
            keys.append(key)
        p = path
        for key in reversed(keys):
            p = at(p, key) if type(key) is int else key_path(p, key)
        return p

    while stack:
        x, w, d = stack.pop()
        t = type(x)
        if t is dict or t is list:
            if d >= MAX_DEPTH and x:
                return too_deep(here(w), MAX_DEPTH)
            if isinstance(x, dict):
                bad = next((k for k in x if type(k) is not str), ABSENT)
                if bad is not ABSENT:
                    return ErrorDetail(here(w), f"object key {bad!r} is not a string")
                items: list[tuple[object, object]] = list(x.items())
            else:
                assert isinstance(x, list)
                items = list(enumerate(x))
            stack.extend((v, (w, k), d + 1) for k, v in reversed(items))
        elif t is float:
            assert isinstance(x, float)
            if x - x != 0.0:
                return ErrorDetail(here(w), f"number {x!r} is not JSON (JSON numbers are finite)")
        elif t not in JSON_SCALARS:
            return ErrorDetail(here(w), f"expected a JSON value, got {describe(x)}")
        elif digits and isinstance(x, int) and abs(x).bit_length() > digits * 3.3:
            try:
                str(x)
            except ValueError:
                return ErrorDetail(here(w), f"integer of more than {digits} digits ({_DIGITS})")
    return None


_DIGITS: Final = "the limit of Python's int/str conversion, `sys.get_int_max_str_digits()`"


def explain_json(value: object, path: str, errs: list[ErrorDetail], d: int = 0) -> None:
    """The error for a value of any JSON that `is_json` rejects."""
    found = not_json(value, path)
    if found is not None:
        errs.append(found)


def explain_json_object(value: object, path: str, errs: list[ErrorDetail], d: int = 0) -> None:
    if type(value) is not dict:
        errs.append(mismatch(path, "object", value))
    else:
        explain_json(value, path, errs)


class NotJSON(Exception):
    """Raised while building a value whose undeclared members are not JSON (the fast checks
    leave them to the builders, which look only when there are some); the decoder turns it into
    a `ValidationError` located by `not_json`."""


def not_decodable(type_name: str, value: object) -> ValidationError:
    """The error for a value the validators accepted but that could not be built: an undeclared
    member that is not JSON, or nesting deeper than the interpreter's stack."""
    found = not_json(value)
    return ValidationError(type_name, [found or ErrorDetail("$", "nested too deeply to decode")])


_T = TypeVar("_T")


def decoded(
    type_name: str,
    value: object,
    build: Callable[[Any], _T],
    validate: Callable[[str, object], None],
) -> _T:
    """The slow path of `from_dict` and `from_json`, for a value their fast check refused or
    could not finish (the stack), or whose undeclared members are not JSON: `validate` raises
    the located errors; a value it passes is built, a `NotJSON` or the stack then a
    `ValidationError` too."""
    validate(type_name, value)
    try:
        return build(value)
    except (NotJSON, RecursionError):
        raise not_decodable(type_name, value) from None


def not_encodable(type_name: str, error: Exception) -> ValidationError:
    """The error for a model object whose `_to_dict` failed (an attribute holding something
    its type cannot encode: bytes for a class, a number for a list; a cycle; nesting past the
    stack): names the attributes from the object down to the one that failed, read from the
    failing line of each generated `_to_dict` on the traceback."""
    if isinstance(error, ValidationError):
        return error
    attrs: list[str] = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in ("_to_dict", "<listcomp>", "<dictcomp>"):
            line = linecache.getline(code.co_filename, tb.tb_lineno)
            found = _ATTR.search(line)
            if found is not None and (not attrs or code.co_name == "_to_dict"):
                attrs.append(found.group(1))
        tb = tb.tb_next
    what = "nested too deeply" if isinstance(error, RecursionError) else f"{error}"
    where = f" (attribute {'.'.join(attrs)})" if attrs else ""
    return ValidationError(type_name, [ErrorDetail("$", f"cannot encode{where}: {what}")])


_ATTR: Final = re.compile(r"\bself\.(\w+)")


# -- JSON text ------------------------------------------------------------------------------------

_checked_dumps: Final[Callable[[object], str]] = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False
).encode
_ascii_dumps: Final[Callable[[object], str]] = json.JSONEncoder(
    separators=(",", ":"), allow_nan=False
).encode


def _unchecked_encoder() -> Callable[[object, int], Any] | None:
    """The C encoder `JSONEncoder.encode` makes on every call (options, closures and all, most of
    the cost of encoding a small object), made once; without the circular-reference check, which
    `dumps` leaves to `not_json`. None if the interpreter has no C encoder or a different
    signature (the output is compared with the checked encoder's on a sample)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        # (markers, default, encoder, indent, separators, sort_keys, skipkeys, allow_nan)
        args = (None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",")
        encoder: Callable[[object, int], Any] = make(*args, False, False, False)
        sample = {"a": [1, 2.5, None, True, "\u00e9\n"], "b": {}}
        if "".join(encoder(sample, 0)) != _checked_dumps(sample):
            return None
    except Exception:  # noqa: BLE001 - any surprise: keep the standard path
        return None
    return encoder


_UNCHECKED: Final = _unchecked_encoder()


def dumps(value: object, type_name: str = "JSON", checked: bool = False) -> str:
    """`json.dumps(value, ensure_ascii=False, separators=(",", ":"))` for JSON values, without
    the per-call set-up (the encoder made once); anything that is not JSON (NaN, infinity, a
    set, bytes, a cycle, nesting past `MAX_DEPTH`, an integer too long for `str`) is a
    `ValidationError` naming where, never `NaN` or `Infinity` in the text. A string holding a
    lone surrogate is written escaped (`\\ud800`), so the text always encodes as UTF-8.
    `checked`: the validators accepted `value` (exact JSON types, finite numbers), so the
    accelerated encoder may write it; the text is the same either way."""
    if checked and _ORJSON is not None:
        text = _fast_dumps(_ORJSON, value)
        if text is not None:
            return text
    try:
        text = "".join(_UNCHECKED(value, 0)) if _UNCHECKED is not None else _checked_dumps(value)
    except Exception:  # noqa: BLE001 - located below; RecursionError and MemoryError included
        found = not_json(value, text=True)
        raise ValidationError(
            type_name, [found or ErrorDetail("$", "cannot be written as JSON text")]
        ) from None
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the \u escape is the only JSON for it
            return _ascii_dumps(value)
    return text


# The scanner `json.loads` itself uses (the C one when there is one).
Scanner: TypeAlias = Callable[[str, int], tuple[Any, int]]


class _Constant(Exception):
    """`NaN`, `Infinity` or `-Infinity` in JSON text: Python's extension, not JSON."""


def _no_constant(name: str) -> NoReturn:
    raise _Constant(name)


def _finite(token: str) -> float:
    """A JSON number with a fraction or exponent; one too large for a float (`1e400`) is not
    made infinity (called for such numbers only: integers and the rest cost nothing)."""
    value = float(token)
    if value - value != 0.0:
        raise _Constant(token)
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):  # a key given twice: located by `_problem`
        raise _Duplicate
    return value


class _Duplicate(Exception):
    """A key given twice in one object of JSON text."""


_SCAN: Final[Scanner] = json.JSONDecoder(  # type: ignore[attr-defined]
    object_pairs_hook=_object, parse_constant=_no_constant, parse_float=_finite
).scan_once


def loads(text: str | bytes, type_name: str = "JSON") -> Any:
    """The value of JSON text (`str`, or `bytes` in UTF-8), as `json.loads` gives it; anything
    else is a `ValidationError` naming where in the value it went wrong: a syntax error,
    invalid UTF-8, `NaN`/`Infinity`, a number too large for a float (`1e400`), a key given
    twice in one object, an integer longer than
    Python converts (`sys.get_int_max_str_digits()`), nesting deeper than the parser's stack.
    A str holding exactly one value (no surrounding whitespace: what senders write) goes
    straight to the scanner, skipping the two whitespace regex passes. With orjson installed it
    reads the text first; what it gives is checked to be what this reading gives (see
    `_fast_loads`), else this reading decides, errors included."""
    if _ORJSON is not None and (type(text) is str or type(text) is bytes):
        value = _fast_loads(_ORJSON, text)
        if value is not _REREAD:
            return value
    if type(text) is not str:
        if not isinstance(text, (bytes, bytearray)):
            msg = f"expected JSON text (str or bytes), got {type(text).__name__}"
            raise ValidationError(type_name, [ErrorDetail("$", msg)])
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            msg = f"invalid UTF-8 at byte {e.start}: {e.reason}"
            raise ValidationError(type_name, [ErrorDetail("$", msg)]) from None
        text = text.removeprefix("\ufeff")  # a byte order mark, as json.loads allows in bytes
    assert isinstance(text, str)
    try:
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:  # no value at 0: whitespace first (retried after it), or none
            start = _WS.match(text).end()  # type: ignore[union-attr]
            if start == 0:
                raise
            value, end = _SCAN(text, start)
        if end != len(text):
            end = _WS.match(text, end).end()  # type: ignore[union-attr]
            if end != len(text):
                raise json.JSONDecodeError("Extra data", text, end)
        return value
    except (StopIteration, ValueError, RecursionError, _Constant, _Duplicate) as e:
        error: BaseException = e  # located below, outside the handler: a RecursionError
    raise ValidationError(type_name, [_problem(text, error)])  # leaves no stack to spare


_WS: Final = re.compile(r"[ \t\n\r]*")


def _problem(text: str, error: BaseException) -> ErrorDetail:
    """Where JSON text went wrong, as a JSON path, and what."""
    if isinstance(error, (StopIteration, json.JSONDecodeError)):
        if isinstance(error, StopIteration):
            pos, msg = int(error.value), "Expecting value"
        else:
            pos, msg = error.pos, error.msg
        line = text.count("\n", 0, pos) + 1
        col = pos - text.rfind("\n", 0, pos)
        where = f"invalid JSON text: {msg} (line {line} column {col})"
        return ErrorDetail(_path_at(text, pos)[0], where)
    path, reason = _path_at(text, len(text), find=True)
    if not reason:  # nothing past the limits: the interpreter's stack was already deep
        reason = "invalid JSON text" if isinstance(error, ValueError) else "nested too deeply"
    return ErrorDetail(path, reason)


def _inf(token: str) -> bool:
    try:
        value = float(token)
    except ValueError:
        return False
    return value - value != 0.0


_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def _path_at(text: str, pos: int, find: bool = False) -> tuple[str, str]:
    """The JSON path of the value at character `pos` of `text`; with `find`, of the first thing
    the fast scanner refuses (nesting past `MAX_DEPTH`, a repeated key, `NaN`/`Infinity`, an
    integer over the digit limit) and what it is. A token walk, for error messages only."""
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    frames: list[list[Any]] = []  # [kind "{" or "[", key or index, keys seen]

    def path() -> str:
        p = "$"
        for kind, key, _ in frames:
            if kind == "[":
                p = at(p, key)
            elif key is not ABSENT:
                p = key_path(p, key)
        return p

    expect_key = False
    for m in _TOKEN.finditer(text):
        if m.start() >= pos:
            break
        tok = m.group()
        if tok in "{[":
            frames.append([tok, 0 if tok == "[" else ABSENT, set()])
            expect_key = tok == "{"
            if find and len(frames) > MAX_DEPTH:
                frames.pop()
                return path(), f"nested deeper than {MAX_DEPTH} levels"
        elif tok in "}]":
            if frames:
                frames.pop()
            expect_key = False
        elif tok == ",":
            if frames and frames[-1][0] == "[":
                frames[-1][1] += 1
            expect_key = bool(frames) and frames[-1][0] == "{"
        elif tok == ":":
            expect_key = False
        elif expect_key and tok.startswith('"'):
            key = tok[1:-1]
            if "\\" in key:
                try:
                    key = json.loads(tok)
                except ValueError:
                    pass
            frame = frames[-1]
            frame[1] = key
            if find and key in frame[2]:
                return path(), f"key {json.dumps(key, ensure_ascii=False)} given twice"
            frame[2].add(key)
        elif find and tok in ("NaN", "Infinity", "-Infinity"):
            return path(), f"{tok} is not JSON (JSON numbers are finite)"
        elif find and tok[-1:].isdigit() and not tok.lstrip("-").isdigit() and _inf(tok):
            return path(), f"number {tok[:20]} is too large for a float (JSON numbers are finite)"
        elif find and digits and len(tok.lstrip("-")) > digits and tok.lstrip("-").isdigit():
            return path(), f"integer of more than {digits} digits ({_DIGITS})"
    return path(), ""


# -- JSON text: the accelerated path -------------------------------------------------------------
# With orjson installed (the distribution's `fast` extra) and `MCP_BINDINGS_JSON` not `stdlib`,
# `loads` and `dumps` go through it first. The result is the standard path's, value for value and
# byte for byte: wherever orjson may read or write differently, a check at C speed notices and
# the standard path decides, errors included (docs/hostile-input.md: "JSON text").

_ENV: Final = "MCP_BINDINGS_JSON"
_REREAD: Final = object()  # `_fast_loads`: the standard path must read this text

# Written by both paths on import: orjson is used only if it reads and writes these as `json`.
_SAMPLE: Final = {
    "n": [
        0,
        -1,
        2**64 - 1,
        -(2**63),
        0.1,
        -0.0,
        2.5e-3,
        1e-4,
        1e16,
        1.5e-300,
        1.7976931348623157e308,
    ],
    "s": ["", '\u00e9\n\t\r\b\f\x00\x1f\x7f"\\/\u2028\u2029\U0001f600', "\\u003a"],
    "o": {"": {}, "a": [None, True, False, []]},
}


class _Orjson(NamedTuple):
    """orjson's two functions, and the options `_fast_dumps` writes with: what orjson would
    write but `json` refuses goes to the standard path (orjson raises): subclasses of
    str/int/dict/list, dataclasses, dates and times. (Given positionally: a `partial` with a
    keyword costs more than the call.)"""

    loads: Callable[[str | bytes], Any]
    dumps: Callable[..., bytes]
    option: int


def _orjson_of(orjson: Any) -> _Orjson:
    passthrough = (
        orjson.OPT_PASSTHROUGH_SUBCLASS
        | orjson.OPT_PASSTHROUGH_DATACLASS
        | orjson.OPT_PASSTHROUGH_DATETIME
    )
    return _Orjson(orjson.loads, orjson.dumps, passthrough)


def _accelerator() -> _Orjson | None:
    """orjson, unless `MCP_BINDINGS_JSON=stdlib`, it is not installed, or it does not read and
    write `_SAMPLE` as `json` does; `MCP_BINDINGS_JSON=orjson` makes the last two an error."""
    choice = os.environ.get(_ENV, "").strip().lower()
    if choice == "stdlib":
        return None
    if choice not in ("", "auto", "orjson"):
        raise ImportError(f"{_ENV}={os.environ[_ENV]!r}: expected stdlib, orjson or auto")
    try:
        orjson = importlib.import_module("orjson")  # by name: an optional dependency
    except ImportError:
        if choice == "orjson":
            raise ImportError(f"{_ENV}=orjson, but orjson is not installed") from None
        return None
    text = _checked_dumps(_SAMPLE)
    try:
        fast = _orjson_of(orjson)
        written = fast.dumps(_SAMPLE, None, fast.option)
        agrees = written == text.encode() and fast.loads(text) == _SAMPLE
    except Exception:  # noqa: BLE001 - an orjson that fails here is not used
        agrees = False
    if not agrees:
        if choice == "orjson":
            raise ImportError(f"{_ENV}=orjson, but this orjson reads or writes unlike json")
        return None
    return fast


_ORJSON: _Orjson | None = _accelerator()


def json_backend() -> str:
    """Which path `from_json`/`to_json` take: `"orjson"` or `"stdlib"` (same results)."""
    return "stdlib" if _ORJSON is None else "orjson"


def _fast_loads(orjson: _Orjson, text: str | bytes) -> Any:
    """orjson's reading of `text`, or `_REREAD` wherever it may differ from the standard one:
    orjson refuses the text (the standard path then locates the error), or it kept the last of
    a repeated key, or made a float of an integer beyond 64 bits. orjson writes the value back:
    - the same text (compact, as senders write it): nothing was dropped or changed;
    - else a repeated key shows in the colons: each member of an object has one outside strings,
      and orjson writes one per member it kept plus those inside strings (never escaped): a
      dropped member leaves fewer, unless the text spelled a colon `\u003a` (then reread);
    - an integer made a float is at least 2**63 in size, which orjson writes with `e+`.
    (Bytes are searched for a byte as an int: `b"+" in data` first tries the needle as an int
    and pays for a raised and cleared exception.)"""
    try:
        value = orjson.loads(text)
        again = orjson.dumps(value)
    except Exception:  # noqa: BLE001 - anything orjson refuses is the standard path's to judge
        return _REREAD
    if type(text) is str:
        if len(again) == len(text) and again == text.encode():
            return value
        if "\\" in text and "\\u003" in text:
            return _REREAD
        colons = text.count(":")
    else:
        assert isinstance(text, bytes)
        if again == text:
            return value
        if _BACKSLASH in text and text.find(b"\\u003") >= 0:
            return _REREAD
        colons = text.count(_COLON)
    if _PLUS in again and again.find(b"e+") >= 0:
        return _REREAD
    return value if colons == again.count(_COLON) else _REREAD


_BACKSLASH, _PLUS, _COLON = b"\\+:"


def _fast_dumps(orjson: _Orjson, value: object) -> str | None:
    """orjson's text for a validated value, or None wherever it may differ from the standard
    text: orjson refuses the value (an integer beyond 64 bits, a lone surrogate, nesting past
    254 levels, what `_orjson_of` passes through), or it wrote a `null` that is not a None
    (NaN and infinities, which orjson writes as `null`: the validators do not walk undeclared
    members or the inside of JSON Schema payloads; the text is read back and compared, only
    when it has a null value: `_null_differs`), or it holds a float that orjson spells otherwise (1e-9 <= |x| <
    1e-4: `0.00001` and `1e-7` where Python writes `1e-05` and `1e-07`). (Searched in the str:
    `in` on a str is a plain search, on bytes it first tries the needle as an int.)"""
    try:
        data = orjson.dumps(value, None, orjson.option)
    except Exception:  # noqa: BLE001 - the standard path writes it or names what is wrong
        return None
    text = data.decode()
    if "null" in text and _null_differs(orjson, text, data, value):
        return None
    if "-" in text or "0.0000" in text:  # (a `memchr` first: `-` is one character)
        # A short text's hyphens are mostly dates and versions (61 of the 127 examples of
        # 2026-07-28 have one, 18 an `e-`): without `e-` or `0.0000` there is nothing to look at.
        if len(text) <= _SHORT and "e-" not in text and "0.0000" not in text:
            return text
        return text if _python_floats(text) else None
    return text  # no float written unlike Python: the common case, checked inline


def _null_differs(orjson: _Orjson, text: str, data: bytes, value: object) -> bool:
    """Whether a `null` in orjson's compact `text` may stand for NaN or an infinity: only a
    null value can (after `:`, `,` or `[`, or the whole text; one inside a string, as in a JSON
    Schema's `"type":"null"` or a description, cannot), and then the text read back must be
    `value` (NaN is not equal to the None read back: the standard path then refuses it)."""
    i = text.find("null")
    while i >= 0:
        if i == 0 or text[i - 1] in ":,[":  # (a false alarm inside a string: only a reread)
            return bool(orjson.loads(data) != value)
        i = text.find("null", i + 4)
    return False


_SHORT: Final = 4096
"""Up to this length `_python_floats` finds exponents by scanning for `e-`, beyond it from the
hyphens (`str.find` of one character is a `memchr`; of `e-`, a scan that stops at every `e`:
on a long English text several times slower than visiting its few hyphens, on a message
faster than one Python loop turn per hyphen of its dates and media types)."""


def _python_floats(text: str) -> bool:
    """Whether orjson's `text` holds no number spelled unlike Python: `0.0000` not after a digit
    (`0.00001`, where Python writes `1e-05`), or a one-digit negative exponent after a digit
    (`1e-7`, where Python writes `1e-07`); in a string too: only a false alarm."""
    i = text.find("0.0000")
    while i >= 0:
        if i == 0 or not text[i - 1].isdigit():
            return False
        i = text.find("0.0000", i + 1)
    if len(text) <= _SHORT:
        i = text.find("e-")
        while i >= 0:  # (a word's `e-`, as in `file-`, costs no call)
            if i and text[i - 1].isdigit() and not _python_exponent(text, i):
                return False
            i = text.find("e-", i + 2)
        return True
    i = text.find("-")
    while i >= 0:
        if text[i - 1] == "e" and not _python_exponent(text, i - 1):
            return False
        i = text.find("-", i + 1)
    return True


def _python_exponent(text: str, e: int) -> bool:
    """Whether the `e-` at `e` is not a one-digit exponent of a number (`1e-7`)."""
    if e < 1 or not text[e - 1].isdigit():
        return True
    digits = text[e + 2 : e + 4]  # `e-7` and no second digit: Python writes `e-07`
    return not (digits[:1].isdigit() and not digits[1:].isdigit())


class Model:
    """The base of the generated dataclasses: `__eq__` as `@dataclass` writes it (field by field,
    in order) and a `__repr__` of the members that are there (an `UNSET` member and an empty
    `extra` are left out), written once here instead of compiled per class at import."""

    __slots__ = ()
    __hash__: Any = None  # unhashable, as a dataclass with eq and not frozen

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = _names(type(self))
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        items = []
        for n in _names(type(self)):
            value = getattr(self, n)
            if value is not UNSET and (value or n != "extra"):
                items.append(f"{n}={value!r}")
        return f"{type(self).__qualname__}({', '.join(items)})"

    # A class that extends another (`class B(A)`, from `interface B extends A`) writes only the
    # fields it adds, in `_set_own` and `_put_own`; these call each class's along the chain,
    # base first, in a loop: a chain of any length costs no Python frame per link.
    def _set_fields(self, v: Any) -> None:
        for set_own in _along(type(self), "_set_own"):
            set_own(self, v)

    def _put_fields(self, out: dict[str, Any]) -> None:
        for put_own in _along(type(self), "_put_own"):
            put_own(self, out)


_NAMES: dict[type, tuple[str, ...]] = {}
_ALONG: dict[tuple[type, str], tuple[Callable[..., None], ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The fields in order, `extra` (the undeclared members) last, also in a class that extends
    another (whose `extra` comes among the inherited fields)."""
    names = _NAMES.get(cls)
    if names is None:
        every = [f.name for f in fields(cls)]
        names = _NAMES[cls] = tuple(sorted(every, key=lambda n: n == "extra"))  # a stable sort
    return names


def _along(cls: type, method: str) -> tuple[Callable[..., None], ...]:
    """`method` of each class in `cls`'s chain that defines its own, the root's first."""
    key = (cls, method)
    found = _ALONG.get(key)
    if found is None:
        chain = reversed(cls.__mro__)
        found = _ALONG[key] = tuple(c.__dict__[method] for c in chain if method in c.__dict__)
    return found


# -- decoding (values are validated before they are built) ---------------------------------------


def same(value: Any) -> Any:
    return value


def extras(value: dict[str, Any], declared: frozenset[str]) -> dict[str, Any]:
    """The members of `value` whose keys the schema does not declare (the decoders call it once
    they have seen that there are some: no second containment check here). They must be JSON
    (`NotJSON` otherwise): the validators' fast checks leave undeclared members to this, the
    one place that looks at them only when there are some."""
    out = {k: v for k, v in value.items() if k not in declared}
    if not json_members(out):  # (`is_json` of a dict, without its type tests)
        raise NotJSON
    return out


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


def plain(value: Any) -> Any:
    """A JSON value given as any mappings and sequences (a field typed `JSONInput`), as dicts
    and lists: the value itself when it already is JSON (the common case, walked without
    copying). Whatever is not JSON is left for the validators and `dumps` to name."""
    t = type(value)
    if t is dict or t is list:
        return value if _is_plain(value) else _copy_plain(value, 0)
    if t in _SCALARS:
        return value
    return _copy_plain(value, 0)  # any other mapping or sequence (a tuple, a mappingproxy...)


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def _is_plain(value: Any, depth: int = 1) -> bool:
    """Whether `value` (a dict or list at nesting level `depth`) is made of dicts, lists and
    scalars only (exact types: no copy needed), at most `MAX_DEPTH` levels (a cycle is not). It
    runs on every encode of JSON: by recursion down to `_RECURSE` levels (cheaper than a stack
    for the usual small payloads), below that `_plain_below`."""
    for x in value.values() if type(value) is dict else value:
        t = type(x)
        if t is dict or t is list:
            if x and not (
                _is_plain(x, depth + 1) if depth < _RECURSE else _plain_below(x, depth + 1)
            ):
                return False
        elif t not in _SCALARS:
            return False
    return True


def _plain_below(value: object, depth: int) -> bool:
    """`_is_plain` of a dict or list at level `depth`, in a loop."""
    stack: list[tuple[Any, int]] = [(value, depth)]
    while stack:
        item, d = stack.pop()
        for x in item.values() if type(item) is dict else item:
            t = type(x)
            if t is dict or t is list:
                if d >= MAX_DEPTH:
                    return False
                stack.append((x, d + 1))
            elif t not in _SCALARS:
                return False
    return True


def _copy_plain(value: Any, d: int) -> Any:
    if d > MAX_DEPTH:  # too deep, or a cycle: left as it is, for the validators to reject
        return value
    if isinstance(value, Mapping):
        return {k: _copy_plain(item, d + 1) for k, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)):
        return [_copy_plain(item, d + 1) for item in value]
    return value  # a scalar, or not JSON at all: the validators judge it, as on decoding


def encode_member(value: object) -> JSON:
    """The JSON form of a union's value, without validating: a model object's (the usual case:
    its `_to_dict` directly, a failure there located by the enclosing object's `to_dict`),
    else as `encode_value` (an unknown member kept as it came, plain JSON)."""
    if isinstance(value, Model):
        encoded: JSON = value._to_dict()  # type: ignore[attr-defined]
        return encoded
    return encode_value(value)


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
