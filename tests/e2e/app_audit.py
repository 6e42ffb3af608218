"""The application types on real traffic: every message of an e2e session's transcript, read with
the version in force when it was on the wire, goes wire -> app -> the same version's JSON exactly
(through the app entry points: `parse_message`, `parse_result`, `serialize`), and to every other
version of the distribution either converts (re-validated by that version's bindings) or is
refused with a `ConversionError`; the counts join the session report.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .client import Client


@dataclass
class AppAudit:
    exact: Counter[str] = field(default_factory=Counter)  # version -> messages round-tripped
    converted: Counter[str] = field(default_factory=Counter)  # target version -> converted
    refused: Counter[str] = field(default_factory=Counter)  # "version: kind" -> refusals
    skipped: int = 0  # messages the wire bindings themselves reject (known peer deviations)
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        def items(c: Counter[str]) -> str:
            return ", ".join(f"{k} {n}" for k, n in sorted(c.items())) or "-"

        return (
            f"  app types: exact {items(self.exact)}; converted to {items(self.converted)}; "
            f"refused {items(self.refused)}; skipped {self.skipped}; failed {len(self.failures)}"
        )


def app_audit(client: Client) -> AppAudit:
    """Convert every transcript line of `client`'s session (see the module docstring)."""
    out = AppAudit()
    top = client.initial.package.__name__.rsplit(".", 1)[0]
    app = importlib.import_module(f"{top}.app")
    versions = importlib.import_module(f"{top}.versions")
    b = client.initial
    pending: dict[str, dict[Any, str]] = {"client_to_server": {}, "server_to_client": {}}
    for entry in list(client.peer.transcript):
        direction = (
            "client_to_server" if entry.direction == "client->server" else "server_to_client"
        )
        other = "server_to_client" if direction == "client_to_server" else "client_to_server"
        value = entry.message
        if isinstance(value, dict) and "method" in value and "id" in value:
            pending[direction][value["id"]] = str(value["method"])
        _one(app, versions, b.version, value, direction, pending[other], out)
        if direction == "server_to_client" and isinstance(value, dict) and "method" not in value:
            switch = client._switch_after.get(value.get("id"))
            if switch is not None:
                b = switch
    return out


def _one(
    app: Any,
    versions: Any,
    key: str,
    value: Any,
    direction: str,
    answered: dict[Any, str],
    out: AppAudit,
) -> None:
    method = answered.get(value.get("id")) if isinstance(value, dict) else None
    try:
        if isinstance(value, dict) and "result" in value and method is not None:
            obj = app.parse_result(method, value["result"], version=key)
            expected = value["result"]
        else:
            obj = app.parse_message(value, version=key, direction=direction).obj
            expected, method = value, None
    except versions.UnsupportedVersionError:
        raise
    except app.ConversionError as err:
        out.failures.append(f"{key} {direction}: to_app failed: {err}")
        return
    except ValueError:  # the wire bindings reject it: the e2e audit reports it
        out.skipped += 1
        return
    try:
        back = app.serialize(obj, version=key, method=method)
    except ValueError as err:
        out.failures.append(f"{key} {direction}: {err}; message: {json.dumps(value)[:1500]}")
        return
    if back != expected:
        out.failures.append(f"{key} {direction}: not exact: {back!r} != {expected!r}")
        return
    out.exact[key] += 1
    for target in versions.SUBPACKAGES:
        if target == key:
            continue
        try:
            app.to_wire(obj, target).to_dict()  # validates with the target's bindings
        except app.ConversionError as err:
            out.refused[f"{target}: {err.kind}"] += 1
        else:
            out.converted[target] += 1
