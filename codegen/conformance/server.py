"""A live stdio server checked in each version: start it, negotiate the version (`initialize`,
or `server/discover` where the version has no handshake, falling back to `initialize`), call
what every server must answer (`ping` where the version has it) and the list methods of the
capabilities it declares (`prompts/get`, `resources/read` on the first entries), and check
every message both ways as `check-wire` does. One process per version; a request unanswered
within the timeout or a server that exits ends that version's run and is reported. The server
is a peer like any other: what it sends is data (nothing it says selects a file or a command),
and only the process started here is ever stopped.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..console import escape_line as esc
from .known import Versions
from .wire import DIRECTIONS, Violation, WireChecker, parse_json

CLIENT_INFO = {"name": "mcp-codegen-check-server", "version": "1"}
MAX_LINE = 16 * 1024 * 1024  # a longer line is cut and reported as not JSON
META_VERSION = "io.modelcontextprotocol/protocolVersion"
_EOF = object()


class Stopped(Exception):
    """The server did not answer in time, or exited; the message says which."""


@dataclass
class Run:
    """One version's run: what each method got (`ok`, an error, `timeout`, ...), the agreed
    version, the violations and notes."""

    asked: str
    agreed: str = ""
    cells: dict[str, str] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stopped: str = ""  # why the run ended early ("" when it did not)
    refused: bool = False
    # the lines of the server's own requests and notifications, and of the answers to them: their
    # violations go to the `other` column even where the method is one called (a server sending
    # `tools/list`)
    others: set[int] = field(default_factory=set)


class _Peer:
    """The server process: lines in, lines out, a deadline on every read."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lines: queue.Queue[object] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        except (OSError, ValueError):  # closed under us at the end of a run
            pass
        self.lines.put(_EOF)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as err:
            raise Stopped(f"the server stopped reading its input ({err.strerror or err})") from err

    def receive(self, deadline: float) -> str:
        try:
            item = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise Stopped("no answer within the timeout") from None
        if item is _EOF:
            try:
                code = self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise Stopped("the server closed its output") from None
            raise Stopped(f"the server exited (status {code})")
        return str(item)

    def close(self) -> None:
        """End of input, a moment to exit, then the kill (this process only: the one started
        above)."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class _Session:
    def __init__(self, peer: _Peer, label: str, versions: Versions, timeout: float) -> None:
        self.peer, self.label, self.timeout = peer, label, timeout
        self.wire = WireChecker(versions)
        self.run = Run(label)
        self.next_id = 0
        self.count = 0
        self.meta: dict[str, Any] | None = None  # the per-request envelope (no handshake)
        self.version: str | None = label  # given to the checker; None: learned from the wire

    def record(self, direction: str, text: str) -> None:
        """Check one message as check-wire would (number: its place in the session)."""
        self.count += 1
        try:
            value = parse_json(text)
        except ValueError as err:
            self.wire.not_json(self.count, str(err), direction, self.label)
        else:
            self.wire.message(self.count, value, direction, self.label, self.version)

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Send a request; the result, or the error object (as {"error": ...})."""
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if self.meta is not None:
            params = {**(params or {}), "_meta": self.meta}
        if params is not None:
            message["params"] = params
        self.send(message)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                text = self.peer.receive(deadline)
            except Stopped as err:
                self.run.cells[method] = "timeout" if "timeout" in str(err) else "exited"
                raise
            self.record(DIRECTIONS["s2c"], text)
            try:
                got = json.loads(text)
            except ValueError:
                continue
            if not isinstance(got, dict):
                continue
            if "method" in got:
                self.run.others.add(self.count)
            if "method" in got and "id" in got:  # the server asks: not offered, so refused
                self.send({"jsonrpc": "2.0", "id": got["id"],
                           "error": {"code": -32601, "message": "not supported"}})  # fmt: skip
                self.run.others.add(self.count)
                continue
            if got.get("id") == self.next_id and "method" not in got:
                return {"error": got["error"]} if "error" in got else got.get("result")

    def send(self, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        self.record(DIRECTIONS["c2s"], text)
        self.peer.send(message)

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        result = self.request(method, params)
        if isinstance(result, dict) and isinstance(result.get("error"), dict):
            code = result["error"].get("code")
            self.run.cells[method] = f"error {code}" if isinstance(code, int) else "error"
            return None
        self.run.cells[method] = "ok"
        return result


def check_version(argv: Sequence[str], label: str, versions: Versions, timeout: float) -> Run:
    peer = _Peer(argv)
    s = _Session(peer, label, versions, timeout)
    try:
        capabilities = _negotiate(s, versions)
        if capabilities is not None:
            _exercise(s, versions, capabilities)
    except Stopped as err:
        s.run.stopped = str(err)
    finally:
        peer.close()
    s.run.violations = list(s.wire.result.violations)
    s.run.notes += s.wire.result.notes
    return s.run


def _negotiate(s: _Session, versions: Versions) -> dict[str, Any] | None:
    model = versions.methods(s.label)
    assert model is not None
    if model.get("initialize") is None and model.get("server/discover") is not None:
        s.meta = {META_VERSION: s.label, "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
                  "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
        found = s.request("server/discover")
        if isinstance(found, dict) and "error" not in found:
            s.run.cells["server/discover"] = "ok"
            supported = found.get("supportedVersions")
            if isinstance(supported, list) and s.label in supported:
                s.run.agreed = s.label
                caps = found.get("capabilities")
                return caps if isinstance(caps, dict) else {}
            s.run.refused = True
            s.run.notes.append(f"server/discover does not list {s.label}")
            return None
        s.run.cells["server/discover"] = "no server/discover"
        s.meta = None  # the fallback: initialize, as servers of the handshake era expect
    s.version = None  # the checker learns it from initialize (the answer may name another)
    found = s.call("initialize", {"protocolVersion": s.label, "capabilities": {},
                                  "clientInfo": CLIENT_INFO})  # fmt: skip
    if not isinstance(found, dict):
        s.run.refused = True
        return None
    agreed = found.get("protocolVersion")
    s.run.agreed = agreed if isinstance(agreed, str) else "?"
    if agreed != s.label:
        s.run.refused = True
        s.run.notes.append(f"asked {s.label}, the server answered {s.run.agreed}")
        return None
    s.version = s.label
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    caps = found.get("capabilities")
    return caps if isinstance(caps, dict) else {}


def _exercise(s: _Session, versions: Versions, caps: dict[str, Any]) -> None:
    model = versions.methods(s.label)
    assert model is not None
    if model.get("ping") is not None:
        s.call("ping")
    if "tools" in caps:
        s.call("tools/list")
    if "prompts" in caps:
        prompts = s.call("prompts/list")
        first = _first(prompts, "prompts")
        if first is not None and isinstance(first.get("name"), str):
            args = {a["name"]: "x" for a in first.get("arguments") or []
                    if isinstance(a, dict) and a.get("required") and isinstance(a.get("name"), str)}  # fmt: skip
            s.call("prompts/get", {"name": first["name"], "arguments": args})
    if "resources" in caps:
        listed = s.call("resources/list")
        if model.get("resources/templates/list") is not None:
            s.call("resources/templates/list")
        first = _first(listed, "resources")
        if first is not None and isinstance(first.get("uri"), str):
            s.call("resources/read", {"uri": first["uri"]})


def _first(result: Any, key: str) -> dict[str, Any] | None:
    items = result.get(key) if isinstance(result, dict) else None
    return items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else None


def table(runs: Sequence[Run]) -> str:
    """version x method: `ok`, `N violations`, an error code, `timeout`, `exited` or `-` (not
    called); the last column counts the violations in the server's other messages
    (notifications, requests, lines that are not JSON)."""
    methods = sorted({m for r in runs for m in r.cells})
    head = "| version | agreed | " + " | ".join(f"`{m}`" for m in methods) + " | other | ended |"
    rows = [head, "|---|---|" + "---|" * len(methods) + "---|---|"]
    for r in runs:
        called = [v for v in r.violations if v.method in r.cells and v.line not in r.others]
        cells = [_cell(sum(1 for v in called if v.method == m), r.cells.get(m, "-"))
                 for m in methods]  # fmt: skip
        other = len(r.violations) - len(called)
        cells.append(_cell(other, "-"))
        ended = "refused" if r.refused else (r.stopped or "ok")
        agreed = esc(r.agreed).replace("|", "\\|") or "-"
        rows.append(f"| {r.asked} | {agreed} | " + " | ".join(cells) + f" | {ended} |")
    return "\n".join(rows) + "\n"


def _cell(violations: int, otherwise: str) -> str:
    if not violations:
        return otherwise
    return f"{violations} violation{'s' if violations > 1 else ''}"
