"""MCP's stdio transport: newline-delimited JSON-RPC messages, one per line.

Nothing a peer writes stops a loop here. Every line is read through the runtime's strict JSON
reader (`_runtime.loads`): invalid UTF-8, a syntax error, `NaN`/`Infinity`, `1e400`, a key given
twice and nesting past the parser's stack make a `ParseFailure` (the server answers -32700 Parse
error, id null), as does a line longer than `MAX_LINE` bytes (the rest of it is skipped). Every
message is written by the runtime's `dumps` (a lone surrogate escaped, so each line is UTF-8),
one line, flushed.
"""

from __future__ import annotations

import asyncio
import io
import logging
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, Final, cast, final

from ._runtime import JSON, ValidationError, dumps, loads
from ._session import INTERNAL_ERROR, PARSE_ERROR, Peer, PeerError, _error, _request_id

MAX_LINE: Final = 32 * 1024 * 1024
"""The longest line read (bytes, newline included): a longer one is a parse error."""

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ParseFailure:
    """A line that is no JSON text (or too long): answered with a -32700 parse error."""

    reason: str


def read_lines(stream: IO[str] | IO[bytes], max_line: int = MAX_LINE) -> Iterator[object]:
    """The JSON-RPC messages of a newline-delimited stream, one per line (blank lines skipped);
    a line that is not JSON, or longer than `max_line`, is yielded as a `ParseFailure`. A text
    stream with a binary buffer (`sys.stdin`) is read through the buffer, so that bytes that
    are not UTF-8 are a line's failure, not the stream's."""
    source: IO[Any] = getattr(stream, "buffer", None) or stream
    while True:
        line = source.readline(max_line + 1)
        if not line:
            return
        newline = b"\n" if isinstance(line, bytes) else "\n"
        if len(line) > max_line and not line.endswith(newline):
            while True:  # skip to the end of the line, max_line at a time
                rest = source.readline(max_line)
                if not rest or rest.endswith(newline):
                    break
            yield ParseFailure(f"a line longer than {max_line} bytes")
            continue
        if line.strip():
            try:
                yield loads(line)
            except ValidationError as exc:
                yield ParseFailure(_reason(exc))


def _reason(exc: ValidationError) -> str:
    """The parse error of a line, short: its message and where (a long path elided)."""
    first = exc.errors[0] if exc.errors else None
    if first is None:
        return "invalid JSON text"
    path = first.path if len(first.path) <= 60 else first.path[:57] + "..."
    return f"{first.message} at {path}"


def write_line(stream: IO[str] | IO[bytes], message: dict[str, JSON]) -> None:
    """One message as one line of UTF-8 JSON (lone surrogates escaped), flushed. A message that
    is not JSON (a NaN a handler put in an id) is replaced by an internal error."""
    data = (_text(message) + "\n").encode("utf-8")
    if isinstance(stream, (io.BufferedIOBase, io.RawIOBase)):
        stream.write(data)
        stream.flush()
        return
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:  # sys.stdout: UTF-8 whatever the locale's encoding
        stream.flush()
        buffer.write(data)
        buffer.flush()
        return
    cast("IO[str]", stream).write(data.decode("utf-8"))
    stream.flush()


def _text(message: dict[str, JSON]) -> str:
    try:
        return dumps(message)
    except ValidationError as exc:
        _log.error("a message that is not JSON was not sent: %s", exc)
        return dumps(_error(_request_id(message.get("id")), INTERNAL_ERROR, "Internal error"))


def answer(session: Peer, message: object) -> list[dict[str, JSON]]:
    """What `session` answers to one line read by `read_lines` (a parse failure: -32700)."""
    if isinstance(message, ParseFailure):
        return [_error(None, PARSE_ERROR, f"Parse error: {message.reason}")]
    try:
        return session.handle(message)
    except Exception as exc:  # noqa: BLE001 - handle never raises; should it, the loop goes on
        _log.error("the session failed on a message", exc_info=exc)
        rid = message.get("id") if isinstance(message, dict) else None
        return [] if rid is None else [_error(_request_id(rid), INTERNAL_ERROR, "Internal error")]


def serve_stdio(
    session: Peer,
    stdin: IO[str] | IO[bytes] | None = None,
    stdout: IO[str] | IO[bytes] | None = None,
) -> None:
    """Answer every line of `stdin` (default: the process's) until it closes, or the client
    stops reading `stdout`."""
    reader, writer = stdin or sys.stdin, stdout or sys.stdout
    try:
        for message in read_lines(reader):
            for out in answer(session, message):
                write_line(writer, out)
    except BrokenPipeError:
        return  # the client went away


async def serve_stdio_async(
    session: Peer,
    stdin: IO[str] | IO[bytes] | None = None,
    stdout: IO[str] | IO[bytes] | None = None,
) -> None:
    """`serve_stdio` for `AsyncServerHandlers`: each request runs in a task of its own, so its
    progress and log notifications leave while it runs, it may await `ctx.request(...)` to the
    client, and a `notifications/cancelled` reaches it. `initialize` is answered before the
    next line is handled (the version it agrees on applies to what follows). Lines are read by
    a thread; at the end of `stdin` the requests still waiting for the client are cancelled."""
    reader, writer = stdin or sys.stdin, stdout or sys.stdout
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[object] = asyncio.Queue()
    end = object()

    def pump() -> None:
        try:
            for message in read_lines(reader):
                loop.call_soon_threadsafe(inbox.put_nowait, message)
        except Exception as exc:  # noqa: BLE001 - a failing stdin ends the session
            _log.error("reading stdin failed", exc_info=exc)
        finally:
            try:
                loop.call_soon_threadsafe(inbox.put_nowait, end)
            except RuntimeError:  # the loop is closed already
                pass

    async def send(message: dict[str, JSON]) -> None:
        write_line(writer, message)

    tasks: set[asyncio.Task[None]] = set()
    threading.Thread(target=pump, name="mcp-stdin", daemon=True).start()
    try:
        while (message := await inbox.get()) is not end:
            if isinstance(message, ParseFailure):
                write_line(writer, answer(session, message)[0])
                continue
            if isinstance(message, dict) and message.get("method") == "initialize":
                await _async_answer(session, message, send)  # agreed before the next is read
                continue
            task = asyncio.ensure_future(_async_answer(session, message, send))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        for future in list(session._pending.values()):
            future.cancel()  # no answer can come any more
        if tasks:
            await asyncio.wait(tasks)
    except BrokenPipeError:
        for task in tasks:
            task.cancel()


async def _async_answer(session: Peer, message: object, send: Any) -> None:
    try:
        await session.async_handle(message, send)
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 - as in `answer`: the loop goes on
        _log.error("the session failed on a message", exc_info=exc)
        rid = message.get("id") if isinstance(message, dict) else None
        if rid is not None:
            await send(_error(_request_id(rid), INTERNAL_ERROR, "Internal error"))


@final
class StdioProcess:
    """A server run as a child process, spoken to over its stdin and stdout: `send` writes one
    message, `receive(timeout)` returns the next one (a `ParseFailure` for a line that is not
    JSON) or raises `TimeoutError`; `PeerError` when the server has exited. A thread reads its
    stdout, so a timeout never leaves a half-read line behind. Its stderr is left to the
    parent's stderr."""

    def __init__(self, argv: Sequence[str], *, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        self._inbox: queue.Queue[object] = queue.Queue()
        self._closed = object()
        self._reader = threading.Thread(target=self._pump, name="mcp-server-stdout", daemon=True)
        self._reader.start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        try:
            for message in read_lines(self.process.stdout):
                self._inbox.put(message)
        finally:
            self._inbox.put(self._closed)

    def send(self, message: dict[str, JSON]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            write_line(stdin, message)
        except (BrokenPipeError, ValueError):  # ValueError: written after close()
            raise PeerError(INTERNAL_ERROR, "the server closed its stdin") from None

    def receive(self, timeout: float | None = None) -> object:
        try:
            found = self._inbox.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message from the server in {timeout} s") from None
        if found is self._closed:
            self._inbox.put(found)  # closed stays closed
            raise PeerError(INTERNAL_ERROR, f"the server exited ({self.process.poll()})")
        return found

    def close(self, timeout: float = 5.0) -> None:
        """Close the server's stdin and wait for it to exit (terminate, then kill, after
        `timeout` seconds each)."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        for stop in (None, self.process.terminate, self.process.kill):
            if stop is not None:
                stop()
            try:
                self.process.wait(timeout=timeout)
                break
            except subprocess.TimeoutExpired:
                continue
        if self.process.stdout is not None:
            self.process.stdout.close()

    def __enter__(self) -> StdioProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
