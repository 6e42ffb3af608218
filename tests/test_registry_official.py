"""The generated registry.py of the seven official MCP versions: the table is the method model
(codegen/analysis/methods.py) and agrees with the official message unions of schema.json; every official
example message goes through parse_message (and every example result through parse_result, with
the method known from its type) and encodes back identically; random valid messages of every
method of every version do the same. mypy --strict and ruff over registry.py run with the whole
packages in tests/test_bindings_official.py.

The packages here are rendered without black: these tests are about behaviour, black only re-lays
out the text (it checks that the syntax tree is unchanged) and takes ~98% of the generation time;
the exact formatted bytes are pinned by tests/test_bindings_official.py.
"""

from __future__ import annotations

import importlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import import_package, unformatted, write_package
from random_schemas import instance as random_instance

from codegen import ir
from codegen.analysis.methods import MethodModel, method_model
from codegen.targets.python.bindings import MODULES

pytestmark = pytest.mark.spec

VERSIONS = corpus.version_names()
# The official message unions: (union, kind, sender)
UNIONS = (("ClientRequest", "request", "client"), ("ServerRequest", "request", "server"),
          ("ClientNotification", "notification", "client"),
          ("ServerNotification", "notification", "server"),
          ("InputRequest", "request", "server"))  # fmt: skip
SENDS = {
    "client_to_server": {"client"},
    "server_to_client": {"server"},
    "both": {"client", "server"},
}


def same_json(a: object, b: object) -> bool:
    """JSON equality that keeps true and 1 apart."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def package_name(version: str) -> str:
    return "registry_" + "".join(c if c.isalnum() else "_" for c in version.lower())


@dataclass(frozen=True)
class Official:
    version: str
    registry: ModuleType
    models: ModuleType
    resolved: ir.Resolved
    model: MethodModel


@pytest.fixture(scope="session")
def official(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Official]:
    """Every official version's package, generated once, unformatted (see above)."""
    root = tmp_path_factory.mktemp("official_registry")
    out = {}
    for v in corpus.versions(spec_root):
        name = package_name(v.name)
        resolved = corpus.resolved(v)
        write_package(unformatted(resolved), root, name)
        import_package(root, name)
        out[v.name] = Official(v.name, importlib.import_module(f"{name}.registry"),
                               importlib.import_module(f"{name}.models"), resolved,
                               method_model(resolved))  # fmt: skip
    return out


def test_registry_is_a_package_module() -> None:
    """registry.py is one of the package's modules, so the bindings' mypy/ruff runs cover it."""
    assert "registry.py" in [m.path for m in MODULES]


@pytest.mark.parametrize("version", VERSIONS)
def test_table_is_the_method_model(official: dict[str, Official], version: str) -> None:
    o = official[version]
    r, model = o.registry, o.model
    assert r.PROTOCOL_VERSION == model.protocol_version
    assert list(r.METHODS) == [m.method for m in model.methods]
    assert model.notes == ()
    for m in model.methods:
        info = r.METHODS[m.method]
        assert (info.kind, info.direction, info.via, info.message_type, info.params_type,
                info.params_optional, info.result_type, info.alt_result_types) == (
            m.kind, m.direction, m.via, m.type_name, m.params_type, m.params_optional,
            m.result_type, m.alt_result_types)  # fmt: skip
        assert info.message_class is getattr(o.models, m.type_name)
        for name, cls in [(m.params_type, info.params_class), (m.result_type, info.result_class),
                          *zip(m.alt_result_types, info.alt_result_classes)]:  # fmt: skip
            if name is None:
                assert cls is None
            elif isinstance(getattr(o.models, name), type):
                assert cls is getattr(o.models, name)
            else:  # an alias: EmptyResult is Result, ElicitRequestParams a union of classes
                assert cls == getattr(o.models, name)


def _members(defs: dict[str, Any], name: str) -> list[tuple[str, dict[str, Any]]]:
    """(member name, definition) of an official union; a one-member union is inlined."""
    d = defs.get(name)
    if d is None:
        return []
    refs = [m["$ref"] for m in d.get("anyOf", []) if "$ref" in m]
    if not refs:
        return [(name, d)]
    return [(ref.rsplit("/", 1)[-1], defs[ref.rsplit("/", 1)[-1]]) for ref in refs]


@pytest.mark.parametrize("version", VERSIONS)
def test_table_agrees_with_the_official_unions(official: dict[str, Official], version: str) -> None:
    """Each member of ClientRequest, ServerRequest, ClientNotification, ServerNotification and
    InputRequest in schema.json is in METHODS with that kind, a sender that includes the union's
    side and that type; nothing else is; each result is in the answering result union."""
    r, defs = official[version].registry, corpus.definitions(version)
    senders: dict[str, set[str]] = {}
    for union, kind, side in UNIONS:
        for member, d in _members(defs, union):
            method = d["properties"]["method"]["const"]
            info = r.METHODS[method]
            assert info.kind == kind, (union, method)
            assert side in SENDS[info.direction], (union, method)
            assert info.via == ("input_required" if union == "InputRequest" else "jsonrpc")
            if member != union:  # inlined one-member unions have no name of their own
                assert info.message_type == member, (union, method)
            senders.setdefault(method, set()).add(side)
    assert set(r.METHODS) == set(senders)
    for method, info in r.METHODS.items():
        assert SENDS[info.direction] == senders[method], method
        if info.kind == "request":
            answering = ("InputResponse" if info.via == "input_required" else
                         "ClientResult" if info.direction == "server_to_client" else "ServerResult")  # fmt: skip
            names = {m for m, _ in _members(defs, answering)}
            # schema.json names EmptyResult `Result`
            assert (info.result_type or "").replace("EmptyResult", "Result") in names, method
            assert all(a in defs for a in info.alt_result_types), method


def _result_methods(o: Official) -> dict[str, str]:
    """Result type -> the first method (by method string) that it may answer."""
    out: dict[str, str] = {}
    for info in o.registry.METHODS.values():
        for name in info.result_types:
            out.setdefault(name, info.method)
    return out


def _response_method(o: Official, type_name: str) -> str | None:
    """The method an explicit `XResultResponse` type answers: the one whose result it carries."""
    td = o.resolved.type(type_name)
    prop = td.type.prop("result") if isinstance(td.type, ir.Obj) else None
    if prop is None:
        return None
    carried = [m.name for m in (prop.type.members if isinstance(prop.type, ir.Union_) else (prop.type,))
               if isinstance(m, ir.Ref)]  # fmt: skip
    return next((i.method for i in o.registry.METHODS.values() if i.result_type in carried), None)


def _is_message(o: Official, type_name: str) -> bool:
    """Whether an example type is a whole JSON-RPC message (or a request carried as input)."""
    types = {i.message_type for i in o.registry.METHODS.values()}
    envelopes = {"JSONRPCRequest", "JSONRPCNotification", "JSONRPCResultResponse",
                 "JSONRPCErrorResponse", "JSONRPCResponse", "JSONRPCError", "JSONRPCMessage"}  # fmt: skip
    td = o.resolved.type_map().get(type_name)
    bases = {b.name for b in td.bases} if td is not None else set()
    return type_name in types or type_name in envelopes or bool(bases & envelopes)


@pytest.mark.parametrize("version", [v for v in VERSIONS if v in ("2026-07-28", "draft")])
def test_examples_round_trip(official: dict[str, Official], version: str) -> None:
    o = official[version]
    r = o.registry
    results = _result_methods(o)
    examples = corpus.examples(version)
    messages = results_done = 0
    input_requests: dict[str, str] = {}  # InputRequests key -> method
    for ex in examples:
        value = ex.instance
        if _is_message(o, ex.type_name):
            info = r.METHODS.get(value.get("method"))
            direction = None if info is None or info.direction == "both" else info.direction
            msg = r.parse_message(value, direction=direction)
            assert same_json(r.encode(msg), value), ex.id
            if info is not None:
                assert type(msg.obj).__name__ == ex.type_name, ex.id
            method = _response_method(o, ex.type_name)
            if method is not None:  # CallToolResultResponse: the result decodes for tools/call
                got = r.parse_result(method, msg)
                assert same_json(r.encode(got), value["result"]), ex.id
                results_done += 1
            messages += 1
        elif ex.type_name in results:
            got = r.parse_result(results[ex.type_name], value)
            assert type(got).__name__ == ex.type_name, ex.id
            assert same_json(r.encode(got), value), ex.id
            results_done += 1
        elif ex.type_name == "InputRequests":  # a map of input requests: each is one
            for key, request in value.items():
                msg = r.parse_message(request, direction="server_to_client")
                assert (
                    msg.kind == "request" and msg.id is None and same_json(r.encode(msg), request)
                )
                input_requests[key] = msg.method
                messages += 1
    for ex in examples:  # the answers to those input requests, by key
        if ex.type_name == "InputResponses":
            for key, response in ex.instance.items():
                got = r.parse_result(input_requests[key], response)
                assert same_json(r.encode(got), response), (ex.id, key)
                results_done += 1
    print(f"{version}: {messages} example messages through parse_message, "
          f"{results_done} example results through parse_result")  # fmt: skip
    assert messages >= 35 and results_done >= 24


@pytest.mark.parametrize("version", VERSIONS)
def test_synthetic_messages_round_trip(official: dict[str, Official], version: str) -> None:
    """Random valid instances (from the IR) of every method's message, with the JSON-RPC
    envelope when it travels as JSON-RPC, and of each of its results."""
    o = official[version]
    r = o.registry
    validators = importlib.import_module(f"{package_name(version)}.validators")
    checked = 0
    for info in r.METHODS.values():
        for k in range(3):
            rnd = random.Random(f"{version}/{info.method}/{k}")
            value = random_instance(o.resolved, ir.Ref(info.message_type), rnd)
            assert isinstance(value, dict)
            if info.via == "jsonrpc":
                value = {"jsonrpc": "2.0", **({"id": k} if info.kind == "request" else {}), **value}
            if not validators.is_valid(info.message_type, value):
                continue  # random instances ignore @pattern and the like
            msg = r.parse_message(
                value, direction=None if info.direction == "both" else info.direction
            )
            assert (msg.kind, msg.method) == (info.kind, info.method)
            assert same_json(r.encode(msg), value)
            checked += 1
            for name in info.result_types:
                result = random_instance(o.resolved, ir.Ref(name), rnd)
                if validators.is_valid(name, result):
                    assert same_json(r.encode(r.parse_result(info.method, result)), result)
    assert checked >= 2 * len(r.METHODS)


@pytest.mark.parametrize("version", [v for v in VERSIONS if v in ("2026-07-28", "draft")])
def test_mutated_examples_give_only_validation_errors(
    official: dict[str, Official], version: str
) -> None:
    """Mutations of every example message (tests/corpus.py): a Message that encodes back to the
    mutant, or the package's ValidationError; never another exception."""
    o = official[version]
    r = o.registry
    accepted = rejected = 0
    for ex in corpus.examples(version):
        if not _is_message(o, ex.type_name):
            continue
        for mutant in corpus.mutations(version, ex.type_name, ex.instance, cap=60):
            for direction in (None, "client_to_server", "server_to_client"):
                try:
                    msg = r.parse_message(mutant.instance, direction=direction)
                except r.ValidationError:
                    rejected += 1
                else:
                    assert same_json(r.encode(msg), mutant.instance), (
                        ex.id,
                        mutant.kind,
                        mutant.path,
                    )
                    accepted += 1
    assert accepted and rejected


@pytest.mark.parametrize(("version", "method", "direction", "text"), [
    ("2024-11-05", "elicitation/create", None,
     'unknown method "elicitation/create" in protocol version 2024-11-05'),
    ("2026-07-28", "initialize", None, 'unknown method "initialize" in protocol version 2026-07-28'),
    ("2025-06-18", "sampling/createMessage", "client_to_server",
     ('method "sampling/createMessage" is sent server to client in protocol version 2025-06-18, '
     "not client to server")),
    ("draft", "tools/call", "server_to_client",
     'method "tools/call" is sent client to server in protocol version 2026-07-28, not server to client'),
])  # fmt: skip
def test_official_protocol_errors(official: dict[str, Official], version: str, method: str,
                                  direction: str | None, text: str) -> None:  # fmt: skip
    r = official[version].registry
    with pytest.raises(r.ProtocolError) as info:
        r.parse_message(
            {"jsonrpc": "2.0", "id": 1, "method": method, "params": {}}, direction=direction
        )
    assert (str(info.value), info.value.method, info.value.errors[0].path) == (
        text,
        method,
        "$.method",
    )
