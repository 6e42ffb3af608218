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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any, Final, Literal, NamedTuple

from ._protocol import Message, ProtocolError
from ._runtime import JSON, UNSET, ErrorDetail, ValidationError
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

_META: Final = "_meta"  # any MCP object may carry it: an undeclared member where not declared
_DROP: Final = object()  # in `constants`: leave this member out


class _Default(NamedTuple):
    """In `constants`: a default that `to_wire(..., defaults=True)` gives."""

    value: JSON


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
    app: ModuleType  # the application types (`app/models.py`)
    dist: Versions  # the distribution's versions (`versions.py`)
    _plans: dict[tuple[int, type], _Plan] = dataclasses.field(default_factory=dict)
    """Per (version index, wire class): what `_set_aside` needs, made on first use."""

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

    def to_wire(self, app_obj: Any, version: str, *, defaults: bool = False) -> Any:
        """`version`'s wire object for an application object, or `ConversionError`; `defaults`:
        give the members of `DEFAULTS` that the version requires their default when unset (what
        `serialize` sends; a conversion of a received value keeps it as it came)."""
        self.dist.bindings(version)  # an unknown version: UnsupportedVersionError
        index = self.versions.index(version)
        name = type(app_obj).__name__
        wire = self.wire_names.get(name, {}).get(version)
        if wire is None:
            message = f"type {name} does not exist in this version"
            raise ConversionError([("type", "$", message)], version)
        problems: list[tuple[Kind, str, str]] = []
        constants: list[tuple[tuple[str | int, ...], str, Any]] = []
        self._check(app_obj, "$", (), index, problems, constants)
        hard = [p for p in problems if p[0] != "required"]
        if hard:  # a value the version has no place for: it would pass as an undeclared member
            raise ConversionError(problems, version)
        models = self.dist.module(version, "models")
        data = app_obj.to_dict(validate=False)
        for path, key, value in constants:  # a constant this version requires: it has one value
            target = data
            for step in path:
                target = target[step]
            if value is _DROP:
                target.pop(key, None)
            elif isinstance(value, _Default):
                if defaults:
                    target[key] = value.value
            else:
                target[key] = value
        try:
            return getattr(models, wire).from_dict(data)
        except ValidationError as err:
            # a required field absent explains it best; the version's own errors otherwise
            found = problems or [("invalid", e.path, e.message) for e in err.errors]
            raise ConversionError(found, version) from None

    def _check(
        self,
        obj: Any,
        path: str,
        steps: tuple[str | int, ...],
        index: int,
        problems: list[tuple[Kind, str, str]],
        constants: list[tuple[tuple[str | int, ...], str, Any]],
    ) -> None:
        if isinstance(obj, (list, tuple)):
            for i, item in enumerate(obj):
                self._check(item, f"{path}[{i}]", (*steps, i), index, problems, constants)
            return
        if isinstance(obj, dict):
            for k, v in obj.items():
                self._check(v, f"{path}[{k!r}]", (*steps, k), index, problems, constants)
            return
        if not dataclasses.is_dataclass(obj):
            return
        facts = self.fields.get(type(obj).__name__)
        if facts is None or self.versions[index] not in self.wire_names.get(type(obj).__name__, {}):
            return  # a union member the version lacks: its schema says so ("invalid")
        for f in facts:
            value = getattr(obj, f.attr)
            where = f"{path}.{f.wire}"
            if value is UNSET:
                if index in f.required and f.const is not None:
                    constants.append((steps, f.wire, f.const))
                elif index in f.required and f.wire in DEFAULTS:
                    constants.append((steps, f.wire, _Default(DEFAULTS[f.wire])))
                elif index in f.required:
                    problems.append(("required", where, "required field is absent"))
                continue
            if f.wire == _META and index not in f.declared:
                continue  # any MCP object may carry it: an undeclared member here
            if index not in f.declared and f.required and index not in f.required:
                constants.append((steps, f.wire, _DROP))  # other versions require it (`resultType`)
                continue
            if index not in f.present:
                problems.append(("field", where, "this version has no such field"))
                continue
            allowed = f.literals.get(index)
            if allowed is not None:
                for s in value if isinstance(value, (list, tuple)) else (value,):
                    if isinstance(s, str) and s not in allowed:
                        problems.append(
                            ("literal", where, f"{s!r} is not a value this version knows")
                        )
            self._check(value, where, (*steps, f.wire), index, problems, constants)

    # -- JSON-RPC messages in application types -----------------------------------------------

    def parse_message(
        self,
        value: object,
        *,
        version: str,
        direction: Literal["client_to_server", "server_to_client"] | None = None,
        tolerant: bool = False,
    ) -> Message[Any]:
        """Validate and decode one JSON-RPC message with the types of the negotiated `version`
        (a method it lacks: `ProtocolError`), then convert it to application types. `tolerant`:
        what the version does not know of a union or an enum is kept (the version registry's
        `parse_message`); where the application types know it (a later version's content
        block), it comes as their class, else as the `Unknown`."""
        message = self.dist.parse_message(
            value, version=version, direction=direction, tolerant=tolerant
        )
        obj = self.to_app(message.obj, tolerant=tolerant)
        return Message(message.kind, message.method, message.id, obj)

    def parse_result(
        self, method: str, value: object, *, version: str, tolerant: bool = False
    ) -> Any:
        """The result of a `method` request, decoded with `version`'s types, as application
        types (`tolerant` as in `parse_message`)."""
        wire = self.dist.parse_result(method, value, version=version, tolerant=tolerant)
        return self.to_app(wire, tolerant=tolerant)

    def serialize(self, app_obj: Any, *, version: str, method: str | None = None) -> Any:
        """The JSON of an application object in the negotiated `version`: a request or notification
        as the version's JSON-RPC message (its `jsonrpc` and `id` go to the envelope where the
        version's class has no such field), anything else (a result, with the `method` it answers)
        as the version's value. A method the version lacks raises `ProtocolError`."""
        name = method if method is not None else getattr(app_obj, "method", None)
        if isinstance(name, str) and version not in self.dist.versions_of(name):
            message = f"method {name!r} is not defined in protocol version {version}"
            raise ProtocolError(message, "$.method", method=name)
        # to_wire validated the version's object: encoding it again needs no second check
        if method is not None or not isinstance(name, str):
            return self.to_wire(app_obj, version, defaults=True).to_dict(validate=False)
        index = self.versions.index(version)
        facts = self.fields.get(type(app_obj).__name__, ())
        envelope = {
            f.attr: getattr(app_obj, f.attr)
            for f in facts
            if f.wire in _ENVELOPE and index not in f.present
        }
        if envelope:
            app_obj = dataclasses.replace(app_obj, **dict.fromkeys(envelope, UNSET))
        wire = self.to_wire(app_obj, version, defaults=True)
        registry = self.dist.registry(version)
        if self.dist.method_info(name, version).kind == "notification":
            return registry.notification(wire, validate=False)
        msg_id = envelope.get("id", UNSET)
        return registry.request(wire, id=None if msg_id is UNSET else msg_id, validate=False)


_SCALARS: Final = (str, int, float, bool)
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
