"""The application types on real traffic: every message of an e2e session's transcript, read with
the version in force when it was on the wire, goes wire -> app -> the same version's JSON exactly
(through the app entry points: `parse_message`, `parse_result`, `serialize`), and to every other
version of the distribution either converts (re-validated by that version's bindings) or is
refused with a `ConversionError`; the counts join the session report.
"""

from __future__ import annotations

import importlib
import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bindings import Bindings
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
    for b, value, direction, answered in transcript(client):
        _one(app, versions, b.version, value, direction, answered, out)
    return out


def transcript(client: Client) -> Iterator[tuple[Bindings, Any, str, dict[Any, str]]]:
    """Each transcript message of `client`'s session with the bindings in force when it was on
    the wire, its direction, and the methods of the other side's requests by id so far."""
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
        yield b, value, direction, pending[other]
        if direction == "server_to_client" and isinstance(value, dict) and "method" not in value:
            switch = client._switch_after.get(value.get("id"))
            if switch is not None:
                b = switch


def records(client: Client) -> Iterator[dict[str, Any]]:
    """The session's messages as `tests/e2e/recorded/sessions.jsonl` lines: the version label in
    force, the direction, the method a result answers, the message. The call of a tool that
    answers with this machine's environment (server-everything's `get-env`) is left out."""
    private: set[Any] = set()
    for b, value, direction, answered in transcript(client):
        if isinstance(value, dict) and value.get("method") == "tools/call":
            params = value.get("params")
            if isinstance(params, dict) and params.get("name") in PRIVATE_TOOLS:
                private.add(value.get("id"))
        if isinstance(value, dict) and value.get("id") in private:
            continue
        method = answered.get(value.get("id")) if isinstance(value, dict) else None
        if not isinstance(value, dict) or "method" in value or method is None:
            method = None
        yield {"version": b.label, "direction": direction, "method": method, "message": value}


PRIVATE_TOOLS = frozenset({"get-env"})
RECORD_ENV = "MCP_E2E_RECORD"
"""A directory: each session's messages are added to `<dir>/sessions.jsonl`, a message that is
already there (the same version, direction, method and JSON) once (how
`tests/e2e/recorded/sessions.jsonl` was made)."""


def record(client: Client, session: str) -> None:
    """With `$MCP_E2E_RECORD`, add the session's new `records` to `<dir>/sessions.jsonl`."""
    where = os.environ.get(RECORD_ENV)
    if not where:
        return
    path = Path(where, "sessions.jsonl")
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    seen = {_key({k: v for k, v in json.loads(line).items() if k != "session"}) for line in lines}
    for r in records(client):
        if _key(r) not in seen:
            seen.add(_key(r))
            lines.append(json.dumps({**r, "session": session}, ensure_ascii=False, sort_keys=True))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _key(r: dict[str, Any]) -> str:
    return json.dumps(r, sort_keys=True)


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
