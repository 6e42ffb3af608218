"""`@record`: a frozen dataclass whose equality, hash and repr are shared functions.

`dataclasses.dataclass` compiles each generated method from source for every class (`exec`);
`__eq__` and `__repr__` cost the most (about 0.4 ms each per class on Python 3.11), and a
generation imports some seventy frozen dataclasses before it does any work. A record is
`dataclass(frozen=True, eq=False, repr=False)` with these three methods added as plain
functions instead: the same results as dataclass's own (equality of the tuples of the compared
fields between instances of one class, the hash of that tuple, `Name(field=value, ...)`).
Everything else (`__init__`, frozenness, slots, pickling) is dataclass's own.
`dataclasses.fields`, `replace` and the type checker see an ordinary frozen dataclass.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:  # typing has it from Python 3.11 on; at run time it only marks the function

    def dataclass_transform(**kwargs: Any) -> Callable[[Any], Any]:
        return lambda fn: fn


C = TypeVar("C", bound=type)


@overload
def record(cls: C, /) -> C: ...
@overload
def record(*, slots: bool = False) -> Callable[[C], C]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: Any = None, /, *, slots: bool = False) -> Any:
    """`@record` or `@record(slots=True)` on a class: see the module doc."""

    def make(c: Any) -> Any:
        own = vars(c)
        made = dataclasses.dataclass(c, frozen=True, slots=slots, eq=False, repr=False)
        if "__eq__" not in own:
            made.__eq__ = _eq
            if "__hash__" not in own:
                made.__hash__ = _hash
        if "__repr__" not in own:
            made.__repr__ = _repr
        return made

    return make if cls is None else make(cls)


def _tuple_of(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


@functools.cache
def _compared(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    return _tuple_of([f.name for f in dataclasses.fields(cls) if f.compare])


@functools.cache
def _hashed(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    fields = dataclasses.fields(cls)
    return _tuple_of([f.name for f in fields if (f.compare if f.hash is None else f.hash)])


@functools.cache
def _shown(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.repr)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = _compared(self.__class__)
    return key(self) == key(other)


def _hash(self: Any) -> int:
    return hash(_hashed(self.__class__)(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _shown(self.__class__))
    return f"{self.__class__.__qualname__}({shown})"
