"""Seeded mistakes against the official distribution: each line marked `# expect: CODE` must be
reported by the type checker at that line (mypy's error code; pyright reports the line)."""

from __future__ import annotations

from mcp_types import versions
from mcp_types.v2025_11_25 import models as m
from mcp_types.v2025_11_25 import registry as r
from mcp_types.v2026_07_28 import models as n

m.CallToolRequestParams(nme="echo")  # expect: call-arg
m.CallToolRequestParams(name=42)  # expect: arg-type
m.Implementation(name="client")  # expect: call-arg
m.PingRequest(method="pong", jsonrpc="2.0", id=1)  # expect: arg-type
m.CallToolRequest(
    method="tools/call",
    params=m.GetPromptRequestParams(name="p"),  # expect: arg-type
    jsonrpc="2.0",
    id=1,
)
wrong: m.CallToolResult = r.parse_result("tools/list", {})  # expect: assignment
m.CallToolRequest(
    method="tools/call",
    params=n.CallToolRequestParams(name="echo"),  # expect: arg-type
    jsonrpc="2.0",
    id=1,
)
count: int = r.parse_result("tools/list", {}).tools  # expect: assignment
versions.negotiate("2025-11-25")  # expect: attr-defined
