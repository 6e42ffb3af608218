"""Wire and application types that say what the wire carries, on a distribution of the official
2025-06-18, 2025-11-25 and 2026-07-28 schemas: TS `number` is `int | float` (an error code is
the int it is), one response class family across versions, PEP 702 deprecation markers that
mypy reports, and opt-in tolerant reading of union members and literals a version does not know.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import ModuleType

import corpus
import pytest
from bindings_support import import_package, mypy_strict

from codegen.distribution import render_distribution
from codegen.write import write_tree

pytestmark = pytest.mark.spec
VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
PKG = "mcp_wiretypes"
ERROR = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no such method"}}
RESULT = {"jsonrpc": "2.0", "id": 1, "result": {}}
RESULTS = {v: RESULT for v in VERSIONS} | {
    "2026-07-28": {**RESULT, "result": {"resultType": "complete"}}
}


@pytest.fixture(scope="module")
def root(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wiretypes")
    write_tree(out, render_distribution([corpus.resolved(v) for v in VERSIONS], PKG))
    return out


@pytest.fixture(scope="module")
def pkg(root: Path) -> ModuleType:
    package = import_package(root, PKG)
    import_package(root, f"{PKG}.app")
    return package


def _mypy(root: Path, tmp_path: Path, text: str) -> list[str]:
    """mypy --strict's error lines for `text` (a module importing the distribution)."""
    user = tmp_path / "user.py"
    user.write_text(textwrap.dedent(text.format(pkg=PKG)), encoding="utf-8")
    proc = mypy_strict([user, root / PKG / "__init__.py"], tmp_path / ".mypy")
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


def codes(error: app.Error, wire: old.JSONRPCErrorError, p: app.ProgressNotificationParams) -> None:
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
