"""Locating and installing the real MCP servers the e2e tests talk to over stdio.

``ensure_node_peer()`` installs ``@modelcontextprotocol/server-everything`` from
``peers/package-lock.json`` (``npm ci``, into ``peers/node_modules``, which git ignores) once
and returns its argv; ``python_peer_argv()`` returns the argv of ``peers/python_server.py``
(official ``mcp`` SDK). Both raise ``PeerUnavailable`` with the fix in the message;
``conftest.py`` turns that into a skip locally and a failure under ``CI=true``.
"""

from __future__ import annotations

import fcntl
import functools
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

PEERS_DIR = Path(__file__).resolve().parent / "peers"
NODE_PACKAGE = "@modelcontextprotocol/server-everything"
NODE_MIN_MAJOR = 20  # the lock's @hono/node-server requires node >= 20
MCP_VERSION = "2.3.0"  # keep equal to the `mcp==` pin in pyproject's test extra
NPM_TIMEOUT = 600.0


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
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise PeerUnavailable(
            f"node and npm (node >= {NODE_MIN_MAJOR}) are needed for the {NODE_PACKAGE} peer"
        )
    out = subprocess.run(
        [node, "--version"], check=False, capture_output=True, text=True, timeout=30
    ).stdout
    match = re.match(r"v(\d+)\.", out.strip())
    if match is None or int(match.group(1)) < NODE_MIN_MAJOR:
        raise PeerUnavailable(
            f"node >= {NODE_MIN_MAJOR} is needed for {NODE_PACKAGE}, found {out.strip()!r}"
        )
    want = pinned_node_version()
    with open(PEERS_DIR / ".npm-ci.lock", "w") as lock:  # one installer at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _installed_node_version() != want or not _node_entry().is_file():
            cmd = [npm, "ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"]
            try:
                proc = subprocess.run(
                    cmd,
                    check=False,
                    cwd=PEERS_DIR,
                    capture_output=True,
                    text=True,
                    timeout=NPM_TIMEOUT,
                )
            except subprocess.TimeoutExpired as exc:
                raise PeerUnavailable(f"`{' '.join(cmd)}` in {PEERS_DIR} timed out") from exc
            if proc.returncode != 0:
                tail = (proc.stdout + proc.stderr)[-4000:]
                raise PeerUnavailable(
                    f"`{' '.join(cmd)}` in {PEERS_DIR} failed ({proc.returncode}):\n{tail}"
                )
    if _installed_node_version() != want or not _node_entry().is_file():
        raise PeerUnavailable(
            f"npm ci did not install {NODE_PACKAGE}@{want} into {PEERS_DIR / 'node_modules'}"
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
