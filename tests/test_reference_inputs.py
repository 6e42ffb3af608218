"""`reference` and `history` inputs, explicitly: `REF:PATH` (read from git, with the files beside
the schema from the same commit), a repeated `--label`, and typedoc's program of sibling versions
read only when asked (`--program DIR|REF:DIR`) or brought by a version name."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from codegen import cli

TREE = {"a": 'export interface A { x: "b" | "a" }\n',
        "b": 'export interface B { y: "a" | "c" | "b" }\n'}  # fmt: skip
TYPEDOC = "y: &quot;b&quot; | &quot;a&quot; | &quot;c&quot;"  # after a's literals
ALONE = "y: &quot;a&quot; | &quot;c&quot; | &quot;b&quot;"  # as written


def _tree(root: Path) -> None:
    for key, text in TREE.items():
        (root / key).mkdir(parents=True)
        (root / key / "schema.ts").write_text(text, encoding="utf-8")


def _git(repo: Path, *args: str) -> None:
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(["git", "-C", str(repo), *ident, *args], check=True, capture_output=True)


def test_a_path_reads_no_sibling_without_program(tmp_path: Path) -> None:
    _tree(tmp_path / "schema")
    page = tmp_path / "page.mdx"
    b = str(tmp_path / "schema" / "b" / "schema.ts")
    assert cli.main(["reference", b, "-o", str(page)]) == 0
    assert ALONE in page.read_text(encoding="utf-8")
    assert cli.main(["reference", b, "--program", str(tmp_path / "schema"), "-o", str(page)]) == 0
    assert TYPEDOC in page.read_text(encoding="utf-8")


def test_ref_path_inputs_and_labels(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _tree(repo / "schema")
    (repo / "schema" / "a" / "schema.mdx").write_text("# From git\n\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "two versions")
    # the working copy differs: what is read must come from the commit
    (repo / "schema" / "b" / "schema.ts").write_text("export interface Z { z: 1 }\n")
    page = tmp_path / "page.mdx"
    args = ["--git-dir", str(repo), "-o", str(page)]
    got = cli.main(["reference", "HEAD:schema/b/schema.ts", "--program", "HEAD:schema", *args])
    assert got == 0
    text = page.read_text(encoding="utf-8")
    assert TYPEDOC in text and "interface Z" not in text
    assert cli.main(["reference", "HEAD:schema/a/schema.ts", *args]) == 0
    # the template beside it comes from the same commit
    assert page.read_text(encoding="utf-8").startswith("# From git")
    site = tmp_path / "site"
    two = ["HEAD:schema/a/schema.ts", "HEAD:schema/b/schema.ts", "--label", "v1", "--label", "v2"]
    assert cli.main(["reference", *two, "--git-dir", str(repo), "-o", str(site)]) == 0
    assert (site / "v1.html").is_file() and (site / "v2.mdx").is_file()
    hist = tmp_path / "history"
    assert cli.main(["history", *two, "--git-dir", str(repo), "-o", str(hist)]) == 0
    assert (hist / "v1..v2.html").is_file()
    one_label = ["history", *two[:2], "--label", "v1", "--git-dir", str(repo), "-o", str(hist)]
    assert cli.main(one_label) == 2


@pytest.mark.spec
@pytest.mark.slow
def test_version_name_brings_the_official_program(spec_root: Path, tmp_path: Path) -> None:
    """`reference 2025-11-25` equals the page by path with `--program` (the official page's
    literal order); by path alone it reads that one file (ToolChoice's literals as written)."""
    by_name, by_path, alone = (tmp_path / f"{n}.mdx" for n in ("name", "path", "alone"))
    path = str(spec_root / "2025-11-25" / "schema.ts")
    spec = ["--spec-dir", str(spec_root), "--offline"]
    assert cli.main(["reference", "2025-11-25", *spec, "-o", str(by_name)]) == 0
    assert cli.main(["reference", path, "--program", str(spec_root), "-o", str(by_path)]) == 0
    assert cli.main(["reference", path, "-o", str(alone)]) == 0
    assert by_name.read_bytes() == by_path.read_bytes()
    assert by_path.read_bytes() != alone.read_bytes()


VERSIONS = {
    "v1": 'export interface CallRequest { method: "call"; params: { name: string } }\n'
    "export interface Gizmo { knob: string }\n",
    "v2": "export interface CallRequestParams { name: string; extra?: number }\n"
    'export interface CallRequest { method: "call"; params: CallRequestParams }\n'
    "export interface Gizmo { knob: string }\n",
    "v3": "export interface CallRequestParams { name: number; extra?: number }\n"
    'export interface CallRequest { method: "call"; params: CallRequestParams }\n'
    "export interface Gadget { knob: string }\n",
}


def test_badges_for_readers(tmp_path: Path) -> None:
    """A member moved from an inline type into a named one keeps its real "since"; a member
    whose type changed says "changed in"; a type the diff knows was renamed says from what."""
    from codegen.pipeline import declared, load
    from codegen.reference.site import site_files

    paths = []
    for v, text in VERSIONS.items():
        (tmp_path / v).mkdir()
        (tmp_path / v / "schema.ts").write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / v / "schema.ts"))
    files = site_files([declared(p) for p in paths], [load(p) for p in paths], [None] * 3)
    since = json.loads(files["since.json"])["types"]["CallRequestParams"]["members"]
    assert since["name"] == {"versions": ["v2", "v3"], "deprecated": [], "inline": ["v1"]}
    v3 = files["v3.mdx"]
    name = v3[v3.index('id="callrequestparams-name"') :][:600]
    assert '<span class="badge badge-since">since v1</span>' in name
    assert '<a class="badge badge-changed" href="v2..v3.html#type=CallRequestParams">' in name
    assert "changed in v3" in name
    extra = v3[v3.index('id="callrequestparams-extra"') :][:500]
    assert "since v2" in extra and "changed in" not in extra
    assert "renamed from Gizmo in v3" in v3


def test_default_tag_is_shown_as_code(tmp_path: Path) -> None:
    """typedoc shows `@default "complete"` (77a48167's `Result.resultType`) as a ts code block,
    and a `@default` that holds code already as written."""
    from codegen.reference.comments import default_as_code

    assert default_as_code('"complete"\n') == '```ts\n"complete"\n```'
    assert default_as_code("`none` unless set") == "`none` unless set"
    schema = tmp_path / "x.ts"
    schema.write_text(
        'export interface Result {\n  /**\n   * How to read it.\n   *\n   * @default "complete"\n'
        "   */\n  resultType?: string;\n}\n",
        encoding="utf-8",
    )
    out = tmp_path / "x.mdx"
    assert cli.main(["reference", str(schema), "-o", str(out)]) == 0
    # highlighted as typedoc highlights a ts block (the string literal one colour)
    assert '<pre><code class="ts"><span class="hl-0">&quot;complete&quot;</span>' in out.read_text(
        encoding="utf-8"
    )
