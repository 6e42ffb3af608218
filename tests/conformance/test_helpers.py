"""Binding helpers the examples needed: a request's `_meta` and progress token read the same way
in every version (2025-06-18 keeps `_meta` in `params.extra`, 2025-11-25 in `meta`), and a
request message built the same way whether the version's request classes carry an `id` or not.
Run in a subprocess: the e2e tests import another `mcp_bindings` in this interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.spec

CHECK = """
import mcp_bindings as mcp

def params(version, **given):
    msg = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", **given}}
    return mcp.parse_message(msg, version=version).obj.params

for version in ("2025-03-26", "2025-06-18", "2025-11-25"):
    meta = {"progressToken": "p-1", "other": [1]}
    assert mcp.progress_token(params(version, _meta=meta)) == "p-1", version
    assert mcp.request_meta(params(version, _meta=meta)) == meta, version
    assert mcp.progress_token(params(version)) is None, version
    assert mcp.request_meta(params(version)) == {}, version
    assert mcp.progress_token(params(version, _meta={"progressToken": 7})) == 7, version
assert mcp.progress_token(None) is None

for version in ("2025-03-26", "2025-06-18", "2025-11-25"):
    m = mcp.bindings(version)
    ping = {"jsonrpc": "2.0", "id": 3, "method": "ping"}
    assert mcp.request_message("ping", id=3, version=version) == ping, version
    call = mcp.request_message("tools/call", m.CallToolRequestParams(name="t"), id="c", version=version)
    assert call == {"jsonrpc": "2.0", "id": "c", "method": "tools/call", "params": {"name": "t"}}
    try:
        mcp.request_message("notifications/initialized", id=1, version=version)
    except mcp.ProtocolError as err:
        assert "not a request" in str(err)
    else:
        raise AssertionError("a notification is not a request")
"""


def test_request_meta_progress_token_and_request_message(example_bindings: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(example_bindings)}
    proc = subprocess.run(
        [sys.executable, "-c", CHECK], env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
