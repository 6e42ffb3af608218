"""What check-wire says about a message's method itself, at `$.method`: a method its version
lacks (where other versions have it), and a method sent by a side its version does not let
send it. Pure: the facts in, the finding's code, message and explanation out (or None)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..analysis.methods import Method
from .codes import DIRECTION, METHOD

SENDERS = {"client_to_server": "client", "server_to_client": "server"}


class MethodFinding(NamedTuple):
    code: str
    message: str
    explanation: str


def absent(method: str, label: str, having: Sequence[str]) -> MethodFinding | None:
    """`method` missing from `label`, naming the versions `having` it. A method no version has
    is no finding (an extension's method is not a protocol violation)."""
    if not having:
        return None
    listed = having[0] if len(having) == 1 else ", ".join(having[:-1]) + " and " + having[-1]
    return MethodFinding(
        METHOD, f"`{method}` is not a method of {label}", f"it is a method of {listed}"
    )


def misdirected(m: Method, direction: str, label: str) -> MethodFinding | None:
    """A request or notification sent by the side that `label` does not let send it. A bare
    message (`direction` "") names no sender; a method both sides send is never one. An input
    request (2026-07-28: sampling, roots, elicitation) travels inside an input-required result,
    so on its own it is one whoever sends it."""
    side = SENDERS.get(direction)
    embedded = m.via == "input_required"
    wrong_side = side is not None and side not in m.senders
    if not m.senders or not (wrong_side or embedded):
        return None
    if wrong_side:
        message = f"`{m.method}` is not sent by {side}s in {label}"
    else:
        message = f"`{m.method}` is not sent on its own in {label}"
    inside = ", inside an input-required result" if embedded else ""
    return MethodFinding(
        DIRECTION, message, f"it is sent by {m.senders[0]}s ({m.direction}){inside}"
    )
