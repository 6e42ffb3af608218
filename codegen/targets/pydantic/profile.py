"""Profiles: the reviewed conventions of one consumer of the pydantic target, as data.

A profile is a JSON file (`schemas/profiles/NAME.json`, or any FILE) with one section per
protocol version (`"versions": {"2025-11-25": {...}}`) and shared settings under `"all"`, merged
under each section (a version's own key wins). Every setting deviates from the faithful default
and says why (`"reason"`); an entry that matches nothing in its version's schema is an error
naming it (checked by the views, which know what exists: `Profile.stale`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import Diagnostic, Location, SchemaError
from ...naming import Overrides
from ...reading import read_json

_PACKAGE = Path(__file__).resolve().parents[2]  # codegen/

# The settings a section may have, and the JSON type each one's "value" takes.
_SCALARS = {
    "base": str,  # "module:Class": the base class of every model (imported)
    "optional": str,  # "missing" (faithful: absent is MISSING, null only where allowed) | "none"
    "class_order": str,  # "source" (schema.ts order, faithful) | "alphabetical"
    "extra": str,  # the `extra` policy of classes not on the allow-list ("allow" is faithful)
    "const_defaults": bool,  # an optional one-literal field defaults to its literal
    "header": list,  # the module's first lines ({version}, {sha256} are filled in)
}
_MAPS = (
    "names",  # inline-type path -> class name (the `--names` format)
    "open_classes",  # class -> reason: keeps `extra="allow"` under an `extra` policy
    "alias_classes",  # alias -> reason: a one-reference alias made a subclass, not a RootModel
    "union_aliases",  # name -> {"members": [class...], "reason"}: `Name = A | B` at the end
    "links",  # text -> {"to": text, "reason"}: rewritten in every docstring
    "leniencies",  # "Class.field" -> {"annotation": python type, "reason"}
)
KNOWN = frozenset(_SCALARS) | frozenset(_MAPS)
_CHOICES = {
    "optional": ("missing", "none"),
    "class_order": ("source", "alphabetical"),
    "extra": ("allow", "ignore", "forbid"),
}


def profiles_dir() -> Path:
    """`codegen/profiles` when installed from the wheel, else the checkout's `schemas/profiles`."""
    for candidate in (_PACKAGE / "profiles", _PACKAGE.parent / "schemas" / "profiles"):
        if candidate.is_dir():
            return candidate
    return _PACKAGE.parent / "schemas" / "profiles"


def known_profiles() -> list[str]:
    return sorted(p.stem for p in profiles_dir().glob("*.json"))


@dataclass(frozen=True)
class Section:
    """One version's settings (scalars as their values; maps as `key -> entry`), and where each
    key is written in the profile file (for located errors)."""

    file: str
    version: str
    settings: dict[str, Any]
    lines: dict[str, int] = field(default_factory=dict)

    def get(self, key: str, default: Any) -> Any:
        return self.settings.get(key, default)

    def entries(self, key: str) -> dict[str, Any]:
        value: dict[str, Any] = self.settings.get(key, {})
        return value

    def loc(self, key: str) -> Location:
        return Location(self.file, self.lines.get(key, 1), 1)

    def overrides(self) -> Overrides:
        """The inline-type names, in the one format of `--names` (`codegen/naming.py`)."""
        names = {k: str(v) for k, v in self.entries("names").items()}
        return Overrides(names, self.file, {k: self.lines.get(k, 1) for k in names})

    def stale(self, key: str, used: set[str]) -> list[Diagnostic]:
        """Entries of map `key` that matched nothing: one located error each."""
        return [
            Diagnostic(self.loc(k), f"profile entry {key}['{k}'] matches nothing in {self.version}")
            for k in sorted(set(self.entries(key)) - used)
        ]


@dataclass(frozen=True)
class Profile:
    name: str
    file: str
    data: dict[str, Any]
    text: str

    def section(self, version: str | None) -> Section:
        versions = self.data.get("versions", {})
        if version not in versions:
            raise SchemaError([Diagnostic(Location(self.file, 1, 1), (
                f"profile '{self.name}' has no section for protocol version {version}"
                f" (it has: {', '.join(sorted(versions))})"
            ))])  # fmt: skip
        merged = {**self.data.get("all", {}), **versions[version]}
        settings: dict[str, Any] = {}
        for key, entry in merged.items():
            settings[key] = entry["value"] if key in _SCALARS else entry
        return Section(self.file, str(version), settings, _lines(self.text, merged))


def _lines(text: str, merged: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, entry in merged.items():
        for k in [key, *(entry if key in _MAPS else ())]:
            at = text.find(json.dumps(k))
            out.setdefault(k, text.count("\n", 0, at) + 1 if at >= 0 else 1)
    return out


def load_profile(spec: str) -> Profile:
    """A profile by name (shipped with the package) or by path; a malformed one is a located
    error, exit 2."""
    path = Path(spec)
    if not (spec.endswith(".json") or path.is_file()):
        path = profiles_dir() / f"{spec}.json"
        if not path.is_file():
            raise SchemaError([Diagnostic(Location(spec, 1, 1), (
                f"unknown profile '{spec}' (known: {', '.join(known_profiles())}; or give a FILE)"
            ))])  # fmt: skip
    text, data = read_json(str(path), "profile")
    problems = list(_check(str(path), text, data))
    if problems:
        raise SchemaError(problems)
    return Profile(str(data.get("profile", path.stem)), str(path), data, text)


def _check(file: str, text: str, data: Any) -> list[Diagnostic]:
    def at(key: str, message: str) -> Diagnostic:
        pos = text.find(json.dumps(key))
        return Diagnostic(
            Location(file, text.count("\n", 0, pos) + 1 if pos >= 0 else 1, 1), message
        )

    if not isinstance(data, dict) or not isinstance(data.get("versions"), dict):
        return [at("versions", 'a profile is an object with "versions": {VERSION: {...}}')]
    out: list[Diagnostic] = []
    sections = [("all", data.get("all", {}))] + list(data["versions"].items())
    for name, section in sections:
        if not isinstance(section, dict):
            out.append(at(name, f"profile section '{name}' must be an object"))
            continue
        for key, entry in section.items():
            if key not in KNOWN:
                out.append(
                    at(key, f"unknown profile setting '{key}' (known: {', '.join(sorted(KNOWN))})")
                )
            elif key in _SCALARS:
                if not isinstance(entry, dict) or not isinstance(entry.get("value"), _SCALARS[key]):
                    out.append(
                        at(
                            key,
                            f'profile setting \'{key}\' needs a "value" ({_SCALARS[key].__name__}) and a "reason"',
                        )
                    )
                elif key in _CHOICES and entry["value"] not in _CHOICES[key]:
                    choices = ", ".join(_CHOICES[key])
                    out.append(at(key, f"profile setting '{key}' is one of: {choices}"))
                elif not isinstance(entry.get("reason"), str):
                    out.append(at(key, f"profile setting '{key}' needs a \"reason\""))
            elif not isinstance(entry, dict):
                out.append(at(key, f"profile setting '{key}' must map names to entries"))
            elif key != "names":
                for k, v in entry.items():
                    if not isinstance(v, (dict, str)) or (
                        isinstance(v, dict) and not isinstance(v.get("reason"), str)
                    ):
                        out.append(at(k, f"profile entry {key}['{k}'] needs a \"reason\""))
            elif not all(isinstance(v, str) for v in entry.values()):
                out.append(at(key, "profile names must map inline-type paths to class names"))
    return out
