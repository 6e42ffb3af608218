"""The GitHub Action (action.yml + action/mcp_codegen_review.py), end to end: a git repository
built here with a base commit and pull-request commits changing a small schema, a real-shaped
`pull_request` event, and a stand-in for GitHub's REST API on 127.0.0.1 that records every
request and keeps the comments. The review step runs as the composite action runs it: the `run:`
line and the `env:` of action.yml, through bash (the install step is pip, left to CI)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from bindings_support import REPO

EXAMPLE = REPO / "schemas" / "example" / "v1" / "schema.ts"
TOKEN = "ghs_test0token0never0printed0123456789"
OWNER_REPO = "octo-org/spec"
BOT = "github-actions[bot]"
MARKER = "<!-- mcp-codegen-diff -->"
PAGE = 2  # the stand-in's page size: a handful of comments already spans pages
HOSTILE = '$(touch "$PWNED_DIR/pwned")`touch "$PWNED_DIR/pwned2"`; touch "$PWNED_DIR/pwned3" #'

pytestmark = pytest.mark.slow


# ---------------------------------------------------------------------------------------------
# the GitHub API stand-in


@dataclass
class FakeGitHub:
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    read_only: bool = False  # writes answer 403, as a fork's token gets
    next_id: int = 100
    url: str = ""
    link_base: str = ""  # where the `Link` header points: the API itself unless set

    def seed(self, author: str, body: str) -> int:
        self.next_id += 1
        self.comments[self.next_id] = {"id": self.next_id, "user": {"login": author}, "body": body}
        return self.next_id

    def ours(self) -> list[dict[str, Any]]:
        return [
            c
            for c in self.comments.values()
            if c["user"]["login"] == BOT and c["body"].startswith(MARKER)
        ]

    def writes(self) -> list[str]:
        return [r["method"] for r in self.requests if r["method"] != "GET"]


def _handler(gh: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    base = f"/repos/{OWNER_REPO}/issues"

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _record(self) -> dict[str, Any]:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            request = {"method": self.command, "path": self.path, "headers": {}}
            request["headers"] = {k.lower(): v for k, v in self.headers.items()}
            request["body"] = body
            gh.requests.append(request)
            return request

        def _send(self, status: int, data: Any = None, link: str | None = None) -> None:
            raw = json.dumps(data).encode() if data is not None else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            if link:
                self.send_header("Link", link)
            self.end_headers()
            self.wfile.write(raw)

        def _comment(self, c: dict[str, Any]) -> dict[str, Any]:
            return {
                **c,
                "html_url": f"https://github.test/{OWNER_REPO}/pull/7#issuecomment-{c['id']}",
            }

        def do_GET(self) -> None:
            self._record()
            parts = urlsplit(self.path)
            if parts.path != f"{base}/7/comments":
                return self._send(404, {"message": "Not Found"})
            page = int(parse_qs(parts.query).get("page", ["1"])[0])
            items = sorted(gh.comments.values(), key=lambda c: c["id"])
            chunk = items[(page - 1) * PAGE : page * PAGE]
            more = page * PAGE < len(items)
            target = f"{gh.link_base or gh.url}{parts.path}?per_page={PAGE}&page={page + 1}"
            link = f'<{target}>; rel="next"'
            self._send(200, [self._comment(c) for c in chunk], link if more else None)

        def do_POST(self) -> None:
            request = self._record()
            if gh.read_only:
                return self._send(403, {"message": "Resource not accessible by integration"})
            if self.path != f"{base}/7/comments":
                return self._send(404, {"message": "Not Found"})
            cid = gh.seed(BOT, request["body"]["body"])
            self._send(201, self._comment(gh.comments[cid]))

        def do_PATCH(self) -> None:
            request = self._record()
            cid = int(self.path.rsplit("/", 1)[1])
            if gh.read_only:
                return self._send(403, {"message": "Resource not accessible by integration"})
            gh.comments[cid]["body"] = request["body"]["body"]
            self._send(200, self._comment(gh.comments[cid]))

        def do_DELETE(self) -> None:
            self._record()
            gh.comments.pop(int(self.path.rsplit("/", 1)[1]))
            self._send(204)

    return Handler


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    gh = FakeGitHub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(gh))
    gh.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield gh
    server.shutdown()
    server.server_close()


# ---------------------------------------------------------------------------------------------
# the repository under review


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin", "HOME": str(repo)}
    out = subprocess.run(
        ["git", *args], check=False, cwd=repo, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


class Repo:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir()
        _git(path, "init", "-q", "-b", "main")
        self.schema = EXAMPLE.read_text(encoding="utf-8")
        self.commit("base", self.schema)
        self.base = _git(path, "rev-parse", "HEAD")

    def commit(self, message: str, schema: str, extra: dict[str, str] | None = None) -> str:
        (self.path / "schema.ts").write_text(schema, encoding="utf-8")
        for name, text in (extra or {}).items():
            (self.path / name).write_text(text, encoding="utf-8")
        _git(self.path, "add", "-A")
        _git(self.path, "commit", "-q", "--allow-empty", "-m", message)
        return _git(self.path, "rev-parse", "HEAD")


def _add_member(schema: str, name: str) -> str:
    """GaugeWidget gains an optional member (compatible)."""
    head = "export interface GaugeWidget extends Widget {\n"
    assert head in schema
    return schema.replace(head, head + f"  {name}?: string;\n", 1)


def _remove_from(schema: str) -> str:
    """RangeSpec loses its required `from` (breaking)."""
    old = "export interface RangeSpec {\n  from: number;\n"
    assert old in schema
    return schema.replace(old, "export interface RangeSpec {\n", 1)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


# ---------------------------------------------------------------------------------------------
# running the action's review step


def _event(repo: Repo, head: str, hostile: str = "") -> dict[str, Any]:
    """A `pull_request` event payload as GitHub sends it (the fields that matter, and the
    untrusted ones: title, body, branch names)."""
    repository = {"full_name": OWNER_REPO, "name": "spec", "owner": {"login": "octo-org"}}
    return {
        "action": "synchronize",
        "number": 7,
        "pull_request": {
            "number": 7,
            "title": f"Tidy the schema {hostile}",
            "body": f"@maintainers please look {hostile}\n::error::fake",
            "user": {"login": "contributor"},
            "head": {"ref": f"feature/{hostile}", "sha": head, "repo": repository},
            "base": {"ref": "main", "sha": repo.base, "repo": repository},
        },
        "repository": repository,
        "sender": {"login": "contributor"},
    }


def _action() -> dict[str, Any]:
    return yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def _expand(value: str, inputs: dict[str, str]) -> str:
    """The `${{ ... }}` expressions action.yml's review step uses."""

    def one(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr == "steps.install.outputs.python":
            return sys.executable
        if expr == "github.token":
            return TOKEN
        raise AssertionError(f"unexpected expression {expr}")

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    summary: str
    outputs: dict[str, str]


def review(
    repo: Repo,
    github: FakeGitHub,
    tmp_path: Path,
    hostile: str = "",
    event: dict[str, Any] | None = None,
    **given: str,
) -> Run:
    """Run the review step as the runner would: inputs (defaults from action.yml) into the
    step's `env:`, its `run:` line through bash, GitHub's variables around it."""
    action = _action()
    inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs["schema"] = "schema.ts"
    inputs |= {k.replace("_", "-"): v for k, v in given.items()}
    inputs = {k: _expand(v, inputs) for k, v in inputs.items()}
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "review")
    payload = event or _event(repo, _git(repo.path, "rev-parse", "HEAD"), hostile)
    event_file = tmp_path / "event.json"
    event_file.write_text(json.dumps(payload))
    summary, output = tmp_path / "step_summary.md", tmp_path / "github_output"
    summary.write_text(""), output.write_text("")
    pwned = tmp_path / "pwned-dir"
    pwned.mkdir(exist_ok=True)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PYTHONPATH": str(REPO),
        "GITHUB_ACTION_PATH": str(REPO),
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event_file),
        "GITHUB_REPOSITORY": OWNER_REPO,
        "GITHUB_API_URL": github.url,
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
        "RUNNER_TEMP": str(tmp_path),
        "PWNED_DIR": str(pwned),
    }
    env |= {k: _expand(str(v), inputs) for k, v in step["env"].items()}
    proc = subprocess.run(
        [shutil.which("bash") or "bash", "-e", "-c", step["run"]],
        check=False,
        cwd=repo.path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert not list(pwned.iterdir()), "a value from the pull request ran as a command"
    assert TOKEN not in proc.stdout + proc.stderr
    lines = output.read_text().splitlines()
    return Run(
        proc.returncode,
        proc.stdout,
        proc.stderr,
        summary.read_text(),
        dict(line.split("=", 1) for line in lines),
    )


# ---------------------------------------------------------------------------------------------
# the tests


def test_no_expression_is_shell_text() -> None:
    """Every input reaches the steps through `env:`: no `${{ }}` inside a `run:` line."""
    steps = _action()["runs"]["steps"]
    assert [s["id"] for s in steps] == ["install", "review"]
    for step in steps:
        assert "${{" not in step["run"], step["run"]
        assert step["shell"] == "bash"
    assert "$GITHUB_ACTION_PATH" in steps[0]["run"]  # installs the action's own checkout
    assert steps[0]["run"].startswith('cd "$RUNNER_TEMP"\n')  # not from the PR's checkout
    review_env = steps[1]["env"]
    for name in _action()["inputs"]:
        assert any(f"inputs.{name} }}}}" in value for value in review_env.values()), name


def test_first_run_creates_the_comment_later_runs_update_it(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    # other people's comments, one quoting the marker: never ours to overwrite
    for i in range(3):
        github.seed("reviewer", f"comment {i}")
    github.seed("contributor", MARKER + "\nI wrote this myself")
    repo.commit("add unit", _add_member(repo.schema, "unit"))

    first = review(repo, github, tmp_path)
    assert first.code == 0, first.stderr
    assert github.writes() == ["POST"]
    (comment,) = github.ours()
    assert comment["body"].startswith(MARKER + "\n## Schema diff: base ")
    assert "compatible" in comment["body"] and "PR \\#7" in comment["body"]
    assert first.summary in comment["body"] and "compatible" in first.summary
    assert first.outputs["roots"] == "1" and first.outputs["failed"] == "false"
    assert first.outputs["comment-url"].endswith(f"#issuecomment-{comment['id']}")
    for request in github.requests:
        assert request["headers"]["authorization"] == f"Bearer {TOKEN}"
        assert request["headers"]["x-github-api-version"] == "2022-11-28"
    # the list was read page by page (4 comments, 2 a page), per_page asked for
    gets = [r["path"] for r in github.requests if r["method"] == "GET"]
    assert len(gets) == 2 and "per_page=100" in gets[0]

    # a second push: the same comment is updated, found on the last page
    github.requests.clear()
    repo.commit("add label", _add_member(_add_member(repo.schema, "unit"), "label"))
    second = review(repo, github, tmp_path)
    assert second.code == 0, second.stderr
    assert github.writes() == ["PATCH"]
    assert len([r for r in github.requests if r["method"] == "GET"]) == 3  # ours is on page 3
    (updated,) = github.ours()
    assert updated["id"] == comment["id"] and "2 compatible" in updated["body"]
    assert github.comments[104]["body"] == MARKER + "\nI wrote this myself"
    assert len(github.comments) == 5


def test_breaking_change_fails_the_job_and_is_annotated(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    repo.commit("drop from", _remove_from(repo.schema))
    run = review(repo, github, tmp_path)
    assert run.code == 1
    annotations = [line for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert len(annotations) == 1
    assert annotations[0].startswith("::error file=schema.ts,line=")
    assert "RangeSpec.from" in annotations[0]
    assert "fail --fail-on breaking" in run.stderr
    (comment,) = github.ours()
    assert "**breaking** `property-removed-required` `RangeSpec.from`" in comment["body"]
    assert run.outputs["breaking"] == "1" and run.outputs["failed"] == "true"

    # `fail-on: none` reports the same and passes
    assert review(repo, github, tmp_path, fail_on="none").code == 0


def test_the_pull_request_cannot_accept_its_own_breaking_change(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    accept = {"ignore": [{"rule": "property-removed-required", "subject": "RangeSpec.from"}]}
    accept["ignore"][0]["reason"] = "we say so"
    repo.commit(
        "drop from, accept it",
        _remove_from(repo.schema),
        {".mcp-codegen-diff.json": json.dumps(accept)},
    )
    assert review(repo, github, tmp_path).code == 1  # the PR's own file is not read
    assert review(repo, github, tmp_path, ignore=".mcp-codegen-diff.json").code == 0  # if asked

    # the base branch's file is: a pull request on top of a base that accepts it passes
    repo.base = _git(repo.path, "rev-parse", "HEAD")
    repo.commit("later", _add_member(_remove_from(repo.schema), "unit"))
    run = review(repo, github, tmp_path)
    assert run.code == 0, run.stderr


def test_unchanged_schema_updates_the_comment_and_posts_none_of_its_own(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    repo.commit("docs only", repo.schema, {"README.md": "hello\n"})
    run = review(repo, github, tmp_path)
    assert run.code == 0, run.stderr
    assert github.writes() == [] and github.ours() == []  # nothing to say: no comment
    assert "No changes." in run.summary

    cid = github.seed(BOT, MARKER + "\n## Schema diff\n\n**1 breaking**")
    review(repo, github, tmp_path)
    assert github.writes() == ["PATCH"]
    assert "No changes." in github.comments[cid]["body"]


def test_read_only_token_warns_and_the_gate_still_decides(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    github.read_only = True
    repo.commit("drop from", _remove_from(repo.schema))
    run = review(repo, github, tmp_path)
    assert run.code == 1
    assert "::warning title=mcp-codegen review::the pull request comment was not posted" in (
        run.stdout
    )
    assert "HTTP 403: Resource not accessible by integration" in run.stdout
    assert "RangeSpec.from" in run.summary


def test_hostile_pull_request_text_stays_data(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    # the schema's own text carries shell, workflow commands and a mention
    text = _add_member(repo.schema, "unit").replace(
        "/** A closed numeric interval. */",
        f"/** A closed numeric interval. {HOSTILE}\n::add-mask::x\n@octo-org/everyone */",
    )
    # and a package named like the tool: `python -m codegen` in the checkout would run it
    touch = 'import os, pathlib\npathlib.Path(os.environ["PWNED_DIR"], "pwned-module").touch()\n'
    (repo.path / "codegen").mkdir()
    repo.commit("hostile", text, {"codegen/__init__.py": touch, "codegen/__main__.py": touch})
    run = review(repo, github, tmp_path, hostile=HOSTILE)  # title, body, branch name
    assert run.code == 0, run.stderr
    (comment,) = github.ours()
    assert "@octo-org" not in comment["body"] and "@maintainers" not in comment["body"]
    assert not any(line.startswith("::add-mask::") for line in run.stdout.splitlines())

    # hostile inputs of the workflow are data too: rejected, never run
    bad = review(repo, github, tmp_path, base=HOSTILE)
    assert bad.code == 2 and "::error title=mcp-codegen review::the input `base`" in bad.stdout
    bad = review(repo, github, tmp_path, schema=HOSTILE)
    assert bad.code == 2 and "is not in the base commit" in bad.stdout


def _remove_to(schema: str) -> str:
    """RangeSpec loses its required `to` too (breaking)."""
    old = "  to: number;\n}\n\n/** @category Widgets */\nexport type RangedGauge"
    assert old in schema
    return schema.replace(old, "}\n\n/** @category Widgets */\nexport type RangedGauge", 1)


def test_baseline_gates_on_what_the_pull_request_adds(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    release = repo.base
    repo.commit("base branch: drop from", _remove_from(repo.schema))  # breaking vs the release
    repo.base = _git(repo.path, "rev-parse", "HEAD")
    repo.commit("PR: add unit", _add_member(_remove_from(repo.schema), "unit"))
    gate = {"fail_on": "none", "fail_on_baseline": "breaking", "baseline": f"{release}:schema.ts"}
    has_baseline = (
        "--baseline"
        in subprocess.run(
            [sys.executable, "-m", "codegen", "diff", "--help"],
            capture_output=True,
            text=True,
            check=False,
            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        ).stdout
    )
    run = review(repo, github, tmp_path, **gate)
    if not has_baseline:  # the CLI before `diff --baseline`: said so, never silently dropped
        assert run.code == 2 and "needs an mcp-codegen whose diff has --baseline" in run.stdout
        return
    assert run.code == 0, run.stdout + run.stderr  # keeps the release's breaking change: passes
    repo.commit("PR: drop to as well", _remove_to(_remove_from(repo.schema)))
    run = review(repo, github, tmp_path, **gate)
    assert run.code == 1, run.stdout + run.stderr  # adds one against the release: fails


def test_a_shallow_checkout_fetches_the_base_commit(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    repo.commit("add unit", _add_member(repo.schema, "unit"))
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", "--depth=1", f"file://{repo.path}", str(clone))
    shallow = Repo.__new__(Repo)
    shallow.path, shallow.schema, shallow.base = clone, repo.schema, repo.base
    assert subprocess.run(
        ["git", "cat-file", "-e", repo.base], cwd=clone, check=False, capture_output=True
    ).returncode  # the base commit is not there yet
    run = review(shallow, github, tmp_path)
    assert run.code == 0, run.stdout + run.stderr
    assert f"base {repo.base[:7]}" in run.summary


def test_outside_a_pull_request_the_base_is_given_and_nothing_is_posted(
    repo: Repo, github: FakeGitHub, tmp_path: Path
) -> None:
    repo.commit("drop from", _remove_from(repo.schema))
    push = {"ref": "refs/heads/main", "before": repo.base, "after": "0" * 40}
    run = review(repo, github, tmp_path, event=push)
    assert run.code == 2 and "the input `base` is needed outside a pull_request" in run.stdout
    run = review(repo, github, tmp_path, event=push, base="HEAD~1")
    assert run.code == 1 and "::error file=schema.ts," in run.stdout
    assert "not a pull_request event: no comment posted" in run.stdout
    assert github.requests == []


def test_the_token_goes_to_the_api_host_only(github: FakeGitHub) -> None:
    """A `Link` to another host (here the same server by another name) is not followed: the
    token would go with it."""
    sys.path.insert(0, str(REPO / "action"))
    try:
        from github_comments import ApiError, Client
    finally:
        sys.path.remove(str(REPO / "action"))
    for i in range(3):
        github.seed("reviewer", f"comment {i}")
    client = Client(github.url, OWNER_REPO, TOKEN)
    assert [c.id for c in client.comments(7)] == [101, 102, 103]  # two pages
    github.requests.clear()
    github.link_base = github.url.replace("127.0.0.1", "localhost")
    with pytest.raises(ApiError, match="the next page is on another host") as e:
        client.comments(7)
    assert len(github.requests) == 1 and TOKEN not in str(e.value)
    with pytest.raises(ApiError, match="is not OWNER/NAME"):
        Client(github.url, "octo-org/spec/../../x", TOKEN)
