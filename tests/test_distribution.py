"""One installable distribution for several protocol versions (`mcp-codegen A.ts B.ts ... -o DIR
--package NAME`): the layout, the top level's golden files, version identity, the versions module
(tables, negotiation, parse by version) on the example and on the seven official versions (the
tables against each schema's official message unions), the command line (`--check`, errors),
and type checking as a user gets it: the distribution pip-installed into a fresh venv, a typed
client clean under `mypy --strict` and pyright, seeded mistakes each reported at its line.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import REPO, import_package, mypy_strict, ruff_check
from golden_files import check_golden, load_from_repo

from codegen import ir, targets
from codegen.analysis.methods import union_members
from codegen.analysis.versions import identify
from codegen.cli import main
from codegen.errors import SchemaError
from codegen.pipeline import load, load_text
from codegen.targets import Request
from codegen.targets.python.bindings import RUNTIME_MODULES, VERSION_MODULES
from codegen.targets.python.distribution import (
    render_distribution,
    render_top,
    top_level_names,
    versions_of,
)
from codegen.templating import static_source
from codegen.write import write_tree

EXAMPLES = ["schemas/example/v1/schema.ts", "schemas/example/v2/schema.ts"]
PACKAGE = "mcp_example"
GOLDEN = REPO / "generated" / "example_dist"
TOP_FILES = ["pyproject.toml", f"{PACKAGE}/__init__.py", f"{PACKAGE}/versions.py"]
UPDATE = "pytest --update-golden tests/test_distribution.py"
TYPING = Path(__file__).resolve().parent / "typing"


@pytest.fixture(scope="module")
def example_files() -> dict[str, str]:
    return render_distribution([load_from_repo(p) for p in EXAMPLES], PACKAGE)


@pytest.fixture(scope="module")
def example_root(example_files: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dist")
    write_tree(root, example_files)
    return root


@pytest.fixture
def example(example_root: Path) -> ModuleType:
    return import_package(example_root, PACKAGE)


# -- layout and golden top level --------------------------------------------------------------


def test_layout(example_files: dict[str, str]) -> None:
    subs = ["v1_0", "v2_0"]
    expected = {"pyproject.toml", *(f"{PACKAGE}/{f}" for f in
                ("__init__.py", "py.typed", "versions.py", "_runtime.py", "_protocol.py",
                 "_tolerance.py", "_versioning.py", "_conversion.py"))}  # fmt: skip
    for sub in subs:
        expected |= {f"{PACKAGE}/{sub}/{m.path}" for m in VERSION_MODULES}
        expected.add(f"{PACKAGE}/{sub}/schema.json")
    expected |= {f"{PACKAGE}/app/{m}" for m in  # the application types (tests/test_apptypes.py)
                 ("__init__.py", "models.py", "codec.py", "validators.py", "convert.py")}  # fmt: skip
    assert set(example_files) == expected
    for m in RUNTIME_MODULES:  # the runtime once, as its source under the generated header
        assert example_files[f"{PACKAGE}/{m.path}"].endswith(static_source(m.source))
    for sub in subs:
        for m in VERSION_MODULES:
            text = example_files[f"{PACKAGE}/{sub}/{m.path}"]
            assert "from ._runtime" not in text and "from ._protocol" not in text
            assert "regenerate with `mcp-codegen <each version's schema.ts" in text


@pytest.mark.parametrize("rel", TOP_FILES)
def test_top_level_golden(example_files: dict[str, str], rel: str, update_golden: bool) -> None:
    check_golden(GOLDEN / rel, example_files[rel], update_golden, UPDATE)


def test_pyproject(example_files: dict[str, str]) -> None:
    import tomllib

    data = tomllib.loads(example_files["pyproject.toml"])
    assert data["build-system"]["build-backend"] == "flit_core.buildapi"
    assert data["project"]["name"] == PACKAGE
    assert data["project"]["dependencies"] == []
    assert data["project"]["requires-python"] == ">=3.10"
    # `pip install 'NAME[fast]'`: orjson for JSON text, at the version the tests pin or newer
    assert data["project"]["optional-dependencies"] == {"fast": ["orjson>=3.13,<4"]}
    import orjson

    assert orjson.__version__.startswith("3.") and int(orjson.__version__.split(".")[1]) >= 13


def test_each_version_embeds_the_jsonschema_targets_document(
    example_files: dict[str, str],
) -> None:
    """A subpackage's schema.json is the jsonschema target's `<label>/schema.json` for the
    same schemas (the python target requires it: tests/test_targets.py)."""
    schemas = tuple(load_from_repo(p) for p in EXAMPLES)
    documents = targets.get("jsonschema").render(Request(schemas, {}, ("v1", "v2")))
    assert set(documents) == {"v1/schema.json", "v2/schema.json"}
    for label, sub in (("v1", "v1_0"), ("v2", "v2_0")):
        assert example_files[f"{PACKAGE}/{sub}/schema.json"] == documents[f"{label}/schema.json"]


def test_two_versions_from_folders_of_one_name_each_embed_their_document(
    tmp_path: Path,
) -> None:
    """The jsonschema target refuses two documents at one `<label>/schema.json`; the
    distribution asks for them under its subpackages, which differ, so `a/x.ts` and `b/x.ts`
    (both labelled `x`) still make a distribution, as before it embedded that target's output."""
    paths = []
    for folder, example in zip("ab", EXAMPLES):
        (tmp_path / folder).mkdir()
        paths.append(tmp_path / folder / "x.ts")
        shutil.copyfile(REPO / example, paths[-1])
    schemas = [load(str(p)) for p in paths]
    files = render_distribution(schemas, "mcp_x", formatter=None)
    jsonschema = targets.get("jsonschema")
    for sub, schema in zip(("v1_0", "v2_0"), schemas):
        document = jsonschema.render(Request((schema,), {}, ("x",)))["schema.json"]
        assert files[f"mcp_x/{sub}/schema.json"] == document


@pytest.mark.slow
def test_top_level_passes_mypy_and_ruff(example_root: Path, tmp_path: Path) -> None:
    pkg = example_root / PACKAGE
    proc = mypy_strict([pkg], tmp_path / ".mypy-cache")
    assert proc.returncode == 0, proc.stdout
    proc = ruff_check([pkg])
    assert proc.returncode == 0, proc.stdout


# -- version identity ----------------------------------------------------------------------------

_TINY = """
export const LATEST_PROTOCOL_VERSION = "{v}";
export interface Result {{ [key: string]: unknown; }}
/** @category `ping` */
export interface PingRequest {{ method: "ping"; id: string | number; }}
export type ClientRequest = PingRequest;
export type ServerResult = Result;
"""


def _tiny(path: str, version: str) -> ir.Resolved:
    return load_text(_TINY.format(v=version), path)


def test_identity_release_and_draft() -> None:
    got = versions_of([_tiny("s/1.0/schema.ts", "1.0"), _tiny("s/draft/schema.ts", "1.0"),
                    _tiny("s/next/schema.ts", "2.0-rc")])  # fmt: skip
    assert [(v.key, v.subpackage, v.negotiable) for v in got] == [
        ("1.0", "v1_0", True), ("draft", "draft", False), ("2.0-rc", "v2_0_rc", True)]  # fmt: skip


def test_identity_conflicts() -> None:
    with pytest.raises(SchemaError, match="none of them is in a directory named '1.0'"):
        identify([_tiny("a/x/schema.ts", "1.0"), _tiny("a/y/schema.ts", "1.0")])
    with pytest.raises(SchemaError, match="version key '1.0' is also that of"):
        identify([_tiny("a/1.0/schema.ts", "1.0"), _tiny("b/1.0/schema.ts", "1.0")])
    with pytest.raises(SchemaError, match="subpackage 'v1_0' is also that of"):
        versions_of([_tiny("a/p/schema.ts", "1.0"), _tiny("b/q/schema.ts", "1-0")])
    identify([_tiny("a/p/schema.ts", "1.0"), _tiny("b/q/schema.ts", "1-0")])  # keys differ


def test_two_labels_spelling_one_subpackage_are_refused_where_the_later_stands() -> None:
    """Drafts keyed by their labels `a-b` and `a.b` (each sharing 1.0 with its release) are
    two versions, but both would be subpackage `a_b`: a located error at the second."""
    schemas = [_tiny(f"s/{label}/schema.ts", "1.0") for label in ("1.0", "a-b", "a.b")]
    assert [v.key for v in identify(schemas)] == ["1.0", "a-b", "a.b"]
    with pytest.raises(SchemaError) as info:
        versions_of(schemas)
    assert (
        str(info.value) == "s/a.b/schema.ts:1:1: subpackage 'a_b' is also that of s/a-b/schema.ts"
    )
    for label, why in (
        ("app", "a module of the distribution's top level"),
        ("_runtime", "a module"),
        ("server", "a module"),
        ("client", "a module"),
        ("_session", "a module"),
        ("_versioning", "a module"),
        ("_tolerance", "a module"),
    ):
        with pytest.raises(SchemaError, match=f"subpackage '{label}' is {why}"):
            versions_of([_tiny("s/1.0/schema.ts", "1.0"), _tiny(f"s/{label}/schema.ts", "1.0")])
    got = versions_of([_tiny("s/1.0/schema.ts", "1.0"), _tiny("s/class/schema.ts", "1.0")])
    assert [v.subpackage for v in got] == ["v1_0", "vclass"]  # a Python keyword: `v` first


@pytest.mark.spec
def test_every_top_level_module_is_reserved(spec_root: Path) -> None:
    """What a distribution with application types and sessions writes at its top level is
    exactly what a version's subpackage may not be called (`top_level_names`)."""
    schemas = [load(str(spec_root / v / "schema.ts")) for v in ("2025-06-18", "2025-11-25")]
    files = render_distribution(schemas, "mcp_x", formatter=None)
    written = {p.split("/")[1].removesuffix(".py") for p in files if p.startswith("mcp_x/")}
    written -= {v.subpackage for v in versions_of(schemas)} | {"__init__", "py.typed"}
    assert written == top_level_names()


# -- the versions module on the example --------------------------------------------------------


def test_shared_runtime(example: ModuleType) -> None:
    v1, v2 = example.bindings("1.0"), example.bindings("2.0")
    assert v1.UNSET is v2.UNSET is example.UNSET
    assert v1.ValidationError is v2.ValidationError is example.ValidationError
    assert example.versions.registry("1.0").ProtocolError is example.ProtocolError
    with pytest.raises(example.ValidationError):
        v2.decode("Widget", {})


def test_versions_and_bindings(example: ModuleType) -> None:
    assert example.PROTOCOL_VERSIONS == ("1.0", "2.0")
    assert example.LATEST_PROTOCOL_VERSION == "2.0"
    assert example.bindings("2.0").__name__ == f"{PACKAGE}.v2_0"
    with pytest.raises(example.versions.UnsupportedVersionError) as err:
        example.bindings("3.0")
    assert str(err.value) == "unsupported protocol version '3.0'; supported: 1.0, 2.0"
    assert isinstance(err.value, example.ProtocolError)


def test_parse_by_version(example: ModuleType) -> None:
    watch = {"jsonrpc": "2.0", "id": 1, "method": "widgets/watch", "params": {"ids": ["w"]}}
    message = example.parse_message(watch, version="2.0", direction="client_to_server")
    assert type(message.obj) is example.bindings("2.0").WatchWidgetRequest
    assert example.encode(message, version="2.0") == watch
    with pytest.raises(example.ProtocolError) as err:
        example.parse_message(watch, version="1.0")
    assert (err.value.method, err.value.protocol_version) == ("widgets/watch", "1.0")
    assert "widgets/watch" in str(err.value) and "1.0" in str(err.value)
    result = example.parse_result("widgets/lock", {"granted": True}, version="1.0")
    assert type(result) is example.bindings("1.0").LockWidgetResult
    with pytest.raises(example.ProtocolError, match="not defined in protocol version 2.0"):
        example.versions.method_info("widgets/lock", "2.0")
    assert example.versions.method_info("widgets/lock", "1.0").result_type == "LockWidgetResult"


def test_tables_are_the_registries(example: ModuleType) -> None:
    versions = example.versions
    for key in versions.SUBPACKAGES:
        methods = versions.registry(key).METHODS
        sent: dict[str, set[str]] = {"CLIENT_REQUESTS": set(), "SERVER_REQUESTS": set(),
                                     "CLIENT_NOTIFICATIONS": set(), "SERVER_NOTIFICATIONS": set()}  # fmt: skip
        for info in methods.values():
            side = {"client_to_server": ["CLIENT"], "server_to_client": ["SERVER"],
                    "both": ["CLIENT", "SERVER"]}[info.direction]  # fmt: skip
            for s in side:
                sent[f"{s}_{info.kind.upper()}S"].add(info.method)
        for table, names in sent.items():
            assert {m for m, v in getattr(versions, table) if v == key} == names, table
        for (method, v), types in versions.SERVER_RESULTS.items():
            if v == key:
                assert types == methods[method].result_types
    assert versions.versions_of("widgets/lock") == ("1.0",)
    assert versions.versions_of("ping") == ("1.0", "2.0")
    assert versions.METHOD_VERSIONS["widgets/watch"] == ("2.0",)


def test_initialize_negotiation(example: ModuleType) -> None:
    v = example.versions
    assert v.HANDSHAKES == {"1.0": "initialize", "2.0": "initialize"}
    assert v.initialize_version() == "2.0"
    assert v.initialize_version(["1.0"]) == "1.0"
    assert v.answer_initialize("1.0") == "1.0"  # supported: the requested one
    assert v.answer_initialize("0.9") == "2.0"  # else the server's latest
    assert v.answer_initialize("2.0", ["1.0"]) == "1.0"
    assert v.accept_initialize("1.0") == "1.0"
    with pytest.raises(v.UnsupportedVersionError):
        v.accept_initialize("0.9")  # the client must disconnect
    assert v.META_PROTOCOL_VERSION is None


# -- command line -----------------------------------------------------------------------------


@pytest.mark.slow
def test_cli_distribution_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "dist"
    args = [*(str(REPO / p) for p in EXAMPLES), "-o", str(out), "--package", "wcp"]
    assert main(args) == 0
    assert (out / "pyproject.toml").is_file() and (out / "wcp" / "v2_0" / "models.py").is_file()
    assert main([*args, "--check"]) == 0
    (out / "wcp" / "versions.py").write_text("# edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main([*args, "--check"]) == 1
    assert "wcp/versions.py: differs" in capsys.readouterr().err


def test_cli_one_schema_with_package(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    assert main([str(REPO / EXAMPLES[0]), "-o", str(out), "--package", "wcp"]) == 0
    assert sorted(p.name for p in (out / "wcp").iterdir()) == [
        "__init__.py", "_protocol.py", "_runtime.py", "_tolerance.py", "_versioning.py",
        "py.typed", "v1_0", "versions.py"]  # fmt: skip


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schemas = [str(REPO / p) for p in EXAMPLES]
    assert main([*schemas, "-o", str(tmp_path / "x")]) == 2
    assert "--package NAME" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
    assert main([*schemas, "-o", str(tmp_path / "x"), "--package", "Not-A-Name"]) == 2
    assert "lower-case Python identifier" in capsys.readouterr().err


# -- the seven official versions ----------------------------------------------------------------

UNIONS = {  # table -> the official union it must list (per version)
    "CLIENT_REQUESTS": "ClientRequest",
    "SERVER_REQUESTS": "ServerRequest",
    "CLIENT_NOTIFICATIONS": "ClientNotification",
    "SERVER_NOTIFICATIONS": "ServerNotification",
    "INPUT_REQUESTS": "InputRequest",
}
RESULTS = {"SERVER_RESULTS": "ServerResult", "CLIENT_RESULTS": "ClientResult"}


@pytest.fixture(scope="module")
def official_top(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The top level of the seven-version distribution (no subpackages: the tables only)."""
    schemas = [corpus.resolved(name) for name in corpus.version_names()]
    root = tmp_path_factory.mktemp("official")
    write_tree(root, render_top(versions_of(schemas), "mcp_official"))
    return import_package(root, "mcp_official")


@pytest.mark.spec
def test_official_versions(official_top: ModuleType) -> None:
    v = official_top.versions
    assert v.PROTOCOL_VERSIONS == ("2024-11-05", "2025-03-26", "2025-06-18", "DRAFT-2025-v3",
                                   "2025-11-25", "2026-07-28")  # fmt: skip
    assert v.SUBPACKAGES["draft"] == "draft" and v.SUBPACKAGES["2026-07-28"] == "v2026_07_28"
    assert v.HANDSHAKES["2025-11-25"] == "initialize"
    assert v.HANDSHAKES["2026-07-28"] == v.HANDSHAKES["draft"] == "server/discover"
    assert v.META_PROTOCOL_VERSION == "io.modelcontextprotocol/protocolVersion"
    assert v.UNSUPPORTED_PROTOCOL_VERSION == -32022


@pytest.mark.spec
@pytest.mark.parametrize("name", corpus.version_names())
def test_official_tables_match_unions(official_top: ModuleType, name: str) -> None:
    v = official_top.versions
    key = next(k for k, label in v.LABELS.items() if label == name)
    types = corpus.resolved(name).type_map()
    for table, union in UNIONS.items():
        listed = {t for (_, k), t in getattr(v, table).items() if k == key}
        assert listed == set(union_members(types, union)), (table, name)
    for table, union in RESULTS.items():
        rows = [ts for (_, k), ts in getattr(v, table).items() if k == key]
        results, alternatives = {ts[0] for ts in rows}, {t for ts in rows for t in ts[1:]}
        official = set(union_members(types, union))
        # `Result`: a schema without `EmptyResult` answers with it; `CreateTaskResult`: task
        # augmentation is stated in prose, not in the unions (codegen/analysis/methods.py).
        assert results - {"Result"} <= official, (table, name, results - official)
        assert alternatives - {"CreateTaskResult"} <= official, (table, name, alternatives)
        # EmptyResult and task results may be listed for methods answered the other way
        # (input responses travel inside the retried request).
        inputs = {t for (_, k), ts in v.INPUT_RESPONSES.items() if k == key for t in ts}
        missing = official - results - alternatives - inputs - {"EmptyResult"}
        assert not missing, (table, name, missing)


@pytest.mark.spec
def test_discover_era_negotiation(official_top: ModuleType) -> None:
    v = official_top.versions
    assert v.initialize_version() == "2025-11-25"
    assert v.answer_initialize("2026-07-28") == "2025-11-25"
    assert v.choose_version(["2025-11-25", "2026-07-28", "2099-01-01"]) == "2026-07-28"
    request = v.with_version({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "2026-07-28")
    assert request["params"]["_meta"] == {v.META_PROTOCOL_VERSION: "2026-07-28"}
    assert v.check_request_version(request) == "2026-07-28"
    with pytest.raises(v.UnsupportedVersionError) as err:
        v.check_request_version(v.with_version(request, "2025-06-18"))
    assert err.value.data() == {"supported": ["2026-07-28"], "requested": "2025-06-18"}
    with pytest.raises(v.UnsupportedVersionError):
        v.check_request_version({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})


# -- installed, type-checked as a user does ---------------------------------------------------

_EXPECT = re.compile(r"#\s*expect:\s*([a-z][a-z-]*)$")


def _install(dist: Path, venv: Path) -> Path:
    """pip-install `dist` into a fresh venv (not on sys.path); returns the venv's python."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", str(dist)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return python


def _expected(path: Path) -> dict[int, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {n: m.group(1) for n, line in enumerate(lines, 1) if (m := _EXPECT.search(line))}


def _mypy(python: Path, files: list[Path], cache: Path) -> subprocess.CompletedProcess[str]:
    mypy = str(Path(sys.executable).parent / "mypy")
    cmd = [mypy, "--strict", "--no-color-output", "--show-error-codes", f"--cache-dir={cache}",
           f"--python-executable={python}", *map(str, files)]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=files[0].parent)


def _check_typing(python: Path, client: Path, mistakes: Path, cache: Path) -> None:
    proc = _mypy(python, [client], cache)
    assert proc.returncode == 0, proc.stdout
    proc = _mypy(python, [mistakes], cache)
    found: dict[int, set[str]] = {}
    for line in proc.stdout.splitlines():
        m = re.match(rf"{re.escape(mistakes.name)}:(\d+): error: .*\[([\w-]+)\]$", line)
        if m:
            found.setdefault(int(m.group(1)), set()).add(m.group(2))
    expected = _expected(mistakes)
    for line, code in expected.items():
        assert code in found.get(line, set()), (line, code, proc.stdout)
    assert set(found) == set(expected), proc.stdout  # nothing else is reported
    _pyright(python, client, mistakes, set(expected))


def _pyright(python: Path, client: Path, mistakes: Path, lines: set[int]) -> None:
    """pyright, when it can be installed here (`pip install pyright` fetches node packages)."""
    venv_bin = python.parent
    if os.environ.get("MCP_CODEGEN_NO_PYRIGHT"):
        return
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "pyright"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if proc.returncode != 0:
        pytest.skip(f"pyright is not installable here: {proc.stderr[-500:]}")
    pyright = str(venv_bin / "pyright")
    cmd = [pyright, "--outputjson", "--pythonpath", str(python)]
    ok = subprocess.run([*cmd, str(client)], capture_output=True, text=True, check=False)
    report: dict[str, Any] = json.loads(ok.stdout)
    assert report["summary"]["errorCount"] == 0, ok.stdout[-3000:]
    bad = subprocess.run([*cmd, str(mistakes)], capture_output=True, text=True, check=False)
    report = json.loads(bad.stdout)
    reported = {d["range"]["start"]["line"] + 1 for d in report["generalDiagnostics"]
                if d["severity"] == "error"}  # fmt: skip
    assert reported == lines, bad.stdout[-3000:]


@pytest.mark.slow
def test_installed_example_type_checks(example_root: Path, tmp_path: Path) -> None:
    python = _install(example_root, tmp_path / "venv")
    proc = subprocess.run([str(python), "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"],
                          capture_output=True, text=True, check=True, cwd=tmp_path)  # fmt: skip
    assert "site-packages" in proc.stdout
    _check_typing(python, TYPING / "example_client.py", TYPING / "example_mistakes.py",
                  tmp_path / ".mypy-cache")  # fmt: skip


@pytest.mark.slow
@pytest.mark.spec
def test_installed_official_type_checks(spec_root: Path, tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    paths = [str(corpus.get_version(n).schema_ts) for n in corpus.version_names()]
    assert main([*paths, "-o", str(dist), "--package", "mcp_types"]) == 0
    assert {p.name for p in (dist / "mcp_types").iterdir() if p.is_dir()} == {
        "v2024_11_05", "v2025_03_26", "v2025_06_18", "vdraft_2025_v3", "v2025_11_25",
        "v2026_07_28", "draft", "app"}  # fmt: skip
    python = _install(dist, tmp_path / "venv")
    _check_typing(python, TYPING / "official_client.py", TYPING / "official_mistakes.py",
                  tmp_path / ".mypy-cache")  # fmt: skip
    shutil.rmtree(tmp_path / "venv", ignore_errors=True)
