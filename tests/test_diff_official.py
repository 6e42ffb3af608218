"""The diff on the official MCP versions and the example protocol: committed reports under
generated/reports/ (regenerated and compared; `pytest --update-golden` rewrites them), coverage of
every difference derived independently from the official schema.json files, mirror and identity.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import corpus
import pytest
from cli_support import run_cli
from test_diff import assert_markdown_keeps_every_finding, assert_mirrors, check_golden

from codegen.diff import Report, diff
from codegen.diff.report import render_json, render_markdown
from codegen.diff.rules import Finding
from codegen.diff.summary import summarize
from codegen.pipeline import load
from codegen.spec.pins import known_versions

REPO = Path(__file__).resolve().parent.parent
REPORTS = REPO / "generated" / "reports"
EXAMPLE = REPO / "schemas" / "example"
VERSIONS = corpus.version_names()
# Consecutive schemas (the hops through the intermediate draft included), and consecutive
# released versions (2025-06-18 -> 2025-11-25 skips DRAFT-2025-v3): what a maintainer upgrades.
RELEASED = [v for v in VERSIONS if v in known_versions() and v != "draft"]
PAIRS = list(dict.fromkeys([*pairwise(VERSIONS), *pairwise(RELEASED)]))
PAIR_IDS = [f"{a}..{b}" for a, b in PAIRS]
UNIONS = ("ClientRequest", "ClientNotification", "ClientResult", "ServerRequest",
          "ServerNotification", "ServerResult")  # fmt: skip


@cache
def report(a: str, b: str) -> Report:
    return diff(corpus.resolved(a), corpus.resolved(b))


def committed(r: Report) -> Report:
    """A report as committed: an unpinned schema (the drafts) is named by its path relative to
    the checkout (`../shared/spec/<label>/schema.ts`), not by where this machine keeps it."""
    local = {
        s.label: replace(s, link=f"../shared/spec/{s.label}/schema.ts")
        for s in (r.old, r.new)
        if not s.permalink
    }
    return replace(r, old=local.get(r.old.label, r.old), new=local.get(r.new.label, r.new))


# ---------------------------------------------------------------------------------------------
# Committed reports


@pytest.mark.spec
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=PAIR_IDS)
def test_official_reports_are_current(spec_root: Path, a: str, b: str, update_golden: bool) -> None:
    r = committed(report(a, b))
    assert (r.old.label, r.new.label) == (a, b)
    md = render_markdown(r)
    assert_markdown_keeps_every_finding(r, md)
    check_golden(REPORTS / f"{a}..{b}.md", md, update_golden)
    check_golden(REPORTS / f"{a}..{b}.json", render_json(r), update_golden)


def test_example_report_is_current(update_golden: bool) -> None:
    r = diff(load(str(EXAMPLE / "v1" / "schema.ts")), load(str(EXAMPLE / "v2" / "schema.ts")))
    r = replace(
        r,
        old=replace(r.old, link="schemas/example/v1/schema.ts"),
        new=replace(r.new, link="schemas/example/v2/schema.ts"),
    )
    check_golden(REPORTS / "example-v1..v2.md", render_markdown(r), update_golden)
    check_golden(REPORTS / "example-v1..v2.json", render_json(r), update_golden)


def test_no_stale_reports() -> None:
    expected = {f"{a}..{b}.{ext}" for a, b in PAIRS for ext in ("md", "json")}
    expected |= {"example-v1..v2.md", "example-v1..v2.json"}
    present = {p.name for p in REPORTS.glob("*") if p.suffix in (".md", ".json")}
    assert present <= expected, f"reports nobody regenerates: {sorted(present - expected)}"


@pytest.mark.spec
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=PAIR_IDS)
def test_reports_carry_no_prose(spec_root: Path, a: str, b: str) -> None:
    """No sentence of any description of either schema appears in the report."""
    text = render_markdown(report(a, b)) + render_json(report(a, b))
    for version in (a, b):
        for t in corpus.resolved(version).types:
            docs = [t.doc.text]
            if hasattr(t.type, "properties"):
                docs += [p.doc.text for p in t.type.properties]  # type: ignore[union-attr]
            for d in docs:
                for sentence in re.split(r"(?<=[.!?])\s+|\n", d):
                    if len(sentence) >= 24:
                        assert sentence not in text, (version, t.name)


# ---------------------------------------------------------------------------------------------
# Mirror and identity


@pytest.mark.spec
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=PAIR_IDS)
def test_official_pairs_mirror(spec_root: Path, a: str, b: str) -> None:
    assert_mirrors(report(a, b), report(b, a))


@pytest.mark.spec
@pytest.mark.parametrize("version", VERSIONS)
def test_official_identity_is_empty(spec_root: Path, version: str) -> None:
    assert report(version, version).findings == ()


# ---------------------------------------------------------------------------------------------
# Coverage: every difference a plain reading of the two schema.json files shows


def _ref(node: dict[str, Any]) -> str:
    return str(node["$ref"]).rsplit("/", 1)[-1]


def _strip(node: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in node.items() if k != "description"}


def union_members(defs: dict[str, Any], name: str) -> set[str] | None:
    node = defs.get(name)
    if node is None:
        return None
    if "anyOf" in node:
        return {_ref(m) for m in node["anyOf"] if "$ref" in m}
    if "$ref" in node:
        return {_ref(node)}
    # a one-member union is inlined: it is the definition whose content it repeats
    return {n for n, d in defs.items() if n != name and _strip(d) == _strip(node)}


def ref_members(node: Any) -> set[str] | None:
    """The referenced members of an `anyOf` of references (None when it is not one)."""
    if not isinstance(node, dict) or "anyOf" not in node:
        return None
    refs = {_ref(m) for m in node["anyOf"] if "$ref" in m}
    return refs if refs and len(refs) == len(node["anyOf"]) else None


def walk(defs: dict[str, Any], name: str) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """(path, object schema) for a definition and its nested inline objects."""

    def go(
        path: tuple[str, ...], node: dict[str, Any]
    ) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
        if "properties" not in node:
            return
        yield path, node
        for prop, sub in node["properties"].items():
            yield from go((*path, prop), sub)

    yield from go((name,), defs[name])


def json_differences(
    old: dict[str, Any], new: dict[str, Any]
) -> list[tuple[str, tuple[str, ...], str]]:
    """(kind, path, detail) for every difference in definitions, properties, required lists,
    const/enum values, method strings and union membership."""
    out: list[tuple[str, tuple[str, ...], str]] = []
    for name in sorted(set(old) - set(new)):
        out.append(("type-removed", (name,), ""))
    for name in sorted(set(new) - set(old)):
        out.append(("type-added", (name,), ""))
    for name in sorted(set(old) & set(new)):
        a_objs, b_objs = dict(walk(old, name)), dict(walk(new, name))
        for path in sorted(set(a_objs) & set(b_objs)):
            a, b = a_objs[path], b_objs[path]
            pa, pb = a["properties"], b["properties"]
            ra, rb = set(a.get("required", [])), set(b.get("required", []))
            for p in sorted(set(pa) - set(pb)):
                out.append(("property-removed", (*path, p), ""))
            for p in sorted(set(pb) - set(pa)):
                out.append(("property-added", (*path, p), ""))
            for p in sorted(set(pa) & set(pb)):
                if (p in ra) != (p in rb):
                    out.append(("required-changed", (*path, p), ""))
                if pa[p].get("const") != pb[p].get("const"):
                    out.append(
                        ("const-changed", (*path, p), f"{pa[p].get('const')}->{pb[p].get('const')}")
                    )
                ea, eb = set(pa[p].get("enum", [])), set(pb[p].get("enum", []))
                for v in sorted(map(str, ea ^ eb)):
                    out.append(("enum-changed", (*path, p), v))
                for sub, (na, nb) in (
                    ("", (pa[p], pb[p])),
                    ("[]", (pa[p].get("items"), pb[p].get("items"))),
                ):
                    ma, mb = ref_members(na), ref_members(nb)
                    if ma is not None and mb is not None:
                        where = (*path, p + sub) if sub else (*path, p)
                        out.extend(("member-changed", where, m) for m in sorted(ma ^ mb))
        ea, eb = set(map(str, old[name].get("enum", []))), set(map(str, new[name].get("enum", [])))
        for v in sorted(ea ^ eb):
            out.append(("enum-changed", (name,), v))
    for union in UNIONS:
        ma, mb = union_members(old, union), union_members(new, union)
        if ma is None or mb is None:
            continue  # the union itself was added or removed: a type difference above
        for m in sorted(ma ^ mb):
            out.append(("member-changed", (union,), m))
    methods_a, methods_b = json_methods(old), json_methods(new)
    for m in sorted(methods_a ^ methods_b):
        out.append(("method-changed", (m,), ""))
    return out


def json_methods(defs: dict[str, Any]) -> set[str]:
    out = set()
    for union in (*UNIONS, "InputRequest"):
        if union.endswith("Result"):
            continue
        for m in union_members(defs, union) or ():
            out.add(str(defs[m]["properties"]["method"]["const"]))
    return out


def subject_path(path: tuple[str, ...]) -> str:
    out = path[0]
    for seg in path[1:]:
        if seg.endswith("[]"):
            out += "." + seg
            continue
        out += "." + seg if re.fullmatch(r"[A-Za-z_$][\w$]*", seg) else f"[{json.dumps(seg)}]"
    return out


# Which finding rules explain each kind of schema.json difference.
EXPLAINS = {
    "type-removed": {"type-removed", "type-renamed", "type-renamed-changed"},
    "type-added": {"type-added", "type-renamed", "type-renamed-changed"},
    "property-removed": {"property-removed-optional", "property-removed-required",
                         "envelope-property-undeclared"},
    "property-added": {"property-added-optional", "property-added-required",
                       "envelope-property-declared"},
    "required-changed": {"property-became-required", "property-became-optional"},
    "const-changed": {"literal-value-changed", "type-changed", "type-widened", "type-narrowed"},
    "enum-changed": {"enum-value-added", "enum-value-removed", "open-enum-value-added",
                     "open-enum-value-removed", "type-changed", "type-widened", "type-narrowed"},
    "member-changed": {"union-member-added", "union-member-removed", "type-renamed",
                       "type-renamed-changed",
                       "union-member-added-covered", "union-member-removed-covered"},
    "method-changed": {"method-added", "method-removed"},
}  # fmt: skip


def explained(kind: str, path: tuple[str, ...], detail: str, findings: tuple[Finding, ...]) -> bool:
    root, rest = path[0], subject_path(("X", *path[1:]))[1:]
    for f in findings:
        if f.rule not in EXPLAINS[kind]:
            continue
        if kind == "method-changed" and f.subject == root:
            return True
        if kind == "type-added" and root in (f.subject, f.after):
            return True
        if kind == "type-removed" and root in (f.subject, f.before):
            return True
        here = f.subject == root + rest or (
            root in f.inherited_by and rest and f.subject.endswith(rest)
        )
        if kind == "member-changed":
            # the member, by name, added to or removed from this union; or the member renamed
            if detail in (f.before, f.after) and (f.rule.startswith("type-renamed") or here):
                return True
            continue
        # the change itself, or the same change reported once at the base type it inherits from
        if here:
            return True
    # or a change of the whole type of an enclosing property, shown before/after as TS text
    for f in findings:
        whole = f.rule in ("type-changed", "type-widened", "type-narrowed", "type-equivalent")
        if whole and (root + rest).startswith(f.subject + "."):
            return True
    return False


@pytest.mark.spec
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=PAIR_IDS)
def test_findings_cover_every_schema_json_difference(spec_root: Path, a: str, b: str) -> None:
    differences = json_differences(corpus.definitions(a), corpus.definitions(b))
    findings = report(a, b).findings
    missing = [d for d in differences if not explained(*d, findings)]
    assert missing == [], f"{len(missing)} schema.json differences without a finding"
    if corpus.definitions(a) == corpus.definitions(b):
        assert all(f.category == "documentation" for f in findings)


# ---------------------------------------------------------------------------------------------
# The example protocol: every intended change of schemas/example/README.md is found

EXAMPLE_INTENTS = [
    ("method-added", "widgets/watch"),
    ("method-removed", "widgets/lock"),
    ("type-renamed", "WidgetAnnotations"),
    ("property-added-optional", "Widget.description"),
    ("property-added-required", "ListWidgetsResult.total"),
    ("property-removed-optional", "Widget.legacyColor"),
    ("property-became-required", "GetWidgetResult.actions"),
    ("property-became-optional", "Implementation.version"),
    ("property-became-nullable", "UpdateWidgetRequestParams.value"),
    ("type-changed", "GetWidgetRequestParams.minVersion"),
    ("union-member-added", "WidgetContent"),
    ("union-member-removed", "WidgetContent"),
    ("enum-value-added", "WidgetKind"),
    ("enum-value-removed", "WidgetKind"),
    ("format-added", "ConfirmRequestParams.deadline"),
    ("constraint-tightened", "PaginatedRequestParams.limit"),
    ("protocol-version-changed", "LATEST_PROTOCOL_VERSION"),
    ("error-code-changed", "WIDGET_LOCKED"),
    ("description-changed", "Widget.tags"),
    ("description-changed", "Cursor"),
    ("deprecated-added", "Widget.color"),
    ("method-direction-changed", "notifications/focus_changed"),
    ("method-result-changed", "widgets/reset"),
]


def test_example_intents_are_found() -> None:
    r = diff(load(str(EXAMPLE / "v1" / "schema.ts")), load(str(EXAMPLE / "v2" / "schema.ts")))
    found = {(f.rule, f.subject) for f in r.findings}
    assert [i for i in EXAMPLE_INTENTS if i not in found] == []
    # the rename is not also a removal, an addition or a property type change
    assert not [
        f for f in r.findings if "WidgetHints" in (f.after or "") and f.rule != "type-renamed"
    ]
    inherited = next(f for f in r.findings if f.subject == "PaginatedRequestParams.limit")
    assert "ListWidgetsRequestParams" in inherited.inherited_by


@pytest.mark.spec
def test_official_report_is_deterministic_across_hash_seeds(spec_root: Path) -> None:
    old = str(corpus.get_version("2025-11-25").schema_ts)
    new = str(corpus.get_version("2026-07-28").schema_ts)
    outs = set()
    for seed in ("0", "4242"):
        r = run_cli("diff", old, new, "--format", "json", env={"PYTHONHASHSEED": seed})
        assert r.returncode == 0, r.stderr
        outs.add(r.stdout)
    assert outs == {render_json(report("2025-11-25", "2026-07-28"))}


@pytest.mark.spec
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=PAIR_IDS)
def test_summary_names_every_method_change_and_requirement(spec_root: Path, a: str, b: str) -> None:
    """The opening section alone tells a maintainer which methods were added, removed or moved
    and which requirements apply across methods: each named there, linked to its finding."""
    r = committed(report(a, b))
    todo = render_markdown(r).split("## Migration by method")[0]
    wanted = {"method-added", "method-removed", "method-transport-changed"}
    for f in r.findings:
        if f.rule in wanted:
            assert f"`{f.subject}`" in todo and f"(#{f.id})" in todo, (f.rule, f.subject)
    summary = summarize(r.findings, r.literals)
    for c in summary["cross_cutting"]:
        assert f"(#{c['id']})" in todo and f"affects {c['affects']} methods" in todo
    for d in summary["deprecations"]:
        assert f"`{d['subject']}`" in todo
    for v in summary["literals"]:
        assert f"`{v['value']}`" in todo


@pytest.mark.spec
def test_echo_collapsing_on_the_2026_release(spec_root: Path) -> None:
    """Removed and moved methods are counted once: their restatements are echoes; so are the
    members five results inherit from the new `CacheableResult`, and `ClientNotification`
    losing `ProgressNotification` (the method's direction narrowed)."""
    r = report("2025-11-25", "2026-07-28")
    by_id = {f.id: f for f in r.findings}
    echoes = [f for f in r.findings if f.echo_of is not None]
    assert echoes and all(by_id[f.echo_of].echo_of is None for f in echoes)  # roots only
    root_of = {(f.subject, f.before or f.after): by_id[f.echo_of].subject for f in echoes}
    assert root_of["ListToolsResult.ttlMs", "ttlMs: number"] == "CacheableResult"
    assert root_of["ClientNotification", "ProgressNotification"] == "notifications/progress"
    echoed = {(f.rule, f.subject, f.before) for f in echoes}
    assert ("type-removed", "InitializeRequest", "InitializeRequest") in echoed
    assert ("union-member-removed", "ClientRequest", "PingRequest") in echoed
    assert ("envelope-property-undeclared", "ElicitRequest.id", "id: RequestId") in echoed
    # attributed through the version that uses the type: ping is gone in 2026-07-28
    meta = next(f for f in r.findings if f.subject == "RequestParams._meta")
    assert "ping" not in meta.methods and "tasks/list" not in meta.methods


@pytest.mark.spec
def test_ground_truth_flattened_union_and_named_meta(spec_root: Path) -> None:
    """`PrimitiveSchemaDefinition` widened from 4 to 8 kinds of schema (2025-06-18 ->
    2025-11-25) is one change of that alias; `RequestMetaObject`, which every request's
    `_meta` now names, is in the summary of 2025-11-25 -> 2026-07-28."""
    r = report("2025-06-18", "2025-11-25")
    psd = [f for f in r.findings if f.subject == "PrimitiveSchemaDefinition"]
    assert [(f.rule, f.echo_of) for f in psd] == [("type-widened", None)]
    assert (psd[0].before or "").startswith("4 members: ")
    assert (psd[0].after or "").startswith("8 members: ")
    enum = [f for f in r.findings if f.subject == "EnumSchema" and f.rule == "type-widened"]
    assert [f.echo_of for f in enum] == [psd[0].id]  # restates it, counted once
    r = report("2025-11-25", "2026-07-28")
    summary = summarize(r.findings, r.literals)
    assert "RequestMetaObject" in {c["subject"] for c in summary["cross_cutting"]}
    assert "`RequestMetaObject`" in render_markdown(r).split("## Migration by method")[0]
