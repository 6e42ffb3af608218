"""What `server.py` and `client.py` import is what their hints mention, known as the hints are
spelled (`pytext.Code`), not words found in the hint text: a handler whose params hint names
builtins and a generator's name (`Sequence[str]`) imports `Sequence` from collections.abc and
nothing else for it (a text scan took `str` for an application class: `from .app import str`).
"""

from __future__ import annotations

import ast
import builtins
import collections.abc
import typing
from pathlib import Path

import pytest
from bindings_support import import_package

from codegen.pipeline import load_text
from codegen.targets.python.distribution import render_distribution
from codegen.write import write_tree

pytestmark = [pytest.mark.spec, pytest.mark.slow]

VERSIONS = ("2025-11-25", "2026-07-28")
DECLARED = '  method: "completion/complete";\n  params: CompleteRequestParams;'
BY_POSITION = '  method: "completion/complete";\n  params: string[];'  # JSON-RPC allows it


def test_a_params_hint_of_builtins_imports_only_what_it_needs(
    spec_root: Path, tmp_path: Path
) -> None:
    texts = [(spec_root / v / "schema.ts").read_text(encoding="utf-8") for v in VERSIONS]
    assert all(DECLARED in t for t in texts)
    schemas = [
        load_text(t.replace(DECLARED, BY_POSITION), f"{v}/schema.ts")
        for t, v in zip(texts, VERSIONS, strict=True)
    ]
    write_tree(tmp_path, render_distribution(schemas, "mcp_positional"))
    server = import_package(tmp_path, "mcp_positional.server")  # an ImportError before
    client = import_package(tmp_path, "mcp_positional.client")
    for handlers in (server.ServerHandlers, server.AsyncServerHandlers):
        hints = typing.get_type_hints(handlers.completion_complete)  # every name resolves
        assert hints["params"] == collections.abc.Sequence[str]
    for side, module in (("server", server), ("client", client)):
        tree = ast.parse((tmp_path / "mcp_positional" / f"{side}.py").read_text(encoding="utf-8"))
        from_app = {
            a.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "app" and node.level == 1
            for a in node.names
        }
        assert from_app and not from_app & set(dir(builtins)), (side, from_app)
        assert from_app <= set(module.app.__all__), side  # exported: mypy --strict takes them
