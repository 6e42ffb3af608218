"""Since/until badges: each change of a type's or member's presence (read from the one presence
model) as a small link to the diff page of the pair of versions where it changed."""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence

from ..analysis.presence import Change, Facts, Presence
from .prose import esc

_TEXT = {"since": "since {v}", "removed": "removed in {v}", "deprecated": "deprecated since {v}",
         "changed": "changed in {v}", "named": "named in {v}",
         "renamed": "renamed from {d} in {v}"}  # fmt: skip
# A title says what the short text leaves out.
_TITLE = {"named": "before {v}: the inline object {d}"}


def badge_html(change: Change, pair_files: Sequence[str], type_name: str) -> str:
    text = esc(_TEXT[change.kind].format(v=change.version, d=change.detail))
    cls = f"badge badge-{change.kind}"
    title = _TITLE.get(change.kind)
    extra = f' title="{esc(title.format(v=change.version, d=change.detail))}"' if title else ""
    if change.index == 0:  # the oldest version: no pair to show
        return f'<span class="{cls}"{extra}>{text}</span>'
    shown = change.detail if change.kind == "renamed" else type_name  # the diff's subject
    href = f"{pair_files[change.index - 1]}#type={urllib.parse.quote(shown, safe='')}"
    return f'<a class="{cls}" href="{esc(href)}"{extra}>{text}</a>'


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
