"""Black stays the judge: every generated module is a fixed point of black, every statement the
views write within the line limit is one black leaves as it is (a run keeps those as written), and
pyfit's layouts of long lines are black's.

The official versions' output is also pinned by hash (tests/golden/bindings_sha256.json, made with
black on whole modules); these tests say it directly, for the example schemas and a bounded sample
of the fuzzer's too.
"""

from __future__ import annotations

from pathlib import Path

import corpus
import pytest
import random_schemas
from hypothesis import HealthCheck, given, settings

from codegen import bindings
from codegen.bindings import pyfit, pyformat, pylayout
from codegen.pipeline import load, load_text

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = (
    "schemas/example/v1/schema.ts",
    "schemas/example/v2/schema.ts",
    "schemas/fixtures/hostile/injection.ts",
)


@pytest.fixture(autouse=True)
def no_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_CODEGEN_CACHE_DIR", "")
    monkeypatch.setattr(pyformat, "_memory", {})
    pyformat.format_python.cache_clear()


def unformatted(resolved: object) -> dict[str, str]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bindings, "format_python", lambda text: text)
        return bindings.render_package(resolved)  # type: ignore[arg-type]


def assert_fixed_points(files: dict[str, str], label: str) -> None:
    for name, text in files.items():
        if name.endswith(".py"):
            assert pyformat.format_whole(text) == text, f"{label}/{name} is not black's layout"


def assert_fast_path_is_black(raw: dict[str, str], label: str) -> None:
    """The formatter gives what black gives on the whole module, and every statement within the
    limit (kept as written) is one black keeps as written."""
    for name, text in raw.items():
        if not name.endswith(".py") or name.startswith("_"):
            continue
        expected = pyformat.format_whole(text)
        assert pyformat.format_python.__wrapped__(text) == expected, f"{label}/{name}"
        statements = pylayout.split(text)
        if statements is None:
            continue
        lines = text.split("\n")
        for st in statements:
            chunk = lines[st.start : st.end]
            if st.kind in ("def", "assign", "import") and pylayout.within_width(chunk):
                joined = "\n".join(chunk)
                assert pyformat._format_statement(joined) == joined, f"{label}/{name}:{st.start}"


@pytest.mark.slow
@pytest.mark.parametrize("schema", EXAMPLES)
def test_examples(schema: str) -> None:
    resolved = load(str(REPO / schema))
    assert_fast_path_is_black(unformatted(resolved), schema)
    assert_fixed_points(bindings.render_package(resolved), schema)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=random_schemas.schemas())
def test_random_schemas(text: str) -> None:
    resolved = load_text(text, "r.ts")
    assert_fast_path_is_black(unformatted(resolved), "random")
    assert_fixed_points(bindings.render_package(resolved), "random")


@pytest.mark.slow
@pytest.mark.spec
@pytest.mark.parametrize("version", corpus.version_names())
def test_official_versions_are_fixed_points(version: str) -> None:
    schema = corpus.get_version(version).schema_ts  # skips (fails under CI) without the corpus
    files = bindings.render_package(load(str(schema)))
    assert_fixed_points(files, version)


@pytest.mark.slow
@pytest.mark.spec
@pytest.mark.parametrize("version", corpus.version_names())
def test_official_versions_need_no_black_call(
    version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cold generation speed: the views and pyfit lay out every official version alone (black on
    a line is ~10 ms, and its import more)."""
    monkeypatch.setenv("MCP_CODEGEN_JOBS", "1")  # count the calls in this process
    schema = corpus.get_version(version).schema_ts
    before = dict(pyformat.BLACK_CALLS)
    bindings.render_package(load(str(schema)))
    assert pyformat.BLACK_CALLS == before


# -- pyfit's layouts on their own ----------------------------------------------------------------

LONG_LINES = [
    # right-hand sides black wraps in parentheses of its own
    "        self.extra = {} if _KEYS_RequestMetaObject.issuperset(v) else _extras(v, _KEYS_RequestMetaObject)",
    "        self.extra = {} if _KEYS_NotificationMetaObjectLonger.issuperset(value) else _extras(value, _KEYS_NotificationMetaObjectLonger)",
    '        self.client_info = (Implementation._from_valid(v["io.modelcontextprotocol/clientInfo"]) if "io.modelcontextprotocol/clientInfo" in v else UNSET)',
    '            out["io.modelcontextprotocol/clientInfo"] = self.io_modelcontextprotocol_client_info._to_dict()',
    "        self.io_modelcontextprotocol_client_capabilities = io_modelcontextprotocol_client_capabilities",
    "ClientRequest: TypeAlias = DiscoverRequest | CompleteRequest | GetPromptRequest | ListPromptsRequest | ListResourcesRequest",
    'LoggingLevel: TypeAlias = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]',
    '    method: Literal["notifications/subscriptions/acknowledged"] = "notifications/subscriptions/acknowledged"',
    # one operator before the last bracket: black splits at that bracket
    '    return x is _ABSENT or x in ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")',
    "    return x is _ABSENT or not (not (type(x) is int or (type(x) is float and _isfinite(x))) or (x < 0 or x > 1))",
    '    if v.get("level") not in ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"):',
    # comprehensions, a long annotation, a Literal parameter default
    '        self.contents = [_build_TextResourceContents_or_BlobResourceContents(i) for i in v["contents"]]',
    '        self.content = [_build_TextContent_or_ImageContent_or_AudioContent_or_EmbeddedResource(i) for i in v["content"]]',
    "_CHECKS: dict[str | type, Callable[[object], bool]] = {name: check for name, (check, _) in TYPES.items()}",
    '_BY_PromptReference_or_ResourceTemplateReference: dict[str, Callable[[Any], PromptReference | ResourceTemplateReference]] = {"ref/prompt": PromptReference._from_valid, "ref/resource": ResourceTemplateReference._from_valid,}',
    '    def __init__(self, *, method: Literal["notifications/resources/list_changed"] = "notifications/resources/list_changed", params: NotificationParams | UnsetType = UNSET,) -> None:',
    (
        '        errs.append(_mismatch(p + \'["io.modelcontextprotocol/logLevel"]\', "LoggingLevel of'
        ' many words that go on and on", x))'
    ),
    (
        "def _explain_SubscriptionsListenRequestParams(v: object, p: str, errs: list[ErrorDetail], d:"
        " int = 0) -> None:"
    ),
    (
        "    return (type(v) is str or (type(v) is int or (type(v) is float and _isfinite(v))) or type(v)"
        " is bool or v is None)"
    ),
    (
        "    if not (is_SingleSelectEnumSchema(v) or is_MultiSelectEnumSchema(v) or"
        " is_LegacyTitledEnumSchema(v)):"
    ),
    (
        '    _explain_union(v, p, errs, "A | B", ((("object",), _explain_A), (("object",), _explain_B),'
        " (('array',), _explain_C)))"
    ),
    (
        'X = frozenset({"progressToken", "io.modelcontextprotocol/protocolVersion",'
        ' "io.modelcontextprotocol/clientInfo"})'
    ),
]


@pytest.mark.parametrize("line", LONG_LINES)
def test_fit_is_blacks_layout(line: str) -> None:
    indent = len(line) - len(line.lstrip(" "))
    wrap = pyformat.stand_in_blocks(indent // 4, line)
    opens = line.endswith(":")
    tail = " " * (indent + 4) + "pass\n" if opens else ""
    source = wrap + line + "\n" + tail
    out = pyfit.fit(line)
    assert out is not None, "a shape generated code has"
    assert pyformat.format_whole(source) == wrap + "\n".join(out) + "\n" + tail
    assert pyformat.format_python(source) == pyformat.format_whole(source)
