"""Newline-delimited JSON-RPC over a subprocess's stdio, for end-to-end tests.

Everything here is bounded: every wait takes a timeout, reads happen on daemon threads, and
``close()`` escalates from closing stdin to SIGTERM to SIGKILL. Nothing can hang a test.

    with StdioPeer(argv, name="python") as peer:
        init = peer.request({"jsonrpc": "2.0", "id": peer.next_id(), "method": "initialize", ...})
        peer.notify("notifications/initialized")

Messages the peer sends while ``request()`` waits for its response (server->client requests and
notifications) go to ``on_message`` (argument, else the constructor's ``handler``) and are kept in
``peer.notifications`` / ``peer.server_requests`` (responses nobody waits for: ``peer.responses``).
With no handler at all, a server request is answered with JSON-RPC error -32601 so the server
never blocks on us. ``wait_for(predicate)`` waits for (or picks from those lists) any message.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from typing_extensions import Self  # via mcp and mypy; typing.Self needs 3.11

Message = dict[str, Any]
Direction = Literal["client->server", "server->client"]
Handler = Callable[["StdioPeer", Message], None]

DEFAULT_TIMEOUT = 10.0
_STDERR_LIMIT = 1 << 20  # keep the last 1 MiB of stderr


class PeerError(Exception):
    """Base class; the message carries the transcript tail and stderr for diagnosis."""


class PeerTimeout(PeerError, TimeoutError):
    """No (matching) message arrived in time."""


class PeerClosed(PeerError):
    """The peer closed stdout, exited, or stopped reading stdin."""


class PeerProtocolError(PeerError):
    """The peer wrote a line that is not a JSON object (or array of objects)."""


@dataclass(frozen=True)
class TranscriptEntry:
    direction: Direction
    raw: str  # exact line text, without the trailing newline
    message: Any  # parsed JSON, or None if ``raw`` did not parse
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        arrow = ">>" if self.direction == "client->server" else "<<"
        return f"{arrow} {self.raw}"


@dataclass(frozen=True)
class _Eof:
    returncode: int | None


@dataclass(frozen=True)
class _Garbage:
    raw: str
    error: str


class StdioPeer:
    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        name: str | None = None,
        handler: Handler | None = None,
        inherit_env: bool = True,
    ) -> None:
        """Start ``argv``; ``env`` is layered over ``os.environ`` (over a minimal environment,
        ``PATH``, ``HOME``, locale and temp dir, with ``inherit_env=False``)."""
        self.argv = list(argv)
        self.name = name or os.path.basename(self.argv[0])
        self.handler = handler
        self.transcript: list[TranscriptEntry] = []
        self.notifications: list[Message] = []
        self.server_requests: list[Message] = []
        self.responses: list[Message] = []  # responses nobody was waiting for
        self._queue: queue.Queue[Message | _Eof | _Garbage] = queue.Queue()
        self._stderr = bytearray()
        self._lock = threading.Lock()
        self._ids = 0
        self._eof: _Eof | None = None
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={**(os.environ if inherit_env else _minimal_env()), **(env or {})},
        )
        self._threads = [
            threading.Thread(target=self._read_stdout, name=f"{self.name}-stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name=f"{self.name}-stderr", daemon=True),
        ]
        for th in self._threads:
            th.start()

    # ---------------------------------------------------------------- background readers

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            raw = line.rstrip(b"\r\n").decode("utf-8", errors="replace")
            if not raw.strip():
                continue
            try:
                parsed: Any = json.loads(raw)
            except ValueError as exc:
                self._record("server->client", raw, None)
                self._queue.put(_Garbage(raw, str(exc)))
                continue
            self._record("server->client", raw, parsed)
            items = parsed if isinstance(parsed, list) and parsed else [parsed]
            for item in items:
                self._queue.put(
                    item if isinstance(item, dict) else _Garbage(raw, "not a JSON object")
                )
        try:
            code: int | None = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._queue.put(_Eof(code))

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        while chunk := os.read(fd, 65536):
            with self._lock:
                self._stderr += chunk
                del self._stderr[:-_STDERR_LIMIT]

    def _record(self, direction: Direction, raw: str, message: Any) -> None:
        with self._lock:
            self.transcript.append(TranscriptEntry(direction, raw, message))

    # ---------------------------------------------------------------- sending

    def next_id(self) -> int:
        with self._lock:
            self._ids += 1
            return self._ids

    def send_raw(self, text: str) -> None:
        """Write ``text`` plus a newline exactly as given (for codec-produced or malformed input)."""
        if "\n" in text:
            raise ValueError("a stdio JSON-RPC message must not contain a newline")
        try:
            parsed: Any = json.loads(text)
        except ValueError:
            parsed = None
        self._record("client->server", text, parsed)
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise PeerClosed(self._diagnose(f"write failed: {exc!r}")) from exc

    def send(self, obj: Message) -> None:
        self.send_raw(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        msg: Message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = dict(params)
        self.send(msg)

    def respond(self, request: Message, result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def respond_error(self, request: Message, code: int, message: str, data: Any = None) -> None:
        error: Message = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self.send({"jsonrpc": "2.0", "id": request["id"], "error": error})

    # ---------------------------------------------------------------- receiving

    def recv(self, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """Next message from the peer (batches arrive element by element)."""
        if self._eof is not None:
            raise PeerClosed(self._diagnose(f"peer exited (code {self._eof.returncode})"))
        try:
            item = self._queue.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            raise PeerTimeout(self._diagnose(f"no message within {timeout:.1f}s")) from None
        if isinstance(item, _Eof):
            self._eof = item
            raise PeerClosed(self._diagnose(f"peer exited (code {item.returncode})"))
        if isinstance(item, _Garbage):
            raise PeerProtocolError(
                self._diagnose(f"invalid line from peer ({item.error}): {item.raw[:500]}")
            )
        return item

    def request(
        self, obj: Message, timeout: float = DEFAULT_TIMEOUT, on_message: Handler | None = None
    ) -> Message:
        """Send request ``obj`` and return the response with the same id (result or error).

        Messages arriving meanwhile are recorded and passed to ``on_message``/``self.handler``.
        """
        self.send(obj)
        return self._wait(
            lambda m: _is_response(m) and m.get("id") == obj["id"], timeout, on_message
        )

    def wait_for(
        self,
        predicate: Callable[[Message], bool],
        timeout: float = DEFAULT_TIMEOUT,
        on_message: Handler | None = None,
    ) -> Message:
        """Return the first message matching ``predicate``; others are dispatched as in ``request``.

        Messages already collected in ``notifications``, ``server_requests`` and ``responses`` (say,
        a notification that overtook the response to an earlier ``request``) are searched first; a
        match is removed from its list (a server request found there was already dispatched).
        """
        for seen in (self.notifications, self.server_requests, self.responses):
            for i, msg in enumerate(seen):
                if predicate(msg):
                    return seen.pop(i)
        return self._wait(predicate, timeout, on_message)

    def _wait(
        self, predicate: Callable[[Message], bool], timeout: float, on_message: Handler | None
    ) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(deadline - time.monotonic())
            if predicate(msg):
                return msg
            self._dispatch(msg, on_message or self.handler)

    def _dispatch(self, msg: Message, handler: Handler | None) -> None:
        if "method" not in msg:
            self.responses.append(msg)
        else:
            (self.server_requests if "id" in msg else self.notifications).append(msg)
        if handler is not None:
            handler(self, msg)
        elif "method" in msg and "id" in msg:
            self.respond_error(msg, -32601, f"test client has no handler for {msg['method']}")

    # ---------------------------------------------------------------- lifecycle and diagnostics

    @property
    def stderr(self) -> str:
        with self._lock:
            return self._stderr.decode("utf-8", errors="replace")

    def describe(self, last: int = 40) -> str:
        with self._lock:
            entries = self.transcript[-last:]
        lines = [
            f"--- {self.name}: {' '.join(self.argv)} (pid {self.proc.pid}, rc {self.proc.poll()})"
        ]
        lines += [f"  {e}"[:2000] for e in entries]
        lines.append(f"--- {self.name} stderr (tail) ---")
        lines.append(self.stderr[-8000:])
        return "\n".join(lines)

    def _diagnose(self, what: str) -> str:
        return f"{self.name}: {what}\n{self.describe(last=15)}"

    def close(self, grace: float = 1.0, timeout: float = 5.0) -> int | None:
        """Shut down as the MCP stdio transport says: close stdin and give the peer ``grace``
        seconds to exit, then SIGTERM, then SIGKILL (``timeout`` each). Returns the exit code
        (negative: killed by that signal; None: unkillable). Idempotent."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        for step, wait in (
            (None, grace),
            (self.proc.terminate, timeout),
            (self.proc.kill, timeout),
        ):
            if step is not None and self.proc.poll() is None:
                step()
            try:
                self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        for th, stream in zip(self._threads, (self.proc.stdout, self.proc.stderr)):
            th.join(timeout=timeout)
            # Closing a stream while its reader thread is still blocked in it could block us too.
            if stream is not None and not th.is_alive():
                stream.close()
        return self.proc.poll()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_KEPT_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "SYSTEMDRIVE", "TEMP", "TMP")


def _minimal_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k in _KEPT_ENV}


def _is_response(msg: Message) -> bool:
    return "method" not in msg and ("result" in msg or "error" in msg)
