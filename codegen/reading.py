"""Every input the tool reads (schemas, templates, included files, settings files, git blobs,
standard input) goes through here: one size limit, checked before the whole is read, and
settings JSON parsed so that no text of it can end the run with anything but a located error.

The limit is `--max-input-size` (any command), else `$MCP_CODEGEN_MAX_INPUT_SIZE`, else 32 MiB:
the largest official schema is under 0.2 MB, so it leaves room for generated or merged schemas
while `/dev/zero` or a 1 GiB blob is refused at once instead of filling memory."""

from __future__ import annotations

import json
import os
import re
import stat
from typing import IO, Any

from .errors import Diagnostic, Location, SchemaError

ENV_MAX_INPUT_SIZE = "MCP_CODEGEN_MAX_INPUT_SIZE"
DEFAULT_MAX_INPUT_SIZE = 32 * 1024 * 1024
_UNITS = {"": 1, "k": 1024, "kib": 1024, "m": 1024**2, "mib": 1024**2, "g": 1024**3, "gib": 1024**3}
_SIZE = re.compile(r"^\s*(\d{1,15})\s*([a-z]*)\s*$", re.IGNORECASE)
_CHUNK = 1 << 20

_limit: int | None = None  # set from the command line; None: the environment, else the default


class SizeError(ValueError):
    """A size setting that is no size."""


def parse_size(text: str, source: str) -> int:
    """`33554432`, `32MiB`, `64M`, `1G` (binary units); positive."""
    m = _SIZE.match(text)
    unit = m and _UNITS.get(m[2].lower())
    if m is None or unit is None or int(m[1]) == 0:
        raise SizeError(
            f"{source}: expected a size in bytes, optionally with K, M or G (KiB, MiB, GiB),"
            f" such as 64MiB; not {text!r}"
        )
    return int(m[1]) * unit


def set_max_input_size(value: int | None) -> None:
    """The limit for this process (the command line's `--max-input-size`; None: the default)."""
    global _limit
    _limit = value


def max_input_size() -> int:
    if _limit is not None:
        return _limit
    env = os.environ.get(ENV_MAX_INPUT_SIZE)
    return parse_size(env, f"${ENV_MAX_INPUT_SIZE}") if env else DEFAULT_MAX_INPUT_SIZE


def human(size: int) -> str:
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} bytes"


def size_message(what: str, size: int | None = None) -> str:
    actual = f" ({size} bytes)" if size is not None else ""
    return (
        f"{what} is larger than the input size limit of {human(max_input_size())}{actual}: raise"
        f" it with --max-input-size SIZE or ${ENV_MAX_INPUT_SIZE} if it is meant to be this large"
    )


def too_large(name: str, what: str, size: int | None = None) -> SchemaError:
    return located(name, size_message(what, size))


def located(name: str, message: str, line: int = 1, col: int = 1) -> SchemaError:
    return SchemaError([Diagnostic(Location(name, line, col), message)])


def read_stream(stream: IO[bytes], name: str, what: str) -> bytes:
    """At most the limit from an open stream (a pipe, a device, standard input); more is an
    error, found after reading one byte past the limit, never the whole."""
    limit = max_input_size()
    parts: list[bytes] = []
    got = 0
    while got <= limit:
        chunk = stream.read(min(_CHUNK, limit + 1 - got))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        got += len(chunk)
    raise too_large(name, what)


def read_file(path: str, what: str) -> bytes:
    """The bytes of `path` (a file, or a pipe such as `<(git show ...)`), bounded by the limit:
    a regular file's size is checked before it is read. Errors are located at `path`:1:1."""
    try:
        with open(path, "rb") as f:
            info = os.fstat(f.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise located(path, f"cannot read {what}: it is a directory")
            if stat.S_ISREG(info.st_mode) and info.st_size > max_input_size():
                raise too_large(path, what, info.st_size)
            return read_stream(f, path, what)
    except OSError as err:
        raise located(path, f"cannot read {what}: {err.strerror or err}") from None


def text_of(data: bytes, name: str, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise located(name, f"{what} is not UTF-8 (invalid byte at offset {err.start})",
                      line, col) from None  # fmt: skip


def read_text(path: str, what: str) -> str:
    return text_of(read_file(path, what), path, what)


_LONG_INT = re.compile(r"\d{4000,}")


def load_json(text: str, name: str, what: str) -> Any:
    """JSON of a settings file; every way it can fail (syntax, nesting deeper than the parser
    goes, an integer too long to convert) is a located error naming `what`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise located(
            name, f"cannot read {what}: not JSON: {err.msg}", err.lineno, err.colno
        ) from None
    except RecursionError:
        raise located(name, f"{what} is nested too deep to read") from None
    except ValueError as err:  # an integer past sys.get_int_max_str_digits()
        m = _LONG_INT.search(text)
        at = m.start() if m else 0
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        raise located(name, f"{what} holds a number too long to read ({err})", line, col) from None


def read_json(path: str, what: str) -> tuple[str, Any]:
    """A settings file: its text and its JSON value."""
    text = read_text(path, what)
    return text, load_json(text, path, what)
