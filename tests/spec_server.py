"""A local stand-in for the specification repository's raw-file host, for the fetch tests: a
thread serving `<root>/<version>/<file>` at `/<ref>/schema/<version>/<file>` on 127.0.0.1, and
misbehaving on request (truncated bodies, a hang). Nothing here reaches the internet."""

from __future__ import annotations

import contextlib
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
    mode: str = "ok"  # "ok", "truncate" (half the body, full Content-Length), "hang"
    requests: list[str] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)  # ends a hang
    url: str = ""


def _handler(mirror: Mirror) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            mirror.requests.append(self.path)
            if mirror.mode == "hang":
                mirror.released.wait(30)
                return
            parts = self.path.lstrip("/").split("/", 2)
            target = mirror.root / parts[2] if len(parts) == 3 and parts[1] == "schema" else None
            if target is None or not target.is_file():
                self.send_error(404)
                return
            body = target.read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2] if mirror.mode == "truncate" else body)

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
