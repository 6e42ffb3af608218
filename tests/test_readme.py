"""The README is a newcomer's path, held to what it says: every command of its `sh` blocks runs as
written on a fresh copy of the checkout (one shell, in order, the environment created and the
tool installed for real), with the official schemas served by the local mirror through the
documented settings; the Python snippets of the README and the server and client guides pass
`mypy --strict`; the README's server and client talk to each other; every error text it quotes
is the real one."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
import test_wire_versions as wire
from bindings_support import generate, import_package, mypy_strict
from spec_server import serve
from test_dispatch import call, initialize

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
GUIDES = [REPO / "docs" / "writing-a-server.md", REPO / "docs" / "writing-a-client.md"]
CI_RUN = REPO / ".ci" / "run"
IDENTITY = (
    "-c",
    "user.name=readme",
    "-c",
    "user.email=readme@localhost",
    "-c",
    "commit.gpgsign=false",
)


FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", flags=re.DOTALL | re.MULTILINE)
# What the README's client prints (its comment says so; the run must print it).
CLIENT_PRINTS = ["protocol 2026-07-28", "[{'type': 'text', 'text': 'Hello, Ada!'}]"]


def fenced(text: str) -> list[tuple[str, str, str]]:
    """(heading of its section, language, body) of every fenced block, in order."""
    found = []
    for match in FENCE.finditer(text):
        heads = re.findall(r"^(#+ .*)$", text[: match.start()], flags=re.MULTILINE)
        found.append((heads[-1] if heads else "", match.group(1), match.group(2)))
    return found


def blocks(text: str, lang: str) -> list[tuple[str, str]]:
    return [(heading, body) for heading, kind, body in fenced(text) if kind == lang]


def saved_as(body: str) -> str | None:
    """`PATH` when a Python block starts with `# PATH` (a file the reader is asked to save)."""
    first = body.splitlines()[0]
    found = re.fullmatch(r"# ([\w./-]+\.py)", first)
    return found.group(1) if found else None


def expected_exit(command: str) -> int:
    found = re.search(r"#.*\bexit (\d)\b", command)
    return int(found.group(1)) if found else 0


def script() -> tuple[str, list[str]]:
    """The README as one shell session: each `sh` command (outside the Tests section), each
    saved Python block written where it says, in the README's order."""
    lines, commands = ["set -u"], []
    for heading, kind, body in fenced(README.read_text("utf-8")):
        if heading == "## Tests":  # CI runs these: see test_tests_section_is_what_ci_runs
            continue
        if kind == "python":
            path = saved_as(body)
            if path is not None:
                lines += [f"mkdir -p {os.path.dirname(path) or '.'}",
                          f"cat > {path} <<'README_EOF'", body.rstrip("\n"), "README_EOF"]  # fmt: skip
            continue
        if kind != "sh":
            continue
        for command in body.splitlines():
            if not command.strip() or command.lstrip().startswith("#"):
                continue
            assert not command.rstrip().endswith("\\"), f"one command a line: {command}"
            n = len(commands)
            commands.append(command)
            lines += [f"echo '>>> {n}'; echo '>>> {n}' >&2", command, f'echo "<<< {n} $?"']
    return "\n".join(lines) + "\n", commands


def tracked_copy(dest: Path) -> Path:
    """The checkout's tracked files as they are in the work tree (a fresh clone of this
    state), under git so that what the commands leave can be asked of `.gitignore`."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=False
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    for rel in filter(None, listed.stdout.decode().split("\0")):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    git = ["git", "-C", str(dest), *IDENTITY]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "clone"], check=True)
    return dest


def test_tests_section_is_what_ci_runs() -> None:
    """The README's test command is `.ci/run`'s last line, so CI runs it as written."""
    text = README.read_text("utf-8")
    tests = [body for heading, body in blocks(text, "sh") if heading == "## Tests"]
    assert tests, "the README has a Tests section with its command"
    assert tests[0].strip() == CI_RUN.read_text("utf-8").strip().splitlines()[-1]


@pytest.mark.spec
@pytest.mark.slow
def test_every_readme_command_runs_as_written(spec_root: Path, tmp_path: Path) -> None:
    """Each command exits 0 (or the `exit N` its comment names), the client prints what its
    comment says, and nothing is left that `.gitignore` does not cover (~20 s: the environment
    is created and `pip install .` runs for real)."""
    clone = tracked_copy(tmp_path / "clone")
    text, commands = script()
    assert any(c.startswith("mcp-codegen ") for c in commands)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MCP_SPEC_", "VIRTUAL_ENV", "PYTHON", "MCP_BINDINGS"))
    }
    with serve(spec_root) as mirror:
        env |= {"MCP_SPEC_BASE_URL": mirror.url, "MCP_SPEC_CACHE_DIR": str(tmp_path / "cache")}
        env |= {"PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        run = subprocess.run(
            ["bash", "--noprofile", "--norc", "-c", text],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    out, err = run.stdout, run.stderr
    codes = dict(re.findall(r"^<<< (\d+) (\d+)$", out, flags=re.MULTILINE))
    for n, command in enumerate(commands):
        section = out.split(f">>> {n}\n", 1)[-1].split(f"<<< {n} ", 1)[0]
        errors = err.split(f">>> {n}\n", 1)[-1].split(f">>> {n + 1}\n", 1)[0]
        assert codes.get(str(n)) == str(expected_exit(command)), (
            f"{command!r} exited {codes.get(str(n))}:\n{section[-2000:]}\n{errors[-3000:]}"
        )
        if command.startswith("python out/client.py"):
            for printed in CLIENT_PRINTS:
                assert printed in command and printed in section, (command, section)
    left = subprocess.run(
        ["git", "-C", str(clone), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert left == "", f"the README's commands left files that .gitignore does not cover:\n{left}"


def snippets(page: Path) -> list[str]:
    return [body for _, body in blocks(page.read_text("utf-8"), "python")]


@pytest.mark.spec
@pytest.mark.slow
def test_snippets_pass_mypy_strict(
    spec_root: Path, session_distribution: Callable[[str], Path], tmp_path: Path
) -> None:
    """Every Python snippet of the README and the server and client guides is a complete
    program for `mypy --strict`, against the packages the README generates."""
    dist = session_distribution("mcp_bindings")
    single = tmp_path / "single"
    generate(corpus.resolved("2025-11-25"), single, "mcp_2025_11_25")
    files = []
    for page in [README, *GUIDES]:
        for i, body in enumerate(snippets(page)):
            path = tmp_path / "snippets" / f"{page.stem.replace('-', '_').lower()}_{i}.py"
            path.parent.mkdir(exist_ok=True)
            path.write_text(body, "utf-8")
            files.append(path)
    assert len(files) >= 5
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nmypy_path = {dist}{os.pathsep}{single}\n", "utf-8")
    proc = mypy_strict(files, tmp_path / ".mypy", "--config-file", str(config))
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.spec
@pytest.mark.slow
def test_readme_server_and_client_talk(
    spec_root: Path, session_distribution: Callable[[str], Path], tmp_path: Path
) -> None:
    """The README's client, started as it says, runs the README's server and prints what the
    README says it prints."""
    saved = {
        path: body
        for _, body in blocks(README.read_text("utf-8"), "python")
        if (path := saved_as(body)) is not None
    }
    assert set(saved) == {"out/server.py", "out/client.py"}
    for path, body in saved.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body, "utf-8")
    env = os.environ | {"PYTHONPATH": str(session_distribution("mcp_bindings"))}
    run = subprocess.run(
        [sys.executable, "out/client.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == CLIENT_PRINTS


# -- every error text the README and the guides quote -------------------------------------------


@dataclass
class Real:
    """What a check needs to produce the real text."""

    spec_root: Path
    tmp_path: Path
    dist: Callable[[str], Path]
    caplog: pytest.LogCaptureFixture


def quoted_order_error(real: Real) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "codegen", "2025-11-25", "2025-06-18", "-o", str(real.tmp_path / "o"),
         "--package", "mcp_bindings"],
        capture_output=True, text=True, check=False, cwd=REPO,
        env=os.environ | {"MCP_SPEC_DIR": str(real.spec_root), "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert run.returncode == 2 and not (real.tmp_path / "o").exists()
    return run.stderr


def errors_of(pkg: ModuleType, cls: str, value: dict[str, Any]) -> str:
    with pytest.raises(pkg.ValidationError) as caught:
        getattr(pkg, cls).from_dict(value)
    return "\n".join(f"{e.path}: {e.message}" for e in caught.value.errors)


def quoted_validation_error(real: Real) -> str:
    pkg = generate(corpus.resolved("2025-11-25"), real.tmp_path, "mcp_quoted")
    bad = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 1}}
    return errors_of(pkg, "CallToolRequest", bad)


def quoted_const_error(real: Real) -> str:
    pkg = generate(corpus.resolved("2025-11-25"), real.tmp_path, "mcp_quoted_const")
    return errors_of(pkg, "TextContent", {"type": "image", "text": "x"})


def quoted_error_format(real: Real) -> str:
    """`file:line:col: message`: each line of a bad-input error has that form."""
    lines = quoted_order_error(real).splitlines()
    assert lines and all(re.match(r"^\S+:\d+:\d+: \S", line) for line in lines), lines
    return "file:line:col: message"


def dispatch(real: Real) -> ModuleType:
    """The distribution the wire tests share, with its server imported."""
    root = real.dist(wire.PKG)
    package = import_package(root, wire.PKG)
    import_package(root, f"{wire.PKG}.server")
    return package


def quoted_handler_typo(real: Real) -> str:
    with pytest.raises(TypeError) as caught:
        type("Demo", (dispatch(real).server.ServerHandlers,), {"tool_call": lambda *a: None})
    return str(caught.value)


def quoted_left_out(real: Real, strict: bool = False) -> str:
    session = wire.tools_server(dispatch(real), strict=strict)
    session.handle(initialize("2025-06-18"))
    with real.caplog.at_level(logging.DEBUG):
        [reply] = session.handle(wire.LIST)
    logged = [record.getMessage() for record in real.caplog.records]
    return "\n".join([*logged, reply.get("error", {}).get("message", "")])


def quoted_returned_none(real: Real) -> str:
    pkg = dispatch(real)

    class Demo(pkg.server.ServerHandlers):  # type: ignore[misc,name-defined]
        def tools_call(self, params: Any, ctx: Any) -> Any:
            return None

    session = pkg.server.Session(Demo(), server_info=pkg.app.Implementation(name="d", version="1"))
    session.handle(initialize("2025-11-25"))
    [reply] = session.handle(call(2, "add"))
    return str(reply["error"]["message"])


QUOTED: dict[str, Callable[[Real], str]] = {
    # README
    "versions are given oldest first: 2025-06-18 comes after 2025-11-25": quoted_order_error,
    "$.params.name: expected string, got integer 1": quoted_validation_error,
    "file:line:col: message": quoted_error_format,
    # docs/bindings.md
    '$.type: expected "text"...': quoted_const_error,
    # docs/writing-a-server.md
    "Demo.tool_call answers no method of any protocol version of this distribution: did you mean "
    "tools_call or tools_list?": quoted_handler_typo,
    "protocol version 2025-06-18 has no $.tools[0].icons, $.tools[0].execution: left out": (
        quoted_left_out
    ),
    "protocol version 2025-06-18 cannot express $.tools[0].icons": lambda real: quoted_left_out(
        real, strict=True
    ),
    "tools_call returned None; Result is not a result of 'tools/call' ...": quoted_returned_none,
}
# The pages whose quoted errors are checked; a code span there is taken for an error text when it
# reads like one: a JSON path and a message, a `file:line:col:` line, or words after a colon.
QUOTING = [README, REPO / "docs" / "bindings.md", *GUIDES]
LOOKS_QUOTED = re.compile(r"^(\$\.\S+: |\S+:\S+:\S+: )|^[a-z][\w ]+: \S+ \S+ ")


def code_spans(page: Path) -> set[str]:
    """The inline code of a page (fenced blocks left out), a span over two lines as one."""
    text = re.sub(r"```.*?```", "", page.read_text("utf-8"), flags=re.DOTALL)
    return {" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)}


def test_pages_quote_no_unchecked_error_text() -> None:
    quoted = {span for page in QUOTING for span in code_spans(page) if LOOKS_QUOTED.search(span)}
    assert quoted <= set(QUOTED), "an error text a page quotes has no check in QUOTED"


@pytest.mark.spec
@pytest.mark.slow
@pytest.mark.parametrize("quote", sorted(QUOTED))
def test_quoted_error_text_is_real(
    quote: str,
    spec_root: Path,
    tmp_path: Path,
    session_distribution: Callable[[str], Path],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The text is on a page and is the real one; a quote ending in `...` is the start of it."""
    assert any(quote in " ".join(page.read_text("utf-8").split()) for page in QUOTING)
    real = Real(spec_root, tmp_path, session_distribution, caplog)
    assert quote.removesuffix("...").rstrip() in QUOTED[quote](real)
