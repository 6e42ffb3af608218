"""The Action's one step: diff a pull request's schema against its base, write the summary to
the job summary, post or update the pull request's one comment, print the annotations and
exit by `fail-on`.

Run by `action.yml` with the Python mcp-codegen was installed into (`python -m codegen`). Its
inputs come as environment variables (a composite action gets no `INPUT_*` of its own:
`action.yml` sets them under `env:`, never inside the shell command):

  INPUT_SCHEMA            the schema's path in the repository (required)
  INPUT_BASE              the old side's commit; empty: the pull request's base commit
  INPUT_BASELINE          `--baseline` (REF:PATH, version or file), if the CLI has it
  INPUT_FAIL_ON           `--fail-on` level; empty or `none`: never fail on findings
  INPUT_FAIL_ON_BASELINE  `--fail-on-baseline` level (with INPUT_BASELINE)
  INPUT_IGNORE            empty: BASE:.mcp-codegen-diff.json if the base commit has it, else
                          none; `none`: no ignore file; anything else: `--ignore` as given
  INPUT_COMMENT           `true` (default) or `false`
  INPUT_COMMENT_AUTHOR    whose marked comment is updated (default github-actions[bot];
                          empty: anyone's)

and GitHub's own: GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_TOKEN,
GITHUB_STEP_SUMMARY, GITHUB_OUTPUT. Everything from the pull request (its schema, branch names,
title, body) is data: it is read from git blobs or the event file, passed to programs as single
arguments (no shell), and printed only through `codegen.console`.

Exit codes: 0 passed, 1 a finding fails `fail-on` (or `fail-on-baseline`), 2 bad input.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from github_comments import MARKER, ApiError, Client, ours

from codegen import console

IGNORE_FILE = ".mcp-codegen-diff.json"
COMMENT_LIMIT = 65_536  # GitHub's limit for a comment body
_SHA = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")


class InputError(Exception):
    """Bad input: reported as an error annotation, exit 2."""


@dataclass(frozen=True)
class Settings:
    schema: str
    base: str
    baseline: str
    fail_on: str
    fail_on_baseline: str
    ignore: str
    comment: bool
    comment_author: str

    @classmethod
    def from_env(cls, env: dict[str, str]) -> Settings:
        schema = env.get("INPUT_SCHEMA", "").strip()
        schema = schema.removeprefix("./")
        if not schema or schema.startswith("/") or _unprintable(schema):
            raise InputError(
                "the input `schema` must be a path in the repository, such as schema.ts"
            )
        base = env.get("INPUT_BASE", "").strip()
        if base and (base.startswith("-") or ":" in base or _unprintable(base) or " " in base):
            raise InputError("the input `base` must be a commit or ref (no `-` first, no `:`)")
        fail_on = env.get("INPUT_FAIL_ON", "").strip()
        comment = env.get("INPUT_COMMENT", "true").strip().lower()
        if comment not in ("true", "false"):
            raise InputError("the input `comment` must be true or false")
        return cls(
            schema=schema,
            base=base,
            baseline=env.get("INPUT_BASELINE", "").strip(),
            fail_on="" if fail_on == "none" else fail_on,
            fail_on_baseline=env.get("INPUT_FAIL_ON_BASELINE", "").strip(),
            ignore=env.get("INPUT_IGNORE", "").strip(),
            comment=comment == "true",
            comment_author=env.get("INPUT_COMMENT_AUTHOR", "github-actions[bot]").strip(),
        )


def _unprintable(value: str) -> bool:
    return any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value)


@dataclass(frozen=True)
class PullRequest:
    number: int
    base_sha: str
    head_sha: str


def pull_request(event_path: str | None) -> PullRequest | None:
    """The pull request of a `pull_request` (or `pull_request_target`) event, else None."""
    if not event_path:
        return None
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(f"GITHUB_EVENT_PATH cannot be read as JSON: {e}") from None
    pr = event.get("pull_request") if isinstance(event, dict) else None
    if not isinstance(pr, dict):
        return None
    number, base, head = pr.get("number"), _sha_of(pr.get("base")), _sha_of(pr.get("head"))
    if not isinstance(number, int) or base is None or head is None:
        raise InputError("the event's pull_request has no number, base.sha or head.sha")
    return PullRequest(number, base, head)


def _sha_of(side: Any) -> str | None:
    sha = side.get("sha") if isinstance(side, dict) else None
    return sha if isinstance(sha, str) and _SHA.fullmatch(sha) else None


# ---------------------------------------------------------------------------------------------
# git: the two sides are commits of the checkout's repository, read as blobs


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=False)


def commit_of(ref: str) -> str | None:
    out = git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    return out.stdout.strip() if out.returncode == 0 else None


def base_commit(settings: Settings, pr: PullRequest | None) -> str:
    """The old side: the input `base`, else the merge base of the pull request's base commit
    and HEAD (the base commit itself where history is too shallow for a merge base: on a
    `pull_request` checkout HEAD is the merge commit, whose first parent it is). A base commit
    the shallow checkout lacks is fetched from `origin`."""
    if settings.base:
        sha = commit_of(settings.base)
        if sha is None:
            raise InputError(
                f"the base {settings.base} is no commit of this checkout (actions/checkout with"
                " fetch-depth: 0 fetches every branch)"
            )
        return sha
    if pr is None:
        raise InputError("the input `base` is needed outside a pull_request event")
    if commit_of(pr.base_sha) is None:
        git("fetch", "--quiet", "--no-tags", "--depth=1", "origin", pr.base_sha)
        if commit_of(pr.base_sha) is None:
            raise InputError(f"the pull request's base commit {pr.base_sha} cannot be fetched")
    merge_base = git("merge-base", pr.base_sha, "HEAD")
    sha = merge_base.stdout.strip()
    return sha if merge_base.returncode == 0 and _SHA.fullmatch(sha) else pr.base_sha


def has_blob(commit: str, path: str) -> bool:
    return git("cat-file", "-e", f"{commit}:{path}").returncode == 0


# ---------------------------------------------------------------------------------------------
# the diff, through the CLI


def cli(cwd: Path, *args: str) -> subprocess.Popen[str]:
    """`mcp-codegen ARGS` with this Python, output captured. `cwd` is a folder of our own,
    never the checkout: `python -m` puts the current folder first on sys.path, and a pull
    request could add a `codegen/` of its own there."""
    return subprocess.Popen(
        [sys.executable, "-m", "codegen", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate()
    return proc.returncode, out, err


def diff_args(settings: Settings, base: str, pr: PullRequest | None, tmp: Path) -> list[str]:
    """The arguments every run shares: the two sides (from the checkout's repository), their
    labels, ignore file and baseline (a file of the checkout named by its absolute path: the
    CLI runs elsewhere)."""
    head = pr.head_sha if pr else (commit_of("HEAD") or "HEAD")
    workspace = Path.cwd()

    def file_or_ref(value: str) -> str:
        return str(workspace / value) if (workspace / value).is_file() else value

    args = [
        f"--git-dir={workspace}",
        f"{base}:{settings.schema}",
        f"HEAD:{settings.schema}",
        f"--label-old=base {base[:7]}",
        f"--label-new={f'PR #{pr.number}' if pr else 'HEAD'} {head[:7]}",
    ]
    if settings.ignore == "none":
        args.append("--no-ignore")
    elif settings.ignore:
        args.append(f"--ignore={file_or_ref(settings.ignore)}")
    elif has_blob(base, IGNORE_FILE):  # the base branch's acceptances, never the PR's own
        args.append(f"--ignore={base}:{IGNORE_FILE}")
    else:
        args.append("--no-ignore")
    if settings.baseline:
        if "--baseline" not in finish(cli(tmp, "diff", "--help"))[1]:
            raise InputError("the input `baseline` needs an mcp-codegen whose diff has --baseline")
        args.append(f"--baseline={file_or_ref(settings.baseline)}")
    return args


@dataclass(frozen=True)
class Outcome:
    exit_code: int  # the gate: 0 or 1
    summary: str  # --format summary
    report: dict[str, Any]  # --format json


def run_diff(settings: Settings, args: list[str], tmp: Path) -> Outcome:
    """Three runs at once: the gate and the counts (json, with --fail-on), the summary, the
    annotations (printed to stdout). Exit 2 of any run stops here with the CLI's own message."""
    gate_args = [f"--fail-on={settings.fail_on}"] if settings.fail_on else []
    if settings.fail_on_baseline and settings.baseline:
        gate_args.append(f"--fail-on-baseline={settings.fail_on_baseline}")
    runs = [
        cli(tmp, "diff", *args, *gate_args, "--format=json", f"--output={tmp / 'report.json'}"),
        cli(tmp, "diff", *args, "--format=summary", f"--output={tmp / 'summary.md'}"),
        cli(tmp, "diff", *args, "--format=github"),
    ]
    (gate, _, gate_err), (summary, _, summary_err), (github, annotations, _) = map(finish, runs)
    console.warn_lines(gate_err)  # the ignore file used, what fails --fail-on
    if gate not in (0, 1):
        raise InputError("mcp-codegen diff failed (see above)")
    if summary or github:
        console.warn_lines(summary_err)
        raise InputError("mcp-codegen diff --format summary or github failed (see above)")
    console.workflow_commands(annotations)  # already escaped by the CLI; checked again
    return Outcome(
        exit_code=gate,
        summary=(tmp / "summary.md").read_text(encoding="utf-8"),
        report=json.loads((tmp / "report.json").read_text(encoding="utf-8")),
    )


def quiet(report: dict[str, Any]) -> bool:
    """Nothing to say: no finding, none ignored, no stale ignore entry."""
    ignore = report.get("ignore") or {}
    return not report["summary"]["total"] and not ignore.get("ignored") and not ignore.get("stale")


# ---------------------------------------------------------------------------------------------
# the comment


def comment_body(summary: str, base: str, head: str) -> str:
    footer = f"\n<sub>mcp-codegen diff: base {base[:7]}, head {head[:7]}</sub>\n"
    body = f"{MARKER}\n{summary}"
    room = COMMENT_LIMIT - len(footer) - 200
    if len(body) > room:  # the summary stays under the limit; marker and footer may not
        body = (
            body[: body.rfind("\n", 0, room) + 1]
            + "\n… cut to fit a comment: see the job summary.\n"
        )
    return body + footer


def post(client: Client, number: int, body: str, author: str, is_quiet: bool) -> str:
    """Update our comment (deleting any duplicate), else create one unless there is nothing to
    say. Returns the comment's URL, or "" when there is none."""
    existing = ours(client.comments(number), author)
    if existing:
        first = existing[0]
        url = first.url if first.body == body else client.update(first.id, body).url
        for extra in existing[1:]:
            client.delete(extra.id)
        return url
    if is_quiet:
        return ""
    return client.create(number, body).url


def notice(kind: str, message: str, token: str = "") -> None:
    """One annotation of our own, the token (if it were ever echoed) masked."""
    if token:
        message = message.replace(token, "***")
    console.workflow_commands(
        f"::{kind} title=mcp-codegen review::{console.escape_data(message)}\n"
    )


def set_outputs(path: str | None, values: dict[str, str]) -> None:
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        for key, value in values.items():
            if re.fullmatch(r"[\x21-\x7e]*", value):  # one printable token: never a new output
                f.write(f"{key}={value}\n")


def publish(
    settings: Settings, pr: PullRequest | None, outcome: Outcome, base: str, env: dict[str, str]
) -> str:
    """The pull request comment, posted or updated: its URL, or "" (none, or it failed: a
    warning says why, and the gate still decides the job)."""
    token = env.get("GITHUB_TOKEN", "")
    if pr is None:
        notice("notice", "not a pull_request event: no comment posted")
        return ""
    if not token:
        notice("warning", "no GITHUB_TOKEN: no comment posted (the job summary has the review)")
        return ""
    body = comment_body(outcome.summary, base, pr.head_sha)
    api = env.get("GITHUB_API_URL", "https://api.github.com")
    try:
        client = Client(api, env.get("GITHUB_REPOSITORY", ""), token)
        return post(client, pr.number, body, settings.comment_author, quiet(outcome.report))
    except ApiError as e:  # a fork's read-only token, say
        message = f"the pull request comment was not posted ({e}); the job summary has the review"
        notice("warning", message, token)
        return ""


def main() -> int:
    env = dict(os.environ)
    try:
        settings = Settings.from_env(env)
        pr = pull_request(env.get("GITHUB_EVENT_PATH"))
        base = base_commit(settings, pr)
        if not has_blob(base, settings.schema):
            raise InputError(f"{settings.schema} is not in the base commit {base[:12]}")
        with tempfile.TemporaryDirectory() as tmp:
            args = diff_args(settings, base, pr, Path(tmp))
            outcome = run_diff(settings, args, Path(tmp))
    except InputError as e:
        notice("error", str(e))
        return 2
    if env.get("GITHUB_STEP_SUMMARY"):
        with open(env["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as f:
            f.write(outcome.summary)
    counts = outcome.report["summary"]["roots"]
    outputs = {
        "roots": str(counts["total"]),
        "breaking": str(counts["breaking"]),
        "risky": str(counts["risky"]),
        "failed": "true" if outcome.exit_code else "false",
        "comment-url": "",
    }
    if settings.comment:
        outputs["comment-url"] = publish(settings, pr, outcome, base, env)
    set_outputs(env.get("GITHUB_OUTPUT"), outputs)
    return outcome.exit_code


if __name__ == "__main__":
    sys.exit(main())
