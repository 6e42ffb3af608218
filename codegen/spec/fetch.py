"""Downloading a version's pinned files from the specification repository (standard library
only) into the spec cache, each verified before the version is installed there."""

from __future__ import annotations

import http.client
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .cache import install, staging, write_file
from .errors import SpecError
from .options import SpecOptions
from .pins import Pin
from .verify import check

USER_AGENT = "mcp-codegen (schema fetch)"


@dataclass(frozen=True)
class Fetched:
    """Where the version now is, and the sha256 of each file as downloaded."""

    directory: Path
    hashes: tuple[tuple[str, str], ...]


def url_for(pin: Pin, rel: str, base_url: str) -> str:
    """`<base>/<commit or branch>/schema/<version>/<path>`: the repository's own layout."""
    path = urllib.parse.quote(f"schema/{pin.name}/{rel}")
    return f"{base_url.rstrip('/')}/{urllib.parse.quote(pin.ref)}/{path}"


def download(url: str, timeout: float) -> bytes:
    """The body of `url`, complete, or SpecError naming the URL and the way out."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data: bytes = response.read()
            return data
    except urllib.error.HTTPError as err:
        reason = f"HTTP {err.code} {err.reason}"
    except urllib.error.URLError as err:
        reason = _timed_out(timeout) if isinstance(err.reason, TimeoutError) else str(err.reason)
    except http.client.IncompleteRead as err:
        got = len(err.partial)
        total = got + err.expected if err.expected is not None else None
        of = f" of {total}" if total is not None else ""
        reason = f"incomplete response (got {got}{of} bytes)"
    except TimeoutError:
        reason = _timed_out(timeout)
    except (OSError, http.client.HTTPException, ValueError) as err:
        reason = str(err) or type(err).__name__
    raise SpecError(
        f"cannot download {url}: {reason}; "
        "to work without the network, use --spec-dir DIR (a local copy of the specification)"
    )


def _timed_out(timeout: float) -> str:
    return f"timed out after {timeout:g} s"


def fetch_version(pin: Pin, options: SpecOptions, root: Path) -> Fetched:
    """Download every file the pins list for `pin` and install them in the cache under `root`.
    Any failure (network, hash) raises SpecError and leaves the cache as it was."""
    hashes: list[tuple[str, str]] = []
    with staging(root, pin.name) as staged:
        for rel, _ in pin.files:
            url = url_for(pin, rel, options.base_url)
            data = download(url, options.timeout)
            try:
                hashes.append((rel, check(pin, rel, data, url)))
            except SpecError as err:
                raise SpecError(f"{err}; nothing was cached") from None
            write_file(staged, rel, data)
        directory = install(staged, root, pin.name)
    return Fetched(directory, tuple(hashes))
