"""The one error of this package: the message is complete and shown as is."""

from __future__ import annotations


class SpecError(Exception):
    """An official schema could not be found, downloaded or verified."""
