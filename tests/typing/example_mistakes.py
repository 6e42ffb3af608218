"""Seeded mistakes against the example distribution: each line marked `# expect: CODE` must be
reported by the type checker at that line (mypy's error code; pyright reports the line)."""

from __future__ import annotations

from mcp_example import versions
from mcp_example.v1_0 import models as m1
from mcp_example.v1_0 import registry as r1
from mcp_example.v2_0 import models as m2

m1.UpdateWidgetRequestParams(id="w1", valeu=2.0)  # expect: call-arg
m1.UpdateWidgetRequestParams(id="w1", value="two")  # expect: arg-type
m1.GetWidgetRequestParams()  # expect: call-arg
m1.PingRequest(method="pong", jsonrpc="2.0", id=1)  # expect: arg-type
m1.UpdateWidgetRequest(
    method="widgets/update",
    params=m1.ResetWidgetRequestParams(id="w1"),  # expect: arg-type
    jsonrpc="2.0",
    id=1,
)
wrong: m1.LockWidgetResult = r1.parse_result("widgets/update", {})  # expect: assignment
m1.ResetWidgetRequest(
    method="widgets/reset",
    params=m2.ResetWidgetRequestParams(id="w1"),  # expect: arg-type
    jsonrpc="2.0",
    id=1,
)
granted: str = r1.parse_result("widgets/lock", {}).granted  # expect: assignment
typo = r1.parse_result("widgets/lock", {}).grnted  # expect: attr-defined
versions.negotiate("1.0")  # expect: attr-defined
