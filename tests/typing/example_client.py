"""A typed client of the example distribution (`mcp_example`, versions 1.0 and 2.0), as a user
writes it; `mypy --strict` (and pyright) must find nothing here."""

from __future__ import annotations

from mcp_example import UNSET, ProtocolError, ValidationError, parse_message, versions
from mcp_example.v1_0 import models as m1
from mcp_example.v1_0 import registry as r1
from mcp_example.v2_0 import models as m2

version: str = versions.initialize_version()
agreed: str = versions.accept_initialize(versions.answer_initialize(version))

params = m1.UpdateWidgetRequestParams(id="w1", value=2.0)
request = m1.UpdateWidgetRequest(method="widgets/update", params=params, jsonrpc="2.0", id=1)
wire = r1.encode(request)
note: str | None = None if params.note is UNSET else params.note

result: m1.UpdateWidgetResult = r1.parse_result("widgets/update", {"widget": {}})
lock: m1.LockWidgetResult = r1.parse_result("widgets/lock", {"granted": True})
granted: bool = lock.granted
watch = m2.WatchWidgetRequest(
    method="widgets/watch", params=m2.WatchWidgetRequestParams(ids=["w1"]), jsonrpc="2.0", id=2
)

try:
    message = parse_message({"jsonrpc": "2.0", "id": 3, "method": "ping"}, version=agreed)
    kind: str = message.kind
except ProtocolError as err:
    method: str | None = err.method
    where: str | None = err.protocol_version
except ValidationError as err:
    paths: list[str] = [e.path for e in err.errors]
