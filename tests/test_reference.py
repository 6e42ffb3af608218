"""`mcp-codegen reference`: the Schema Reference page equals the official one in content, the
multi-version reference's since.json agrees with the official schema.json files, since/until
follow presence, untrusted text stays text, bad templates are located errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import corpus
import pytest
import reference_page as rp

from codegen import cli
from codegen.analysis.presence import presence
from codegen.pipeline import declared, load
from codegen.reference import find_template, render_page
from codegen.reference.literals import program
from codegen.reference.site import site_files

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "reference"
PAGES = ["2025-06-18", "2025-11-25", "2026-07-28", "draft"]
RELEASED = corpus.released_names()


def our_page(path: Path) -> str:
    """The page as the specification builds it: typedoc's program is the versions' folder."""
    earlier = program(str(path), path.parent.parent)
    return render_page(declared(str(path)), find_template(str(path), None), None, None, earlier)


@pytest.fixture(scope="module")
def pages(spec_root: Path) -> dict[str, tuple[str, str]]:
    """(ours, official) per version with a published page."""
    return {
        v: (our_page(spec_root / v / "schema.ts"),
            (spec_root / v / "reference.mdx").read_text(encoding="utf-8"))
        for v in PAGES
    }  # fmt: skip


def compare(ours: str, official: str) -> list[str]:
    return rp.differences(rp.parse_page(ours), rp.parse_page(official))


# --------------------------------------------------------------------------- official pages


@pytest.mark.spec
@pytest.mark.parametrize("version", PAGES)
def test_page_equals_official_page(pages: dict[str, tuple[str, str]], version: str) -> None:
    ours, official = pages[version]
    parsed = rp.parse_page(official)
    assert len(parsed.types) > 70 and sum(len(t.members) for t in parsed.types) > 200
    assert compare(ours, official) == []


def _drop_member(page: str) -> str:
    start = page.index('<section class="tsd-panel tsd-member')
    return page[:start] + page[page.index("</section>", start) + len("</section>") :]


def _change_comment(page: str) -> str:
    at = page.index('<div class="tsd-comment tsd-typography"><p>') + 44
    return page[:at] + "Not " + page[at:]


def _swap_types(page: str) -> str:
    blocks = list(re.finditer(r'<div class="type">.*?\n</div>\n\n', page, re.DOTALL))
    a, b = blocks[0], blocks[1]
    return page[: a.start()] + b.group(0) + a.group(0) + page[b.end() :]


def _change_member_comment(page: str) -> str:
    at = page.index('<section class="tsd-panel tsd-member')
    at = page.index("<p>", at) + 3
    return page[:at] + "x" + page[at:]


def _drop_link(page: str) -> str:
    return page.replace('<a href="#requestid" class="tsd-signature-type tsd-kind-type-alias">'
                        "RequestId</a>", '<span class="tsd-signature-type">RequestId</span>', 1)  # fmt: skip


@pytest.mark.spec
@pytest.mark.parametrize(
    "mutate", [_drop_member, _change_comment, _swap_types, _change_member_comment, _drop_link]
)
def test_comparison_catches_mutations(pages: dict[str, tuple[str, str]], mutate: Any) -> None:
    """The comparison is not vacuous: a dropped member, a changed comment, two types swapped,
    a lost link each make it fail, on our page and on the official one alike."""
    ours, official = pages["2025-06-18"]
    assert compare(mutate(ours), official) != []
    assert compare(ours, mutate(official)) != []


@pytest.mark.spec
def test_held_out_draft_and_template_less_versions_render(spec_root: Path) -> None:
    """An intermediate draft without a template gets sections from its categories, then one
    per kind for the rest; the two oldest versions (no template, no categories) one section
    per kind, in source order. Every documented type is on the page."""
    path = spec_root / "DRAFT-2025-v3" / "schema.ts"
    draft = rp.parse_page(our_page(path))
    cats = [s for s, _ in draft.sections]
    assert cats[0] == "notifications/cancelled" and "tools/call" in cats
    assert cats[-2:] == ["Interfaces", "Type Aliases"]
    shown = {d.name for d in declared(str(path)).declarations
             if type(d).__name__ != "Const" and not d.doc.has("internal")}  # fmt: skip
    assert sorted(t.name for t in draft.types) == sorted(shown)
    old = rp.parse_page(our_page(spec_root / "2024-11-05" / "schema.ts"))
    assert [s for s, _ in old.sections] == ["Interfaces", "Type Aliases"]
    schema = declared(str(spec_root / "2024-11-05" / "schema.ts"))
    interfaces = [d.name for d in schema.declarations
                  if type(d).__name__ == "Interface" and "internal" not in str(d.doc.tags)]  # fmt: skip
    assert [t.name for t in old.types if t.section == "Interfaces"] == interfaces


# --------------------------------------------------------------------------- since.json


@pytest.fixture(scope="module")
def official_site(spec_root: Path) -> dict[str, str]:
    names = [*RELEASED, "draft"]
    paths = [str(spec_root / v / "schema.ts") for v in names]
    return site_files([declared(p) for p in paths], [load(p) for p in paths],
                      [find_template(p, None) for p in paths])  # fmt: skip


def _official_members(
    defs: dict[str, Any], name: str, seen: frozenset[str] = frozenset()
) -> set[str]:
    d = defs[name]
    out = set(d.get("properties", {}))
    for part in [d, *d.get("allOf", [])] if "$ref" in d else d.get("allOf", []):
        ref = part.get("$ref", "")
        if ref and ref.rsplit("/", 1)[1] not in seen:
            out |= _official_members(defs, ref.rsplit("/", 1)[1], seen | {name})
        out |= set(part.get("properties", {}))
    return out


@pytest.mark.spec
def test_since_json_agrees_with_official_schema_json(
    official_site: dict[str, str], spec_root: Path
) -> None:
    since = json.loads(official_site["since.json"])
    assert since["versions"] == [*RELEASED, "draft"]
    checked = 0
    for v in since["versions"]:
        js = json.loads((spec_root / v / "schema.json").read_text(encoding="utf-8"))
        defs = js.get("definitions") or js["$defs"]
        ours = {n for n, t in since["types"].items() if v in t["versions"]}
        assert ours == set(defs), v
        for name in defs:
            members = {m for m, f in since["types"][name]["members"].items() if v in f["versions"]}
            assert members == _official_members(defs, name), (v, name)
            checked += len(members)
    assert checked > 2000


@pytest.mark.spec
def test_since_json_and_the_published_model_agree(official_site: dict[str, str]) -> None:
    """The site's since.json and `mcp-codegen model` read one owner (analysis/presence.py)."""
    import corpus

    from codegen.published import build

    since = json.loads(official_site["since.json"])
    model = build(since["versions"], [corpus.resolved(v) for v in since["versions"]])
    assert set(since["types"]) == set(model["types"])
    for name, facts in since["types"].items():
        t = model["types"][name]
        assert (facts["versions"], facts["deprecated"]) == (t["versions"], t.get("deprecated", []))
        for wire, m in facts["members"].items():
            ours = t["members"][wire]
            assert (m["versions"], m["deprecated"]) == (
                ours["versions"],
                ours.get("deprecated", []),
            )


@pytest.mark.spec
def test_deprecated_exactly_as_the_official_page_marks(
    official_site: dict[str, str], pages: dict[str, tuple[str, str]]
) -> None:
    since = json.loads(official_site["since.json"])
    page = rp.parse_page(pages["2026-07-28"][1])
    marked, listed = set(), set()
    for t in page.types:
        if t.kind == "variable":
            continue
        if any("tsd-tag-deprecated" in c for c in t.comments):
            marked.add(t.name)
        for m in t.members:
            if 'class="deprecated"' in m.rest:
                name = m.heading.split(":", 1)[0].rstrip("?")
                marked.add(f"{t.name}.{json.loads(name) if name.startswith(chr(34)) else name}")
        facts = since["types"][t.name]
        if "2026-07-28" in facts["deprecated"]:
            listed.add(t.name)
        listed |= {f"{t.name}.{m}" for m, f in facts["members"].items()
                   if "2026-07-28" in f["deprecated"]}  # fmt: skip
    assert len(marked) > 20
    assert listed == marked


# --------------------------------------------------------------------------- since/until


def fixture_site() -> dict[str, str]:
    paths = [str(FIXTURES / v / "schema.ts") for v in ("v1", "v2", "v3")]
    return site_files([declared(p) for p in paths], [load(p) for p in paths], [None] * 3)


def test_since_until_of_added_removed_readded_deprecated() -> None:
    paths = [str(FIXTURES / v / "schema.ts") for v in ("v1", "v2", "v3")]
    facts = presence(["v1", "v2", "v3"], [load(p) for p in paths])
    widget = facts.types["Widget"]
    kinds = {name: [(c.kind, c.version) for c in facts.changes(f)]
             for name, f in widget.members.items()}  # fmt: skip
    assert kinds == {
        "name": [("since", "v1"), ("deprecated", "v3")],
        "colour": [("since", "v1"), ("removed", "v2"), ("since", "v3")],
        "size": [("since", "v2")],
        "label": [("since", "v3")],
    }
    assert [(c.kind, c.version) for c in facts.changes(facts.types["Gadget"])] == [
        ("since", "v1"), ("removed", "v2")]  # fmt: skip
    doohickey = facts.types["Doohickey"]
    assert doohickey.to_json()["deprecated"] == ["v3"]
    assert doohickey.members["knob"].to_json() == {"versions": ["v2", "v3"], "deprecated": ["v3"]}


def test_badges_link_to_the_pair_where_it_changed() -> None:
    files = fixture_site()
    assert set(files) == {"index.html", "since.json", "v1.html", "v1.mdx", "v2.html", "v2.mdx",
                          "v3.html", "v3.mdx", "v1..v2.html", "v2..v3.html"}  # fmt: skip
    page = files["v3.mdx"]
    colour = page[page.index('id="widget-colour"') :]
    colour = colour[: colour.index("</div>")]
    assert '<span class="badge badge-since">since v1</span>' in colour
    assert (
        '<a class="badge badge-removed" href="v1..v2.html#type=Widget">removed in v2</a>' in colour
    )
    assert '<a class="badge badge-since" href="v2..v3.html#type=Widget">since v3</a>' in colour
    name = page[page.index('id="widget-name"') :]
    assert 'href="v2..v3.html#type=Widget">deprecated since v3</a>' in name[: name.index("</div>")]
    assert 'href="v1..v2.html#type=Gadget">removed in v2</a>' in files["index.html"]
    for rel in ("v1..v2.html", "v2..v3.html"):  # the history's own diff pages
        assert "Schema diff" in files[rel]


# --------------------------------------------------------------------------- untrusted text


def test_untrusted_text_stays_text_in_mdx_and_html() -> None:
    hostile = FIXTURES / "hostile" / "schema.ts"
    mdx = our_page(hostile)
    page = rp.parse_page(mdx)  # the structure survives: nothing closed a block early
    assert [t.name for t in page.types] == ["Target", "Alias"]
    target = page.types[0]
    assert [m.anchor for m in target.members][1] == "target-plain"
    body = mdx[mdx.index('<div class="type">') :]
    for raw in ("<script", "<img", "<b ", "{"):  # markup, or an MDX expression
        assert raw not in body
    assert "{" not in body and "`" not in body.replace("### `Target`", "").replace(
        "### `Alias`", ""
    )
    text = rp.parse_html(body.replace("### `Target`", "").replace("### `Alias`", ""))
    hrefs = [n.attrs.get("href", "") for n in text.find_all(lambda n: n.tag == "a")]
    assert not [h for h in hrefs if h.lower().startswith("javascript")]
    shown = text.text()
    assert '<script>window.__pwned = "doc";</script>' in shown
    assert '{window.__pwned = "mdx"}' in shown and "back`tick" in shown
    html = site_files([declared(str(hostile))], [load(str(hostile))], [None])["hostile.html"]
    root = rp.parse_html(html)
    assert [n for n in root.find_all(lambda n: n.tag in ("img", "b"))] == []
    assert len(root.find_all(lambda n: n.tag == "script")) == 1  # the page's own
    assert not [n for n in root.find_all(lambda n: n.attrs.get("href", "").startswith("java"))]


def test_injection_fixture_renders_as_text() -> None:
    mdx = our_page(REPO / "tests" / "fixtures" / "hostile" / "injection.ts")
    assert "<script" not in mdx and "<img" not in mdx and "<textarea" not in mdx.lower()
    assert "{{" not in mdx and "{%" not in mdx


# --------------------------------------------------------------------------- errors


def test_bad_template_is_a_located_error_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = FIXTURES / "badtemplate" / "schema.ts"
    out = tmp_path / "page.mdx"
    assert cli.main(["reference", str(schema), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    template = FIXTURES / "badtemplate" / "schema.mdx"
    assert f"{template}:11:1: invalid category 'Nobody Has This'" in err
    assert f"{schema}:15:8: category 'Missing From Template' of Other is missing from the " \
           f"template {template}" in err  # fmt: skip
    assert not out.exists()
    assert cli.main(["reference", str(schema), "--template", str(tmp_path / "none.mdx"),
                     "-o", str(out)]) == 2  # fmt: skip
    assert f"{tmp_path / 'none.mdx'}:1:1: cannot read template" in capsys.readouterr().err
    assert not out.exists()


def test_missing_include_code_file_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = tmp_path / "t.mdx"
    template.write_text("## A\n\n{/* @category Things */}\n\n## B\n\n"
                        "{/* @category Missing From Template */}\n")  # fmt: skip
    schema = FIXTURES / "badtemplate" / "schema.ts"
    out = tmp_path / "page.mdx"
    assert cli.main(["reference", str(schema), "--template", str(template), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{schema}:23:4: @includeCode ./examples/Nope/nope.json: cannot read" in err
    assert not out.exists()


def test_cli_writes_one_page_and_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = FIXTURES / "v3" / "schema.ts"
    assert cli.main(["reference", str(one)]) == 0
    assert "### `Widget`" in capsys.readouterr().out
    folder = tmp_path / "site"
    paths = [str(FIXTURES / v / "schema.ts") for v in ("v1", "v2", "v3")]
    assert cli.main(["reference", *paths, "-o", str(folder)]) == 0
    assert json.loads((folder / "since.json").read_text())["versions"] == ["v1", "v2", "v3"]
    assert cli.main(["reference", *paths]) == 2  # a folder needs -o


# --------------------------------------------------------------------------- pinned output

GOLDEN = REPO / "tests" / "golden" / "reference_sha256.json"
ALL_VERSIONS = corpus.version_names()


@pytest.mark.spec
def test_pages_of_official_versions_pinned_by_hash(spec_root: Path, update_golden: bool) -> None:
    """The pages carry the spec's prose, so they are pinned by sha256, not committed: any change
    of output shows here (regenerate with --update-golden, review with `mcp-codegen reference`
    before and after)."""
    import hashlib

    got = {v: hashlib.sha256(our_page(spec_root / v / "schema.ts").encode()).hexdigest()
           for v in ALL_VERSIONS}  # fmt: skip
    if update_golden:
        GOLDEN.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert got == expected, "page output changed: rerun with --update-golden and review"


@pytest.mark.spec
def test_version_name_uses_its_pinned_template(
    spec_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "page.mdx"
    args = ["reference", "2025-06-18", "--spec-dir", str(spec_root), "--offline", "-o", str(out)]
    assert cli.main(args) == 0
    official = rp.parse_page((spec_root / "2025-06-18" / "reference.mdx").read_text())
    assert rp.parse_page(out.read_text()).sections == official.sections


_BLOCK = re.compile(r"<div class=\"type\">\n\n### `([^`]*)`\n\n(.*?)\n</div>\n", re.DOTALL)


@pytest.mark.spec
@pytest.mark.parametrize("version", PAGES)
def test_layout_equals_official_layout(pages: dict[str, tuple[str, str]], version: str) -> None:
    """The stretch goal, met: every type block is byte-identical to the official one (typedoc's
    80-column signature breaks, spacing, escaping, the JSON highlighting, the order of a
    union's literals); so is the page around them."""
    ours, official = pages[version]
    a = dict(_BLOCK.findall(ours))
    b = dict(_BLOCK.findall(official))
    assert a.keys() == b.keys()
    differ = sorted(n for n in a if a[n] != b[n])
    assert differ == []
    outside = _BLOCK.sub("", ours), _BLOCK.sub("", official)
    assert outside[0] == outside[1]


def test_folder_reports_every_version_s_problems_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = FIXTURES / "badtemplate" / "schema.ts"
    good = FIXTURES / "v1" / "schema.ts"
    folder = tmp_path / "site"
    assert cli.main(["reference", str(good), str(bad), str(bad), "-o", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "invalid category 'Nobody Has This'" in err and "@includeCode" in err
    assert not folder.exists()


# --------------------------------------------------------------------------- literal order

_HEADING = re.compile(r'id="[a-z]*-([a-z]*)"[^>]*><span[^>]*>[^<:]*\??: ([^<]*)</span>')


def _literal_heads(tmp_path: Path, files: dict[str, str], page: str) -> dict[str, str]:
    """Member headings (`name: type`, quotes unescaped) of the page of `files[page]`, the
    files written as `tmp_path/<key>/schema.ts` (a specification tree)."""
    for key, text in files.items():
        (tmp_path / key).mkdir()
        (tmp_path / key / "schema.ts").write_text(text, encoding="utf-8")
    schema = tmp_path / page / "schema.ts"
    out = render_page(declared(str(schema)), None, None, None, program(str(schema), tmp_path))
    return {m: t.replace("&quot;", '"') for m, t in _HEADING.findall(out)}


def test_literal_order_follows_the_checker_s_creation_order_across_the_tree(
    tmp_path: Path,
) -> None:
    """typedoc's program holds every `*/schema.ts` of the tree, checked in path order: a
    literal an earlier version met comes first; alone, a file keeps its own order."""
    files = {"a": 'export interface A { x: "b" | "a" }\n',
             "b": 'export interface B { y: "a" | "c" | "b" }\n',
             "c": 'export interface C { z: "c" | "b" }\n'}  # fmt: skip
    assert _literal_heads(tmp_path, files, "b")["y"] == '"b" | "a" | "c"'
    alone = tmp_path / "alone.ts"
    alone.write_text(files["b"], encoding="utf-8")
    page = render_page(declared(str(alone)), None)
    assert "y: &quot;a&quot; | &quot;c&quot; | &quot;b&quot;" in page


def test_literal_order_counts_names_the_checker_relates_to_an_index_signature(
    tmp_path: Path,
) -> None:
    """Property names the checker turns into literal types before a union meets them: those of
    an object checked against a base member with an index signature, those of an interface
    whose base has one, and the keys of `extends Omit<X, "k">` (TypeScript 6.0 orders these
    unions so)."""
    text = """export interface Request { params?: { [key: string]: unknown } }
export interface Read extends Request { params: { uri: string } }
export interface Result { [key: string]: unknown }
export interface Listed extends Result { beta: string }
export interface Hidden extends Omit<Listed, "zeta"> { gamma: string }
export interface Plain { delta: string }
export interface Shown {
  format?: "email" | "uri";
  pick: "alpha" | "beta";
  last: "alpha" | "zeta";
  plain: "omega" | "gamma";
  other: "epsilon" | "delta";
}
"""
    heads = _literal_heads(tmp_path, {"v": text}, "v")
    assert heads["format"] == '"uri" | "email"'
    assert heads["pick"] == '"beta" | "alpha"'
    assert heads["last"] == '"zeta" | "alpha"'
    assert heads["plain"] == '"gamma" | "omega"'  # `Omit` of an indexed type is indexed
    assert heads["other"] == '"epsilon" | "delta"'  # no base: its names are not literal types


# --------------------------------------------------------------------------- Markdown rules


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("1. a\n2. b", "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"),
        ("3. c\n4. d", '<ol start="3">\n<li>c</li>\n<li>d</li>\n</ol>\n'),
        ("- a\n  - b\n- c", "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n<li>c</li>\n</ul>\n"),
        ("- a\n\n- b", "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n"),
        ("Text\n- item", "<p>Text</p>\n<ul>\n<li>item</li>\n</ul>\n"),
        ("*a* **b** `c` snake_case", "<p><em>a</em> <strong>b</strong> <code>c</code> snake_case</p>\n"),
        ("see https://e.org/x. and <https://a.b/c>",
         ('<p>see <a href="https://e.org/x">https://e.org/x</a>. and '
          '<a href="https://a.b/c">https://a.b/c</a></p>\n')),
        ("[t](/spec/x#y) \\*not em\\*", '<p><a href="/spec/x#y">t</a> *not em*</p>\n'),
        ("a\nb\n\nc", "<p>a\nb</p>\n<p>c</p>\n"),
        ("it's \"q\" <b>", "<p>it's &quot;q&quot; &lt;b&gt;</p>\n"),
        # markdown-it's CommonMark (and typedoc's linkify-it), beyond the official pages' needs
        ("see www.e.org, e.org/a_(b)", ('<p>see <a href="http://www.e.org">www.e.org</a>, '
         '<a href="http://e.org/a_(b)">e.org/a_(b)</a></p>\n')),
        ("p\n\n    code\n\n> q\n\n---", ("<p>p</p>\n<pre><code>code\n</code></pre>\n"
         "<blockquote>\n<p>q</p>\n</blockquote>\n<hr />\n")),
        ("a  \nb &copy; ~~c~~", "<p>a<br />\nb © <s>c</s></p>\n"),
        ("[r]\n\n[r]: /spec#r", '<p><a href="/spec#r">r</a></p>\n'),
        # untrusted: no unsafe link, no image, no HTML
        ("[x](javascript:alert(1)) ![i](https://t/p.png)",
         '<p>[x](javascript:alert(1)) !<a href="https://t/p.png">i</a></p>\n'),
        # `{@link}`: resolved, unresolved (label alone, in its place), unsafe, safe URL, in code
        ("a {@link Foo | the *foo*} b {@link bar} c {@link javascript:x | no} {@link https://a.b}",
         ('<p>a <a href="#foo" class="tsd-kind-interface">the <em>foo</em></a> b bar c no '
          '<a href="https://a.b">https://a.b</a></p>\n')),
        ("`{@link Foo}` {@link Foo.x.y}", "<p><code>{@link Foo}</code> Foo.x.y</p>\n"),
        ("{@link Gone | see https://a.b}",
         '<p>see <a href="https://a.b">https://a.b</a></p>\n'),
    ],
)  # fmt: skip
def test_markdown_rules(text: str, html: str) -> None:
    """The Markdown typedoc renders (markdown-it), for constructs the official pages do not all
    show: unseen drafts may use them."""
    from codegen.reference.prose import Renderer

    def resolve(target: str) -> tuple[str, str] | None:
        return ("#foo", "tsd-kind-interface") if target == "Foo" else None

    assert Renderer(resolve).render(text) == html
