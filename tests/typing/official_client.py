"""A typed client of the official distribution (`mcp_types`, the seven official versions), as a
user writes it; `mypy --strict` (and pyright) must find nothing here."""

from __future__ import annotations

from mcp_types import UNSET, ProtocolError, ValidationError, parse_message, versions
from mcp_types.v2025_11_25 import models as m
from mcp_types.v2025_11_25 import registry as r
from mcp_types.v2026_07_28 import models as n

hello = m.InitializeRequestParams(
    protocol_version=versions.initialize_version(),
    capabilities=m.ClientCapabilities(),
    client_info=m.Implementation(name="client", version="1.0"),
)
params = m.CallToolRequestParams(name="echo", arguments={"text": "hi"})
call = m.CallToolRequest(method="tools/call", params=params, jsonrpc="2.0", id=1)
wire = r.encode(call)
listed: m.ListToolsResult = r.parse_result("tools/list", {"tools": []})
names: list[str] = [tool.name for tool in listed.tools]
arguments = None if params.arguments is UNSET else params.arguments

chosen: str = versions.choose_version(["2025-11-25", "2026-07-28"])
request = versions.with_version({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, chosen)
later = n.Implementation(name="client", version="1.0")
try:
    message = parse_message(request, version=chosen, direction="client_to_server")
    kind: str = message.kind
except ProtocolError as err:
    method: str | None = err.method
except ValidationError as err:
    paths: list[str] = [e.path for e in err.errors]
