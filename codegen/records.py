"""`@record`: a frozen dataclass whose methods are shared functions, not compiled per class.

`dataclasses.dataclass` compiles each generated method from source for every class (`exec`);
`__eq__` and `__repr__` cost the most (about 0.4 ms each per class on Python 3.11), and a
generation imports some seventy frozen dataclasses before it does any work. A record is
`dataclass(frozen=True, eq=False, repr=False)` with these three methods added as plain
functions instead: the same results as dataclass's own (equality of the tuples of the compared
fields between instances of one class, the hash of that tuple, `Name(field=value, ...)`).
Frozen's `__setattr__` and `__delattr__` (two more compiled methods per class) are shared too,
and the `__init__` is written here (`_frozen`: the fields set past `__setattr__`, as frozen's
is); a class with what that does not cover (`__post_init__`, `kw_only`, a dataclass base...)
keeps dataclass's `frozen=True`. Creating a record costs about 40% of a frozen dataclass's time.
`dataclasses.fields`, `replace`, pickling and the type checker see an ordinary frozen dataclass.
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
        if not _plain(c):  # what `_frozen` does not write: dataclass's own frozen methods
            made = dataclasses.dataclass(c, frozen=True, slots=slots, eq=False, repr=False)
        else:
            made = _frozen(dataclasses.dataclass(c, init=False, slots=slots, eq=False, repr=False))
            if slots:  # pickling (a forked worker's result) restores fields past __setattr__
                made.__getstate__, made.__setstate__ = _getstate, _setstate
        if "__eq__" not in own:
            made.__eq__ = _eq
            if "__hash__" not in own:
                made.__hash__ = _hash
        if "__repr__" not in own:
            made.__repr__ = _repr
        return made

    return make if cls is None else make(cls)


def _plain(c: Any) -> bool:
    """Whether `_frozen` can finish the class: every field a plain positional-or-keyword `__init__`
    parameter (no `init=False`, `kw_only`, `InitVar`, `__post_init__`; names that cannot clash with
    the generated code), no `__init__` or `__setattr__` of its own, no dataclass base (dataclass
    checks a subclass's frozen methods against its bases')."""
    own = vars(c)
    if {"__init__", "__setattr__", "__delattr__", "__post_init__"} & own.keys():
        return False
    if any(dataclasses.is_dataclass(b) for b in c.__mro__[1:]):
        return False
    hints = own.get("__annotations__", {})
    return all(
        name.isidentifier() and not name.startswith("_") and name != "self"
        and "InitVar" not in str(hint) and "ClassVar" not in str(hint) and "KW_ONLY" not in str(hint)
        for name, hint in hints.items()
    )  # fmt: skip


def _frozen(cls: Any) -> Any:
    """`cls` (made by `dataclass(init=False)`) given what `frozen=True` would give it: an
    `__init__` that sets the fields past `__setattr__`, and `__setattr__`/`__delattr__` that
    raise `FrozenInstanceError`; those two are shared (dataclass compiles them for each class,
    costing more than the `__init__`)."""
    fields = dataclasses.fields(cls)
    if any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"@record: {cls.__qualname__} needs dataclass's own __init__")
    params, body = [], []
    env: dict[str, Any] = {"__set": object.__setattr__, "__factory": _FACTORY}
    for f in fields:
        value = f.name
        if f.default is not dataclasses.MISSING:
            env[f"__d_{f.name}"] = f.default
            params.append(f"{f.name}=__d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            env[f"__f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=__factory")
            value = f"__f_{f.name}() if {f.name} is __factory else {f.name}"
        else:
            params.append(f.name)
        body.append(f"  __set(self, {f.name!r}, {value})")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "  pass")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)  # noqa: S102 - the fields' own names, checked by `_plain`
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    cls.__setattr__, cls.__delattr__ = _setattr, _delattr
    cls.__dataclass_params__.frozen = True  # as `fields`, subclasses and readers expect
    return cls


_FACTORY = object()  # a field with a default factory was not given


def _setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)


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
