"""Black stays the judge: every generated module is a fixed point of black, and what the fast path
(pylayout's check, pyfit's layouts) lets through unformatted is exactly what black leaves as it is.

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
    """The fast path gives what black gives on the whole module, and every statement it keeps as
    written is one black keeps as written."""
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
            if st.kind in ("def", "assign", "import") and pylayout.stable(chunk):
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


# -- the check and the layouts on their own -------------------------------------------------------

BLACK_KEEPS = [
    'x = {\n    "a": 1,\n    "b": [\n        2,\n    ],\n}',
    (
        'def function_name(\n    a: int, b: str = "x", *, c: bool = False, d: float = 1.0, e: object = None\n'
        ") -> None:\n    return None"
    ),
    '__all__ = ["a", "b"]',
    "if x:\n    pass\nelse:\n    y = ['a\"b', 1]",
    'class C:\n    """Doc."""\n\n    x: int = 1\n\n    def f(self) -> int:\n        return 1',
]
BLACK_CHANGES = [
    (
        'def f(\n    a: int, b: str = "x", *, c: bool = False, d: float = 1.0, e: object = None\n) -> None:\n'
        "    return None"
    ),
    "x = {'a': 1}",
    "x = [1, 2,]",
    "return (a or b)",
    "f(\n    a\n)",
    "x = foo(\n    a,\n    b\n)",
    "def f():\n\n    return 1",
    "class C:\n    def f(self):\n        pass\n    x = 1",
    "x = (  1 )",
    "x = 0XFF",
    'def f():\n    """  Doc."""',
    "if x:\n    pass\n\n\n    y = 1",
    "x = {\n    a: b for a, b in c\n}",
    "x = {\n    a: b for a,\n    b in c,\n}",
    "from .models import (T0,)",
    "from .models import (\n    T0\n)",
]


@pytest.mark.parametrize("text", BLACK_KEEPS)
def test_stable_accepts_black_layout(text: str) -> None:
    assert pyformat.format_whole(text + "\n") == text + "\n"
    assert pylayout.stable(text.split("\n"))


@pytest.mark.parametrize("text", BLACK_CHANGES)
def test_stable_rejects_what_black_changes(text: str) -> None:
    assert not pylayout.stable(text.split("\n"))


LONG_LINES = [
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
def test_fit_is_blacks_layout_when_the_check_accepts_it(line: str) -> None:
    indent = len(line) - len(line.lstrip(" "))
    wrap = "".join("    " * i + "if _:\n" for i in range(indent // 4))
    opens = line.endswith(":")
    tail = " " * (indent + 4) + "pass\n" if opens else ""
    source = wrap + line + "\n" + tail
    out = pyfit.fit(line)
    if out is None or pylayout.problem_in(out):
        # Not a shape pyfit lays out: the formatter's other paths must still give black's layout.
        assert pyformat.format_python(source) == pyformat.format_whole(source)
        return
    assert pyformat.format_whole(source) == wrap + "\n".join(out) + "\n" + tail
