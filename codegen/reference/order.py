"""The order of entries within a section, as the spec's plugin sorts them: in a method section
(a category starting with a backticked lower-case word), requests, request params, result
responses, results, notifications and notification params first; then by name as JavaScript's
`localeCompare` (ICU root collation) orders names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .model import Entry

_METHOD_CATEGORY = re.compile(r"^`[a-z]")
_SUFFIXES = ("Request", "RequestParams", "ResultResponse", "Result", "Notification",
             "NotificationParams")  # fmt: skip


def _char_class(c: str) -> int:
    """ICU's groups at the primary level: spaces, punctuation, symbols, digits, letters."""
    if c.isspace():
        return 0
    cat = unicodedata.category(c)
    if cat.startswith("P"):
        return 1
    if cat.startswith("S"):
        return 2
    if c.isdigit():
        return 3
    return 4


def collation_key(name: str) -> tuple[tuple[tuple[int, str], ...], tuple[int, ...]]:
    """Primary strength (case-insensitive, punctuation before digits before letters), then
    tertiary (lower case before upper case), compared level by level as ICU does."""
    primary = tuple((_char_class(c), c.casefold()) for c in name)
    tertiary = tuple(1 if c.isupper() else 0 for c in name)
    return primary, tertiary


def category_order(category: str, entries: Sequence[Entry]) -> list[Entry]:
    method = bool(_METHOD_CATEGORY.match(category))

    def key(
        e: Entry,
    ) -> tuple[tuple[bool, ...], tuple[tuple[tuple[int, str], ...], tuple[int, ...]]]:
        flags = tuple(not e.name.endswith(s) for s in _SUFFIXES) if method else ()
        return flags, collation_key(e.name)

    return sorted(entries, key=key)
