"""Since/until badges: each change of a type's or member's presence (read from the one presence
model) as a small link to the diff page of the pair of versions where it changed."""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence

from ..analysis.presence import Change, Facts, Presence
from .prose import esc

_TEXT = {"since": "since {}", "removed": "removed in {}", "deprecated": "deprecated since {}"}


def badge_html(change: Change, pair_files: Sequence[str], type_name: str) -> str:
    text = esc(_TEXT[change.kind].format(change.version))
    cls = f"badge badge-{change.kind}"
    if change.index == 0:  # the oldest version: no pair to show
        return f'<span class="{cls}">{text}</span>'
    href = f"{pair_files[change.index - 1]}#type={urllib.parse.quote(type_name, safe='')}"
    return f'<a class="{cls}" href="{esc(href)}">{text}</a>'


class Badges:
    """The badge callback of one version's page."""

    def __init__(self, facts: Presence, pair_files: Sequence[str]) -> None:
        self.facts = facts
        self.pair_files = pair_files

    def of(self, facts: Facts | None, type_name: str) -> str:
        if facts is None:
            return ""
        inner = "".join(badge_html(c, self.pair_files, type_name)
                        for c in self.facts.changes(facts))  # fmt: skip
        return f'<span class="badges">{inner}</span>' if inner else ""

    def __call__(self, type_name: str, member: str | None) -> str:
        t = self.facts.types.get(type_name)
        if t is None:
            return ""
        if member is None:
            return self.of(t, type_name)
        return self.of(t.members.get(member), type_name)
