"""The API of one generated package, as a client or server author meets it (issue 11): each test
here failed on the API before (truthy `UNSET`, spelled-out fixed fields, unchecked encoding,
`to_json()` returning a dict, invariant JSON inputs, JSON Schemas as dataclasses, a conversion
round trip to send a result). Every official version is generated once for the module."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

import corpus
import pytest
from bindings_support import import_package, mypy_strict, write_package

from codegen.analysis.typeindex import TypeIndex
from codegen.pipeline import load
from codegen.targets.python.bindings import render_package

pytestmark = pytest.mark.spec

LATEST = "2025-11-25"


def _reg(pkg: ModuleType) -> ModuleType:
    return importlib.import_module(f"{pkg.__name__}.registry")


def _name(version: str) -> str:
    return "api_" + "".join(c if c.isalnum() else "_" for c in version.lower())


@pytest.fixture(scope="module")
def packages(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, ModuleType]:
    root = tmp_path_factory.mktemp("api_bindings")
    out = {}
    for v in corpus.versions(spec_root):
        write_package(render_package(load(str(v.schema_ts))), root, _name(v.name))
        out[v.name] = import_package(root, _name(v.name))
    return out


@pytest.fixture(scope="module")
def m(packages: dict[str, ModuleType]) -> ModuleType:
    return packages[LATEST]


# 0. A repr shows what is there (issue 39) -----------------------------------------------------


def test_repr_leaves_out_unset_members_and_an_empty_extra(m: ModuleType) -> None:
    tool = m.Tool(name="t", input_schema={"type": "object"})
    assert repr(tool) == "Tool(name='t', input_schema={'type': 'object'})"
    kept = m.Tool.from_dict({"name": "t", "inputSchema": {"type": "object"}, "x-a": 1})
    assert repr(kept) == "Tool(name='t', input_schema={'type': 'object'}, extra={'x-a': 1})"
    assert repr(m.CallToolResult(content=[], is_error=False)).endswith("is_error=False)")


# 1. UNSET is falsy and prints as UNSET --------------------------------------------------------


def test_unset_is_falsy_and_prints_as_unset(m: ModuleType) -> None:
    assert bool(m.UNSET) is False
    assert f"{m.UNSET}" == "UNSET" and str(m.UNSET) == "UNSET" and repr(m.UNSET) == "UNSET"
    assert f"{m.UNSET:>6}" == " UNSET"
    result = m.CallToolResult(content=[])
    assert not result.is_error  # absent: the success branch
    tool = m.Tool(name="t", input_schema={"type": "object"})
    assert (tool.description or "") == ""


# 3. Fixed fields default to their one value ---------------------------------------------------


def test_constant_fields_default_and_are_written(m: ModuleType) -> None:
    params = m.CallToolRequestParams(name="echo", arguments={"text": "hi"})
    request = m.CallToolRequest(id=1, params=params)
    wire = m.encode(request)
    assert wire == {"method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}},
                    "jsonrpc": "2.0", "id": 1}  # fmt: skip
    assert m.encode(m.TextContent(text="a")) == {"type": "text", "text": "a"}
    assert m.encode(m.InitializedNotification()) == {
        "method": "notifications/initialized",
        "jsonrpc": "2.0",
    }


def test_wrong_constant_is_rejected_on_decode(m: ModuleType) -> None:
    with pytest.raises(m.ValidationError) as err:
        m.TextContent.from_dict({"type": "image", "text": "a"})
    assert [e.path for e in err.value.errors] == ["$.type"]
    with pytest.raises(m.ValidationError) as err:
        m.decode(m.CallToolRequest, {"method": "tools/list", "jsonrpc": "2.0", "id": 1,
                                     "params": {"name": "x"}})  # fmt: skip
    assert "$.method" in [e.path for e in err.value.errors]


# 4. Encoding validates, unless told not to ----------------------------------------------------


def test_encode_validates_with_a_json_path(m: ModuleType) -> None:
    with pytest.raises(m.ValidationError) as err:
        m.encode(m.TextContent(text=5))
    assert [e.path for e in err.value.errors] == ["$.text"]
    bad = m.CallToolResult(content=[m.TextContent(text="ok"), m.TextContent(text=None)])
    for encode in (m.encode, lambda o: o.to_dict(), lambda o: o.to_json(), _reg(m).encode):
        with pytest.raises(m.ValidationError) as err:
            encode(bad)
        assert [e.path for e in err.value.errors] == ["$.content[1].text"]
    with pytest.raises(m.ValidationError):
        _reg(m).result(1, bad)


def test_an_attribute_that_cannot_be_encoded_is_named_from_the_object_encoded(
    m: ModuleType,
) -> None:
    """A union member (`content`'s blocks) is encoded by its own `_to_dict`, so a failure inside
    it names the attributes from the object `to_json` was called on, with validation off too."""
    block = m.TextContent(text="x")
    block.annotations = object()  # not an Annotations: it has no `_to_dict`
    result = m.CallToolResult(content=[block])
    for encode in (lambda o: o.to_json(), lambda o: o.to_dict(validate=False), m.encode):
        with pytest.raises(m.ValidationError) as err:
            encode(result)
        assert err.value.type_name == "CallToolResult"
        assert "(attribute content.annotations)" in str(err.value)


def test_validate_false_skips_the_check(m: ModuleType) -> None:
    obj = m.TextContent(text=5)
    assert m.encode(obj, validate=False) == {"type": "text", "text": 5}
    assert obj.to_dict(validate=False) == {"type": "text", "text": 5}
    assert obj.to_json(validate=False) == '{"type":"text","text":5}'
    assert _reg(m).encode(obj, validate=False) == {"type": "text", "text": 5}


# 7. to_dict/from_dict are JSON values, to_json/from_json JSON text ----------------------------


def test_to_json_is_text_and_from_json_parses_text(m: ModuleType) -> None:
    result = m.CallToolResult.from_json('{"content": [{"type": "text", "text": "é"}]}')
    assert isinstance(result.content[0], m.TextContent)
    assert result.to_json() == '{"content":[{"type":"text","text":"é"}]}'
    assert m.CallToolResult.from_json(result.to_json().encode()) == result
    assert m.CallToolResult.from_dict({"content": []}).to_dict() == {"content": []}
    with pytest.raises(m.ValidationError):
        m.CallToolResult.from_json('{"content": 1}')


# 6. JSON inputs are covariant; decoded values are plain dicts and lists -----------------------


def test_covariant_inputs_are_encoded_as_plain_json(m: ModuleType) -> None:
    from types import MappingProxyType

    args = MappingProxyType({"xs": (1, 2), "o": MappingProxyType({"k": [True]})})
    params = m.CallToolRequestParams(name="t", arguments=args)
    wire = m.encode(params)
    assert wire == {"name": "t", "arguments": {"xs": [1, 2], "o": {"k": [True]}}}
    assert type(wire["arguments"]) is dict and type(wire["arguments"]["xs"]) is list
    result = m.CallToolResult(content=(m.TextContent(text="a"),))  # any sequence of classes
    assert m.encode(result) == {"content": [{"type": "text", "text": "a"}]}
    decoded = m.decode(m.CallToolRequestParams, wire)
    assert type(decoded.arguments) is dict and type(decoded.arguments["xs"]) is list


TYPED_CLIENT = """\
from {pkg} import CallToolRequest, CallToolRequestParams, CallToolResult, ContentBlock, TextContent
from {pkg} import JSON, Tool, registry

args: dict[str, int] = {{"a": 1, "b": 2}}
nested: dict[str, list[str]] = {{"tags": ["x"]}}
texts: list[TextContent] = [TextContent(text="hi")]
request = CallToolRequest(id=1, params=CallToolRequestParams(name="add", arguments=args))
other = CallToolRequestParams(name="tag", arguments=nested)
result = CallToolResult(content=texts)
blocks: list[ContentBlock] = [TextContent(text="x")]
wire: dict[str, JSON] = registry.result(1, result)
sent = registry.request(request)
tool = Tool(name="t", input_schema={{"type": "object"}})
description: str = tool.description or ""  # UnsetType.__bool__ -> Literal[False] narrows
schema: dict[str, JSON] = tool.input_schema  # a JSON Schema payload is a plain dict
"""


@pytest.mark.slow
def test_typed_client_passes_mypy_strict(packages: dict[str, ModuleType], tmp_path: Path) -> None:
    pkg = Path(packages[LATEST].__file__ or "").parent
    client = pkg.parent / "typed_client.py"
    client.write_text(TYPED_CLIENT.format(pkg=pkg.name), encoding="utf-8")
    proc = mypy_strict([pkg, client], tmp_path / "mypy-cache")
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]


# 8. JSON Schema payloads are plain JSON, on every version --------------------------------------


def test_schema_payloads_are_plain_dicts(packages: dict[str, ModuleType], spec_root: Path) -> None:
    expected = {"inputSchema", "outputSchema", "requestedSchema"}
    for v in corpus.versions(spec_root):
        pkg = packages[v.name]
        index = TypeIndex(corpus.resolved(v))
        assert index.plain_json, v.name
        for name in index.plain_json:
            assert not hasattr(pkg.models, name), (v.name, name)  # no dataclass
            assert name in pkg.validators.TYPES, (v.name, name)  # still validated
        props = {p.name for c in index.classes.values() for p in c.obj.properties
                 if isinstance(p.type, type(c.obj)) and p.type.name in index.plain_json}  # fmt: skip
        assert props <= expected and "inputSchema" in props, (v.name, props)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                  "properties": {"a": {"type": "string"}}, "required": ["a"]}  # fmt: skip
        tool = pkg.decode("Tool", {"name": "t", "inputSchema": schema})
        assert type(tool.input_schema) is dict and tool.input_schema == schema, v.name
        with pytest.raises(pkg.ValidationError) as err:  # the declared shape is still checked
            pkg.decode("Tool", {"name": "t", "inputSchema": {"type": "array"}})
        assert [e.path for e in err.value.errors] == ["$.inputSchema.type"], v.name


# 2. Wire messages around a typed payload, in every era ----------------------------------------


def _request_class(pkg: ModuleType, method: str) -> type:
    cls = _reg(pkg).METHODS[method].message_class
    assert isinstance(cls, type)
    return cls


def _envelope(pkg: ModuleType) -> object:
    """2026-07-28 on: the `_meta` every request carries (protocol version, client, capabilities)."""
    return pkg.RequestMetaObject(
        io_modelcontextprotocol_protocol_version=_reg(pkg).PROTOCOL_VERSION,
        io_modelcontextprotocol_client_info=pkg.Implementation(name="c", version="1"),
        io_modelcontextprotocol_client_capabilities=pkg.ClientCapabilities(),
    )


def _fields(cls: type) -> set[str]:
    return set(cls.__dataclass_fields__)  # type: ignore[attr-defined]


def test_message_builders_in_every_era(packages: dict[str, ModuleType]) -> None:
    for version, pkg in packages.items():
        reg = _reg(pkg)
        info = reg.METHODS["tools/list"]
        cls = _request_class(pkg, "tools/list")
        kw: dict[str, object] = {"id": 7} if "id" in _fields(cls) else {}
        if not info.params_optional:  # the per-request _meta envelope
            kw["params"] = info.params_class(meta=_envelope(pkg))
        obj = cls(**kw)
        wire = reg.request(obj, id=7)
        assert wire["jsonrpc"] == "2.0" and wire["id"] == 7 and wire["method"] == "tools/list"
        assert reg.parse_message(wire).id == 7, version
        if "id" not in kw:  # 2024-11-05..2025-06-18: requests carry no id of their own
            with pytest.raises(reg.ProtocolError):
                reg.request(obj)
        else:
            assert reg.request(obj) == wire  # the object's own id
            assert reg.parse_message(wire).obj == obj
            with pytest.raises(reg.ProtocolError):
                reg.request(obj, id=8)  # disagreeing ids
        note = _request_class(pkg, "notifications/cancelled")
        params_cls = reg.METHODS["notifications/cancelled"].params_class
        sent = reg.notification(note(params=params_cls(request_id=7)))
        assert sent["jsonrpc"] == "2.0" and "id" not in sent
        assert reg.parse_message(sent).kind == "notification", version
        rt: dict[str, object] = {}
        if "result_type" in _fields(pkg.ListToolsResult):  # 2026-07-28 on: cacheable results
            rt = {"result_type": "complete", "ttl_ms": 0, "cache_scope": "private"}
        tools = [pkg.Tool(name="t", input_schema={"type": "object"})]
        result = pkg.ListToolsResult(tools=tools, **rt)
        answer = reg.result(7, result)
        assert answer == {"jsonrpc": "2.0", "id": 7, "result": pkg.encode(result)}, version
        assert reg.parse_result("tools/list", reg.parse_message(answer)) == result
        err = reg.error(7, -32601, "no such method", data={"m": "x"})
        assert err == {"jsonrpc": "2.0", "id": 7,
                       "error": {"code": -32601, "message": "no such method", "data": {"m": "x"}}}  # fmt: skip
        assert reg.parse_message(err).kind == "error", version
        with pytest.raises(reg.ProtocolError):
            reg.notification(obj)  # a request is not a notification


def test_input_required_requests_travel_without_envelope(packages: dict[str, ModuleType]) -> None:
    pkg = packages["2026-07-28"]
    reg = _reg(pkg)
    via = {i.method: i.via for i in reg.METHODS.values()}
    method = next(
        m for m, v in via.items() if v == "input_required" and reg.METHODS[m].kind == "request"
    )
    cls = _request_class(pkg, method)
    example = next(e for e in corpus.examples("2026-07-28") if e.type_name == cls.__name__)
    obj = pkg.decode(cls, example.instance)
    wire = reg.request(obj)
    assert "jsonrpc" not in wire and "id" not in wire and wire["method"] == method
    with pytest.raises(reg.ProtocolError):
        reg.request(obj, id=1)
    required = pkg.InputRequiredResult(
        input_requests={"a": obj}, request_state="s", result_type="input_required"
    )
    answer = reg.result(3, required)
    assert answer["result"]["inputRequests"]["a"] == wire
    assert reg.parse_result("tools/call", answer["result"]) == required


def test_request_with_meta_envelope(packages: dict[str, ModuleType]) -> None:
    pkg = packages["2026-07-28"]
    meta = _envelope(pkg)
    params = pkg.CallToolRequestParams(name="echo", arguments={"text": "hi"}, meta=meta)
    wire = _reg(pkg).request(pkg.CallToolRequest(id=1, params=params))
    assert wire["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == (
        _reg(pkg).PROTOCOL_VERSION
    )
    assert _reg(pkg).parse_message(json.loads(json.dumps(wire))).obj.params == params


def test_example_spells_no_fixed_field() -> None:
    example = (Path(__file__).resolve().parents[1] / "examples" / "call_tools.py").read_text()
    assert 'jsonrpc="2.0"' not in example and "method=method" not in example


# 9. Reviewed names: no ErrorError stutter, the former names deprecated aliases (issue 39) -------


def test_reviewed_names_replace_stuttering_ones(packages: dict[str, ModuleType]) -> None:
    old, new = packages["2025-06-18"], packages[LATEST]
    assert "Error" in old.__all__ and "JSONRPCErrorError" not in old.__all__
    assert "URLElicitationRequiredErrorObject" in new.__all__
    assert "URLElicitationRequiredErrorData" in new.__all__
    assert not [n for n in new.__all__ if "ErrorError" in n]
    with pytest.warns(DeprecationWarning, match="JSONRPCErrorError is now Error"):
        assert old.JSONRPCErrorError is old.Error  # the same class: isinstance keeps working
    with pytest.warns(DeprecationWarning, match="is now URLElicitationRequiredErrorData"):
        from_old = new.URLElicitationRequiredErrorErrorData
    assert from_old is new.URLElicitationRequiredErrorData
    with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
        new.NoSuchName  # noqa: B018


USES_A_FORMER_NAME = """
from {pkg} import URLElicitationRequiredErrorErrorData, URLElicitationRequiredErrorData

def holder(d: URLElicitationRequiredErrorData) -> object:
    return URLElicitationRequiredErrorErrorData
"""


@pytest.mark.slow
def test_a_former_name_is_reported_deprecated_by_mypy(
    packages: dict[str, ModuleType], tmp_path: Path
) -> None:
    pkg = Path(packages[LATEST].__file__ or "").parent
    user = pkg.parent / "former_user.py"
    user.write_text(USES_A_FORMER_NAME.format(pkg=pkg.name), encoding="utf-8")
    # PEP 702 reports are opt-in in mypy (`deprecated` error code); pyright shows them as hints
    proc = mypy_strict([pkg, user], tmp_path / "mypy-cache", "--enable-error-code=deprecated")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(user.name)]
    assert any(
        "is deprecated: URLElicitationRequiredErrorErrorData is now" in ln for ln in lines
    ), proc.stdout[-3000:]
