"""The registry view of one version: the method model (`codegen.analysis.methods`) spelled for
Rust: trait impls per request and notification, the messages each side sends by method, and the
result types a request's method pairs with."""

from __future__ import annotations

from typing import Any

from ... import ir
from ...analysis.methods import Method, method_model
from ...analysis.typeindex import TypeIndex
from . import text as rs

SIDES = (
    ("client", "FromClient", "Every request and notification a client sends, by method."),
    ("server", "FromServer", "Every request and notification a server sends, by method."),
)


def registry_view(resolved: ir.Resolved, label: str) -> dict[str, Any]:
    model = method_model(resolved)
    types = resolved.type_map()
    index = TypeIndex(resolved)
    known = set(types) | set(index.classes)

    def params(m: Method) -> str:
        return m.params_type if m.params_type in known else "serde_json::Value"

    requests, notifications, results = [], [], []
    for m in model.methods:
        if m.type_name not in types:
            continue
        if m.kind == "request":
            rtypes = [r for r in m.result_types if r in types]
            if not rtypes:
                continue
            results.extend(rtypes)
            requests.append(
                {"method": rs.string(m.method), "type_name": m.type_name, "params": params(m),
                 "result": rtypes[0], "results": rs.string(" ".join(rtypes))}
            )  # fmt: skip
        else:
            notifications.append(
                {"method": rs.string(m.method), "type_name": m.type_name, "params": params(m)}
            )
    sides = []
    for side, name, doc in SIDES:
        methods = [
            {
                "method": m.method,
                "type_name": m.type_name,
                "arm": _method_arm(m),
            }
            for m in model.methods
            if side in m.senders and m.via == "jsonrpc" and m.type_name in types
        ]
        values = rs.string(rs.quoted_list([entry["method"] for entry in methods]))
        consts = [
            "    const TAG: rt::Tagged = rt::Tagged {",
            f"        name: {rs.string(name)},",
            '        key: "method",',
            f"        values: {values},",
            "    };",
        ]
        body = rs.tag_match([(rs.string(e["method"]), e["type_name"]) for e in methods])
        sides.append({"name": name, "doc": doc, "methods": methods, "consts": consts, "body": body})
    return {
        "label": label,
        "requests": requests,
        "notifications": notifications,
        "sides": sides,
        "results": list(dict.fromkeys(results)),
        "result_arms": [_result_arm(r) for r in dict.fromkeys(results)],
    }


def _method_arm(m: Method) -> str:
    """`Self::X(_) => Some("method"),` as rustfmt lays it out."""
    body = f"Some({rs.string(m.method)})"
    pattern = f"Self::{m.type_name}(_)"
    return rs.arm_text(pattern, body, " " * 12) or f"            {pattern} => {{ {body} }}"


def _result_arm(name: str) -> str:
    """`"Name" => rt::dm(v, cx, &at, AnyResult::Name),` as rustfmt lays it out."""
    return rs.arm(rs.string(name), "rt::dm", ["v", "cx", "&at", f"AnyResult::{name}"], " " * 8)
