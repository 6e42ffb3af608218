"""Generated bindings for the e2e tests: one ``mcp-codegen`` run per official protocol version.

``generate_all(spec_root, out_dir, labels)`` runs the CLI once per version (concurrently, each
bounded by a timeout) into ``out_dir/<package>``, imports each package under a unique name and
returns ``Bindings`` by spec directory label ("2025-06-18", ..., "draft"). Output goes to a temp
dir only: generated packages carry spec prose and are never committed.

Set ``MCP_E2E_CACHE`` to a directory to keep the packages between runs (local iteration): they
are stored under a key hashed from the schema and every file of ``codegen/`` and ``templates/``,
so any change to the generator regenerates them.

``select(available, version)`` is how a client picks bindings after negotiation: the package whose
``registry.PROTOCOL_VERSION`` is the version the server answered with.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from bindings_support import import_package

VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28", "draft"]
"""The spec labels the e2e client has bindings for (the ``bindings`` fixture generates these)."""
GENERATE_TIMEOUT = 300.0  # one schema; a loaded CI machine takes ~10-25 s


@dataclass(frozen=True)
class Bindings:
    """One generated package and the modules the client uses."""

    label: str  # the spec directory it came from ("2025-11-25", "draft", ...)
    package: ModuleType
    registry: Any
    models: Any
    codec: Any
    validators: Any
    generate_seconds: float = 0.0

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


def package_name(label: str) -> str:
    return "e2e_mcp_" + "".join(c if c.isalnum() else "_" for c in label.lower())


def codegen_argv() -> list[str]:
    """The ``mcp-codegen`` console script of this interpreter's environment (else ``-m``)."""
    script = Path(sys.executable).parent / "mcp-codegen"
    if script.exists():
        return [str(script)]
    found = shutil.which("mcp-codegen")
    return [found] if found else [sys.executable, "-m", "codegen"]


def _generate(schema: Path, out: Path) -> float:
    start = time.monotonic()
    cmd = [*codegen_argv(), str(schema), "-o", str(out)]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, check=False, timeout=GENERATE_TIMEOUT
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"`{' '.join(cmd)}` failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        )
    return time.monotonic() - start


REPO = Path(__file__).resolve().parents[2]


def _generator_digest() -> str:
    h = hashlib.sha256()
    for top in ("codegen", "templates"):
        for path in sorted((REPO / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def generate_all(spec_root: Path, out_dir: Path, labels: Iterable[str]) -> dict[str, Bindings]:
    labels = list(labels)
    cache = os.environ.get("MCP_E2E_CACHE")
    if cache:
        generator = _generator_digest()
        out_dir = Path(cache).resolve()
    dirs: dict[str, Path] = {}
    for label in labels:
        dirs[label] = out_dir
        if cache:
            schema = (spec_root / label / "schema.ts").read_bytes()
            key = hashlib.sha256(generator.encode() + schema).hexdigest()[:16]
            dirs[label] = out_dir / f"{label}-{key}"
    todo = [x for x in labels if not (dirs[x] / package_name(x) / "registry.py").is_file()]
    with ThreadPoolExecutor(max_workers=len(todo) or 1) as pool:
        futures = {
            label: pool.submit(
                _generate, spec_root / label / "schema.ts", dirs[label] / package_name(label)
            )
            for label in todo
        }
        seconds = {label: futures[label].result() if label in futures else 0.0 for label in labels}
    out: dict[str, Bindings] = {}
    for label in labels:
        name = package_name(label)
        pkg = import_package(dirs[label], name)
        out[label] = Bindings(
            label=label,
            package=pkg,
            registry=importlib.import_module(f"{name}.registry"),
            models=importlib.import_module(f"{name}.models"),
            codec=importlib.import_module(f"{name}.codec"),
            validators=importlib.import_module(f"{name}.validators"),
            generate_seconds=seconds[label],
        )
    return out


DIST_PACKAGE = "mcp_bindings"
"""The package name of the multi-version distribution (the name examples/client.py imports)."""


def generate_distribution(
    spec_root: Path, out_dir: Path, labels: Iterable[str], package: str = DIST_PACKAGE
) -> Path:
    """One ``mcp-codegen A.ts B.ts ... --package`` run for ``labels`` (oldest first) into
    ``out_dir``; returns the distribution's directory (the one to put on ``sys.path``).
    ``MCP_E2E_CACHE`` keeps it between runs, keyed by the generator and every schema."""
    schemas = [spec_root / label / "schema.ts" for label in labels]
    cache = os.environ.get("MCP_E2E_CACHE")
    if cache:
        h = hashlib.sha256(_generator_digest().encode() + package.encode())
        for schema in schemas:
            h.update(schema.read_bytes())
        out_dir = Path(cache).resolve() / f"dist-{h.hexdigest()[:16]}"
    if not (out_dir / package / "versions.py").is_file():
        cmd = [*codegen_argv(), *map(str, schemas), "-o", str(out_dir), "--package", package]
        proc = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            check=False,
            timeout=GENERATE_TIMEOUT * len(schemas),
        )
        if proc.returncode != 0:
            raise RuntimeError(
                f"`{' '.join(cmd)}` failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
            )
    return out_dir


def select(available: Mapping[str, Bindings], version: str) -> Bindings:
    """The bindings for protocol ``version`` (by ``registry.PROTOCOL_VERSION``); a package whose
    spec label is that version wins over another that also claims it (the draft)."""
    matches = [b for b in available.values() if b.version == version]
    if not matches:
        have = ", ".join(sorted({b.version for b in available.values()}))
        raise LookupError(f"no generated bindings for protocol version {version!r} (have {have})")
    return next((b for b in matches if b.label == version), matches[0])
