"""One piece of work in a forked child while the caller goes on: the package's two largest modules
render at the same time on a machine with two cores or more.

`start(fn)` forks (Linux only: fork is the cheap way to hand the child the loaded schema, and
macOS and Windows do not fork safely or at all), runs `fn()` in the child and sends back its
pickled result, or its exception; `Pending.result()` waits for it. Where forking is not
available, or `MCP_CODEGEN_JOBS=1` is set, or only one CPU is usable, `fn()` simply runs at once.
The result is the same either way: the child computes exactly what the caller would have.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable
from typing import Generic, TypeVar

from . import console

T = TypeVar("T")


def parallel() -> bool:
    """Whether `start` forks: Linux, two usable CPUs or more, and MCP_CODEGEN_JOBS not 1."""
    if os.environ.get("MCP_CODEGEN_JOBS", "").strip() == "1":
        return False
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    return len(os.sched_getaffinity(0)) > 1


class Pending(Generic[T]):
    """The result of a piece of work started by `start`."""

    def __init__(self, pid: int | None, fd: int | None, value: T | None = None) -> None:
        self._pid, self._fd, self._value = pid, fd, value

    def result(self) -> T:
        """The work's return value; its exception is raised here."""
        if self._fd is None or self._pid is None:
            return self._value  # type: ignore[return-value]  # ran at once, or already received
        chunks = []
        with os.fdopen(self._fd, "rb") as pipe:
            while chunk := pipe.read(1 << 20):
                chunks.append(chunk)
        _, status = os.waitpid(self._pid, 0)
        self._fd = self._pid = None
        if not chunks:
            raise RuntimeError(f"the rendering process ended without a result (status {status})")
        ok, payload = pickle.loads(b"".join(chunks))
        if ok:
            self._value = payload
            return payload  # type: ignore[no-any-return]
        if isinstance(payload, BaseException):
            raise payload
        raise RuntimeError(f"in the rendering process:\n{payload}")

    def discard(self) -> None:
        """Wait for the child and drop its result (the caller failed: no zombie, no open pipe)."""
        if self._fd is not None and self._pid is not None:
            with os.fdopen(self._fd, "rb") as pipe:
                while pipe.read(1 << 20):
                    pass
            os.waitpid(self._pid, 0)
            self._fd = self._pid = None


def start(fn: Callable[[], T]) -> Pending[T]:
    """`fn()` in a forked child (see the module doc), else at once."""
    if not parallel():
        return Pending(None, None, fn())
    read, write = os.pipe()
    console.flush()
    pid = os.fork()
    if pid:
        os.close(write)
        return Pending(pid, read)
    try:  # the child: never returns to the caller's code
        os.close(read)
        try:
            data = pickle.dumps((True, fn()))
        except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
            try:
                data = pickle.dumps((False, exc))
            except Exception:  # noqa: BLE001 - an exception that does not pickle: its traceback
                import traceback

                data = pickle.dumps((False, traceback.format_exc()))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
    finally:
        os._exit(0)
