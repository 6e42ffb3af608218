"""The pins shipped with the package (pins.json): which released versions exist, the commit each
is fetched at, and the sha256 of every file. Data only; nothing here touches the disk elsewhere
or the network."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from ..records import record

PINS_FILE = Path(__file__).resolve().parent / "pins.json"
DRAFT = "draft"


@record
class Pin:
    """One version's files. `ref` is a commit for a released version, the default branch for
    the draft; `files` maps a path relative to `schema/<version>/` to its sha256 (None: floats),
    `sizes` to its size in bytes (released versions only)."""

    name: str
    ref: str
    json_dialect: str
    files: tuple[tuple[str, str | None], ...]
    sizes: tuple[tuple[str, int], ...] = ()

    @property
    def floats(self) -> bool:
        return self.name == DRAFT

    def sha256(self, path: str) -> str | None:
        return dict(self.files).get(path)

    def size(self, path: str) -> int | None:
        return dict(self.sizes).get(path)


def _released(entry: dict[str, Any]) -> Pin:
    files = tuple((str(p), str(h)) for p, h in entry["files"].items())
    sizes = tuple((str(p), int(n)) for p, n in entry["sizes"].items())
    return Pin(str(entry["name"]), str(entry["commit"]), str(entry["json_dialect"]), files, sizes)


@functools.cache
def raw() -> dict[str, Any]:
    """pins.json as parsed (do not mutate)."""
    with PINS_FILE.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


@functools.cache
def pins() -> dict[str, Pin]:
    """Every fetchable version by name: the released ones in release order, then `draft`."""
    data = raw()
    out = {p.name: p for p in map(_released, data["released"])}
    draft = data["draft"]
    out[DRAFT] = Pin(
        DRAFT,
        str(data["default_branch"]),
        str(draft["json_dialect"]),
        tuple((str(p), None) for p in draft["files"]),
    )
    return out


def known_versions() -> list[str]:
    return list(pins())


def repository() -> str:
    return str(raw()["repository"])
