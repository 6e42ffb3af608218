"""Conformance: language-neutral test vectors per version (`vectors`), and the checks of recorded
or live traffic (`wire`, `server`). Pure functions from resolved models to documents; wire
names and neutral type names only (docs/conformance.md).

A vector document (`<version>/<Type>.json`):
`{"format": FORMAT, "version": label, "type": name, "tests": [{"description", "data", "valid",
"errors": [{"path", "code", "reason"}], ["deviation", "note"], ["text"]}]}`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import ir
from ..analysis.requirements import Requirement
from .cases import JSON_TEXT_RULE, NULL_ERASED, NUMBER_AS_INTEGER, Case, TypeCases
from .check import Checker
from .jsontext import TYPE as JSON_TEXT_TYPE
from .jsontext import json_text_cases

FORMAT = "mcp-codegen-vectors/1"
JSON_TEXT_FILE = "json-text"  # no type is named so: a hyphen

NOTES = {
    NUMBER_AS_INTEGER: "the official schema.json renders TypeScript `number` as `integer`",
    NULL_ERASED: "the official generator drops `null` from a union without @nullable",
    JSON_TEXT_RULE: "a JSON-text rule; a JSON Schema validator sees only the parsed value",
}


@dataclass(frozen=True)
class Version:
    label: str
    resolved: ir.Resolved
    # type name -> (file name, instance): the official examples, read by the command
    examples: dict[str, list[tuple[str, Any]]]


def build(versions: Sequence[Version]) -> dict[str, dict[str, dict[str, Any]]]:
    """label -> file stem -> document, for every named type of every version."""
    model = Requirement([v.label for v in versions], [v.resolved for v in versions])
    per: list[dict[str, list[Case]]] = []
    for i, v in enumerate(versions):
        tc = TypeCases(v.resolved)

        def reasons(type_name: str, member: str, i: int = i) -> str:
            return model.reason(i, type_name, member)

        cases = {td.name: tc.cases(td.name, v.examples.get(td.name, []), reasons)
                 for td in v.resolved.types}  # fmt: skip
        if JSON_TEXT_TYPE in cases:
            minimal = tc.build.of_type(JSON_TEXT_TYPE, False)
            cases[JSON_TEXT_FILE] = json_text_cases(minimal)
        per.append(cases)
    _accepted_elsewhere(versions, per, model)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for v, cases in zip(versions, per):
        docs = out.setdefault(v.label, {})
        for stem, tests in cases.items():
            type_name = JSON_TEXT_TYPE if stem == JSON_TEXT_FILE else stem
            docs[stem] = document(v.label, type_name, tests)
    return out


def _accepted_elsewhere(
    versions: Sequence[Version], per: list[dict[str, list[Case]]], model: Requirement
) -> None:
    """A top-level member dropped where it is required: the same instance, valid in each
    version that declares the type without requiring the member (when the rest fits too)."""
    checkers = [Checker(v.resolved) for v in versions]
    seen = {(j, t, _key(c.data)) for j, cases in enumerate(per) for t, cs in cases.items()
            for c in cs if c.valid}  # fmt: skip
    for i, cases in enumerate(per):
        for type_name, tests in list(cases.items()):
            for case in tests:
                if case.valid or not case.member:
                    continue
                for j in model.accepting(type_name, case.member):
                    key = (j, type_name, _key(case.data))
                    if j == i or key in seen or checkers[j].errors(type_name, case.data):
                        continue
                    seen.add(key)
                    state = model.states(type_name, case.member)[j]
                    words = "does not declare" if state == "absent" else "makes optional"
                    description = (f"without `{case.member}` (required in {versions[i].label}): "
                                   f"valid in {versions[j].label}, which {words} it")  # fmt: skip
                    per[j][type_name].append(Case(description, case.data, True))


def _key(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def document(label: str, type_name: str, tests: list[Case]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": label,
        "type": type_name,
        "tests": [_test(c) for c in tests],
    }


def _test(c: Case) -> dict[str, Any]:
    out: dict[str, Any] = {"description": c.description, "data": c.data, "valid": c.valid}
    out["errors"] = [{"path": p.path, "code": p.code, "reason": p.message} for p in c.errors]
    for p in c.errors:
        if p.also:
            out["errors"].append({"path": p.also, "code": p.code, "reason": p.message})
    if c.deviation:
        out["deviation"] = c.deviation
        out["note"] = NOTES[c.deviation]
    if c.text:
        out["text"] = True
    return out
