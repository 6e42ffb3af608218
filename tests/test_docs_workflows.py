"""No workflow this repository ships or documents writes an expression into shell text.

GitHub expands `${{ ... }}` before the shell reads a `run:` line, so a value from the event or an
input (a branch name, a pull request title) would become code. GitHub's security hardening guide
asks for an intermediate environment variable instead: `env: {BASE_REF: ${{ github.base_ref }}}`
and `"$BASE_REF"`, quoted, in the script. Checked here: every YAML block of README.md and
docs/*.md, action.yml and any workflow under action/, and the shell blocks of those pages (what
a reader pastes into a `run:` line)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
ACTION_FILES = [REPO / "action.yml", *sorted((REPO / "action").rglob("*.y*ml"))]
SCRIPT_KEYS = ("run", "script")  # `script:` is actions/github-script's JavaScript
EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.DOTALL)
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.DOTALL | re.MULTILINE)

# The recipe docs/diff.md had: the base branch's name expanded into the shell line.
INJECTABLE = """\
jobs:
  schema-diff:
    steps:
      - run: >-
          mcp-codegen diff "origin/${{ github.base_ref }}:schema.ts" HEAD:schema.ts
"""
SAFE = """\
jobs:
  schema-diff:
    env:
      BASE_REF: ${{ github.base_ref }}
    steps:
      - run: mcp-codegen diff "origin/$BASE_REF:schema.ts" HEAD:schema.ts
"""
UNQUOTED = SAFE.replace('"origin/$BASE_REF:schema.ts"', "origin/$BASE_REF:schema.ts")


def blocks(page: Path, languages: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """(line, text) of each fenced block of `page` in one of `languages`."""
    text = page.read_text(encoding="utf-8")
    for found in FENCE.finditer(text):
        if found.group(1) in languages:
            yield text.count("\n", 0, found.start()) + 1, found.group(2)


def walk(node: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair of a parsed YAML document, at any depth."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield str(k), v
            yield from walk(v, str(k))
    elif isinstance(node, list):
        for item in node:
            yield from walk(item, key)


def unquoted(script: str, name: str) -> bool:
    """Whether `$name` or `${name}` occurs in `script` outside double quotes (single quotes
    would stop the expansion altogether, so they count as unquoted too)."""
    use = re.compile(rf"\$(?:{name}\b|\{{{name}\}})")
    quoted, i = False, 0
    while i < len(script):
        c = script[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == "$" and use.match(script, i) and not quoted:
            return True
        i += 1
    return False


def problems(text: str) -> list[str]:
    """What is wrong with one workflow text: an expression in a script, or a variable set from
    an expression used unquoted there."""
    doc = yaml.safe_load(text)
    pairs = list(walk(doc))
    scripts = [v for k, v in pairs if k in SCRIPT_KEYS and isinstance(v, str)]
    from_expressions = {
        name
        for k, v in pairs
        if k == "env" and isinstance(v, dict)
        for name, value in v.items()
        if EXPRESSION.search(str(value))
    }
    found = [
        f"expression in a script: {m.group(0)}" for s in scripts for m in EXPRESSION.finditer(s)
    ]
    found += [
        f"${name} unquoted in: {s.strip()}"
        for s in scripts
        for name in sorted(from_expressions)
        if unquoted(s, name)
    ]
    return found


def test_the_check_sees_an_injection() -> None:
    assert problems(INJECTABLE) == ["expression in a script: ${{ github.base_ref }}"]
    assert problems(SAFE) == []
    assert problems(UNQUOTED) == [
        "$BASE_REF unquoted in: mcp-codegen diff origin/$BASE_REF:schema.ts HEAD:schema.ts"
    ]
    assert not unquoted('a "${BASE_REF}" b', "BASE_REF")
    assert unquoted("a '$BASE_REF'", "BASE_REF")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_documented_workflows_keep_expressions_out_of_scripts(page: Path) -> None:
    for line, text in blocks(page, ("yaml", "yml")):
        assert problems(text) == [], f"{page.name}:{line}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_documented_shell_holds_no_expression(page: Path) -> None:
    for line, text in blocks(page, ("sh", "bash", "shell", "console")):
        assert not EXPRESSION.search(text), f"{page.name}:{line}"


@pytest.mark.parametrize("path", ACTION_FILES, ids=lambda p: p.name)
def test_the_action_keeps_expressions_out_of_scripts(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert problems(text) == []
    # the review step does take its inputs from expressions: the check had something to see
    assert EXPRESSION.search(text)


def test_the_recipe_is_checked() -> None:
    """docs/diff.md's hand-written workflow is among the blocks read, and sets BASE_REF."""
    recipes = [text for _, text in blocks(REPO / "docs" / "diff.md", ("yaml",))]
    assert any("BASE_REF: ${{ github.base_ref }}" in text for text in recipes)


def test_the_recipe_keeps_a_hostile_base_ref_data(tmp_path: Path) -> None:
    """docs/diff.md's steps run through bash as the runner runs them, with a base branch name
    that tries to run commands: nothing runs, and mcp-codegen gets the name inside its
    arguments, whole (a stand-in `mcp-codegen` and `pip` record their argv)."""
    bash = shutil.which("bash")
    assert bash, "bash is needed"
    recipe = next(text for _, text in blocks(REPO / "docs" / "diff.md", ("yaml",)))
    doc = yaml.safe_load(recipe)
    job = doc["jobs"]["schema-diff"]
    scripts = [step["run"] for step in job["steps"] if "run" in step]
    assert len(scripts) == 4
    stubs, log = tmp_path / "bin", tmp_path / "argv.jsonl"
    stubs.mkdir()
    for name in ("mcp-codegen", "pip"):
        stub = stubs / name
        stub.write_text(
            f"#!{sys.executable}\nimport json, sys\n"
            f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
        )
        stub.chmod(0o755)
    hostile = '$(touch pwned1)`touch pwned2`"; touch pwned3 #'
    env = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        **{k: str(v) for k, v in doc["env"].items()},
        **{k: hostile for k, v in job["env"].items() if EXPRESSION.search(str(v))},
    }
    for script in scripts:
        subprocess.run([bash, "-e", "-c", script], cwd=tmp_path, env=env, check=True)
    assert not list(tmp_path.glob("pwned*")), "the base branch's name ran as a command"
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    diffs = [argv for argv in calls if argv[:1] == ["diff"]]
    assert len(diffs) == 3
    for argv in diffs:
        assert argv[1] == f"origin/{hostile}:schema.ts"
        assert argv[argv.index("--ignore") + 1] == f"origin/{hostile}:.mcp-codegen-diff.json"
