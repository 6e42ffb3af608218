"""Nothing a schema, an ignore file or a server says can start a GitHub workflow command in the
log: every write to stdout or stderr goes through codegen/console.py (checked on the source),
and hostile text reaches every diagnostic found so far without making a line of its own."""

from __future__ import annotations

import ast
import contextlib
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from codegen import console
from codegen.cli import main

CODEGEN = Path(__file__).resolve().parent.parent / "codegen"

# Text that would start a workflow command, end a line, or drive a terminal.
HOSTILE = [
    "::stop-commands::x",
    "::add-mask::",
    "\n::error::forged",
    "\r::error::forged",
    "\r\n::warning file=a::forged",
    "\u2028::error::forged",
    "\x85::error::forged",
    "\x0b::error::forged",
    "\x1b[2J\x1b]52;c;eA==\x07",
    "##[error]forged",
    "x ##[add-mask]secret",
    " \t::notice::indented",
    "\u200b::error::hidden",
    ":\ufe0f:error::forged",  # .NET compares culture-sensitively: ignorable code points skipped
    "#\u034f#[error]forged",
    "\U000e0100::error::forged",
]
# default-ignorable code points that are not format characters (a sample)
_SKIPPED = re.compile("[\u034f\u3164\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def runner_lines(text: str) -> list[str]:
    """Lines as the GitHub runner reads a step's output (and, stricter, as Python splits them:
    U+2028, NEL, VT, FF too)."""
    return [part for line in re.split(r"\r\n|\r|\n", text) for part in line.splitlines()]


def commands(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """The lines of `text` the runner would take as workflow commands (`allowed`: prefixes of
    the ones written on purpose), or that carry a terminal escape."""
    out = []
    for line in (_SKIPPED.sub("", x) for x in runner_lines(text)):
        bare = line.lstrip()
        if allowed and line.startswith(allowed):
            continue  # a command of ours: parsed as one, so its `##[` is never tried (runner)
        if bare.startswith("::") or "##[" in line or "\x1b" in line:
            out.append(line)
    return out


# ------------------------------------------------------------------------------- the function


@pytest.mark.parametrize("text", HOSTILE)
def test_escape_line_makes_one_harmless_line(text: str) -> None:
    line = console.escape_line(text)
    assert runner_lines(line) == [line] and not commands(line)
    assert console.escape_line(line) == line  # nothing left to escape


@pytest.mark.parametrize(
    "text",
    ["schema.ts:3:5: warning: @pattern '^\\d+$' → é, 中文, tab\there", "a::b", "http://x:80/"],
)
def test_escape_line_keeps_ordinary_text(text: str) -> None:
    assert console.escape_line(text) == text


def test_documents_pass_unchanged_unless_a_line_is_hostile() -> None:
    doc = "# Title\n\n- `a`: b → c\n  indented\n"
    assert console.guard(doc) == doc
    assert console.guard("ok\n::error::x\nok\n") == "ok\n\\::error::x\nok\n"
    assert console.guard("a\rb\n") == "a\\rb\n"


def test_workflow_commands_pass_only_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    console.workflow_commands(
        "::error file=a,line=1::x\x1by\u2028z\n::warning title=b::ok →\n::add-mask::z\n"
        "::notice::n\nplain ::error::x\n"
    )
    assert capsys.readouterr().out == (
        "::error file=a,line=1::x\\x1by\\u2028z\n::warning title=b::ok →\n\\::add-mask::z\n"
        "::notice::n\nplain ::error::x\n"
    )


# ----------------------------------------------------------------------- the source, parsed

_STREAMS = {"stdout", "stderr", "__stdout__", "__stderr__"}
_STREAM_NAMES = {*_STREAMS, "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"}
_PRINTERS = {"print_exc", "print_exception", "print_stack", "print_tb", "print_last", "pprint"}


def _offences(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        stream = isinstance(node, ast.Attribute) and node.attr in _STREAMS
        if stream and isinstance(node.value, ast.Name) and node.value.id == "sys":
            yield node.lineno, f"sys.{node.attr}"
        if isinstance(node, ast.Name) and node.id in {"print", "pprint"}:
            yield node.lineno, node.id
        if isinstance(node, ast.Attribute) and node.attr in _PRINTERS:
            yield node.lineno, node.attr
        if isinstance(node, ast.ImportFrom) and node.module in {"sys", "logging", "warnings"}:
            yield node.lineno, f"from {node.module} import"
        if isinstance(node, ast.Import) and {a.name for a in node.names} & {"logging", "warnings"}:
            yield node.lineno, "import logging/warnings"
        if isinstance(node, ast.Import) and any(a.name == "sys" and a.asname for a in node.names):
            yield node.lineno, "import sys as ..."
        if isinstance(node, ast.Constant) and node.value in _STREAM_NAMES:
            yield node.lineno, repr(node.value)  # getattr(sys, "stderr"), open("/dev/stderr")
        if isinstance(node, ast.Call):
            yield from _call_offences(node)


def _call_offences(node: ast.Call) -> Iterator[tuple[int, str]]:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    owner = (
        func.value.id
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        else ""
    )
    keywords = {k.arg for k in node.keywords}
    if name == "ArgumentParser" and owner != "console":
        yield node.lineno, "argparse.ArgumentParser (use console.ArgumentParser)"
    if owner == "os" and name in {"write", "fdopen"} and node.args:
        fd = node.args[0]
        if isinstance(fd, ast.Constant) and fd.value in (1, 2):
            yield node.lineno, f"os.{name}({fd.value})"
    spawns = owner == "subprocess" and name in {
        "run",
        "Popen",
        "call",
        "check_call",
        "check_output",
    }
    if spawns and not keywords & {"capture_output", "stderr"}:
        yield node.lineno, f"subprocess.{name} inheriting stderr"


def test_every_write_to_stdout_or_stderr_goes_through_console() -> None:
    found = []
    for path in sorted(CODEGEN.rglob("*.py")):
        if path == CODEGEN / "console.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"{path.relative_to(CODEGEN)}:{n}: {what}" for n, what in _offences(tree)]
    assert found == []


def test_the_source_check_finds_what_it_forbids() -> None:
    bad = (
        "import sys, subprocess, traceback, argparse, os\n"
        "print('x')\nsys.stderr.write('x')\ntraceback.print_exc()\n"
        "argparse.ArgumentParser()\nos.write(2, b'x')\nsubprocess.run(['git'])\n"
        "getattr(sys, 'stderr')\nopen('/dev/tty', 'w')\nimport sys as s\nfrom sys import stdout\n"
        "import warnings\n"
    )
    assert sorted(n for n, _ in _offences(ast.parse(bad))) == list(range(2, 13))


# --------------------------------------------------------------------- diagnostics, end to end


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _ts(text: str) -> str:
    """`text` as the body of a TypeScript string literal."""
    return json.dumps(text)[1:-1]


def _schemas(payload: str) -> dict[str, tuple[str, int]]:
    """Schemas carrying `payload` where a diagnostic quotes it: name -> (text, diagnostics;
    0: at least one)."""
    key = _ts(payload)
    tag = payload.replace("\n", " ").replace("\r", " ").replace("*/", "")
    return {
        "duplicate property": (f'export interface A {{ "{key}": string; "{key}": number }}\n', 1),
        "jsdoc tag (warning)": (
            f"export interface A {{\n  /** @format x{tag} y */\n  a: string;\n}}\n",
            1,
        ),
        "intersection": (
            f'export type T = {{ "{key}": string }} & {{ "{key}": number }};\n'
            + "export interface U { t: T }\n",
            1,
        ),
        "omit key": (
            f'export interface B {{ a: string }}\nexport interface C extends Omit<B, "{key}"> {{}}\n',
            1,
        ),
        "undeclared type": ("export interface A { a: Nope\u200c\u200d }\n", 1),
        "annotation member (warning)": (
            f'export type T = string & {{ readonly "{key}": 1 }};\nexport interface A {{ t: T }}\n',
            1,
        ),
        "syntax error": (f"export interface A {{ a: string }}\n#{payload} x\n", 0),
    }


@pytest.mark.parametrize("payload", HOSTILE)
def test_schema_diagnostics_stay_one_line_each(
    payload: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for what, (text, expected) in _schemas(payload).items():
        path = tmp_path / "schema.ts"
        path.write_text(text, encoding="utf-8")
        code, out, err = _run(capsys, "ir", str(path))
        assert code in (0, 2), (what, err)
        assert commands(out + err) == [], what
        lines = runner_lines(err)
        assert len(lines) == expected or (expected == 0 and lines), (what, err)  # 0: some
        assert all(x.startswith(str(path)) for x in lines), (what, err)


def _ignore_run(tmp_path: Path, entries: list[dict[str, str]]) -> list[str]:
    d = tmp_path
    (d / "old.ts").write_text("export interface A { a: string; b: string }\n", encoding="utf-8")
    (d / "new.ts").write_text("export interface A { a: string }\n", encoding="utf-8")
    (d / "ignore.json").write_text(json.dumps({"ignore": entries}), encoding="utf-8")
    return [str(d / "old.ts"), str(d / "new.ts"), "--ignore", str(d / "ignore.json")]


@pytest.mark.parametrize("payload", HOSTILE)
def test_ignore_file_messages(
    payload: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = [
        {"id": f"f{payload}", "reason": f"r{payload}"},
        {"rule": f"r{payload}", "subject": f"A.{payload}", "reason": "because"},
    ]
    args = _ignore_run(tmp_path, entries)
    for fmt in ("summary", "md", "github", "junit", "json", "html"):
        code, out, err = _run(capsys, "diff", *args, "--format", fmt)
        assert code == 0, err
        allowed = ("::error ", "::warning ", "::notice ") if fmt == "github" else ()
        assert commands(out, allowed) == [] and commands(err) == [], fmt
        assert len(runner_lines(err)) == 3, err  # "ignore file ..." and two stale entries


@pytest.mark.parametrize("payload", HOSTILE)
def test_diff_reports_of_hostile_schemas_start_no_command(
    payload: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, doc = _ts(payload), payload.replace("*/", "")
    (tmp_path / "old.ts").write_text(
        f'export interface A {{ "{name}": string; k: "{name}" }}\n', "utf-8"
    )
    (tmp_path / "new.ts").write_text(
        f'/** {doc} */\nexport interface A {{ b: string; k: "x{name}" }}\n', "utf-8"
    )
    args = [str(tmp_path / "old.ts"), str(tmp_path / "new.ts"), "--no-ignore"]
    for fmt in ("summary", "md", "github", "junit", "json", "html"):
        code, out, err = _run(capsys, "diff", *args, "--format", fmt, "--label-new", payload)
        assert code == 0, err
        allowed = ("::error ", "::warning ", "::notice ") if fmt == "github" else ()
        assert commands(out, allowed) == [] and commands(err) == [], (fmt, out)


def test_github_annotations_escape_as_the_toolkit_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = _ts("p\n::add-mask::x,y%0A")
    (tmp_path / "old.ts").write_text(f'export interface A {{ "{name}": string }}\n', "utf-8")
    (tmp_path / "new.ts").write_text("export interface A { b: string }\n", "utf-8")
    code, out, _ = _run(
        capsys, "diff", str(tmp_path / "old.ts"), str(tmp_path / "new.ts"), "--format", "github"
    )
    assert code == 0
    (line,) = [x for x in runner_lines(out) if "add-mask" in x]
    title, data = line.split("::", 2)[1:]
    assert "title=breaking%3A property-removed-required" in title
    assert "%3A%3Aadd-mask%3A%3Ax%2Cy%250A" in title and "::add-mask::x,y%250A" in data
    # @actions/core's escapeData and escapeProperty
    assert console.escape_data("a%b\r\n:,") == "a%25b%0D%0A:,"
    assert console.escape_property("a%b\r\n:,") == "a%25b%0D%0A%3A%2C"
    assert commands(out, ("::error ", "::warning ", "::notice ")) == []


def test_argument_errors_and_internal_errors_are_escaped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(capsys, "diff", "a", "b", "--format", "\n::error::forged")
    assert code == 2 and commands(out + err) == [] and "\\n::error::forged" in err

    def broken(*_: object) -> None:
        raise RuntimeError("\n::stop-commands::x")

    def warned(*_: object) -> None:
        import warnings

        warnings.warn("\n::add-mask::x", DeprecationWarning, stacklevel=1)
        raise RuntimeError("\n::stop-commands::x")

    monkeypatch.setattr("codegen.cli.spec.resolve_schema_arg", warned)
    code, out, err = _run(capsys, "ir", "2025-11-25")
    assert code == 3 and commands(out + err) == [] and "DeprecationWarning: \n\\::add-mask" in err
    code, out, err = _run(capsys)  # no arguments: the help, on stderr
    assert code == 2 and out == "" and "usage: mcp-codegen" in err
    monkeypatch.setattr("codegen.cli.spec.resolve_schema_arg", broken)
    code, out, err = _run(capsys, "ir", "2025-11-25")
    assert code == 3 and commands(out + err) == [], err
    assert "\n\\::stop-commands::x\n" in err  # a traceback: each line escaped


@contextlib.contextmanager
def _mirror(reason: str) -> Iterator[str]:
    """A server answering every request with 404 and `reason` as the reason phrase."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(404, reason)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# a reason phrase is Latin-1 up to the end of the status line: no \n in it, but a lone \r
@pytest.mark.parametrize("payload", [p for p in HOSTILE if "\n" not in p and max(p) < "\u0100"])
def test_fetch_errors_quote_the_reason_phrase_harmlessly(
    payload: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MCP_SPEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MCP_SPEC_DIR", raising=False)
    with _mirror("Not Found" + payload) as url:
        code, out, err = _run(capsys, "fetch", "2025-06-18", "--base-url", url)
    assert code == 2 and "HTTP 404 Not Found" in err
    assert commands(out + err) == [] and len(runner_lines(err)) == 1, err
