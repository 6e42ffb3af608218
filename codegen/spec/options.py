"""Where official schemas come from: the settings (options and environment variables) and the
argparse options that set them. Defaults are read from the environment at parse time."""

from __future__ import annotations

import argparse
import math
import os
import sys
import urllib.parse
from pathlib import Path

from ..errors import SpecError
from ..records import record

ENV_SPEC_DIR = "MCP_SPEC_DIR"
ENV_BASE_URL = "MCP_SPEC_BASE_URL"
ENV_TIMEOUT = "MCP_SPEC_TIMEOUT"
ENV_CACHE_DIR = "MCP_SPEC_CACHE_DIR"

DEFAULT_BASE_URL = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol"
DEFAULT_TIMEOUT = 30.0
MAX_TIMEOUT = 86400.0  # a day: longer cannot be meant, and sockets overflow not far beyond


@record
class SpecOptions:
    """`spec_dir`: a local copy (`<version>/schema.ts` or `schema/<version>/schema.ts`);
    `offline`: never touch the network; `cache_dir`: None means the default location."""

    spec_dir: Path | None = None
    base_url: str = DEFAULT_BASE_URL
    timeout: float = DEFAULT_TIMEOUT
    offline: bool = False
    cache_dir: Path | None = None


def default_cache_dir() -> Path:
    """`$MCP_SPEC_CACHE_DIR`, else `mcp-codegen/spec` under the platform cache directory. Apart
    from the formatting cache (`$MCP_CODEGEN_CACHE_DIR`): clearing one never costs the other."""
    configured = os.environ.get(ENV_CACHE_DIR)
    if configured:
        return Path(configured)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(base) / "mcp-codegen" / "spec"


def from_environment() -> SpecOptions:
    """The settings when no option is given (for callers outside the command line)."""
    env_dir = os.environ.get(ENV_SPEC_DIR)
    env_url = os.environ.get(ENV_BASE_URL)
    env_timeout = os.environ.get(ENV_TIMEOUT)
    return SpecOptions(
        spec_dir=Path(env_dir) if env_dir else None,
        base_url=_url(env_url, f"${ENV_BASE_URL}") if env_url else DEFAULT_BASE_URL,
        timeout=_seconds(env_timeout, f"${ENV_TIMEOUT}") if env_timeout else DEFAULT_TIMEOUT,
    )


def _seconds(text: str, source: str) -> float:
    """A timeout: a positive, finite number of seconds, at most a day."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not (value > 0 and math.isfinite(value)) or value > MAX_TIMEOUT:
        raise SpecError(
            f"{source}: expected a positive number of seconds (at most {MAX_TIMEOUT:g}), "
            f"not {text!r}"
        )
    return value


def _url(text: str, source: str) -> str:
    """A base URL: http or https, with a host (and a port, if any, that is a number)."""
    try:
        parts = urllib.parse.urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError as err:
        raise SpecError(f"{source}: {text!r} is not a URL ({err})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SpecError(f"{source}: expected an http:// or https:// URL with a host, not {text!r}")
    return text


def add_spec_options(p: argparse.ArgumentParser, local: bool = True) -> None:
    """The options of every command that takes a schema argument; `fetch` (local=False) only
    downloads, so it has no --spec-dir or --offline."""
    g = p.add_argument_group(
        "official schemas", "a schema argument may be a path, a released version or `draft`"
    )
    if local:
        g.add_argument(
            "--spec-dir",
            metavar="DIR",
            help=f"local copy of the specification (<version>/schema.ts or "
            f"schema/<version>/schema.ts); default ${ENV_SPEC_DIR}",
        )
        g.add_argument(
            "--offline",
            action="store_true",
            help="never download: use --spec-dir or the spec cache",
        )
        p.add_argument(
            "--max-input-size",
            metavar="SIZE",
            help="the largest schema, template, included file or settings file read (bytes, or"
            " with K, M, G: 64MiB); default $MCP_CODEGEN_MAX_INPUT_SIZE, else 32MiB",
        )
    g.add_argument(
        "--base-url",
        metavar="URL",
        help=f"where to download from (<URL>/<commit>/schema/<version>/...); default "
        f"${ENV_BASE_URL}, else {DEFAULT_BASE_URL}",
    )
    g.add_argument(
        "--timeout",
        metavar="SECONDS",
        help=f"deadline of each file's whole download; default ${ENV_TIMEOUT}, else "
        f"{DEFAULT_TIMEOUT:g}",
    )


def options_from_args(args: argparse.Namespace) -> SpecOptions:
    """Options given on the command line, else the environment, else the defaults."""
    env = from_environment()
    spec_dir = getattr(args, "spec_dir", None)
    timeout = getattr(args, "timeout", None)
    base_url = getattr(args, "base_url", None)
    return SpecOptions(
        spec_dir=Path(spec_dir) if spec_dir else env.spec_dir,
        base_url=_url(base_url, "--base-url") if base_url else env.base_url,
        timeout=_seconds(timeout, "--timeout") if timeout is not None else env.timeout,
        offline=bool(getattr(args, "offline", False)),
    )
