"""Locating and installing the real MCP servers the e2e tests talk to over stdio.

``ensure_node_peer()`` installs ``@modelcontextprotocol/server-everything`` from
``peers/package-lock.json`` (``npm ci``, into ``peers/node_modules``, which git ignores) once
and returns its argv; ``python_peer_argv()`` returns the argv of ``peers/python_server.py``
(official ``mcp`` SDK). Both raise ``PeerUnavailable`` with the fix in the message;
``conftest.py`` turns that into a skip locally and a failure under ``CI=true``.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import sys
from pathlib import Path

from npm_install import npm_ci, require_node

PEERS_DIR = Path(__file__).resolve().parent / "peers"
NODE_PACKAGE = "@modelcontextprotocol/server-everything"
NODE_MIN_MAJOR = 20  # the lock's @hono/node-server requires node >= 20
MCP_VERSION = "2.3.0"  # keep equal to the `mcp==` pin in pyproject's test extra


class PeerUnavailable(RuntimeError):
    """A peer cannot be started on this machine; the message says how to fix it."""


def pinned_node_version() -> str:
    deps: dict[str, str] = json.loads((PEERS_DIR / "package.json").read_text())["dependencies"]
    return deps[NODE_PACKAGE]


def _installed_node_version() -> str | None:
    manifest = PEERS_DIR / "node_modules" / NODE_PACKAGE / "package.json"
    try:
        version = json.loads(manifest.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None
    return version if isinstance(version, str) else None


def _node_entry() -> Path:
    return PEERS_DIR / "node_modules" / NODE_PACKAGE / "dist" / "index.js"


@functools.cache
def ensure_node_peer() -> list[str]:
    """argv for server-everything over stdio; runs ``npm ci`` first if it is missing or stale."""
    node, npm = require_node(NODE_MIN_MAJOR, PeerUnavailable, f"the {NODE_PACKAGE} peer")
    want = pinned_node_version()
    npm_ci(
        PEERS_DIR,
        lambda: _installed_node_version() == want and _node_entry().is_file(),
        PeerUnavailable,
        npm,
    )
    return [node, str(_node_entry()), "stdio"]


@functools.cache
def python_peer_argv() -> list[str]:
    """argv for ``peers/python_server.py``, run by this interpreter (which must have ``mcp``)."""
    try:
        installed = importlib.metadata.version("mcp")
    except importlib.metadata.PackageNotFoundError:
        installed = None
    if installed != MCP_VERSION:
        found = "not installed" if installed is None else f"mcp {installed} is installed"
        raise PeerUnavailable(
            f"the Python peer needs mcp=={MCP_VERSION} in {sys.executable} ({found}); "
            f"run: pip install -e '.[test]' (or pip install mcp=={MCP_VERSION})"
        )
    return [sys.executable, "-u", str(PEERS_DIR / "python_server.py")]
