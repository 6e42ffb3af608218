"""Tolerant reading (`parse_message(..., tolerant=True)`): a union member or a literal value the
protocol version does not know (a newer content block, a new enum value; real peers send them
in older sessions) is kept as an `Unknown` holding the raw JSON, with an `UnknownValueWarning`,
instead of rejecting the whole message.

The validators say which errors are of that kind (`_runtime.UnknownDetail`): a union member
whose tag (the member every object of a union requires its own constant in) none declares (the
member is kept) and a string none of a union of string literals is (the string is kept). Every other error still rejects the message. The message is
then built from a copy where those values are `Unknown` objects: a union's builder maps them to
themselves (`UNKNOWN_TAG` in its dispatch table), a literal's takes the value as it is, and
encoding writes the raw JSON back.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Sequence
from typing import Any, Final, final

from ._runtime import JSON, ErrorDetail, UnknownDetail

UNKNOWN_TAG: Final = "\x00unknown"
"""The key every discriminated union's dispatch table maps to the value itself: what an
`UnknownMember` answers for its tag. No member declares it (a peer sending it is refused, or
kept as unknown)."""


class Unknown:
    """A value the protocol version does not know, kept by tolerant reading: `value` is its raw
    JSON, `expected` the union or literal type the version expected there. Match on it
    (`isinstance(block, Unknown)`) to skip or pass on what this version cannot read."""

    __slots__ = ()

    @property
    def value(self) -> JSON:
        raise NotImplementedError

    @property
    def expected(self) -> str:
        raise NotImplementedError


@final
class UnknownMember(Unknown):
    """A union member the version does not know (a newer content block): its JSON object."""

    __slots__ = ("_expected", "_value")

    def __init__(self, value: JSON, expected: str) -> None:
        self._value = value
        self._expected = expected

    @property
    def value(self) -> JSON:
        return self._value

    @property
    def expected(self) -> str:
        return self._expected

    def __getitem__(self, key: str) -> str:
        """What a discriminated union's builder reads as the tag: `UNKNOWN_TAG`, which its table
        maps to this object itself."""
        return UNKNOWN_TAG

    def to_dict(self, *, validate: bool = True) -> JSON:
        """The raw JSON, as it came (`validate` is accepted like a model's and ignored)."""
        return self._value

    def _to_dict(self) -> JSON:
        return self._value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UnknownMember):
            return NotImplemented
        return (self._value, self._expected) == (other._value, other._expected)

    __hash__: Any = None

    def __repr__(self) -> str:
        return f"UnknownMember({self._value!r}, expected={self._expected!r})"


@final
class UnknownLiteral(str, Unknown):
    """A string literal the version does not know (a new enum value): still the `str` it is,
    so it is compared, printed and encoded as it came."""

    _expected: str

    def __new__(cls, value: str, expected: str) -> UnknownLiteral:
        self = super().__new__(cls, value)
        self._expected = expected
        return self

    @property
    def value(self) -> JSON:
        return str(self)

    @property
    def expected(self) -> str:
        return self._expected

    def __repr__(self) -> str:
        return f"UnknownLiteral({str(self)!r}, expected={self._expected!r})"


class UnknownValueWarning(UserWarning):
    """A tolerant reader kept values the protocol version does not know as `Unknown`."""


_STEP = re.compile(r'\.([^\W\d]\w*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def _steps(path: str) -> list[str | int] | None:
    """The keys and indexes of a JSON path as the validators write it (`$.a[0]["x/y"]`)."""
    if not path.startswith("$"):
        return None
    out: list[str | int] = []
    pos = 1
    while pos < len(path):
        m = _STEP.match(path, pos)
        if m is None:
            return None
        name, index, quoted = m.groups()
        out.append(
            name if name is not None else int(index) if index is not None else json.loads(quoted)
        )
        pos = m.end()
    return out


def _replace(value: Any, steps: list[str | int], detail: UnknownDetail) -> Any:
    """`value` with the value at `steps` made an `Unknown`: the containers on the way copied."""
    if not steps:
        if detail.kind == "literal":
            return UnknownLiteral(value, detail.expected)
        return UnknownMember(value, detail.expected)
    copy: Any = dict(value) if type(value) is dict else list(value)
    copy[steps[0]] = _replace(value[steps[0]], steps[1:], detail)
    return copy


def tolerate(
    value: object, errors: Sequence[ErrorDetail]
) -> tuple[object, tuple[UnknownDetail, ...]] | None:
    """`value` (unchanged) copied with each value the errors say the version does not know
    made an `Unknown`, and those errors; None when some error is of another kind."""
    points: list[tuple[list[str | int], UnknownDetail]] = []
    for e in errors:
        steps = _steps(e.at) if isinstance(e, UnknownDetail) else None
        if steps is None or not isinstance(e, UnknownDetail):
            return None
        points.append((steps, e))
    if not points:
        return None
    points.sort(key=lambda p: len(p[0]))  # outermost first: a point inside one is part of it
    kept: list[tuple[list[str | int], UnknownDetail]] = []
    out: Any = value
    for steps, e in points:
        if not any(steps[: len(k)] == k for k, _ in kept):
            out = _replace(out, steps, e)
            kept.append((steps, e))
    return out, tuple(e for _, e in kept)


def warn_unknown(type_name: str, kept: Sequence[UnknownDetail], where: str) -> None:
    """The warning of a tolerant read, naming each kept value's path and what was expected."""
    items = "; ".join(f"{e.at}: {e.message}" for e in kept)
    message = f"{type_name} {where}: kept {len(kept)} unknown value(s) as Unknown ({items})"
    warnings.warn(message, UnknownValueWarning, stacklevel=4)
