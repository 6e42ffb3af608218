"""`--format github` annotations land where the change is: always a line of the new schema.ts
(the file `file=` names, as given), holding the named member or type, its former owner, or for a
removed type or method one of its former users."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import corpus
import pytest

from codegen.analysis.users import ITEM, VALUE, user_paths
from codegen.diff import Report, diff
from codegen.diff.ci import _anchor, acting, render_github
from codegen.pipeline import load

PAIRS = list(pairwise(corpus.version_names()))
FIXTURES = Path(__file__).parent / "fixtures" / "spec-prs"
_NAME = re.compile(r"[A-Za-z_$][\w$/.-]*")


def _names(subject: str) -> set[str]:
    """Every name in a subject path: `A.b["c/d"][]` -> {A, b, c/d}."""
    return {n for n in re.findall(r'"([^"]+)"|([A-Za-z_$][\w$]*)', subject) for n in n if n}


def _former_users(old: Any, name: str) -> set[str]:
    types, out, todo = old.type_map(), set(), [name]
    for _ in range(4):
        later = []
        for n in todo:
            for path in user_paths(types, n):
                out |= {p for p in path if p not in (ITEM, VALUE)}
                later.append(path[0])
        todo = later
    return out


def check(r: Report, old: Any, new_text: list[str], models: tuple[Any, Any]) -> None:
    """Every acting root's anchor line holds one of the names it may stand at."""
    for f, _ in acting(r):
        side, line = _anchor(r, f)
        assert side is r.new, f.subject
        root = f.subject.split(".")[0].split("[")[0]
        if line is None:  # nothing of it is left: a constant, or a type nothing used
            assert f.category == "constant" or not _former_users(old, root), f.subject
            continue
        text = new_text[line - 1]
        allowed = _names(f.subject) | (_names(f.after or "") if "renamed" in f.rule else set())
        if f.category == "method":
            for m in (model.get(f.subject) for model in models):
                if m is not None:
                    allowed |= {m.type_name} | _former_users(old, m.type_name)
        else:
            allowed |= _former_users(old, root)
        assert any(name in text for name in allowed), (f.rule, f.subject, line, text)


@pytest.mark.spec
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}..{b}" for a, b in PAIRS])
def test_annotations_hold_their_subject(spec_root: Path, a: str, b: str) -> None:
    from codegen.analysis.methods import method_model

    old, new = corpus.resolved(a), corpus.resolved(b)
    r = diff(old, new)
    text = Path(new.source).read_text(encoding="utf-8").splitlines()
    check(r, old, text, (method_model(old), method_model(new)))
    for line in render_github(r).splitlines():
        if line.startswith(("::error", "::warning")):
            assert f"file={new.source}," in line


def test_removed_type_points_at_former_users(tmp_path: Path) -> None:
    """A removed wrapper's annotation stands at the union its method left, in the new file; a
    removed member's at its owner."""
    d = FIXTURES / "8e192a22"
    old, new = load(str(d / "old.ts")), load(str(d / "new.ts"))
    r = diff(old, new)
    text = (d / "new.ts").read_text(encoding="utf-8").splitlines()
    ping = next(f for f in r.findings if f.subject == "ping")
    side, line = _anchor(r, ping)
    assert side is r.new and line is not None and "ClientRequest" in text[line - 1]
    d = FIXTURES / "33959736"
    r = diff(load(str(d / "old.ts")), load(str(d / "new.ts")))
    text = (d / "new.ts").read_text(encoding="utf-8").splitlines()
    task = next(f for f in r.findings if f.subject == "CallToolRequestParams.task")
    side, line = _anchor(r, task)
    assert line is not None and "interface CallToolRequestParams" in text[line - 1]
