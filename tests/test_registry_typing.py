"""The method registry as types (issue #24): on a distribution of 2025-06-18, 2025-11-25 and
2026-07-28, `mypy --strict` reports a wrong result class for a method, a method-name typo, an
attribute typo on a decoded message and a handler override with the wrong types (each seeded
mistake of tests/typing/registry_mistakes.py at its line, nothing else), and finds nothing in
tests/typing/registry_client.py; at run time a wrong result for a method raises `ProtocolError`
naming both, and a dynamic method string goes through `lookup_method`."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from bindings_support import import_package, tool
from conftest import SESSION_VERSIONS

pytestmark = pytest.mark.spec
VERSIONS = SESSION_VERSIONS
PKG = "mcp_bindings"  # the name the typing snippets import
TYPING = Path(__file__).resolve().parent / "typing"
_EXPECT = re.compile(r"#\s*expect:\s*([a-z][a-z-]*)$")


@pytest.fixture(scope="module")
def root(session_distribution: Callable[[str], Path]) -> Path:
    return session_distribution(PKG)


@pytest.fixture(scope="module")
def pkg(root: Path) -> ModuleType:
    package = import_package(root, PKG)
    import_package(root, f"{PKG}.app")  # a subpackage, imported on first use
    return package


def _mypy(root: Path, files: list[Path], cache: Path) -> dict[tuple[str, int], set[str]]:
    """(file name, line) -> the error codes `mypy --strict` reports there."""
    cmd = [tool("mypy"), "--strict", "--no-color-output", "--show-error-codes",
           f"--cache-dir={cache}", *map(str, files)]  # fmt: skip
    env = {**os.environ, "MYPYPATH": str(root)}
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env,
                          cwd=files[0].parent)  # fmt: skip
    found: dict[tuple[str, int], set[str]] = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"([\w.]+):(\d+): error: .*\[([\w-]+)\]$", line)
        if m:
            found.setdefault((m.group(1), int(m.group(2))), set()).add(m.group(3))
    assert found or proc.returncode == 0, proc.stdout + proc.stderr
    return found


def test_mypy_reports_each_seeded_mistake(root: Path, tmp_path: Path) -> None:
    client, mistakes = TYPING / "registry_client.py", TYPING / "registry_mistakes.py"
    found = _mypy(root, [client, mistakes], tmp_path / ".mypy")
    lines = mistakes.read_text(encoding="utf-8").splitlines()
    expected = {n: m.group(1) for n, line in enumerate(lines, 1) if (m := _EXPECT.search(line))}
    report = "\n".join(f"{f}:{n}: {sorted(c)}" for (f, n), c in sorted(found.items()))
    assert not [k for k in found if k[0] == client.name], report  # the typed uses are clean
    for line, code in expected.items():
        assert code in found.get((mistakes.name, line), set()), (line, code, report)
    assert {n for f, n in found} == set(expected), report  # nothing else is reported


def test_result_for_the_wrong_method_is_refused(pkg: ModuleType) -> None:
    from mcp_bindings.v2025_11_25 import models as m
    from mcp_bindings.v2025_11_25 import registry as r

    with pytest.raises(r.ProtocolError) as err:
        r.result(1, m.ListToolsResult(tools=[]), method="tools/call")  # type: ignore[call-overload]
    assert str(err.value) == ('ListToolsResult is not a result of "tools/call" in protocol '
                              "version 2025-11-25 (expected CallToolResult or CreateTaskResult)")  # fmt: skip
    assert err.value.method == "tools/call" and err.value.errors[0].path == "$.result"
    ok = r.result(1, m.CallToolResult(content=[]), method="tools/call")
    assert ok == {"jsonrpc": "2.0", "id": 1, "result": {"content": []}}
    assert r.result(2, m.Result(), method="ping")["result"] == {}
    with pytest.raises(r.ProtocolError, match="is a notification"):
        r.result(3, m.Result(), method="notifications/initialized")  # type: ignore[call-overload]
    with pytest.raises(r.UnknownMethodError, match='unknown method "tools/lsit"'):
        r.result(3, m.Result(), method="tools/lsit")  # type: ignore[call-overload]


def test_app_serialize_checks_the_method(pkg: ModuleType) -> None:
    app = pkg.app
    wrong = app.ListToolsResult(tools=[])
    with pytest.raises(pkg.ProtocolError) as err:
        app.serialize(wrong, version="2025-06-18", method="tools/call")
    assert str(err.value) == ("ListToolsResult is not a result of 'tools/call' in 2025-06-18 "
                              "(expected CallToolResult)")  # fmt: skip
    assert err.value.method == "tools/call" and err.value.protocol_version == "2025-06-18"
    # an alternative is a result only where the version has it
    task = app.CreateTaskResult(task=app.Task(task_id="t", status="working", created_at="",
                                              last_updated_at="", ttl=None))  # fmt: skip
    assert "task" in app.serialize(task, version="2025-11-25", method="tools/call")
    with pytest.raises(pkg.ProtocolError, match="CreateTaskResult is not a result of"):
        app.serialize(task, version="2025-06-18", method="tools/call")
    with pytest.raises(pkg.ProtocolError, match="not defined in protocol version 2025-06-18"):
        app.serialize(app.Result(), version="2025-06-18", method="server/discover")
    with pytest.raises(pkg.ProtocolError, match="is a notification"):
        app.serialize(app.Result(), version="2025-06-18", method="notifications/initialized")
    with pytest.raises(pkg.UnknownMethodError):
        app.serialize(app.Result(), version="2025-06-18", method="tools/lsit")
    assert app.serialize(app.CallToolResult(content=[]), version="2025-06-18",
                         method="tools/call") == {"content": []}  # fmt: skip


def test_dynamic_method_strings_are_looked_up(pkg: ModuleType) -> None:
    from mcp_bindings.v2025_11_25 import registry as r

    assert r.lookup_method("tools/call") == "tools/call"
    with pytest.raises(r.UnknownMethodError) as err:
        r.lookup_method("tools/lsit")
    assert err.value.method == "tools/lsit" and err.value.protocol_version == "2025-11-25"
    with pytest.raises(r.UnknownMethodError):
        r.lookup_method("server/discover")  # a method of 2026-07-28 only
    assert pkg.app.lookup_method("server/discover") == "server/discover"
    with pytest.raises(pkg.UnknownMethodError):
        pkg.app.lookup_method("tools/lsit")


def test_messages_are_generic_at_run_time(pkg: ModuleType) -> None:
    """`Message[...]` is usable where annotations are evaluated (and builds a message)."""
    from mcp_bindings.v2025_11_25 import models as m
    from mcp_bindings.v2025_11_25 import registry as r

    value = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add"}}
    msg = r.parse_message(value)
    assert isinstance(msg.obj, m.CallToolRequest)
    typed = r.Message[r.MessageObject](msg.kind, msg.method, msg.id, msg.obj)
    assert typed == msg and r.encode(typed) == value
    app_msg = pkg.app.parse_message(value, version="2025-06-18")
    match app_msg.obj:
        case pkg.app.CallToolRequest(params=params):
            assert params.name == "add"
        case _:
            pytest.fail(f"not narrowed: {app_msg.obj!r}")
