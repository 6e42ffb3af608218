"""Recorded JSON-RPC traffic checked against its version: each message's line, method, JSON path,
what is wrong, and the cross-version explanation where there is one.

Input: one message per line, or records `{"direction": "client_to_server"|"server_to_client",
"message": ..., "session"?, "version"?}` (`"dir": "c2s"|"s2c"` too). Sessions are told apart
by `session`; a response is paired with its request by id within its session. A session's
version is, first that applies: `--version`; the record's `version`; a 2026-07-28 request's
`_meta["io.modelcontextprotocol/protocolVersion"]` (and its response); the version `initialize`
settled (the response's `protocolVersion`; until then the client's proposal); else the newest
released version, said once in the notes. A method that version lacks and others have is a
finding of its own, naming them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..analysis.methods import Method
from .check import Problem
from .codes import JSON_TEXT, METHOD, REQUIRED, TYPE
from .known import Versions

META_VERSION = "io.modelcontextprotocol/protocolVersion"
DIRECTIONS = {"client_to_server": "client_to_server", "server_to_client": "server_to_client",
              "c2s": "client_to_server", "s2c": "server_to_client"}  # fmt: skip
_OTHER = {"client_to_server": "server_to_client", "server_to_client": "client_to_server"}
MAX_DEPTH = 256


@dataclass(frozen=True)
class Violation:
    line: int
    session: str
    direction: str  # "" when the line is a bare message
    method: str  # "" when unknown
    version: str  # the version label checked against, "" when none
    path: str
    code: str
    message: str
    explanation: str = ""


@dataclass
class _Session:
    version: str | None = None
    pending: dict[tuple[str, str], tuple[str, str | None]] = field(default_factory=dict)


@dataclass
class Result:
    messages: int = 0
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class _NotJSON(ValueError):
    pass


def parse_json(text: str) -> Any:
    """JSON text by the rules of the vectors: no key given twice, no NaN/Infinity, no number
    too large for a double, nesting at most MAX_DEPTH."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise _NotJSON(f"key {json.dumps(k)} given twice")
            out[k] = v
        return out

    def constant(name: str) -> Any:
        raise _NotJSON(f"{name} is not JSON")

    def number(s: str) -> float:
        f = float(s)
        if not math.isfinite(f):
            raise _NotJSON(f"number {s} is too large for a double")
        return f

    try:
        value = json.loads(
            text, object_pairs_hook=pairs, parse_constant=constant, parse_float=number
        )
    except RecursionError:
        raise _NotJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    except _NotJSON:
        raise
    except ValueError as err:
        raise _NotJSON(f"not JSON: {err}") from None
    if _depth(value) > MAX_DEPTH:
        raise _NotJSON(f"nested deeper than {MAX_DEPTH} levels")
    return value


def _depth(value: Any) -> int:
    deepest, todo = 0, [(value, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            todo.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


class WireChecker:
    def __init__(self, versions: Versions, version: str | None = None) -> None:
        self.versions = versions
        self.fixed = version
        self.sessions: dict[str, _Session] = {}
        self.result = Result()
        released = [v for v in versions.labels if v[:1].isdigit()]
        self.fallback = released[-1] if released else versions.labels[-1]
        self._fell_back = False

    def lines(self, lines: Iterable[str]) -> Result:
        for number, text in enumerate(lines, 1):
            if text.strip():
                self.line(number, text)
        return self.result

    def line(self, number: int, text: str) -> None:
        try:
            value = parse_json(text)
        except _NotJSON as err:
            self.not_json(number, str(err))
            return
        if (
            isinstance(value, dict)
            and "message" in value
            and ("direction" in value or "dir" in value)
        ):
            raw_dir = value.get("direction", value.get("dir"))
            direction = DIRECTIONS.get(raw_dir, "") if isinstance(raw_dir, str) else ""
            session = value.get("session")
            given = value.get("version")
            self.message(
                number,
                value["message"],
                direction,
                session if isinstance(session, str) else "",
                given if isinstance(given, str) else None,
            )
        else:
            self.message(number, value, "", "", None)

    def not_json(self, number: int, why: str, direction: str = "", session: str = "") -> None:
        self.result.messages += 1
        self.add(number, session, direction, "", None, [Problem("$", JSON_TEXT, why)])

    def message(
        self, number: int, msg: Any, direction: str, session: str, given: str | None
    ) -> None:
        if isinstance(msg, list):  # a JSON-RPC batch (2025-03-26)
            for item in msg:
                self.message(number, item, direction, session, given)
            return
        self.result.messages += 1
        state = self.sessions.setdefault(session, _Session())
        if not isinstance(msg, dict):
            problem = Problem("$", TYPE, "a JSON-RPC message is an object")
            self.add(number, session, direction, "", None, [problem])
            return
        method = msg.get("method")
        if isinstance(method, str):
            self.request(number, msg, method, direction, session, state, given)
        elif "result" in msg or "error" in msg:
            self.response(number, msg, direction, session, state, given)
        else:
            problem = Problem("$", TYPE, "neither a request, a notification nor a response")
            self.add(number, session, direction, "", self.version(state, given, None), [problem])

    def version(self, state: _Session, given: str | None, meta: str | None) -> str | None:
        for candidate in (self.fixed, given, meta):
            if candidate:
                return self.versions.label_of(candidate) or candidate
        if state.version:
            return state.version
        if not self._fell_back:
            self._fell_back = True
            self.result.notes.append(
                f"no version named before the first message: checked against {self.fallback} "
                "until one is (give --version)"
            )
        return self.fallback

    def request(
        self,
        number: int,
        msg: dict[str, Any],
        method: str,
        direction: str,
        session: str,
        state: _Session,
        given: str | None,
    ) -> None:
        params = msg.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        meta_version = meta.get(META_VERSION) if isinstance(meta, dict) else None
        if method == "initialize" and isinstance(params, dict) and not state.version:
            proposed = params.get("protocolVersion")
            if isinstance(proposed, str):
                state.version = self.versions.label_of(proposed)
        label = self.version(state, given, meta_version if isinstance(meta_version, str) else None)
        model = self.versions.methods(label) if label else None
        m = model.get(method) if model is not None else None
        if "id" in msg:
            key = (_OTHER.get(direction, ""), json.dumps(msg["id"], sort_keys=True))
            state.pending[key] = (method, label)
        checker = self.versions.checker(label) if label else None
        if checker is None:
            return
        if m is not None:
            problems = checker.errors(m.type_name, msg)
            self.add(number, session, direction, method, label, problems, m, "$.params", params)
        else:
            # An `initialize` whose version is only its own proposal is a client trying the
            # handshake (as a client of a version without one falls back to), not a session
            # of that version.
            stated = self.fixed or given or isinstance(meta_version, str)
            if label and (stated or method != "initialize"):
                self.absent_method(number, session, direction, method, label)
            envelope = "JSONRPCRequest" if "id" in msg else "JSONRPCNotification"
            if envelope in checker.types:
                self.add(number, session, direction, method, label, checker.errors(envelope, msg))

    def absent_method(
        self, number: int, session: str, direction: str, method: str, label: str
    ) -> None:
        """A method that `label` lacks and other known versions have: reported, naming those
        versions (from the cross-version presence model). A method no version has is left to
        the envelope check (an extension's method is not a protocol violation)."""
        facts = self.versions.requirement.presence.methods.get(method)
        if facts is None or not facts.versions:
            return
        others = facts.versions
        listed = others[0] if len(others) == 1 else ", ".join(others[:-1]) + " and " + others[-1]
        message = f"`{method}` is not a method of {label}"
        why = f"it is a method of {listed}"
        self.result.violations.append(
            Violation(number, session, direction, method, label, "$.method", METHOD, message, why)
        )

    def response(
        self,
        number: int,
        msg: dict[str, Any],
        direction: str,
        session: str,
        state: _Session,
        given: str | None,
    ) -> None:
        key_id = json.dumps(msg.get("id"), sort_keys=True)
        found = state.pending.pop((direction, key_id), None)
        if found is None and not direction:
            for d in ("client_to_server", "server_to_client"):
                found = state.pending.pop((d, key_id), None)
                if found is not None:
                    break
        method, asked = found if found is not None else ("", None)
        label = self.fixed or given or asked
        label = self.version(state, label, None)
        result = msg.get("result")
        if method == "initialize" and isinstance(result, dict):
            agreed = result.get("protocolVersion")
            if isinstance(agreed, str):
                state.version = self.versions.label_of(agreed) or state.version
                if not (self.fixed or given):
                    label = state.version or label
        checker = self.versions.checker(label) if label else None
        if checker is None:
            return
        names = ("JSONRPCErrorResponse", "JSONRPCError") if "error" in msg else (
            "JSONRPCResultResponse", "JSONRPCResponse")  # fmt: skip
        envelope = next((n for n in names if n in checker.types), None)
        problems = checker.errors(envelope, msg) if envelope else []
        model = self.versions.methods(label)
        m = model.get(method) if model is not None and method else None
        if m is not None and "result" in msg and m.result_types:
            payload = self.result_problems(checker, m, result)
            seen = {(p.path, p.code) for p in payload}
            problems = payload + [p for p in problems if (p.path, p.code) not in seen]
        self.add(number, session, direction, method, label, problems, m, "$.result", result)

    def result_problems(self, checker: Any, m: Method, result: Any) -> list[Problem]:
        """The result's problems against the method's result, unless an alternative takes it;
        of several, the type it misses least (the primary on a tie)."""
        best: list[Problem] | None = None
        for name in m.result_types:
            if name not in checker.types:
                continue
            found = checker.errors(name, result, "$.result")
            if not found:
                return []
            if best is None or len(found) < len(best):
                best = found
        return best or []

    def add(
        self,
        number: int,
        session: str,
        direction: str,
        method: str,
        label: str | None,
        problems: list[Problem],
        m: Method | None = None,
        payload: str = "",
        value: Any = None,
    ) -> None:
        for p in problems:
            explanation = self.explain(label, m, payload, p, value) if m is not None else ""
            self.result.violations.append(
                Violation(
                    number,
                    session,
                    direction,
                    method,
                    label or "",
                    p.path,
                    p.code,
                    p.message,
                    explanation,
                )
            )

    def explain(self, label: str | None, m: Method, payload: str, p: Problem, value: Any) -> str:
        """ "`resultType` is required since 2026-07-28; 2025-11-25 did not declare it: this is a
        2025-11-25-shaped result" for a member missing at the top of a result or params."""
        type_name = m.result_type if payload == "$.result" else m.params_type
        if p.code != REQUIRED or not type_name or not label or not p.path.startswith(payload + "."):
            return ""
        member = p.path[len(payload) + 1 :]
        if "." in member or "[" in member:
            return ""
        req = self.versions.requirement
        if label not in req.labels:
            return ""
        words = req.reason(req.labels.index(label), type_name, member)
        if not words:
            return ""
        shaped = self.shaped_like(label, type_name, value)
        return words + (f": this is a {shaped}-shaped {payload[2:]}" if shaped else "")

    def shaped_like(self, label: str, type_name: str, value: Any) -> str:
        """The newest other version whose `type_name` accepts `value`, or ""."""
        for other in reversed(self.versions.requirement.labels):
            checker = self.versions.checker(other)
            if other == label or type_name not in checker.types:
                continue
            if not checker.errors(type_name, value):
                return other
        return ""


def iter_lines(stream: Iterable[str]) -> Iterator[str]:
    for line in stream:
        yield line.rstrip("\n").rstrip("\r")
