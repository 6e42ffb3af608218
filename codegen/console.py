"""Everything mcp-codegen prints goes through this module, so that nothing read from a schema, a
checkout, a settings file or a server can start a GitHub workflow command in a CI log.

The GitHub runner reads a step's stdout and stderr line by line (a line ends at `\\n`, `\\r` or
`\\r\\n`) and takes a line as a command when, leading whitespace trimmed, it starts with `::`
(`::error::`, `::add-mask::`, `::stop-commands::` ...), or when it holds `##[` anywhere (the
older syntax, `##[error]...`, still accepted: actions/runner, ActionCommandManager). Terminals
read escape sequences (ESC) too. The API:

- `escape_line(text) -> str`: `text` as one harmless line. Control characters (C0, DEL, C1),
  line and paragraph separators, format characters (bidi overrides, zero-width spaces) and
  lone surrogates are written as Python escapes (`\\n`, `\\r`, `\\t` stays a tab, `\\x1b`,
  `\\u2028`); `##[` becomes `##\\[`; a line that would still start with `::` after leading
  whitespace gets a `\\` in front (both also when written with variation selectors or other
  ignorable code points between, which are then escaped too). Text without any of those comes
  back unchanged. Backslashes are not doubled (a `@pattern` stays readable), so the escaping
  is for the eye, not reversible.
- `warn(text)`: one diagnostic line to stderr (escaped); `say(text)`: one line to stdout.
- `warn_lines(text)`: several lines to stderr, each escaped (a traceback, a tool's output).
- `document(text)`: a command's output (Markdown, JSON, a table) to stdout: lines that are
  already harmless are written as they are (so an ordinary output is byte for byte what `-o`
  writes), any other line is written through `escape_line`.
- `workflow_commands(text)`: `--format github` output, the one place that writes commands on
  purpose: each line must be an annotation (`::error`, `::warning`, `::notice`) built with `escape_data` and
  `escape_property`, GitHub's own escaping (@actions/core, `command.ts`), with the controls,
  separators and format characters those leave raw shown as escapes; any other line is
  escaped as above.
- `ArgumentParser`: argparse's parser with its usage, help and error messages written through
  `escape_line` (an argument's value is echoed in its error).
- `flush()`: flush both streams (before a fork, before ending the process).
- `routed_warnings()`: a context in which Python's own warnings are printed by `warn_lines`.

`tests/test_console.py` parses every module of codegen/ and fails on any other write to stdout
or stderr (a `print`, `sys.stdout`, `traceback.print_exc`, a subprocess that inherits stderr,
a parser that is not this one), so a new command inherits the guarantee.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import unicodedata
import warnings
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

# Anything but printable ASCII and tab is looked at; `_escaped` keeps what is not a control,
# format, separator or surrogate code point (letters, symbols, spaces of other scripts).
_SUSPECT = re.compile("[^\t\x20-\x7e]")
_NAMED = {"\n": "\\n", "\r": "\\r"}
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _escaped(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    if ch == "\t" or unicodedata.category(ch) not in _HIDDEN:
        return ch
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


# Unicode's default-ignorable code points that are not format characters (variation selectors,
# fillers): the runner compares `::` and `##[` culture-sensitively (.NET StartsWith, IndexOf),
# which skips them, so `:\ufe0f:` may read as `::`. Kept in ordinary text (an emoji's VS16).
_IGNORABLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8"
    "\U000e0000-\U000e0fff]"
)


def _code(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def escape_line(text: str) -> str:
    """`text` as one line that no CI runner or terminal takes as a command (module docstring)."""
    line = _SUSPECT.sub(_escaped, text)
    skeleton = _IGNORABLE.sub("", line)  # what a culture-sensitive comparison sees
    command = skeleton.lstrip().startswith("::")
    if command or "##[" in skeleton:
        line = _IGNORABLE.sub(_code, line).replace("##[", "##\\[")
    return "\\" + line if command else line


def _harmless(line: str) -> bool:
    return escape_line(line) == line


def _write(stream: IO[str], text: str) -> None:
    stream.write(text)


def say(text: str) -> None:
    """One line to stdout."""
    _write(sys.stdout, escape_line(text) + "\n")


def warn(text: str) -> None:
    """One diagnostic line to stderr."""
    _write(sys.stderr, escape_line(text) + "\n")


def warn_lines(text: str) -> None:
    """Several lines to stderr (a traceback, a formatter's output), each escaped."""
    _write(sys.stderr, "".join(escape_line(line) + "\n" for line in text.splitlines()))


def document(text: str) -> None:
    """A command's output to stdout: harmless lines as they are, any other escaped."""
    _write(sys.stdout, guard(text))


def guard(text: str) -> str:
    """`text` with every line that is not harmless replaced by its `escape_line` (lines end at
    `\\n`; a final newline is kept)."""
    lines = text.split("\n")
    if all(_harmless(line) for line in lines):
        return text
    return "\n".join(line if _harmless(line) else escape_line(line) for line in lines)


_COMMAND = re.compile(r"::(error|warning|notice)( [^\r\n:]*)?::[^\r\n]*")  # annotations only


def workflow_commands(text: str) -> None:
    """`--format github` output to stdout: lines that are workflow commands built with
    `escape_data`/`escape_property` pass (what those leave raw and a log viewer or terminal
    would act on, ESC or U+2028, shown as escapes); any other line is escaped."""
    lines = text.split("\n")
    out = [
        _SUSPECT.sub(_escaped, line) if _COMMAND.fullmatch(line) else guard(line) for line in lines
    ]
    _write(sys.stdout, "\n".join(out))


def escape_data(value: str) -> str:
    """A workflow command's message, as @actions/core's `escapeData` writes it."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A workflow command's property value, as @actions/core's `escapeProperty` writes it."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def flush() -> None:
    """Flush stdout and stderr (raises what a closed pipe raises)."""
    sys.stdout.flush()
    sys.stderr.flush()


@contextlib.contextmanager
def routed_warnings() -> Iterator[None]:
    """Python's own warnings (a library's DeprecationWarning, which may quote a line) printed
    through `warn_lines` while the block runs."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: IO[str] | None = None,
        line: str | None = None,
    ) -> None:
        warn_lines(warnings.formatwarning(message, category, filename, lineno, line))

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, writing its usage, help and errors line by line through
    `escape_line` (help text is ours, but an error echoes the user's argument)."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            stream = file if file is not None else sys.stdout
            stream.write("".join(escape_line(line) + "\n" for line in message.splitlines()))

    def print_help_to_stderr(self) -> None:
        self._print_message(self.format_help(), sys.stderr)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._print_message(message, sys.stderr)
        sys.exit(status)
