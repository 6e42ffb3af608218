"""The reference for readers: on the official versions, a member a version extracted from an
inline `params` into a named `*Params` type keeps its real "since"; and two rendering rules
typedoc follows on intermediate drafts (`@default` as highlighted code, "Inherited from" of a
member two bases have), on fixtures reduced from the draft of 77a48167."""

from __future__ import annotations

import re
from pathlib import Path

import corpus
import pytest

from codegen.analysis.presence import presence
from codegen.pipeline import declared
from codegen.reference import render_page

REPO = Path(__file__).resolve().parent.parent
DRAFTS = REPO / "tests" / "fixtures" / "reference" / "drafts"


@pytest.mark.spec
@pytest.mark.slow
def test_params_members_extracted_in_2025_11_25_keep_their_since(spec_root: Path) -> None:
    """Every member of a `*Params` type that 2025-11-25 extracted from an inline `X.params`
    and that the inline object of 2025-06-18 already had says "since" an older version (the
    issue counted 82 such badges saying "since 2025-11-25" on 22 types)."""
    del spec_root
    names = ["2024-11-05", "2025-06-18", "2025-11-25"]
    schemas = [corpus.resolved(v) for v in names]
    facts = presence(names, schemas)
    old = {t.name: t for t in schemas[1].types}
    moved = 0
    for name, t in facts.types.items():
        owner = name.removesuffix("Params")
        if not name.endswith("Params") or t.versions[:1] != ["2025-11-25"] or owner not in old:
            continue
        inline = next((p.type for p in old[owner].type.properties if p.name == "params"), None)
        for p in getattr(inline, "properties", ()):
            if p.name in t.members:
                moved += 1
                first = facts.changes(t.members[p.name])[0]
                assert (first.kind, first.version != "2025-11-25") == ("since", True), (name, p)
    assert moved >= 30


def test_default_without_code_is_a_typescript_code_block() -> None:
    """typedoc's `jsDocCompatibility.defaultTag`: `@default "complete"` is shown as code
    (the draft of 77a48167); a `@default` holding code stays Markdown."""
    page = render_page(declared(str(DRAFTS / "default-tag.ts")), None)
    result = page[page.index('id="result-resulttype"') :]
    block = result[result.index('<div class="tsd-tag-default">') :]
    block = block[: block.index("</section>")]
    assert re.search(
        r'<pre><code class="ts"><span class="hl-\d+">&quot;complete&quot;</span>\s</code>'
        r'<button type="button">Copy</button></pre>', block)  # fmt: skip
    count = page[page.index('id="result-count"') :]
    assert "<p><code>3</code> unless told otherwise</p>" in count
    assert "<pre>" not in count[: count.index("</section>")]


def test_inherited_from_names_the_first_extended_base_on_the_page() -> None:
    """A member two bases inherit from one ancestor: typedoc names the first base of the
    `extends` list (its resolve step links the first documented base that has it), not the
    one declared first (the draft of 77a48167: `CallToolRequestParams._meta`)."""
    page = render_page(declared(str(DRAFTS / "two-bases.ts")), None)
    meta = page[page.index('id="calltoolrequestparams-&#x5F;meta"') :]
    meta = meta[: meta.index("</section>")]
    assert (
        'Inherited from <a href="#inputresponserequestparams">InputResponseRequestParams</a>.'
        '<a href="#inputresponserequestparams-&#x5F;meta">&#x5F;meta</a>'
    ) in meta
    assert "TaskAugmentedRequestParams" not in meta


@pytest.mark.spec
def test_a_rename_with_changes_says_renamed_from(spec_root: Path) -> None:
    """`JSONRPCError` became `JSONRPCErrorResponse` in 2025-11-25 with changes
    (`type-renamed-changed`): its badge says so, as for a rename of the same shape."""
    from codegen.diff.history import pair_docs
    from codegen.reference.badges import changes_from

    del spec_root
    names = ["2025-06-18", "2025-11-25"]
    schemas = [corpus.resolved(v) for v in names]
    found = changes_from(pair_docs(schemas, names), names)
    renamed = [c for c in found[("JSONRPCErrorResponse", None)] if c.kind == "renamed"]
    assert [(c.version, c.detail) for c in renamed] == [("2025-11-25", "JSONRPCError")]
