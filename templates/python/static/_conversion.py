"""Conversions between a distribution's application types and each version's wire types, the
same for every distribution: `Converter` holds the facts `app/convert.py` is generated with
(codegen/appmodel.py) and does the work; `app/convert.py` binds its methods as module functions.

`to_app(wire_obj)` takes a dataclass of any version subpackage; members the application type
declares but the wire object's version does not stay undeclared members (`extra`), so
`to_wire(to_app(w), version_of(w))` gives `w` back exactly. `to_wire(app_obj, version)` returns
that version's dataclass, or raises `ConversionError` listing, with each JSON path, why the
version cannot express the value: "type" (the version lacks the type), "field" (a field the
version lacks is set), "required" (a field the version requires is absent), "literal" (a
string the version does not know), "invalid" (any other value the version's schema refuses).
A constant field (one literal value) that the version requires is filled in when unset.
`strict=False` (what a session sends by default) leaves out a field the version lacks instead
of raising, with one debug log line naming them; the other four still raise.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType
from typing import Any, Final, Literal, NamedTuple

from ._protocol import Message, ProtocolError
from ._runtime import JSON, UNSET, ErrorDetail, Model, ValidationError, is_json
from ._tolerance import tolerate, warn_unknown
from ._versioning import Versions


class FieldFacts(NamedTuple):
    """One field of an application type: the versions (indexes into `VERSIONS`) that have it,
    those that require it, the strings a version allows where it allows fewer, and the value of
    a constant field (a version that requires it gets it when it is unset)."""

    attr: str
    wire: str
    present: tuple[int, ...]
    required: tuple[int, ...]
    literals: Mapping[int, frozenset[str]]
    const: str | int | float | bool | None
    cls: str | None
    """The application class of the field's value (or of its items), when it is one class."""
    declared: tuple[int, ...]
    """The versions that declare it (`present` counts those taking it by an index signature)."""


DEFAULTS: Final[Mapping[str, JSON]] = MappingProxyType(
    {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}
)
"""Members a version requires that application code need not know about (2026-07-28 on): the
value `to_wire(..., defaults=True)` (so `serialize`) gives them when they are unset.
`resultType`: the schema says an absent one means "complete"; a cacheable result is not cached
unless the application says so."""

_log = logging.getLogger(__name__)

_META: Final = "_meta"  # any MCP object may carry it: an undeclared member where not declared
_DROP: Final = object()  # in `constants`: leave this member out
_FOREIGN: Final = object()  # in `constants`: an object of a class the version lacks is here


class _Default(NamedTuple):
    """In `constants`: a default that `to_wire(..., defaults=True)` gives."""

    value: JSON


class _Reorder(NamedTuple):
    """In `constants`: put the object's members in the version's order (its declared members,
    then the rest as they are), as the version's `to_dict` writes them."""

    order: tuple[str, ...]


class _Modules(NamedTuple):
    models: ModuleType
    validators: ModuleType
    codec: ModuleType
    registry: ModuleType


class _Pass(NamedTuple):
    """What a one-pass conversion looks at in an object of one application class for one
    version (`Converter._pass`): the fields, in field order, that the rules may act on (`work`)
    or whose value may hold an object they act on (not `work`); the version's member order, and
    whether the application class lists them otherwise. Every other field is left alone, which
    is what makes the pass cheap; the rules themselves are only in `_check`, `_when_unset` and
    `_aside_found`, and which fields they may act on is derived from the facts (`_works`)."""

    fields: tuple[tuple[FieldFacts, bool, object], ...]
    """(facts, work, what an unset value gets: `_when_unset`)"""
    order: _Reorder
    reorder: bool


_ELSEWHERE: Final = _Pass((), _Reorder(()), False)  # in `_check`'s table: a class the version lacks
_Target = tuple[int, str, dict[type, "_Pass | None"], Callable[[object], bool]]


Kind = Literal["type", "field", "required", "literal", "invalid"]


class ConversionError(ProtocolError):
    """A value a protocol version cannot express: `kinds` says why for each of `errors` (same
    order), `protocol_version` names the version."""

    def __init__(self, problems: list[tuple[Kind, str, str]], version: str) -> None:
        first_kind, first_path, first_message = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        text = f"protocol version {version} cannot express {first_path}: {first_message}{more}"
        super().__init__(text, first_path)
        self.type_name = "conversion"
        self.errors = tuple(ErrorDetail(path, message) for _, path, message in problems)
        self.kinds: tuple[Kind, ...] = tuple(kind for kind, _, _ in problems)
        self.kind: Kind = first_kind
        self.protocol_version = version


# What `_set_aside` needs of a wire class: the application type's members, and the fields the
# version has (attribute, member, application class of the value).
_Plan = tuple[frozenset[str], tuple[tuple[str, str, str | None], ...]]


@dataclasses.dataclass
class Converter:
    """The conversions of one distribution."""

    versions: tuple[str, ...]  # every version, oldest first; `FieldFacts` name them by index
    subpackage_version: Mapping[str, str]  # version subpackage -> its version
    wire_names: Mapping[str, Mapping[str, str]]  # application class -> version -> wire class
    app_names: Mapping[tuple[str, str], str]  # (version, wire class) -> application class
    fields: Mapping[str, tuple[FieldFacts, ...]]  # application class -> its fields' facts
    holds: Mapping[str, Mapping[str, tuple[str, ...]]]  # class -> attribute -> classes it holds
    order: Mapping[tuple[str, int], tuple[str, ...]]  # a version's member order where it differs
    app: ModuleType  # the application types (`app/models.py`)
    app_decoders: Mapping[str, Callable[[Any], Any]]  # application type -> builder (`app/codec`)
    dist: Versions  # the distribution's versions (`versions.py`)
    _plans: dict[tuple[int, type], _Plan] = dataclasses.field(default_factory=dict)
    """Per (version index, wire class): what `_set_aside` needs, made on first use."""
    _passes: dict[tuple[str, int, bool, bool], _Pass | None] = dataclasses.field(
        default_factory=dict
    )
    """Per (application class, version index, direction, full): `_Pass`, made on first use."""
    _dirty: dict[tuple[int, bool], frozenset[str]] = dataclasses.field(default_factory=dict)
    _tables: dict[tuple[int, bool], dict[type, _Pass | None]] = dataclasses.field(
        default_factory=dict
    )
    """Per (version index, full): class -> its `_Pass` towards the version (`_check`)."""
    _targets: dict[tuple[type, str, bool], _Target] = dataclasses.field(default_factory=dict)
    _in_tables: dict[int, dict[type, Any]] = dataclasses.field(default_factory=dict)
    """Per version index: class -> what `_aside_found` looks at (`_in_fields`)."""
    _holders: dict[type, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """Application class -> its attributes that can hold an application object."""
    _decoders: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Per version: the version's registry `Protocol` decoding into application types."""
    _modules: dict[str, _Modules] = dataclasses.field(default_factory=dict)

    def modules(self, version: str) -> _Modules:
        """The modules of `version`'s subpackage the conversions use, imported once (an
        unknown version raises `UnsupportedVersionError`)."""
        found = self._modules.get(version)
        if found is None:
            found = _Modules(*(self.dist.module(version, m) for m in _Modules._fields))
            self._modules[version] = found
        return found

    def version_of(self, wire_obj: object) -> str:
        """The version whose subpackage defines the class of `wire_obj`."""
        parts = type(wire_obj).__module__.split(".")
        version = self.subpackage_version.get(parts[-2]) if len(parts) >= 2 else None
        if version is None:
            raise TypeError(f"not a wire object of this distribution: {type(wire_obj).__name__}")
        return version

    def _app_class(self, wire_obj: object, version: str) -> type[Any]:
        wire = type(wire_obj).__name__
        name = self.app_names.get((version, wire), wire)
        cls = getattr(self.app, name, None)
        if not isinstance(cls, type) or version not in self.wire_names.get(name, {}):
            raise TypeError(f"{wire} of {version} has no application type")
        return cls

    def to_app(self, wire_obj: Any, *, tolerant: bool = False) -> Any:
        """The application object for a wire object of any version (its class tells which);
        `tolerant`: a value kept as `Unknown` that the application types do not know either
        stays one (see `parse_message`)."""
        version = self.version_of(wire_obj)
        index = self.versions.index(version)
        data = wire_obj.to_dict(validate=False)
        # Undeclared members of the version that the application type declares (a field of another
        # version) stay undeclared: set aside before decoding, put back into `extra` after.
        aside: list[tuple[tuple[str | int, ...], str, Any]] = []
        data = self._set_aside(wire_obj, data, index, (), aside)
        cls = self._app_class(wire_obj, version)
        app_obj = _tolerant_from_dict(cls, data) if tolerant else cls.from_dict(data)
        for path, key, value in aside:
            target = self._at(app_obj, path)
            (target if isinstance(target, dict) else target.extra)[key] = value
        return app_obj

    def _set_aside(
        self,
        w: Any,
        data: Any,
        index: int,
        path: tuple[str | int, ...],
        out: list[Any],
        app_class: str | None = None,
    ) -> Any:
        """Walk a wire value and its JSON together; where the version's object has an undeclared
        member that the application class declares, take it out of the JSON (into `out`). A value
        the version holds as plain JSON is walked with the application class's facts. Returns the
        JSON, a copy where plain JSON (which the wire object shares with its input) had to
        change."""
        if isinstance(w, (list, tuple)):
            if not isinstance(data, list):
                return data
            items = list(data)
            for i, (item, raw) in enumerate(zip(w, data)):
                if not isinstance(item, _SCALARS):
                    items[i] = self._set_aside(item, raw, index, (*path, i), out, app_class)
            changed = any(a is not b for a, b in zip(items, data))
            return items if changed else data
        if not isinstance(data, dict):
            return data
        plan = self._plans.get((index, type(w)))
        if plan is None:
            if not dataclasses.is_dataclass(w):
                if isinstance(w, dict) and app_class is not None:
                    return self._set_aside_json(w, data, index, path, out, app_class)
                return data
            plan = self._plans[(index, type(w))] = self._plan(index, type(w).__name__)
        declared, fields = plan  # `data` is the object's own to_dict(): a fresh dict
        extra = getattr(w, "extra", None)
        if extra:
            for key in extra:
                if key in declared and key in data and key != _META:  # `_meta` is every version's
                    out.append((path, key, data.pop(key)))
        for attr, wire, cls in fields:
            value = getattr(w, attr, None)
            if value is not None and value is not UNSET and not isinstance(value, _SCALARS):
                raw = data.get(wire)
                if raw is not None:
                    data[wire] = self._set_aside(value, raw, index, (*path, wire), out, cls)
        return data

    def _set_aside_json(
        self,
        w: dict[str, Any],
        data: dict[str, Any],
        index: int,
        path: tuple[str | int, ...],
        out: list[Any],
        app_class: str,
    ) -> dict[str, Any]:
        copy = dict(data)
        for f in self.fields.get(app_class, ()):
            if f.wire not in copy:
                continue
            if index not in f.present:
                out.append((path, f.wire, copy.pop(f.wire)))
            elif f.cls is not None and not isinstance(copy[f.wire], _SCALARS):
                copy[f.wire] = self._set_aside(
                    w.get(f.wire), copy[f.wire], index, (*path, f.wire), out, f.cls
                )
        same = copy.keys() == data.keys() and all(copy[k] is data[k] for k in copy)
        return data if same else copy

    def _plan(self, index: int, wire: str) -> _Plan:
        """The `_Plan` of a wire class of the version at `index`."""
        name = self.app_names.get((self.versions[index], wire), wire)
        facts = self.fields.get(name, ())
        own = tuple((f.attr, f.wire, f.cls) for f in facts if index in f.present)
        return frozenset(f.wire for f in facts), own

    def _at(self, obj: Any, path: tuple[str | int, ...]) -> Any:
        """The object at a JSON path inside an application object."""
        for step in path:
            if isinstance(step, int) or not dataclasses.is_dataclass(obj):
                obj = obj[step]
                continue
            attr = next(f.attr for f in self.fields[type(obj).__name__] if f.wire == step)
            obj = getattr(obj, attr)
        return obj

    # -- the passes: which fields of which class the rules may act on in a version -------------

    def _pass(self, name: str, index: int, out: bool, full: bool = False) -> _Pass | None:
        """The `_Pass` of application class `name` in the version at `index`, towards the
        version (`out`: `to_wire`, `serialize`) or from it (`to_app` of a message); None for a
        class without facts, or one the version lacks (towards it, its schema says why).
        `full`: every field, each as work."""
        key = (name, index, out, full)
        if key in self._passes:
            return self._passes[key]
        facts = self.fields.get(name)
        if facts is None or (out and self.versions[index] not in self.wire_names.get(name, {})):
            self._passes[key] = None
            return None
        dirty = self._dirty_classes(index, out)
        holds = self.holds.get(name, {})
        fields = []
        for f in facts:
            work = full or self._works(name, f, index, out)
            if work or any(c in dirty for c in holds.get(f.attr, ())):
                fields.append((f, work, _when_unset(f, index)))
        declared = tuple(f.wire for f in facts if index in f.declared)
        order = self.order.get((name, index), declared)
        made = _Pass(tuple(fields), _Reorder(order), (name, index) in self.order)
        self._passes[key] = made
        return made

    def _works(self, name: str, f: FieldFacts, index: int, out: bool) -> bool:
        """Whether the rules may act on field `f` of `name` in the version at `index`: towards
        it, anything `_check` does more than recurse; from it, a field the version does not
        declare (its member is an undeclared one there: `to_app` keeps it in `extra`)."""
        if index not in f.declared:
            return out or f.wire != _META
        if not out:
            return False
        having = {self.versions.index(k) for k in self.wire_names.get(name, {})}
        optional = not having <= set(f.required)  # some version lacks it: it may be unset
        return (optional and index in f.required) or index in f.literals

    def _dirty_classes(self, index: int, out: bool) -> frozenset[str]:
        """The application classes whose objects the rules may act on in the version at
        `index` (their own fields, or objects they hold, at any depth)."""
        found = self._dirty.get((index, out))
        if found is not None:
            return found
        version = self.versions[index]
        dirty = set()
        for name, facts in self.fields.items():
            lacked = version not in self.wire_names.get(name, {})  # the two passes decide
            works = any(self._works(name, f, index, out) for f in facts)
            if lacked or works or (name, index) in self.order:
                dirty.add(name)
        grew = True
        while grew:  # holders of dirty classes, to a fixed point (recursive types)
            grew = False
            for name, holds in self.holds.items():
                if name not in dirty and any(c in dirty for cs in holds.values() for c in cs):
                    if out and version not in self.wire_names.get(name, {}):
                        continue  # towards a version that lacks it, its schema says why
                    dirty.add(name)
                    grew = True
        made = self._dirty[(index, out)] = frozenset(dirty)
        return made

    # -- towards a version ---------------------------------------------------------------------

    def to_wire(
        self, app_obj: Any, version: str, *, defaults: bool = False, strict: bool = True
    ) -> Any:
        """`version`'s wire object for an application object, or `ConversionError`; `defaults`:
        give the members of `DEFAULTS` that the version requires their default when unset (what
        `serialize` sends; a conversion of a received value keeps it as it came); `strict=False`:
        leave out the fields the version lacks (logged)."""
        self._own(app_obj)
        return self._to_wire(app_obj, version, defaults, strict, quiet=False)

    def _own(self, obj: object) -> None:
        """Raise `ProtocolError` naming both modules when `obj` is no application object but
        one of a class of the same name elsewhere (a version's wire class, most often)."""
        cls = type(obj)
        mine = getattr(self.app, cls.__name__, None)
        if mine is cls or not isinstance(obj, Model):
            return
        where = f"{cls.__module__}.{cls.__qualname__}"
        if mine is None:
            message = f"{where} is no application type of {self.app.__name__}"
        else:
            message = (f"{where} is not {mine.__module__}.{mine.__qualname__}: the session and "
                       "serialize take application types (to_app converts a wire object)")  # fmt: skip
        raise ProtocolError(message)

    def _to_wire(
        self, app_obj: Any, version: str, defaults: bool, strict: bool, quiet: bool
    ) -> Any:
        wire, data, problems, _ = self._converted(
            app_obj, version, defaults, strict=strict, quiet=quiet
        )
        cls = getattr(self.modules(version).models, wire)
        try:
            return cls.from_dict(data)
        except ValidationError:
            pass
        wire, data, problems, _ = self._converted(
            app_obj, version, defaults, full=True, strict=strict, quiet=True
        )
        try:
            return cls.from_dict(data)
        except ValidationError as err:
            raise _refused(problems, err, version) from None

    def _wire_json(self, app_obj: Any, version: str, strict: bool = True) -> dict[str, Any]:
        """What `to_wire(app_obj, version, defaults=True).to_dict()` gives, in one pass: the
        application object's JSON with the rules applied, validated once as the version's type
        (no wire object is built). A value the version refuses, one its fast check cannot tell
        (an undeclared member that is not JSON, the nesting depth), or one holding an object of
        a class the version lacks, goes the way of `to_wire`, which says why."""
        _, data, _, foreign = self._converted(app_obj, version, True, strict=strict)
        check = self._targets[(type(app_obj), version, False)][3]
        try:
            valid = not foreign and check(data) and self._extras_are_json(app_obj)
        except RecursionError:
            valid = False
        if valid:
            return data
        wire = self._to_wire(app_obj, version, True, strict, quiet=True)  # logged above
        out: dict[str, Any] = wire.to_dict(validate=False)
        return out

    def _converted(
        self,
        app_obj: Any,
        version: str,
        defaults: bool,
        *,
        full: bool = False,
        strict: bool = True,
        quiet: bool = False,
    ) -> tuple[str, dict[str, Any], list[tuple[Kind, str, str]], bool]:
        """(the version's wire class, the JSON with the rules applied, the problems left, only
        "required" ones: the version's schema decides, whether it holds an object of a class
        the version lacks: the version's classes decide where its members go) of an
        application object. The rules look at the fields the version may need them for
        (`_pass`), or at every field (`full`: once the version's schema refused the value, a
        required field set to `UNSET` by hand explains it best). `strict=False`: a field the
        version lacks is left out, and logged (unless `quiet`: logged already)."""
        target = self._targets.get((type(app_obj), version, full))
        if target is None:
            target = self._target(type(app_obj).__name__, version, full)
            self._targets[(type(app_obj), version, full)] = target
        index, wire, table, _ = target
        problems: list[tuple[Kind, str, str]] = []
        constants: list[tuple[tuple[str | int, ...], str, Any]] = []
        self._check(app_obj, (), index, problems, constants, table, full)
        if problems and not strict:  # `_check` marked each lacked field `_DROP` as well
            left = [p[1] for p in problems if p[0] == "field"]
            if left and not quiet:
                _log.debug("protocol version %s has no %s: left out", version, ", ".join(left))
            problems = [p for p in problems if p[0] != "field"]
        if problems and any(p[0] != "required" for p in problems):
            if not full:  # every problem, in field order: those of every field
                return self._converted(app_obj, version, defaults, full=True, strict=strict,
                                       quiet=True)  # fmt: skip
            raise ConversionError(problems, version)  # a value the version has no place for
        data: dict[str, Any] = app_obj.to_dict(validate=False)
        foreign = False
        for path, key, value in constants:  # a constant this version requires: it has one value
            if value is _FOREIGN:
                foreign = True
                continue
            at: Any = data
            if isinstance(value, _Reorder):
                for step in path[:-1]:
                    at = at[step]
                if not path:
                    data = _reordered(data, value.order)
                elif isinstance(at[path[-1]], dict):
                    at[path[-1]] = _reordered(at[path[-1]], value.order)
                continue
            for step in path:
                at = at[step]
            if value is _DROP:
                at.pop(key, None)
            elif isinstance(value, _Default):
                if defaults:
                    at[key] = value.value
            else:
                at[key] = value
        return wire, data, problems, foreign

    def _target(self, name: str, version: str, full: bool) -> _Target:
        """(version index, wire class, `_check`'s table, the version's fast check of the wire
        class) for application class `name` in `version`; an unknown version raises
        `UnsupportedVersionError`, a class the version lacks `ConversionError`."""
        self.modules(version)
        index = self.versions.index(version)
        wire = self.wire_names.get(name, {}).get(version)
        if wire is None:
            message = f"type {name} does not exist in this version"
            raise ConversionError([("type", "$", message)], version)
        table = self._tables.get((index, full))
        if table is None:
            table = self._tables[(index, full)] = {}
        validators = self.modules(version).validators
        entry = validators.TYPES.get(wire)
        if entry is not None:
            return index, wire, table, entry[0]
        return index, wire, table, lambda value: bool(validators.is_valid(wire, value))

    def _check(
        self,
        obj: Any,
        steps: tuple[str | int, ...],
        index: int,
        problems: list[tuple[Kind, str, str]],
        constants: list[tuple[tuple[str | int, ...], str, Any]],
        table: dict[type, _Pass | None],
        full: bool,
    ) -> None:
        """Apply the rules to the application object `obj` at `steps` (members, indexes and
        `_Key`s from the top) for the version at `index`: the problems, and the `constants`
        (fill, drop, reorder) for `_converted` to apply to its JSON. `table`: the passes met so
        far by class."""
        cls = type(obj)
        if cls is list or cls is tuple or isinstance(obj, (list, tuple)):
            for i, item in enumerate(obj):
                if not isinstance(item, _SCALARS):
                    self._check(item, (*steps, i), index, problems, constants, table, full)
            return
        if isinstance(obj, dict):
            for k, v in obj.items():
                if not isinstance(v, _SCALARS):
                    at = (*steps, _Key(k))
                    self._check(v, at, index, problems, constants, table, full)
            return
        if cls in table:
            plan = table[cls]
        else:
            plan = self._pass(cls.__name__, index, True, full) if isinstance(obj, Model) else None
            if plan is None and cls.__name__ in self.fields:
                plan = _ELSEWHERE  # a union member the version lacks: its schema says ("invalid")
            table[cls] = plan
        if plan is None:
            return  # not an application object
        if plan is _ELSEWHERE:
            constants.append((steps, "", _FOREIGN))
            return
        touched = plan.reorder
        for f, work, unset in plan.fields:
            value = getattr(obj, f.attr)
            if not work:
                if value is not UNSET and not isinstance(value, _SCALARS):
                    at = (*steps, f.wire)
                    self._check(value, at, index, problems, constants, table, full)
                continue
            if value is UNSET:
                if unset is _REQUIRED:
                    problems.append(("required", _path(steps, f.wire), "required field is absent"))
                elif unset is not _NOTHING:
                    constants.append((steps, f.wire, unset))
                    touched = True
                continue
            if f.wire == _META and index not in f.declared:
                touched = True  # an undeclared member there: the version writes it last
                continue  # any MCP object may carry it: an undeclared member here
            if index not in f.declared and f.required and index not in f.required:
                constants.append((steps, f.wire, _DROP))  # other versions require it (`resultType`)
                continue
            if index not in f.present:
                problems.append(("field", _path(steps, f.wire), "this version has no such field"))
                constants.append((steps, f.wire, _DROP))  # applied only when not `strict`
                continue
            if index not in f.declared:
                touched = True  # taken by an index signature there: the version writes it last
            allowed = f.literals.get(index)
            if allowed is not None:
                for s in value if isinstance(value, (list, tuple)) else (value,):
                    if isinstance(s, str) and s not in allowed:
                        message = f"{s!r} is not a value this version knows"
                        problems.append(("literal", _path(steps, f.wire), message))
            if not isinstance(value, _SCALARS):
                self._check(value, (*steps, f.wire), index, problems, constants, table, full)
        if touched:
            constants.append((steps, "", plan.order))

    def _extras_are_json(self, obj: Any) -> bool:
        """Whether the undeclared members (`extra`) of every application object in `obj` are
        JSON: the version's fast checks leave them to its decoders, which `_wire_json` skips.
        A walk over the objects only (the fields that can hold one), not their JSON."""
        holders = self._holders
        stack = [obj]
        pop, push = stack.pop, stack.append
        while stack:
            o = pop()
            t = type(o)
            attrs = holders.get(t)
            if attrs is not None:  # an application object: the common case first
                extra = getattr(o, "extra", None)
                if extra and not is_json(extra):
                    return False
                for attr in attrs:
                    value = getattr(o, attr)
                    if value is not UNSET and value is not None:
                        push(value)
            elif t is list or t is tuple:
                stack.extend(o)
            elif t is dict:
                stack.extend(o.values())
            elif isinstance(o, Model):
                holders[t] = tuple(self.holds.get(t.__name__, {}))
                push(o)
        return True

    # -- from a version: JSON-RPC messages in application types ----------------------------------

    def _aside_found(self, obj: Any, index: int) -> bool:
        """Whether an application object built straight from a message of the version at
        `index` holds what `to_app` would have treated otherwise: a member that version does
        not declare (`to_app` keeps it in `extra`), or a class the version lacks."""
        table = self._in_tables.get(index)
        if table is None:
            table = self._in_tables[index] = {}
        stack = [obj]
        while stack:
            o = stack.pop()
            t = type(o)
            if t is list or t is tuple:
                stack.extend(o)
                continue
            if t is dict:
                stack.extend(o.values())
                continue
            if t in table:
                fields = table[t]
            else:
                fields = table[t] = self._in_fields(o, index)
            if fields is None:
                continue  # no application object, or one with nothing to look at
            if fields is _LACKED:
                return True
            for attr, work in fields:
                value = getattr(o, attr)
                if value is UNSET:
                    continue
                if work:
                    return True
                if type(value) not in _SCALAR_TYPES:
                    stack.append(value)
        return False

    def _in_fields(self, obj: object, index: int) -> tuple[tuple[str, bool], ...] | None:
        """For `_aside_found`: (attribute, work) of the fields of `obj`'s class to look at in a
        message of the version at `index`; `_LACKED` for a class the version lacks."""
        if not isinstance(obj, Model):
            return None
        name = type(obj).__name__
        if self.versions[index] not in self.wire_names.get(name, {}):
            return _LACKED if name in self.fields else None
        plan = self._pass(name, index, False)
        if plan is None or not plan.fields:
            return None
        return tuple((f.attr, work) for f, work, _ in plan.fields)

    def _decode(self, version: str) -> Callable[[str, object], Any]:
        """The version's `codec.decode` (validate as the named type, build) building application
        objects: validated once by the version's validators, built by the application type's
        decoder straight from the JSON. Where that would not give what `to_app` of the
        version's object gives (see `_aside_found`), the two passes do it."""
        index = self.versions.index(version)
        validators, codec = self.modules(version).validators, self.modules(version).codec
        checks: Mapping[str, Any] = validators.TYPES
        app_names = {wire: app for (v, wire), app in self.app_names.items() if v == version}

        def two_passes(name: str, value: object) -> Any:
            return self.to_app(codec.decode(name, value))

        def decode(name: str, value: object) -> Any:
            build = self.app_decoders.get(app_names.get(name, name))
            entry = checks.get(name)
            if (
                build is None
                or entry is None
                or version not in self.wire_names.get(app_names.get(name, name), {name: None})
            ):
                return two_passes(name, value)
            try:
                valid = entry[0](value)
            except RecursionError:
                valid = False
            if not valid:
                validators.validate(name, value)  # the version's errors, with JSON paths
                return two_passes(name, value)
            try:
                obj = build(value)
            except Exception:  # noqa: BLE001 - not JSON, too deep: the two passes tell
                return two_passes(name, value)
            return two_passes(name, value) if self._aside_found(obj, index) else obj

        return decode

    def _protocol(self, version: str) -> Any:
        """The version's registry `Protocol`, decoding into application types (an unknown
        version raises `UnsupportedVersionError`)."""
        found = self._decoders.get(version) if isinstance(version, str) else None
        if found is None:
            protocol = self.modules(version).registry._PROTOCOL
            validators = self.modules(version).validators

            def validate(name: str, value: object) -> None:  # the envelope: errors only if any
                if not validators.is_valid(name, value):
                    validators.validate(name, value)

            found = dataclasses.replace(protocol, decode=self._decode(version), validate=validate)
            self._decoders[version] = found
        return found

    def parse_message(
        self,
        value: object,
        *,
        version: str,
        direction: Literal["client_to_server", "server_to_client"] | None = None,
        tolerant: bool = False,
    ) -> Message[Any]:
        """Validate and decode one JSON-RPC message with the types of the negotiated `version`
        (a method it lacks: `ProtocolError`), as application types: one pass, validated once
        by `version`'s validators (what `to_app` of the version's object gives). `tolerant`:
        what the version does not know of a union or an enum is kept (the version registry's
        `parse_message`, then `to_app`: two passes); where the application types know it (a
        later version's content block), it comes as their class, else as the `Unknown`."""
        if tolerant:
            wire = self.dist.parse_message(
                value, version=version, direction=direction, tolerant=True
            )
            obj = self.to_app(wire.obj, tolerant=True)
            return Message(wire.kind, wire.method, wire.id, obj)
        message: Message[Any] = self._protocol(version).parse_message(value, direction=direction)
        return message

    def parse_result(
        self, method: str, value: object, *, version: str, tolerant: bool = False
    ) -> Any:
        """The result of a `method` request, decoded with `version`'s types, as application
        types, in one pass (`tolerant` as in `parse_message`: two passes)."""
        if tolerant:
            wire = self.dist.parse_result(method, value, version=version, tolerant=True)
            return self.to_app(wire, tolerant=True)
        return self._protocol(version).parse_result(method, value)

    def serialize(
        self, app_obj: Any, *, version: str, method: str | None = None, strict: bool = True
    ) -> Any:
        """The JSON of an application object in the negotiated `version`: a request or notification
        as the version's JSON-RPC message (its `jsonrpc` and `id` go to the envelope where the
        version's class has no such field), anything else (a result, with the `method` it answers)
        as the version's value. A method the version lacks raises `ProtocolError`. One pass:
        the rules applied to the application object's JSON, validated once as the version's type
        (what `to_wire(app_obj, version, defaults=True)` would hold). `strict=False`: a field
        the version lacks is left out (one debug log line) instead of raising."""
        self._own(app_obj)
        name = method if method is not None else getattr(app_obj, "method", None)
        if isinstance(name, str) and version not in self.dist.method_versions.get(name, ()):
            message = f"method {name!r} is not defined in protocol version {version}"
            raise ProtocolError(message, "$.method", method=name)
        if method is not None or not isinstance(name, str):
            return self._wire_json(app_obj, version, strict)
        index = self.versions.index(version)
        facts = self.fields.get(type(app_obj).__name__, ())
        envelope = {
            f.attr: getattr(app_obj, f.attr)
            for f in facts
            if f.wire in _ENVELOPE and index not in f.present
        }
        if envelope:
            app_obj = dataclasses.replace(app_obj, **dict.fromkeys(envelope, UNSET))
        data = self._wire_json(app_obj, version, strict)
        registry = self.modules(version).registry
        if self.dist.method_info(name, version).kind == "notification":
            return registry.notification(data, validate=False)
        msg_id = envelope.get("id", UNSET)
        return registry.request(data, id=None if msg_id is UNSET else msg_id, validate=False)


def _refused(
    problems: list[tuple[Kind, str, str]], err: ValidationError, version: str
) -> ConversionError:
    """The version's schema refused the converted value: a required field absent explains it
    best; the version's own errors otherwise."""
    found = problems or [("invalid", e.path, e.message) for e in err.errors]
    return ConversionError(found, version)


def _when_unset(f: FieldFacts, index: int) -> object:
    """What `_check` does with field `f` unset in the version at `index`: a constant field the
    version requires gets its one value, a member of `DEFAULTS` it requires its default (a
    `_Default`), any other it requires is a problem (`_REQUIRED`); else nothing (`_NOTHING`)."""
    if index in f.required and f.const is not None:
        return f.const
    if index in f.required and f.wire in DEFAULTS:
        return _Default(DEFAULTS[f.wire])
    if index in f.required:
        return _REQUIRED
    return _NOTHING


_LACKED: Final[tuple[tuple[str, bool], ...]] = (("", True),)  # `_in_fields`: not in the version
_REQUIRED: Final = object()
_NOTHING: Final = object()


class _Key(str):
    """A step into a dict (not a member of an object): `_path` writes it as `['key']`."""

    __slots__ = ()


def _path(steps: tuple[str | int, ...], member: str) -> str:
    """The JSON path of `member` of the object at `steps`, as `ErrorDetail` writes paths."""
    parts = ["$"]
    for s in steps:
        parts.append(
            f"[{s}]" if isinstance(s, int) else f"[{str(s)!r}]" if isinstance(s, _Key) else f".{s}"
        )
    return "".join(parts) + f".{member}"


def _reordered(data: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    """`data` with the members of `order` first, in that order, then the others as they are."""
    head = {k: data[k] for k in order if k in data}
    if len(head) != len(data):
        head.update((k, v) for k, v in data.items() if k not in head)
    return head


_SCALARS: Final = (str, int, float, bool)
_SCALAR_TYPES: Final = frozenset({str, int, float, bool})
_ENVELOPE: Final = frozenset({"jsonrpc", "id"})


def _tolerant_from_dict(cls: Any, data: Any) -> Any:
    """`cls.from_dict(data)`, keeping what the application types do not know as `Unknown`."""
    try:
        return cls.from_dict(data)
    except ValidationError as err:
        found = tolerate(data, err.errors)
        if found is None:
            raise
        patched, kept = found
        try:
            app_obj = cls._from_valid(patched)
        except Exception:  # noqa: BLE001 - a shape the builders cannot take: strict's error
            raise err from None
        warn_unknown(cls.__name__, kept, "in the application types")
        return app_obj
