"""The multi-version reference for readers: a member keeps its real "since" when an inline
object became a named type or a type was renamed (the presence model's lineage), "changed in"
and "renamed from" badges from the diff's findings; and two rendering rules typedoc follows on
intermediate drafts (`@default` as code, "Inherited from" of a member two bases have)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import corpus
import pytest

from codegen.analysis.presence import presence
from codegen.diff.history import pair_docs
from codegen.pipeline import declared, load
from codegen.reference import render_page
from codegen.reference.site import site_files

REPO = Path(__file__).resolve().parent.parent
LINEAGE = REPO / "tests" / "fixtures" / "reference" / "lineage"
DRAFTS = REPO / "tests" / "fixtures" / "reference" / "drafts"


def _kinds(facts: object, f: object) -> list[tuple[str, str, str]]:
    return [(c.kind, c.version, c.detail) for c in facts.changes(f)]  # type: ignore[attr-defined]


def test_lineage_keeps_the_real_since_and_says_changed_and_renamed() -> None:
    """v1 has the inline `ShowRequest.params` and `Cog`; v2 names it `ShowRequestParams`
    (one member's type changed, one member new) and renames `Cog` to `Sprocket`."""
    schemas = [load(str(LINEAGE / v / "schema.ts")) for v in ("v1", "v2")]
    facts = presence(["v1", "v2"], schemas, pair_docs(schemas, ["v1", "v2"]))
    params = facts.types["ShowRequestParams"]
    assert _kinds(facts, params) == [("since", "v1", ""), ("named", "v2", "ShowRequest.params")]
    assert _kinds(facts, params.members["name"]) == [("since", "v1", "")]
    assert _kinds(facts, params.members["times"]) == [("since", "v1", ""), ("changed", "v2", "")]
    assert _kinds(facts, params.members["quiet"]) == [("since", "v2", "")]
    sprocket = facts.types["Sprocket"]
    assert _kinds(facts, sprocket) == [("since", "v1", ""), ("renamed", "v2", "Cog")]
    assert _kinds(facts, sprocket.members["teeth"]) == [("since", "v1", "")]
    # since.json: `versions` stay what each version's JSON object has; lineage says the rest
    assert params.to_json()["members"]["times"] == {
        "versions": ["v2"], "deprecated": [], "lineage": {"v1": "ShowRequest.params"},
        "changed": ["v2"]}  # fmt: skip
    # without the diff's reports: the path-derived lineage still holds, no rename is known
    alone = presence(["v1", "v2"], schemas)
    assert _kinds(alone, alone.types["ShowRequestParams"].members["name"]) == [("since", "v1", "")]
    assert _kinds(alone, alone.types["Sprocket"]) == [("since", "v2", "")]


def test_badges_of_lineage_link_to_the_pair() -> None:
    paths = [str(LINEAGE / v / "schema.ts") for v in ("v1", "v2")]
    files = site_files([declared(p) for p in paths], [load(p) for p in paths], [None, None])
    page = files["v2.mdx"]
    times = page[page.index('id="showrequestparams-times"') :]
    times = times[: times.index("</section>")]
    assert '<span class="badge badge-since">since v1</span>' in times
    assert '<a class="badge badge-changed" href="v1..v2.html#type=ShowRequestParams">' in times
    head = page[page.index("### `ShowRequestParams`") :]
    assert (
        '<a class="badge badge-named" href="v1..v2.html#type=ShowRequestParams" '
        'title="before v2: the inline object ShowRequest.params">named in v2</a>'
    ) in head[: head.index("</div>")]
    assert 'href="v1..v2.html#type=Cog">renamed from Cog in v2</a>' in page
    assert "since v2" not in times


@pytest.mark.spec
@pytest.mark.slow
def test_params_members_extracted_in_2025_11_25_keep_their_since(spec_root: Path) -> None:
    """Every member of a `*Params` type that 2025-11-25 extracted from an inline `X.params`
    and that the inline object of 2025-06-18 already had says "since" an older version."""
    names = ["2025-06-18", "2025-11-25"]
    schemas = [corpus.resolved(v) for v in names]
    facts = presence(names, schemas, pair_docs(schemas, names))
    old = {t.name: t for t in schemas[0].types}
    moved = 0
    for name, t in facts.types.items():
        if not name.endswith("Params") or t.versions[:1] != ["2025-11-25"] or not t.lineage:
            continue
        owner, member = t.lineage["2025-06-18"].split(".")
        inline = next(p.type for p in old[owner].type.properties if p.name == member)
        for p in inline.properties:
            if p.name in t.members:
                moved += 1
                assert facts.changes(t.members[p.name])[0].version == "2025-06-18", (name, p.name)
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


def test_official_site_since_json_records_lineage(spec_root: Path) -> None:
    """`CallToolRequestParams.name` was `CallToolRequest.params.name` before 2025-11-25."""
    del spec_root
    names = ["2025-06-18", "2025-11-25"]
    schemas = [corpus.resolved(v) for v in names]
    since = presence(names, schemas).to_json()
    member = since["types"]["CallToolRequestParams"]["members"]["name"]
    assert json.dumps(member["lineage"]) == '{"2025-06-18": "CallToolRequest.params"}'
