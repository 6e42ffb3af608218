"""A local stand-in for the specification repository's raw-file host, for the fetch tests: a
thread serving `<root>/<version>/<file>` at `/<ref>/schema/<version>/<file>` on 127.0.0.1, and
misbehaving on request (truncated bodies, a hang, a byte at a time, endless bodies). Nothing here
reaches the internet."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class Mirror:
    """What the server serves and how; `requests` records every path asked for."""

    root: Path
    # "ok"; "truncate" (half the body, full Content-Length); "hang"; "drip" (the headers, then
    # a byte every DRIP seconds); "drip-headers" (the headers a byte at a time); "huge" (a
    # Content-Length of 1 GiB, then zeros); "huge-unsized" (zeros without a length, until the
    # client goes: HUGE at most)
    mode: str = "ok"
    requests: list[str] = field(default_factory=list)
    sent: int = 0  # body bytes written, over all requests
    released: threading.Event = field(default_factory=threading.Event)  # ends a hang
    url: str = ""


DRIP = 0.5  # seconds between two bytes of a drip
HUGE = 1 << 30
GONE = (BrokenPipeError, ConnectionResetError)


def _handler(mirror: Mirror) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            mirror.requests.append(self.path)
            if mirror.mode == "hang":
                mirror.released.wait(30)
                return
            parts = self.path.lstrip("/").split("/", 2)
            target = mirror.root / parts[2] if len(parts) == 3 and parts[1] == "schema" else None
            if mirror.mode.startswith("huge"):
                self._endless(sized=mirror.mode == "huge")
                return
            if target is None or not target.is_file():
                self.send_error(404)
                return
            if mirror.mode == "drip-headers":
                self._drip(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n" + b"X-Slow: y\r\n" * 99)
                return
            size = target.stat().st_size
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            if mirror.mode == "drip":
                self._drip(target.read_bytes())
            elif mirror.mode == "truncate":
                self.wfile.write(target.read_bytes()[: size // 2])
            else:
                with target.open("rb") as f:  # streamed: the server holds no whole file
                    shutil.copyfileobj(f, self.wfile)

        def _drip(self, data: bytes) -> None:
            try:
                for i in range(len(data)):
                    if mirror.released.wait(DRIP):
                        return
                    self.wfile.write(data[i : i + 1])
                    mirror.sent += 1
            except GONE:
                return

        def _endless(self, sized: bool) -> None:
            self.send_response(200)
            if sized:
                self.send_header("Content-Length", str(HUGE))
            self.send_header("Connection", "close")
            self.end_headers()
            zeros = bytes(64 * 1024)
            try:
                while mirror.sent < HUGE and not mirror.released.is_set():
                    self.wfile.write(zeros)
                    mirror.sent += len(zeros)
            except GONE:
                return

        def log_message(self, format: str, *args: object) -> None:
            pass  # keep test output clean

    return Handler


@contextlib.contextmanager
def serve(root: Path, mode: str = "ok") -> Iterator[Mirror]:
    mirror = Mirror(root, mode)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(mirror))
    server.daemon_threads = True
    mirror.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield mirror
    finally:
        mirror.released.set()
        server.shutdown()
        server.server_close()


def closed_port_url() -> str:
    """A base URL where nothing listens (the port was just free), standing for no network."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
