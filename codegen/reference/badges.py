"""Since/until badges: each change of a type's or member's presence (read from the one presence
model) as a small link to the diff page of the pair of versions where it changed."""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

from ..analysis.presence import Change, Facts, Presence
from .prose import esc

_TEXT = {"since": "since {}", "removed": "removed in {}", "deprecated": "deprecated since {}",
         "changed": "changed in {}", "renamed": "renamed from {1} in {0}"}  # fmt: skip
# Findings that are a change of a type or member that stays (additions, removals, renames and
# deprecations have badges of their own; documentation-only changes none).
_NOT_CHANGES = ("type-added", "type-removed", "type-renamed", "property-added-optional",
                "property-added-required", "property-removed-optional",
                "property-removed-required", "deprecated-added", "deprecated-removed",
                "internal-added", "internal-removed", "type-reference-changed")  # fmt: skip
# A rename the diff knows: the same shape, or an alike name with mostly the same properties
# (`JSONRPCError` -> `JSONRPCErrorResponse`).
_RENAMES = ("type-renamed", "type-renamed-changed")
_MEMBER = re.compile(r'^([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\])?')

Key = tuple[str, str | None]  # (type, member or None for the type itself)


def changes_from(
    docs: Sequence[Mapping[str, Any]], labels: Sequence[str]
) -> dict[Key, list[Change]]:
    """From the diff document of each consecutive pair: where a type or a member of it changed
    (`changed in V`, once per pair) and which type a rename named (`renamed from X in V`)."""
    out: dict[Key, list[Change]] = {}

    def add(key: Key, change: Change) -> None:
        seen = out.setdefault(key, [])
        if not any(c.kind == change.kind and c.index == change.index for c in seen):
            seen.append(change)

    for i, doc in enumerate(docs):
        version, index = labels[i + 1], i + 1
        for f in doc["findings"]:
            if f["category"] == "documentation":
                continue
            if f["rule"] in _RENAMES and f.get("after"):
                add((f["after"], None), Change("renamed", version, index, f["subject"]))
                continue
            if f["rule"] in _NOT_CHANGES:
                continue
            m = _MEMBER.match(f["subject"])
            if m is None or f["category"] == "method" or f["category"] == "constant":
                continue
            member = m.group(2) or (json.loads(m.group(3)) if m.group(3) else None)
            for owner in (m.group(1), *f.get("inherited_by", [])):
                add((owner, member), Change("changed", version, index))
    return out


def badge_html(change: Change, pair_files: Sequence[str], type_name: str) -> str:
    text = esc(_TEXT[change.kind].format(change.version, change.detail))
    cls = f"badge badge-{change.kind}"
    if change.index == 0:  # the oldest version: no pair to show
        return f'<span class="{cls}">{text}</span>'
    href = f"{pair_files[change.index - 1]}#type={urllib.parse.quote(type_name, safe='')}"
    return f'<a class="{cls}" href="{esc(href)}">{text}</a>'


class Badges:
    """The badge callback of one version's page."""

    def __init__(
        self,
        facts: Presence,
        pair_files: Sequence[str],
        changed: Mapping[Key, list[Change]] | None = None,
    ) -> None:
        self.facts = facts
        self.pair_files = pair_files
        self.changed = changed or {}

    def of(self, facts: Facts | None, key: Key) -> str:
        if facts is None:
            return ""
        present = self.facts.changes(facts)
        more = [c for c in self.changed.get(key, []) if c.version in facts.versions]
        ordered = sorted([*present, *more], key=lambda c: (c.index, _ORDER.index(c.kind)))
        inner = "".join(badge_html(c, self.pair_files, key[0]) for c in ordered)
        return f'<span class="badges">{inner}</span>' if inner else ""

    def __call__(self, type_name: str, member: str | None) -> str:
        t = self.facts.types.get(type_name)
        if t is None:
            return ""
        if member is None:
            return self.of(t, (type_name, None))
        return self.of(t.members.get(member), (type_name, member))


_ORDER = ("since", "renamed", "changed", "removed", "deprecated")
