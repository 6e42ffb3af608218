"""Ignore files: accepted findings, each with a reason, left out of counts and `--fail-on`.

The file is a JSON document `{"ignore": [entry, ...]}`; an entry is `{"id": ..., "reason": ...}`
(a finding id, stable across runs and formats) or `{"rule": ..., "subject": ..., "reason": ...}`.
An ignored root cause takes its echoes with it. Ignored findings are listed at the end of every
report with their reasons, and an entry that matches nothing is reported as stale, so an
out-of-date baseline shows. `--ignore FILE` names the file (`--ignore REF:PATH`: from git, such
as the base branch's); otherwise `.mcp-codegen-diff.json` in the current directory (the checkout
under review) is used when it exists (`--no-ignore`: neither)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, Location, SchemaError
from ..reading import load_json, read_text, text_of
from . import Report
from .rules import Finding

DEFAULT_FILE = ".mcp-codegen-diff.json"
_ID_KEYS = frozenset({"id", "reason"})
_RULE_KEYS = frozenset({"rule", "subject", "reason"})

Entry = Mapping[str, str]


def _bad(path: str, message: str, line: int = 1, col: int = 1) -> SchemaError:
    return SchemaError([Diagnostic(Location(path, line, col), message)])


def find(explicit: str | None, disabled: bool, cwd: Path | None = None) -> str | None:
    """The ignore file to use: `--ignore FILE`, else `.mcp-codegen-diff.json` here, else none."""
    if disabled:
        return None
    if explicit is not None:
        return explicit
    default = (cwd or Path.cwd()) / DEFAULT_FILE
    return DEFAULT_FILE if default.is_file() else None


def parse(text: str, path: str) -> tuple[Entry, ...]:
    """The entries of an ignore file; a located error for anything but the documented format."""
    doc: Any = load_json(text, path, "ignore file")
    if not isinstance(doc, dict) or set(doc) != {"ignore"} or not isinstance(doc["ignore"], list):
        raise _bad(path, 'an ignore file is {"ignore": [entry, ...]}')
    out = []
    for i, e in enumerate(doc["ignore"]):
        where = f"ignore[{i}]"
        if not isinstance(e, dict) or not all(isinstance(v, str) for v in e.values()):
            raise _bad(path, f"{where}: an entry is an object of strings")
        if set(e) not in (_ID_KEYS, _RULE_KEYS):
            raise _bad(
                path,
                f"{where}: an entry is {{id, reason}} or {{rule, subject, reason}}, got"
                f" {{{', '.join(sorted(e))}}}",
            )
        if not e["reason"].strip():
            raise _bad(path, f"{where}: the reason must say why the finding is accepted")
        out.append(dict(e))
    return tuple(out)


def read(path: str, git_dir: str | None = None) -> tuple[Entry, ...]:
    """The entries of the file `path`, or of the blob `REF:PATH` when REF resolves in git (the
    base side's file, which the pull request under review cannot change)."""
    from ..gitread import read_ref_path, split_ref

    ref = split_ref(path, git_dir)
    if ref is None:
        return parse(read_text(path, "ignore file"), path)
    data = read_ref_path(*ref, git_dir, path, "ignore file").data
    return parse(text_of(data, path, "ignore file"), path)


def matches(entry: Entry, f: Finding) -> bool:
    if "id" in entry:
        return entry["id"] == f.id
    return entry["rule"] == f.rule and entry["subject"] == f.subject


def apply(report: Report, entries: Sequence[Entry], path: str) -> Report:
    """The report without the findings `entries` match (and their echoes), those listed with
    their reasons in `ignored`, the entries that matched nothing in `stale`."""
    hit: dict[str, str] = {}
    used: set[int] = set()
    for f in report.findings:
        for i, e in enumerate(entries):
            if matches(e, f):
                used.add(i)
                hit.setdefault(f.id, e["reason"])
    dropped = set(hit) | {f.id for f in report.findings if f.echo_of in hit}
    return replace(
        report,
        findings=tuple(f for f in report.findings if f.id not in dropped),
        literals=tuple(v for v in report.literals if v.finding not in dropped),
        ignored=tuple((f, hit[f.id]) for f in report.findings if f.id in hit),
        stale=tuple(e for i, e in enumerate(entries) if i not in used),
        ignore_file=path,
    )


def to_json(report: Report) -> dict[str, Any] | None:
    """The document's `ignore` object, when an ignore file was used."""
    if report.ignore_file is None:
        return None
    return {
        "file": report.ignore_file,
        "ignored": [
            {"id": f.id, "rule": f.rule, "subject": f.subject, "reason": reason}
            for f, reason in report.ignored
        ],
        "stale": [dict(e) for e in report.stale],
    }
