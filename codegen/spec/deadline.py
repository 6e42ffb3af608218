"""One deadline for a whole request: connecting, the headers and every byte of the body. A socket
timeout bounds each read only, so a server sending a byte a second never trips it; here a timer
shuts the connection's socket down when the deadline passes, which ends any read in progress."""

from __future__ import annotations

import functools
import http.client
import socket
import threading
import urllib.request
from types import TracebackType
from typing import Any, final


@final
class Deadline:
    """`with Deadline(seconds) as d:` ... `d.opener()` opens URLs whose sockets `d` watches;
    `d.expired` says afterwards whether the time ran out (then whatever failed, it was that)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._done = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> Deadline:
        self._timer.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.finish()

    def finish(self) -> None:
        """Stop the clock: from now on `expired` no longer changes."""
        with self._lock:
            self._done = True
        self._timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            late = self.expired
        if late:
            _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def opener(self) -> urllib.request.OpenerDirector:
        """urllib's opener (proxies, redirects and all) with connections watched by this."""
        return urllib.request.build_opener(_HTTPHandler(self), _HTTPSHandler(self))


def _shut(sock: socket.socket) -> None:
    """End every read on `sock` now (the plain socket's shutdown: an SSL socket's own would
    drop its TLS state under the reading thread)."""
    try:
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:
        pass  # already closed


class _HTTPConnection(http.client.HTTPConnection):
    def __init__(self, *args: Any, deadline: Deadline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline = deadline

    def connect(self) -> None:
        super().connect()
        self._deadline.watch(self.sock)


class _HTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, *args: Any, deadline: Deadline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline = deadline

    def connect(self) -> None:
        super().connect()
        self._deadline.watch(self.sock)


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_HTTPConnection, deadline=self._deadline), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        connection = functools.partial(_HTTPSConnection, deadline=self._deadline)
        return self.do_open(connection, req, context=self._context)  # type: ignore[attr-defined]
