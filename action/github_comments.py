"""The one pull-request comment of the Action, through GitHub's REST API (issue comments).

A pull request is an issue: its conversation comments are issue comments.

- list:   GET    {api}/repos/{owner}/{repo}/issues/{number}/comments?per_page=100, following the
          `Link` header's rel="next" (only to the API's own host: the token goes nowhere else)
- create: POST   {api}/repos/{owner}/{repo}/issues/{number}/comments   {"body": ...}
- update: PATCH  {api}/repos/{owner}/{repo}/issues/comments/{id}       {"body": ...}
- delete: DELETE {api}/repos/{owner}/{repo}/issues/comments/{id}

Standard library only. Errors raise `ApiError` with the method, the path, the HTTP status and
GitHub's own `message`, never a header (the token is in one).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

# The comment's hidden marker: how a later run finds the comment an earlier run posted.
MARKER = "<!-- mcp-codegen-diff -->"
API_VERSION = "2022-11-28"
PER_PAGE = 100  # the largest page the API gives
MAX_PAGES = 50  # 5,000 comments: a pull request with more is not searched further
TIMEOUT = 30.0
_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="next"')


class ApiError(Exception):
    """A request failed: the message names the method, path, status and GitHub's message."""


@dataclass(frozen=True)
class Comment:
    id: int
    author: str
    body: str
    url: str


class Client:
    """Issue comments of one repository, authenticated with `token`."""

    def __init__(self, api_url: str, repository: str, token: str) -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repository):
            raise ApiError(f"GITHUB_REPOSITORY is not OWNER/NAME: {repository!r}")
        self.api = api_url.rstrip("/")
        self.origin = _origin(self.api)
        self.repository = repository
        self._token = token

    def comments(self, number: int) -> list[Comment]:
        """Every comment of issue or pull request `number`, oldest first, page by page."""
        url: str | None = f"{self.api}/repos/{self.repository}/issues/{number}/comments" + (
            f"?per_page={PER_PAGE}"
        )
        out: list[Comment] = []
        for _ in range(MAX_PAGES):
            if url is None:
                break
            data, link = self._request("GET", url)
            if not isinstance(data, list):
                raise ApiError(f"GET {_path(url)}: the answer is not a list of comments")
            out.extend(_comment(c) for c in data if isinstance(c, dict))
            url = self._next(link)
        return out

    def create(self, number: int, body: str) -> Comment:
        url = f"{self.api}/repos/{self.repository}/issues/{number}/comments"
        return _comment(self._request("POST", url, {"body": body})[0])

    def update(self, comment_id: int, body: str) -> Comment:
        url = f"{self.api}/repos/{self.repository}/issues/comments/{comment_id}"
        return _comment(self._request("PATCH", url, {"body": body})[0])

    def delete(self, comment_id: int) -> None:
        self._request("DELETE", f"{self.api}/repos/{self.repository}/issues/comments/{comment_id}")

    def _next(self, link: str | None) -> str | None:
        """The next page's URL from a `Link` header, if it is on the API's own host."""
        match = _NEXT.search(link or "")
        if match is None:
            return None
        url = match.group(1)
        if _origin(url) != self.origin:
            raise ApiError(f"the next page is on another host ({_origin(url)}): not followed")
        return url

    def _request(
        self, method: str, url: str, payload: dict[str, str] | None = None
    ) -> tuple[Any, str | None]:
        data = json.dumps(payload).encode() if payload is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("X-GitHub-Api-Version", API_VERSION)
        request.add_header("User-Agent", "mcp-codegen-action")
        request.add_header("Authorization", f"Bearer {self._token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                raw = response.read()
                link = response.headers.get("Link")
        except urllib.error.HTTPError as e:
            raise ApiError(f"{method} {_path(url)}: HTTP {e.code}{_message(e)}") from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise ApiError(f"{method} {_path(url)}: {reason}") from None
        if not raw:
            return None, link
        try:
            return json.loads(raw), link
        except ValueError:
            raise ApiError(f"{method} {_path(url)}: the answer is not JSON") from None


def _origin(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _path(url: str) -> str:
    return urllib.parse.urlsplit(url).path


def _message(e: urllib.error.HTTPError) -> str:
    """GitHub's `message` from an error's JSON body (cut), if there is one."""
    try:
        message = json.loads(e.read(4096)).get("message")
    except (ValueError, AttributeError, OSError):
        return f" {e.reason}" if e.reason else ""
    return f": {str(message)[:200]}" if message else ""


def _comment(data: Any) -> Comment:
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        raise ApiError("the answer is not a comment")
    user = data.get("user")
    user = user if isinstance(user, dict) else {}
    return Comment(
        id=data["id"],
        author=str(user.get("login", "")),
        body=str(data.get("body") or ""),
        url=str(data.get("html_url") or ""),
    )


def ours(comments: list[Comment], author: str) -> list[Comment]:
    """The comments an earlier run posted: they start with MARKER and, unless `author` is
    empty, were written by `author` (someone else's comment that quotes the marker is not
    ours to overwrite)."""
    return [c for c in comments if c.body.startswith(MARKER) and (not author or c.author == author)]
