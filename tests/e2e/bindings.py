"""Generated bindings for the e2e tests: one multi-version distribution of every protocol version
the peers speak.

``generate_distribution(spec_root, out_dir, labels)`` runs ``mcp-codegen A.ts B.ts ... -o OUT
--package mcp_bindings`` once (bounded by a timeout); ``load_distribution(out, labels)`` imports
it and returns ``Bindings`` by spec directory label ("2025-06-18", ..., "draft"): each version's
subpackage (``mcp_bindings.bindings(label)``) and its modules, all sharing one runtime.
``generate_package`` writes one version's single package (what examples/call_tools.py takes).
Output goes to a temp dir only: generated packages carry spec prose and are never committed.

Set ``MCP_E2E_CACHE`` to a directory to keep the output between runs (local iteration): it is
stored under a key hashed from the schemas and every file of ``codegen/`` and ``templates/``, so
any change to the generator regenerates it.

``select(available, version)`` is how a client picks bindings after negotiation: the version
whose ``registry.PROTOCOL_VERSION`` is the version the server answered with.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from bindings_support import import_package

VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28", "draft"]
"""The spec labels the e2e client has bindings for (all in the one distribution, oldest first)."""
GENERATE_TIMEOUT = 300.0  # per schema; a loaded CI machine takes ~10-25 s for one


@dataclass(frozen=True)
class Bindings:
    """One version of the distribution: its subpackage and the modules the client uses."""

    label: str  # the spec directory it came from ("2025-11-25", "draft", ...)
    package: ModuleType  # the version's subpackage (UNSET, decode, encode, ...)
    registry: Any
    models: Any
    codec: Any
    validators: Any

    @property
    def version(self) -> str:
        """The protocol version string on the wire (`registry.PROTOCOL_VERSION`)."""
        return str(self.registry.PROTOCOL_VERSION)

    @property
    def handshake(self) -> bool:
        """True for protocol versions that open a session with ``initialize``."""
        return "initialize" in self.registry.METHODS

    def has(self, method: str) -> bool:
        return method in self.registry.METHODS

    def __str__(self) -> str:
        return self.label if self.label == self.version else f"{self.label} ({self.version})"


def codegen_argv() -> list[str]:
    """The ``mcp-codegen`` console script of this interpreter's environment (else ``-m``)."""
    script = Path(sys.executable).parent / "mcp-codegen"
    if script.exists():
        return [str(script)]
    found = shutil.which("mcp-codegen")
    return [found] if found else [sys.executable, "-m", "codegen"]


REPO = Path(__file__).resolve().parents[2]


def _generator_digest() -> str:
    h = hashlib.sha256()
    for top in ("codegen", "templates"):
        for path in sorted((REPO / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _run_codegen(schemas: list[Path], out: Path, *options: str) -> None:
    cmd = [*codegen_argv(), *map(str, schemas), "-o", str(out), *options]
    timeout = GENERATE_TIMEOUT * len(schemas)
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(
            f"`{' '.join(cmd)}` failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        )


def _cached(out_dir: Path, schemas: list[Path], tag: str) -> Path:
    """``out_dir``, or with ``MCP_E2E_CACHE`` the cache entry of this generator and input."""
    cache = os.environ.get("MCP_E2E_CACHE")
    if not cache:
        return out_dir
    h = hashlib.sha256(_generator_digest().encode() + tag.encode())
    for schema in schemas:
        h.update(schema.read_bytes())
    return Path(cache).resolve() / f"{tag}-{h.hexdigest()[:16]}"


def generate_package(spec_root: Path, out_dir: Path, label: str, name: str) -> Path:
    """One version's single package ``name`` (``mcp-codegen SCHEMA.ts -o``); its directory."""
    schemas = [spec_root / label / "schema.ts"]
    out = _cached(out_dir, schemas, name) / name
    if not (out / "registry.py").is_file():
        _run_codegen(schemas, out)
    return out


DIST_PACKAGE = "mcp_bindings"
"""The package name of the multi-version distribution (the name examples/client.py imports)."""


def generate_distribution(
    spec_root: Path, out_dir: Path, labels: Iterable[str], package: str = DIST_PACKAGE
) -> Path:
    """One ``mcp-codegen A.ts B.ts ... --package`` run for ``labels`` (oldest first) into
    ``out_dir``; returns the distribution's directory (the one to put on ``sys.path``)."""
    schemas = [spec_root / label / "schema.ts" for label in labels]
    out = _cached(out_dir, schemas, f"dist-{package}")
    if not (out / package / "versions.py").is_file():
        _run_codegen(schemas, out, "--package", package)
    return out


def load_distribution(
    root: Path, labels: Iterable[str], package: str = DIST_PACKAGE
) -> dict[str, Bindings]:
    """Import the distribution at ``root`` and return each version's ``Bindings`` by label."""
    top = import_package(root, package)
    out: dict[str, Bindings] = {}
    for label in labels:
        sub = top.bindings(label)  # a version, or a draft's label: the spec directory names
        out[label] = Bindings(
            label=label,
            package=sub,
            registry=top.versions.registry(label),
            models=importlib.import_module(f"{sub.__name__}.models"),
            codec=importlib.import_module(f"{sub.__name__}.codec"),
            validators=importlib.import_module(f"{sub.__name__}.validators"),
        )
    return out


def select(available: Mapping[str, Bindings], version: str) -> Bindings:
    """The bindings for protocol ``version`` (by ``registry.PROTOCOL_VERSION``); a package whose
    spec label is that version wins over another that also claims it (the draft)."""
    matches = [b for b in available.values() if b.version == version]
    if not matches:
        have = ", ".join(sorted({b.version for b in available.values()}))
        raise LookupError(f"no generated bindings for protocol version {version!r} (have {have})")
    return next((b for b in matches if b.label == version), matches[0])
