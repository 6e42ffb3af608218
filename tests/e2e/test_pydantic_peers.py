"""The pydantic target's faithful default on real traffic: a session with each real peer (node:
the TypeScript SDK's everything server; python: the official Python SDK), at 2025-11-25, and
every message of it, both ways, validated by the type the schema gives it (the request or
notification type of its method, the result type of the request it answers) and dumped back
exactly (the same JSON)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from codegen.analysis.methods import method_model
from codegen.pipeline import load
from codegen.targets.pydantic.render import render_pydantic

from .conftest import Spawn
from .test_peers_raw import PEERS, Client, fake_client

pytestmark = pytest.mark.spec
VERSION = "2025-11-25"


@pytest.fixture(scope="module")
def models(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Any]:
    resolved = load(str(spec_root / VERSION / "schema.ts"))
    root = tmp_path_factory.mktemp("pydantic_e2e")
    (root / "pyd_e2e_2025_11_25").mkdir()
    text = render_pydantic(resolved)["__init__.py"]
    (root / "pyd_e2e_2025_11_25" / "__init__.py").write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    return importlib.import_module("pyd_e2e_2025_11_25"), method_model(resolved)


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_every_message_of_a_real_session_round_trips(
    spawn: Spawn, peer_name: str, argv: list[str], models: tuple[ModuleType, Any]
) -> None:
    m, registry = models
    methods = {x.method: x for x in registry.methods}
    _, tool, args, _ = PEERS[peer_name]
    client = Client(spawn(argv, name=peer_name, handler=fake_client))
    client.initialize(VERSION)
    client.peer.notify("notifications/initialized")
    for method, params in [
        ("tools/list", None),
        ("tools/call", {"name": tool, "arguments": args}),
        ("prompts/list", None),
        ("resources/list", None),
        ("resources/templates/list", None),
        ("ping", None),
    ]:
        client.result(method, params)
    if peer_name == "python":
        client.result("tools/call", {"name": "ask_client", "arguments": {"question": "q"}})
    else:
        client.result("tools/call", {"name": "get-roots-list", "arguments": {}})
    client.peer.close()

    asked: dict[tuple[str, Any], str] = {}  # (who asked, id) -> method
    checked: dict[str, int] = {}
    for entry in client.peer.transcript:
        msg = entry.message
        if not isinstance(msg, dict):
            continue
        if "method" in msg:
            if "id" in msg:
                asked[(entry.direction, msg["id"])] = msg["method"]
            type_name = methods[msg["method"]].type_name
        else:
            method = next(
                v for (d, i), v in asked.items() if i == msg["id"] and d != entry.direction
            )
            if "error" in msg:
                type_name = "JSONRPCErrorResponse"
            else:
                result_type = methods[method].result_type
                assert result_type is not None
                cls = getattr(m, result_type)
                value = cls.model_validate(msg["result"]).model_dump(mode="json")
                assert _same(value, msg["result"]), (method, msg)
                checked[result_type] = checked.get(result_type, 0) + 1
                continue
        cls = getattr(m, type_name)
        assert _same(cls.model_validate(msg).model_dump(mode="json"), msg), msg
        checked[type_name] = checked.get(type_name, 0) + 1
    print(peer_name, sum(checked.values()), "messages:", dict(sorted(checked.items())))
    assert {"InitializeResult", "ListToolsResult", "CallToolResult", "ListRootsResult"} <= set(
        checked
    )
