"""Downloading a version's pinned files from the specification repository (standard library
only) into the spec cache, each verified before the version is installed there. Each file is
streamed to disk and hashed on the way (memory: one chunk), within a deadline for its whole
request (codegen/spec/deadline.py) and a size limit (its pinned size; the draft: DRAFT_LIMIT)."""

from __future__ import annotations

import hashlib
import http.client
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import SpecError
from .cache import install, staging
from .deadline import Deadline
from .options import SpecOptions
from .pins import Pin
from .verify import check_digest

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


DRAFT_LIMIT = 64 * 1024 * 1024  # a floating file has no pinned size: generous, but a limit
CHUNK = 64 * 1024


def size_limit(pin: Pin, rel: str) -> int:
    """The most bytes a download of `rel` may have: its pinned size (a larger body cannot have
    the pinned hash), or for the draft a fixed cap."""
    pinned = pin.size(rel)
    return pinned if pinned is not None else DRAFT_LIMIT


class _Refused(Exception):
    """The response is not the file: too large, or cut short (the message says which)."""


def download(url: str, dest: Path, limit: int, timeout: float) -> str:
    """Stream the body of `url` into `dest` and return its sha256; the whole request has
    `timeout` seconds, the body at most `limit` bytes (memory stays at one chunk). Anything
    else is SpecError naming the URL and the way out."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    deadline = Deadline(timeout)
    # opened outside the try: a cache that cannot be written is no download error
    with dest.open("wb") as out:
        try:
            with deadline:
                return _stream(deadline.opener().open(request, timeout=timeout), out, limit)
        except (OSError, http.client.HTTPException, ValueError, _Refused) as err:
            reason = _timed_out(timeout) if deadline.expired else _reason(err, timeout)
    raise SpecError(
        f"cannot download {url}: {reason}; "
        "to work without the network, use --spec-dir DIR (a local copy of the specification)"
    )


def _stream(response: http.client.HTTPResponse, out: BinaryIO, limit: int) -> str:
    """Copy the body to `out` chunk by chunk, hashing it, within `limit` bytes."""
    digest = hashlib.sha256()
    with response:
        declared = response.headers.get("Content-Length")
        expected = int(declared) if declared is not None and declared.isdigit() else None
        if expected is not None and expected > limit:
            raise _Refused(f"the response has {expected} bytes, more than the {limit} allowed")
        got = 0
        while chunk := response.read(CHUNK):
            got += len(chunk)
            if got > limit:
                raise _Refused(f"the response is larger than the {limit} bytes allowed")
            digest.update(chunk)
            out.write(chunk)
    if expected is not None and got < expected:
        raise _Refused(_incomplete(got, expected - got))
    return digest.hexdigest()


def _reason(err: Exception, timeout: float) -> str:
    if isinstance(err, urllib.error.HTTPError):
        return f"HTTP {err.code} {err.reason}"
    if isinstance(err, urllib.error.URLError):
        return _timed_out(timeout) if isinstance(err.reason, TimeoutError) else str(err.reason)
    if isinstance(err, http.client.IncompleteRead):
        return _incomplete(len(err.partial), err.expected)
    if isinstance(err, TimeoutError):
        return _timed_out(timeout)
    return str(err) or type(err).__name__


def _incomplete(got: int, missing: int | None) -> str:
    of = f" of {got + missing}" if missing is not None else ""
    return f"incomplete response (got {got}{of} bytes)"


def _timed_out(timeout: float) -> str:
    return f"timed out after {timeout:g} s"


def fetch_version(pin: Pin, options: SpecOptions, root: Path) -> Fetched:
    """Download every file the pins list for `pin` and install them in the cache under `root`.
    Any failure (network, hash, size, time, a cache that cannot be written) raises SpecError
    and leaves the cache as it was."""
    try:
        return _fetch(pin, options, root)
    except OSError as err:
        where = f" ({err.filename})" if err.filename else ""
        raise SpecError(
            f"cannot write the spec cache {root}: {err.strerror or err}{where}; set "
            f"$MCP_SPEC_CACHE_DIR to a folder you can write, or use --spec-dir DIR"
        ) from None


def _fetch(pin: Pin, options: SpecOptions, root: Path) -> Fetched:
    hashes: list[tuple[str, str]] = []
    with staging(root, pin.name) as staged:
        for rel, _ in pin.files:
            url = url_for(pin, rel, options.base_url)
            dest = staged / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            actual = download(url, dest, size_limit(pin, rel), options.timeout)
            try:
                hashes.append((rel, check_digest(pin, rel, actual, url)))
            except SpecError as err:
                raise SpecError(f"{err}; nothing was cached") from None
        directory = install(staged, root, pin.name)
    return Fetched(directory, tuple(hashes))
