"""Across versions in application types (issue #24): every official example (the versions with
examples/) and every recorded real message of the e2e suite (tests/e2e/recorded/sessions.jsonl)
goes wire -> app -> wire of every other version of the distribution of all official versions,
and comes out either exactly (what the version can carry equals the input, but for the
documented drop and default rules, `DROPPED` and `ADDED`) or refused, each refusal matching an
entry of the reviewed list `REFUSALS` (its reason beside it), and every entry used. The classes
are documented in docs/bindings.md ("Across versions").

Examples go through `to_app`/`to_wire` (they are values of a named type); recorded messages
through `parse_message`/`parse_result` and `serialize` (what a session does).
"""

from __future__ import annotations

import collections
import dataclasses
import importlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import corpus
import pytest

REPO = Path(__file__).resolve().parent.parent
RECORDED = REPO / "tests" / "e2e" / "recorded" / "sessions.jsonl"
RENAMES = json.loads((REPO / "schemas" / "app-renames.json").read_text(encoding="utf-8"))

# -- the documented rules: a member a conversion may leave out or fill in -------------------------

DROPPED = {
    "resultType": "2026-07-28's result members: left out where a version does not declare them",
    "ttlMs": "likewise (cacheable results of 2026-07-28)",
    "cacheScope": "likewise",
    "jsonrpc": "a request's or notification's envelope where the version's class has none "
    "(to_wire; serialize puts it in the JSON-RPC envelope)",
    "id": "likewise",
}
ADDED: dict[str, Any] = {
    "jsonrpc": "2.0",  # a constant the version requires: filled in when unset
    "resultType": "complete",  # serialize: DEFAULTS of the members a version requires
    "ttlMs": 0,
    "cacheScope": "private",
}


class Refusal(NamedTuple):
    kind: str  # ConversionError kind, or "method"/"result"/"input-request" (serialize's ProtocolError)
    path: str  # regex, full match, on the error's JSON path without list indexes
    reason: str


_ANY = r"\$(\.[^.]+|\[\])*"  # any path (the member name is what the entry is about)

# fmt: off
REFUSALS = [
    # the version lacks the method, or the type (checked against its models in _check_type)
    Refusal("method", r"\$\.method", "the version has no such method (serialize: ProtocolError)"),
    Refusal("input-request", r"\$", "2026-07-28 sends server-to-client requests inside an "
            "input-required result, without an id: not as a JSON-RPC request"),
    Refusal("type", r"\$", "the version has no such type"),
    Refusal("result", r"\$\.result", "the class is not a result of the method in the version "
            "(CreateTaskResult: 2025-11-25 only; InputRequiredResult: 2026-07-28 on): "
            "serialize's ProtocolError"),
    # members the version does not have
    Refusal("field", _ANY + r"\.title", "display titles: from 2025-06-18"),
    Refusal("field", _ANY + r"\.icons", "icons: from 2025-11-25"),
    Refusal("field", _ANY + r"\.outputSchema", "structured tool output: from 2025-06-18"),
    Refusal("field", r"\$\.tools\[\]\.annotations", "tool annotations: from 2025-03-26"),
    Refusal("field", _ANY + r"\.lastModified", "Annotations.lastModified: from 2025-06-18"),
    Refusal("field", _ANY + r"\.completions", "the completions capability: from 2025-03-26"),
    Refusal("field", _ANY + r"\.elicitation", "elicitation: from 2025-06-18"),
    Refusal("field", _ANY + r"\.extensions", "capability extensions: from 2026-07-28"),
    Refusal("field", r"\$(\.params)?\.context", "completion context: from 2025-06-18"),
    Refusal("field", r"\$(\.params)?\.message", "progress messages: from 2025-03-26"),
    Refusal("field", r"\$\.default", "defaults of elicitation fields: from 2025-11-25"),
    Refusal("field", r"\$\.(tools|toolChoice)", "tools in sampling: from 2025-11-25"),
    Refusal("field", _ANY + r"\.(task|tasks|execution)", "tasks: 2025-11-25 only"),
    Refusal("field", r"\$\.params\.inputResponses", "multi round-trip requests: 2026-07-28"),
    # members the version requires that the value has not
    Refusal("required", r"\$\.params\._meta\.io\.modelcontextprotocol/(protocolVersion|"
            r"clientCapabilities)", "2026-07-28's per-request envelope in `_meta`, which the "
            "application (or the session) sets: no value of an older version has it"),
    Refusal("required", r"\$\.params(\._meta)?", "likewise, where the request has no params or "
            "no `_meta`"),
    Refusal("required", r"\$\.id", "an input request of 2026-07-28 (it has no id) to a "
            "version whose request class requires one: set `id`. Also listed, besides the "
            "refusal's real cause, for a request read in a version without `id` in its request "
            "classes: its id is then in `extra`, which the check of required fields does not "
            "read"),
    Refusal("required", r"\$\.elicitationId", "2025-11-25 requires it of URL elicitations"),
    # values the version's schema refuses
    Refusal("invalid", r"\$\.content", "several content blocks in a sampling message: from "
            "2025-11-25 (before: one)"),
    Refusal("invalid", r"\$\.content\[\]\.(type|text)", "a content block the version lacks "
            "(resource_link: from 2025-06-18); the union's errors name its first member"),
    Refusal("invalid", r"\$\.content\.[^.]+", "an elicitation answer that is a list "
            "(multi-select): from 2025-11-25"),
    Refusal("invalid", r"\$\.params\.requestedSchema\.properties\.[^.]+\.(type|default)",
            "a multi-select enum field: from 2025-11-25"),
    Refusal("invalid", r"\$\.params\.requestedSchema", "a URL-mode elicitation (no form): "
            "from 2025-11-25"),
    Refusal("invalid", r"\$\.(outputSchema\.type|structuredContent)", "structured output that "
            "is not an object: from 2026-07-28"),
    Refusal("invalid", _ANY + r"\.icons\[\]\.sizes", "DRAFT-2025-v3's icon sizes are a string, "
            "not a list"),
]
# fmt: on

PENDING_TYPES: dict[str, str] = {}
"""Type refusals that are leaks, not legitimate: each must still occur (then it goes)."""

INVALID_RECORDED = {
    ("2025-06-18", "elicitation/create"): "the mcp 2.3.0 peer sends `mode: form` in 2025-06-18 "
    "(a known peer deviation, tests/e2e/test_bindings_e2e.py): not a message of its version",
}


@dataclasses.dataclass(frozen=True)
class Case:
    source: str  # the version label the value is of
    name: str  # where it comes from (for messages)
    value: Any  # the JSON
    type_name: str | None = None  # an example's type
    direction: str | None = None  # a recorded message's
    method: str | None = None  # the method a recorded result answers


def _cases() -> Iterator[Case]:
    for version in corpus.names_with_examples():
        for ex in corpus.examples(version):
            yield Case(version, f"{version} {ex.type_name}/{ex.path.name}", ex.instance,
                       type_name=ex.type_name)  # fmt: skip
    for n, line in enumerate(RECORDED.read_text(encoding="utf-8").splitlines(), 1):
        r = json.loads(line)
        yield Case(r["version"], f"sessions.jsonl:{n} ({r['session']})", r["message"],
                   direction=r["direction"], method=r["method"])  # fmt: skip


def _changes(a: Any, b: Any, path: str = "$") -> Iterator[tuple[str, str, Any]]:
    """How `b` differs from `a`: ("dropped" | "added" | "changed", path, value)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k not in b:
                yield "dropped", f"{path}.{k}", a[k]
            else:
                yield from _changes(a[k], b[k], f"{path}.{k}")
        for k in b.keys() - a.keys():
            yield "added", f"{path}.{k}", b[k]
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from _changes(x, y, f"{path}[{i}]")
    elif a != b or type(a) is not type(b):
        yield "changed", path, b


@dataclasses.dataclass
class Outcomes:
    exact: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    ruled: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    refused: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    used: collections.Counter[int] = dataclasses.field(default_factory=collections.Counter)
    pending: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    skipped: list[str] = dataclasses.field(default_factory=list)
    bugs: list[str] = dataclasses.field(default_factory=list)


class _Run:
    def __init__(self, pkg: ModuleType) -> None:
        self.pkg, self.app, self.versions = pkg, pkg.app, pkg.versions
        self.labels = list(self.versions.SUBPACKAGES)
        self.out = Outcomes()

    def case(self, c: Case) -> None:
        obj, expected = self._read(c)
        if obj is None:
            return
        for target in self.labels:
            where = f"{c.name} -> {target}"
            try:
                got = self._write(obj, c, target)
            except self.pkg.ProtocolError as err:
                self._refused(err, obj, target, where)
                continue
            if target == c.source:
                if got != expected:
                    self.out.bugs.append(f"{where}: not the same JSON in its own version")
                continue
            self._compare(expected, got, where)

    def _read(self, c: Case) -> tuple[Any, Any]:
        app = self.app
        if c.type_name is not None:
            wire = self.versions.bindings(c.source).decode(c.type_name, c.value)
            if not dataclasses.is_dataclass(wire):
                return None, None  # an alias of a primitive: no application class
            return app.to_app(wire), c.value
        msg = c.value
        try:
            if c.method is not None and "result" in msg:
                return app.parse_result(c.method, msg["result"], version=c.source), msg["result"]
            parsed = app.parse_message(msg, version=c.source, direction=c.direction)
        except self.pkg.ValidationError:
            key = (c.source, msg.get("method") or c.method)
            if key not in INVALID_RECORDED:
                raise
            self.out.skipped.append(c.name)
            return None, None
        return parsed.obj, msg

    def _write(self, obj: Any, c: Case, target: str) -> Any:
        if c.type_name is not None:
            return self.app.to_wire(obj, target).to_dict()  # validated by the target's bindings
        # `method=` names the request a result answers; an error response is a message
        answers = c.method if isinstance(c.value, dict) and "result" in c.value else None
        return self.app.serialize(obj, version=target, method=answers)

    def _compare(self, expected: Any, got: Any, where: str) -> None:
        ruled = False
        for op, path, value in _changes(expected, got):
            member = path.rsplit(".", 1)[-1]
            dropped = op == "dropped" and member in DROPPED
            if dropped or (op == "added" and member in ADDED and value == ADDED[member]):
                ruled = True
            else:
                self.out.bugs.append(f"{where}: {op} {path} ({json.dumps(value)[:80]})")
                return
        (self.out.ruled if ruled else self.out.exact)[where.rsplit(" -> ", 1)[1]] += 1

    def _refused(self, err: Any, obj: Any, target: str, where: str) -> None:
        if isinstance(err, self.app.ConversionError):
            assert err.protocol_version == target and len(err.kinds) == len(err.errors)
            problems = [(k, e.path, e.message) for k, e in zip(err.kinds, err.errors)]
        elif "is not defined in protocol version" in str(err):
            problems = [("method", "$.method", str(err))]
        elif "is not a result of" in str(err):
            problems = [("result", "$.result", str(err))]
        elif "inside an input-required result" in str(err):
            problems = [("input-request", "$", str(err))]
        else:
            self.out.bugs.append(f"{where}: {type(err).__name__}: {err}")
            return
        for kind, path, message in problems:
            if kind == "type" and not self._lacks_type(type(obj).__name__, target):
                self.out.bugs.append(f"{where}: refused as a type {target} has: {message}")
                continue
            if kind == "type" and type(obj).__name__ in PENDING_TYPES:
                self.out.pending[type(obj).__name__] += 1
                continue
            flat = re.sub(r"\[\d+\]", "[]", path)
            match = next((i for i, r in enumerate(REFUSALS)
                          if r.kind == kind and re.fullmatch(r.path, flat)), None)  # fmt: skip
            if match is None:
                self.out.bugs.append(f"{where}: unlisted refusal {kind} {path}: {message}")
                continue
            self.out.used[match] += 1
        self.out.refused[f"{target}: {problems[0][0]}"] += 1

    def _lacks_type(self, name: str, target: str) -> bool:
        """Whether `target`'s models have no class of the application type `name` (under its
        name or a reviewed old name)."""
        models = importlib.import_module(f"{self.versions.bindings(target).__name__}.models")
        names = {name} | {old for old, new in RENAMES["renames"].items() if new == name}
        return not any(hasattr(models, n) for n in names)


@pytest.mark.spec
def test_every_example_and_recorded_message_converts_exactly_or_refuses_as_listed(
    official: ModuleType,
) -> None:
    run = _Run(official)
    cases = list(_cases())
    for c in cases:
        run.case(c)
    out = run.out
    assert not out.bugs, f"{len(out.bugs)} unexpected outcomes:\n" + "\n".join(out.bugs[:30])
    unused = [f"{r.kind} {r.path}" for i, r in enumerate(REFUSALS) if not out.used[i]]
    assert not unused, f"listed refusals that no longer occur (remove them): {unused}"
    assert out.pending.keys() == PENDING_TYPES.keys(), "a pending leak is gone: remove it"
    assert len(out.skipped) == 1  # INVALID_RECORDED
    examples = sum(1 for c in cases if c.type_name is not None)
    assert examples > 150 and len(cases) - examples > 600
    # most conversions are exact; the rules and the refusals are the rest
    assert sum(out.exact.values()) > sum(out.ruled.values()) + sum(out.refused.values())
    assert sum(out.ruled.values()) > 0
    print(f"\nexact {sum(out.exact.values())}, by the rules {sum(out.ruled.values())}, refused "
          f"{dict(sorted(out.refused.items()))}")  # fmt: skip


@pytest.mark.spec
def test_meta_keys_reach_every_version_that_takes_them(official: ModuleType) -> None:
    """A `_meta` key that 2026-07-28 requires (`io.modelcontextprotocol/protocolVersion`) and
    an older version takes by its index signature reaches that version as it is: 2025-11-25
    as 2025-06-18 (before, 2025-11-25 dropped it, by the rule for `resultType`)."""
    app = official.app
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "progressToken": 7,
            "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
    params = {"name": "add", "arguments": {"a": 1}, "_meta": meta}
    obj = app.to_app(
        official.versions.bindings("2026-07-28").decode("CallToolRequestParams", params)
    )
    for target in ("2025-06-18", "DRAFT-2025-v3", "2025-11-25"):
        assert app.to_wire(obj, target).to_dict() == params, target
