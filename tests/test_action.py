"""The GitHub Action (`action.yml`, `codegen/action.py`) end to end: a git repository built here,
a real pull-request event payload, and a stand-in of the GitHub REST API on 127.0.0.1 that
records every request. First run: the comment is created and the job fails on a breaking change;
a push: the same comment is updated; an unchanged schema: it says "No changes"; with a baseline
the PR that removes a breaking change against it passes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
SPEC_PRS = Path(__file__).parent / "fixtures" / "spec-prs"


class StandIn(BaseHTTPRequestHandler):
    """Issue comments of one repository, kept in memory; every request is recorded."""

    comments: list[dict[str, Any]]
    requests: list[tuple[str, str, Any, str]]

    def _reply(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _record(self) -> Any:
        n = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(n)) if n else None
        auth = self.headers.get("Authorization") or ""
        self.requests.append((self.command, self.path, body, auth))
        return body

    def do_GET(self) -> None:
        self._record()
        page = 1 if "page=1" in self.path.split("?")[-1].split("&") else 2
        self._reply(200, self.comments if page == 1 else [])

    def do_POST(self) -> None:
        body = self._record()
        comment = {"id": 100 + len(self.comments), "body": body["body"]}
        self.comments.append(comment)
        self._reply(201, comment)

    def do_PATCH(self) -> None:
        body = self._record()
        cid = int(self.path.rsplit("/", 1)[-1])
        for c in self.comments:
            if c["id"] == cid:
                c["body"] = body["body"]
        self._reply(200, {"id": cid})

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def api() -> Iterator[tuple[str, type[StandIn]]]:
    handler = type("Handler", (StandIn,), {"comments": [], "requests": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()


def git(repo: Path, *args: str) -> str:
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    cmd = ["git", "-C", str(repo), *ident, *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def commit(repo: Path, source: Path, message: str) -> str:
    target = repo / "schema" / "draft" / "schema.ts"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(source.read_bytes())
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD")


def run_action(
    repo: Path, url: str, base: str, head: str, **inputs: str
) -> subprocess.CompletedProcess[str]:
    event = {
        "action": "synchronize",
        "number": 7,
        "pull_request": {"number": 7, "base": {"sha": base, "ref": "main"}, "head": {"sha": head}},
        "repository": {"full_name": "octo/spec"},
    }
    (repo.parent / "event.json").write_text(json.dumps(event), encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "GITHUB_EVENT_PATH": str(repo.parent / "event.json"),
        "GITHUB_REPOSITORY": "octo/spec",
        "GITHUB_API_URL": url,
        "GITHUB_TOKEN": "t0ken",
        "GITHUB_STEP_SUMMARY": str(repo.parent / "summary.md"),
        "INPUT_SCHEMA": "schema/draft/schema.ts",
        **{f"INPUT_{k.upper()}": v for k, v in inputs.items()},
    }
    return subprocess.run(
        [sys.executable, "-m", "codegen.action"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_action_yml_runs_the_script() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) >= {"schema", "base", "baseline", "fail-on",
                                     "fail-on-baseline", "ignore"}  # fmt: skip
    step = action["runs"]["steps"][-1]
    assert step["run"] == "python -m codegen.action"
    # inputs reach the script through the environment, never spliced into the shell text
    assert all("${{" not in s.get("run", "") for s in action["runs"]["steps"])
    assert step["env"]["INPUT_FAIL_ON"] == "${{ inputs.fail-on }}"


@pytest.mark.slow
def test_create_update_and_no_changes(tmp_path: Path, api: tuple[str, type[StandIn]]) -> None:
    url, handler = api
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    d = SPEC_PRS / "8e192a22"
    base = commit(repo, d / "old.ts", "base")
    head = commit(repo, d / "new.ts", "stateless")

    first = run_action(repo, url, base, head)
    assert first.returncode == 1, first.stderr  # initialize and ping removed: breaking
    assert [(m, p) for m, p, _, _ in handler.requests] == [
        ("GET", "/repos/octo/spec/issues/7/comments?per_page=100&page=1"),
        ("POST", "/repos/octo/spec/issues/7/comments"),
    ]
    assert all(auth == "Bearer t0ken" for *_, auth in handler.requests)
    (comment,) = handler.comments
    assert comment["body"].startswith("<!-- mcp-codegen-diff -->\n## Schema diff: base → head")
    assert "`method-removed` `initialize`" in comment["body"]
    assert "::error file=schema/draft/schema.ts,line=" in first.stdout
    assert "## Schema diff" in (tmp_path / "summary.md").read_text(encoding="utf-8")

    handler.requests.clear()
    d2 = SPEC_PRS / "2ffc3fa2"  # another push: a different schema, still breaking
    head = commit(repo, d2 / "new.ts", "push")
    second = run_action(repo, url, base, head)
    assert second.returncode == 1
    assert [m for m, *_ in handler.requests] == ["GET", "PATCH"]
    assert handler.requests[1][1] == "/repos/octo/spec/issues/comments/100"
    assert len(handler.comments) == 1

    handler.requests.clear()
    head = commit(repo, d / "old.ts", "back to the base schema")
    third = run_action(repo, url, base, head)
    assert third.returncode == 0, third.stderr
    assert [m for m, *_ in handler.requests] == ["GET", "PATCH"]
    assert "No changes." in handler.comments[0]["body"]


@pytest.mark.slow
def test_baseline_passes_and_fails(tmp_path: Path, api: tuple[str, type[StandIn]]) -> None:
    url, handler = api
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    d = SPEC_PRS / "970851ea"
    release = commit(repo, d / "baseline.ts", "release")
    base = commit(repo, d / "old.ts", "mode required")
    head = commit(repo, d / "new.ts", "mode optional again")
    gate = {"fail_on": "none", "baseline": f"{release}:schema/draft/schema.ts",
            "fail_on_baseline": "breaking"}  # fmt: skip
    ok = run_action(repo, url, base, head, **gate)
    assert ok.returncode == 0, ok.stderr
    assert "### Against the baseline" in handler.comments[0]["body"]
    worse = commit(repo, d / "worse.ts", "a new required field")
    bad = run_action(repo, url, base, worse, **gate)
    assert bad.returncode == 1
    assert "ElicitRequestParams.timeoutMs" in handler.comments[0]["body"]


def test_bad_event_is_an_error(tmp_path: Path, api: tuple[str, type[StandIn]]) -> None:
    url, handler = api
    repo = tmp_path / "repo"
    repo.mkdir()
    out = run_action(repo, url, "--upload-pack=evil", "HEAD")
    assert out.returncode == 2 and "::error" in out.stdout
    assert handler.requests == []
