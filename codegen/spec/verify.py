"""Comparing a file's bytes with its pin."""

from __future__ import annotations

import hashlib

from ..errors import SpecError
from .pins import Pin


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check(pin: Pin, rel: str, data: bytes, origin: str) -> str:
    """The sha256 of `data`; SpecError naming the file, where it came from and both hashes if
    the pins say otherwise (a floating file is never checked)."""
    return check_digest(pin, rel, sha256_hex(data), origin)


def check_digest(pin: Pin, rel: str, actual: str, origin: str) -> str:
    """`check` for a file hashed already (while it was downloaded)."""
    expected = pin.sha256(rel)
    if expected is not None and actual != expected:
        raise SpecError(
            f"sha256 mismatch for {pin.name}/{rel} (from {origin}): "
            f"expected {expected}, got {actual}"
        )
    return actual
