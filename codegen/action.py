"""The GitHub Action's script (`action.yml`, `python -m codegen.action`): review a pull request's
schema change.

It diffs `BASE:SCHEMA` against `HEAD:SCHEMA` in the checked-out repository, appends the PR
summary to the job summary, prints the workflow annotations, posts one PR comment (found again
by a hidden marker and updated on every push; an unchanged schema turns it into "no changes",
and none is created for one) and exits 1 when `fail-on` or `fail-on-baseline` fails.

Inputs come from the environment as GitHub sets it (`INPUT_<NAME>` for the action's inputs,
`GITHUB_EVENT_PATH`, `GITHUB_REPOSITORY`, `GITHUB_API_URL`, `GITHUB_TOKEN`,
`GITHUB_STEP_SUMMARY`). The event payload and the API's answers are data: they select no file
and become no command (a ref is checked as a commit id or ref name before git sees it). The
ignore file is read from the base side, so a pull request cannot accept its own breaking
changes by editing it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import console

MARKER = "<!-- mcp-codegen-diff -->"
_REF = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._/~^-]{0,199}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_PAGES = 50  # comment pages of 100 read at most, looking for ours


class ActionError(Exception):
    """Bad configuration or event: reported as `::error` and exit 2."""


@dataclass(frozen=True, slots=True)
class Inputs:
    schema: str
    base: str
    baseline: str
    fail_on: str
    fail_on_baseline: str
    ignore: str

    @classmethod
    def from_env(cls, env: Mapping[str, str], event: Mapping[str, Any]) -> Inputs:
        def get(name: str, default: str = "") -> str:
            return env.get(f"INPUT_{name.upper().replace('-', '_')}", "").strip() or default

        pr = event.get("pull_request") or {}
        base = get("base") or str((pr.get("base") or {}).get("sha") or "")
        schema = get("schema")
        if not schema:
            raise ActionError("input `schema` (the schema.ts path in the repository) is required")
        if not base or not _REF.match(base) or ".." in base:
            raise ActionError(f"no usable base commit ({base!r}): set input `base`")
        if schema.startswith(("/", "-")) or ".." in Path(schema).parts:
            raise ActionError(f"input `schema` must be a path inside the repository: {schema!r}")
        return cls(
            schema=schema,
            base=base,
            baseline=get("baseline"),
            fail_on=get("fail-on", "breaking"),
            fail_on_baseline=get("fail-on-baseline"),
            ignore=get("ignore", ".mcp-codegen-diff.json"),
        )


def _run_cli(args: list[str], out: Path) -> tuple[int, str]:
    """`mcp-codegen ARGS -o OUT` in this process: (exit code, what it wrote)."""
    from .cli import main as cli

    out.unlink(missing_ok=True)
    code = cli([*args, "-o", str(out)])
    return code, out.read_text(encoding="utf-8") if out.exists() else ""


def _ignore_file(inputs: Inputs, folder: Path) -> list[str]:
    """The ignore file as the base commit has it (a PR's own edit does not count), or none."""
    if inputs.ignore.startswith(("/", "-")) or ".." in Path(inputs.ignore).parts:
        raise ActionError(f"input `ignore` must be a path inside the repository: {inputs.ignore!r}")
    done = subprocess.run(
        ["git", "show", f"{inputs.base}:{inputs.ignore}"], capture_output=True, check=False
    )
    if done.returncode != 0:
        return ["--no-ignore"]
    path = folder / "ignore.json"
    path.write_bytes(done.stdout)
    return ["--ignore", str(path)]


def diff_args(inputs: Inputs, ignore: list[str]) -> list[str]:
    out = ["diff", f"{inputs.base}:{inputs.schema}", f"HEAD:{inputs.schema}", *ignore]
    out += ["--label-old", "base", "--label-new", "head"]
    if inputs.baseline:
        out += ["--baseline", inputs.baseline]
        if inputs.fail_on_baseline:
            out += ["--fail-on-baseline", inputs.fail_on_baseline]
    return out


class GitHub:
    """The few REST calls the action makes: list, create, update an issue comment."""

    def __init__(self, api: str, repo: str, token: str) -> None:
        if not _REPO.match(repo):
            raise ActionError(f"GITHUB_REPOSITORY is not owner/name: {repo!r}")
        self.base = api.rstrip("/") + f"/repos/{repo}"
        self.token = token

    def call(self, method: str, path: str, body: Mapping[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", "application/vnd.github+json")
        req.add_header("X-GitHub-Api-Version", "2022-11-28")
        req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=30) as resp:
            text = resp.read().decode("utf-8")
        return json.loads(text) if text else None

    def find_comment(self, number: int) -> int | None:
        for page in range(1, _PAGES + 1):
            got = self.call("GET", f"/issues/{number}/comments?per_page=100&page={page}")
            if not isinstance(got, list) or not got:
                return None
            for c in got:
                if isinstance(c, dict) and MARKER in str(c.get("body") or ""):
                    cid = c.get("id")
                    return cid if isinstance(cid, int) else None
        return None

    def upsert(self, number: int, body: str, changed: bool) -> str:
        """Create the comment, update it, or (nothing changed, none yet) leave it out."""
        found = self.find_comment(number)
        if found is not None:
            self.call("PATCH", f"/issues/comments/{found}", {"body": body})
            return "updated"
        if not changed:
            return "skipped"
        self.call("POST", f"/issues/{number}/comments", {"body": body})
        return "created"


def _comment(summary: str) -> str:
    return f"{MARKER}\n{summary}"


def run(env: Mapping[str, str]) -> int:
    event_path = env.get("GITHUB_EVENT_PATH", "")
    event = json.loads(Path(event_path).read_text(encoding="utf-8")) if event_path else {}
    if not isinstance(event, dict):
        raise ActionError("the event payload is not a JSON object")
    inputs = Inputs.from_env(env, event)
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-action-") as tmp:
        folder = Path(tmp)
        args = diff_args(inputs, _ignore_file(inputs, folder))
        code, summary = _run_cli([*args, "--format", "summary"], folder / "summary.md")
        if code == 2:
            return 2
        _, annotations = _run_cli([*args, "--format", "github"], folder / "annotations.txt")
        gate_args = [*args, "--format", "json"]
        if inputs.fail_on != "none":
            gate_args += ["--fail-on", inputs.fail_on]
        gate, text = _run_cli(gate_args, folder / "report.json")
        report = json.loads(text)
    console.workflow_commands(annotations)
    summary_file = env.get("GITHUB_STEP_SUMMARY")
    if summary_file:
        with open(summary_file, "a", encoding="utf-8") as out:
            out.write(summary + "\n")
    changed = bool(report["summary"]["roots"]["total"]) or "baseline" in report
    number = (event.get("pull_request") or {}).get("number")
    token = env.get("GITHUB_TOKEN", "")
    if isinstance(number, int) and token:
        api = env.get("GITHUB_API_URL", "https://api.github.com")
        try:
            what = GitHub(api, env.get("GITHUB_REPOSITORY", ""), token).upsert(
                number, _comment(summary), changed
            )
            console.warn(f"mcp-codegen diff: PR comment {what}")
        except (urllib.error.URLError, OSError, ValueError) as e:
            # a fork's read-only token, an outage: the review is still in the job summary
            why = console.escape_data(f"could not post the PR comment ({e})")
            console.workflow_commands(f"::warning title=mcp-codegen diff::{why}\n")
    return gate


def main() -> int:
    try:
        return run(os.environ)
    except ActionError as e:
        console.workflow_commands(
            f"::error title=mcp-codegen diff::{console.escape_data(str(e))}\n"
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
