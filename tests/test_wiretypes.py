"""Wire and application types that say what the wire carries, on a distribution of the official
2025-06-18, 2025-11-25 and 2026-07-28 schemas: TS `number` is `int | float` (an error code is
the int it is), one response class family across versions, PEP 702 deprecation markers that
mypy reports, and opt-in tolerant reading of union members and literals a version does not know.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import generate_text, import_package, tool
from conftest import SESSION_VERSIONS

pytestmark = pytest.mark.spec
VERSIONS = SESSION_VERSIONS
PKG = "mcp_wiretypes"
ERROR = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no such method"}}
RESULT = {"jsonrpc": "2.0", "id": 1, "result": {}}
RESULTS = {v: RESULT for v in VERSIONS} | {
    "2026-07-28": {**RESULT, "result": {"resultType": "complete"}}
}


@pytest.fixture(scope="module")
def root(session_distribution: Callable[[str], Path]) -> Path:
    return session_distribution(PKG)


@pytest.fixture(scope="module")
def pkg(root: Path) -> ModuleType:
    package = import_package(root, PKG)
    import_package(root, f"{PKG}.app")
    return package


def _mypy(root: Path, tmp_path: Path, text: str, *options: str) -> list[str]:
    """mypy --strict's error lines for `text` (a module importing the distribution), with the
    distribution's modules checked too (their errors would be listed)."""
    user = tmp_path / "user.py"
    user.write_text(textwrap.dedent(text.format(pkg=PKG)), encoding="utf-8")
    pkg = [root / PKG / m for m in ("__init__.py", "server.py", "client.py")]
    cmd = [tool("mypy"), "--strict", "--no-color-output", f"--cache-dir={tmp_path / '.mypy'}",
           *options, str(user), *map(str, pkg)]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=tmp_path)
    return [line for line in proc.stdout.splitlines() if ": error:" in line]


# -- numbers ----------------------------------------------------------------------------------


def test_numbers_keep_ints_accept_floats_and_refuse_bools(pkg: ModuleType) -> None:
    app = pkg.app
    for version in VERSIONS:
        msg = app.parse_message(ERROR, version=version, direction="server_to_client")
        assert type(msg.obj.error.code) is int and msg.obj.error.code == -32601
        as_float = {**ERROR, "error": {"code": -32601.0, "message": "x"}}
        msg = app.parse_message(as_float, version=version, direction="server_to_client")
        assert type(msg.obj.error.code) is float  # TS says number: a float is one too
        with pytest.raises(pkg.ValidationError, match="code"):
            as_bool = {**ERROR, "error": {"code": True, "message": "x"}}
            app.parse_message(as_bool, version=version, direction="server_to_client")


NUMBERS = """
from typing_extensions import assert_type

from {pkg} import app
from {pkg}.v2025_06_18 import models as old


def codes(error: app.Error, wire: old.Error, p: app.ProgressNotificationParams) -> None:
    assert_type(error.code, int | float)
    assert_type(wire.code, int | float)
    assert_type(p.progress, int | float)
"""


def test_ts_number_is_int_or_float_for_mypy(root: Path, tmp_path: Path) -> None:
    """`app.Error.code` is typed `int | float` (was `float`, which hid that it is an int), in
    the application and the wire bindings alike."""
    errors = _mypy(root, tmp_path, NUMBERS)
    assert errors == [], errors


# -- one response class family ------------------------------------------------------------------


def test_responses_decode_to_one_class_family(pkg: ModuleType) -> None:
    """An error is `app.JSONRPCErrorResponse` and a result `app.JSONRPCResultResponse` in every
    version (2025-06-18 calls them JSONRPCError and JSONRPCResponse), and they go back to each
    version's own classes."""
    app = pkg.app
    assert not hasattr(app, "JSONRPCError") and not hasattr(app, "JSONRPCResponseObject")
    for version in VERSIONS:
        error = app.parse_message(ERROR, version=version, direction="server_to_client").obj
        result = app.parse_message(
            RESULTS[version], version=version, direction="server_to_client"
        ).obj
        assert type(error) is app.JSONRPCErrorResponse, (version, type(error))
        assert type(result) is app.JSONRPCResultResponse, (version, type(result))
        assert app.to_wire(error, version).to_dict() == ERROR
        assert app.to_wire(result, version).to_dict() == RESULTS[version]
    wire = app.to_wire(
        app.parse_message(ERROR, version=VERSIONS[-1], direction="server_to_client").obj,
        "2025-06-18",
    )
    assert type(wire).__name__ == "JSONRPCError"


# -- deprecation markers ------------------------------------------------------------------------

DEPRECATED = """
# pyright: reportDeprecated=true
from {pkg} import app
from {pkg}.v2026_07_28 import models as n

n.ListRootsRequest()
app.ListRootsRequest()
n.ClientCapabilities(roots={{}})
n.ClientCapabilities(experimental={{}})
app.Root(uri="file:///")
n.Tool(name="t", input_schema={{}})
"""


def test_mypy_reports_deprecated_classes_and_fields(root: Path, tmp_path: Path) -> None:
    """With `--enable-error-code deprecated`, mypy reports a deprecated class at use and a
    deprecated field set through `__init__` (its deprecated overload) of a version's wire types,
    and nothing else: the generated modules keep their own uses quiet, and the application
    types are deprecated only where every version having them deprecates them (ListRootsRequest,
    Root and ClientCapabilities.roots are not in 2025-06-18 and 2025-11-25)."""
    errors = _mypy(root, tmp_path, DEPRECATED, "--enable-error-code", "deprecated")
    lines = {int(e.split(":")[1]) for e in errors}
    assert lines == {6, 8}, errors
    assert all("[deprecated]" in e for e in errors), errors
    assert "ListRootsRequest is deprecated: Deprecated as of protocol version" in errors[0]
    assert "roots, sampling: Deprecated as of" in errors[1], errors[1]
    # pyright (reportDeprecated) reports the same uses
    cmd = [tool("pyright"), "--outputjson", "--pythonpath", sys.executable, "user.py"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(root)})  # fmt: skip
    report = json.loads(proc.stdout)
    found = {d["range"]["start"]["line"] + 1 for d in report["generalDiagnostics"]
             if d.get("rule") == "reportDeprecated"}  # fmt: skip
    assert found == {6, 8}, proc.stdout[-3000:]


def test_deprecation_at_run_time(pkg: ModuleType) -> None:
    """The classes carry PEP 702's `__deprecated__` (Python 3.13's `warnings.deprecated`, a
    marker before); a deprecated field set warns at the caller's line; decoding never warns."""
    n, app = pkg.versions.bindings("2026-07-28").models, pkg.app
    assert n.ListRootsRequest.__deprecated__.startswith("Deprecated as of protocol version")
    assert not hasattr(n.Tool, "__deprecated__")
    with pytest.warns(DeprecationWarning, match=r"ClientCapabilities\.roots is deprecated") as rec:
        n.ClientCapabilities(roots={})
    assert rec[0].filename == __file__
    assert not hasattr(app.ListRootsRequest, "__deprecated__")  # not in 2025-06-18, 2025-11-25
    assert "Deprecated in 2026-07-28 only" in (app.ListRootsRequest.__doc__ or "")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        app.ClientCapabilities(roots={})  # answering an older version's request: not flagged
        app.ClientCapabilities(experimental={})
        caps = n.ClientCapabilities.from_dict({"roots": {}, "sampling": {}})
        assert app.to_wire(app.to_app(caps), "2025-11-25").to_dict() == caps.to_dict()


# -- tolerant reading ---------------------------------------------------------------------------


def _example(type_name: str) -> Any:
    found = [e for e in corpus.examples("2026-07-28") if e.type_name == type_name]
    assert found, type_name
    return found[0].instance


def _registry(pkg: ModuleType, version: str) -> Any:
    return importlib.import_module(f"{pkg.versions.bindings(version).__name__}.registry")


def _sampling_answer() -> dict[str, Any]:
    """A server's sampling/createMessage request whose message carries a 2025-11-25 block (the
    official ToolUseContent example), sent in a 2025-06-18 session."""
    message = {"role": "assistant", "content": _example("ToolUseContent")}
    params = {"messages": [message], "maxTokens": 100}
    return {"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage", "params": params}


def test_strict_stays_the_default(pkg: ModuleType) -> None:
    wire = _registry(pkg, "2025-06-18")
    with pytest.raises(pkg.ValidationError, match=r"content\.type: expected TextContent \|"):
        wire.parse_message(_sampling_answer(), direction="server_to_client")
    with pytest.raises(pkg.ValidationError):
        pkg.app.parse_message(_sampling_answer(), version="2025-06-18")


def test_a_newer_content_block_is_kept_as_unknown(pkg: ModuleType) -> None:
    """In the version's types the block is an `UnknownMember` holding its JSON (written back as
    it came); the application types know it (2025-11-25 has it): there it is their class."""
    wire = _registry(pkg, "2025-06-18")
    message = _sampling_answer()
    with pytest.warns(pkg.UnknownValueWarning, match=r"\$\.params\.messages\[0\]\.content"):
        msg = wire.parse_message(message, direction="server_to_client", tolerant=True)
    block = msg.obj.params.messages[0].content
    assert isinstance(block, pkg.Unknown) and isinstance(block, pkg.UnknownMember)
    assert block.value == _example("ToolUseContent")
    assert wire.encode(msg, validate=False) == message
    with pytest.warns(pkg.UnknownValueWarning):
        app_msg = pkg.app.parse_message(message, version="2025-06-18", tolerant=True)
    content = app_msg.obj.params.messages[0].content
    assert type(content) is pkg.app.ToolUseContent and content.name == "get_weather"


def test_unknown_members_and_enum_values_nobody_knows(pkg: ModuleType) -> None:
    """A block no version declares stays an `UnknownMember` in the application types too (and
    converting it to a version is refused: none can express it); a new enum value is an
    `UnknownLiteral`, the `str` it is."""
    result = {"content": [{"type": "text", "text": "a"}, {"type": "video", "uri": "v.mp4"}]}
    with pytest.warns(pkg.UnknownValueWarning, match=r"\$\.content\[1\]"):
        got = pkg.app.parse_result("tools/call", result, version="2025-11-25", tolerant=True)
    assert type(got.content[0]) is pkg.app.TextContent
    assert got.content[1] == pkg.UnknownMember(result["content"][1], "ContentBlock")
    with pytest.raises(pkg.app.ConversionError, match=r"cannot express \$\.content\[1\]\.type"):
        pkg.app.to_wire(got, "2025-11-25")  # what the version does not know is not sent to it
    log = {"jsonrpc": "2.0", "method": "notifications/message",
           "params": {"level": "trace", "data": "x"}}  # fmt: skip
    for version in VERSIONS[:2]:
        with pytest.warns(pkg.UnknownValueWarning, match=r"\$\.params\.level"):
            msg = pkg.app.parse_message(log, version=version, tolerant=True)
        level = msg.obj.params.level
        assert isinstance(level, pkg.UnknownLiteral) and level == "trace"
        assert level.expected.startswith("LoggingLevel")


def test_other_errors_still_reject_a_tolerant_read(pkg: ModuleType) -> None:
    """Only values the version does not know are kept: a wrong type, a missing member, or a
    constant with another value still raise, and so does a message with both."""
    wire = _registry(pkg, "2025-06-18")
    bad = _sampling_answer()
    del bad["params"]["maxTokens"]
    with pytest.raises(pkg.ValidationError, match="maxTokens"):
        wire.parse_message(bad, tolerant=True)
    wrong = {"jsonrpc": "2.0", "method": "notifications/message",
             "params": {"level": 3, "data": "x"}}  # fmt: skip
    with pytest.raises(pkg.ValidationError, match="level"):
        wire.parse_message(wrong, tolerant=True)
    with pytest.raises(pkg.ValidationError, match="jsonrpc"):
        wire.parse_message({**_sampling_answer(), "jsonrpc": "3.0"}, tolerant=True)


HOLDER = """
/**
 * A thing.
 *
 * @deprecated use b
 */
export interface a {
  x?: string;
}

export interface Holder {
  /** @deprecated gone since 2 */
  a?: a;
  b?: string;
}
"""


def test_deprecated_field_where_dataclass_writes_init(tmp_path: Path) -> None:
    """A class whose `__init__` is `@dataclass`'s (field `a` is named like its type `a`) still
    warns when the deprecated field is set (from `__post_init__`), at the caller's line."""
    pkg = generate_text(HOLDER, tmp_path, "holder_deprecations")
    assert pkg.a.__deprecated__ == "use b"
    with pytest.warns(DeprecationWarning, match="Holder.a is deprecated: gone since 2") as rec:
        pkg.Holder(a=pkg.a())
    assert rec[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pkg.Holder(b="x")
        pkg.Holder.from_dict({"a": {}})
