"""Official schemas by version name: `mcp-codegen fetch`, the spec cache, and schema arguments
that are versions, against a local mirror on 127.0.0.1 (never the internet). Every failure mode
has its exact message, and none leaves anything in the cache."""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import pytest
from spec_server import closed_port_url, serve

from codegen.cli import main
from codegen.spec import SpecOptions, resolve_schema_arg
from codegen.spec.pins import pins

RELEASED = [n for n, p in pins().items() if not p.floats]
COMMIT = pins()["2025-11-25"].ref
SUGGEST = "to work without the network, use --spec-dir DIR (a local copy of the specification)"
KNOWN = "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty spec cache of this test's own; no local copy, no base URL from outside."""
    for var in ("MCP_SPEC_DIR", "MCP_SPEC_BASE_URL", "MCP_SPEC_TIMEOUT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MCP_SPEC_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def empty(cache: Path) -> bool:
    """Nothing at all in the cache: no version, no staging leftovers."""
    return not cache.exists() or list(cache.iterdir()) == []


@pytest.fixture
def fake_mirror(tmp_path: Path) -> Path:
    """A mirror whose 2025-11-25 files are not the released ones."""
    root = tmp_path / "fake"
    (root / "2025-11-25").mkdir(parents=True)
    (root / "2025-11-25" / "schema.ts").write_bytes(b"x" * 20)
    (root / "2025-11-25" / "schema.json").write_bytes(b"{}")
    return root


# ----------------------------------------------------------------------- failure modes


def test_unknown_version_lists_the_known_ones(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["2025-11-26"], ["diff", "2025-06-18", "2025-11-26"], ["ir", "latest"]):
        code, out, err = run(capsys, *argv)
        bad = argv[-1]
        assert (code, out) == (2, "")
        assert err == (
            f"mcp-codegen: unknown schema {bad!r}: no such file, and not a known version "
            f"(known versions: {KNOWN})\n"
        )
    code, _, err = run(capsys, "fetch", "2025-11-26")
    assert (code, err) == (
        2,
        f"mcp-codegen: unknown version '2025-11-26' (known versions: {KNOWN})\n",
    )
    assert empty(cache)


def test_no_network_names_the_url_and_suggests_spec_dir(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = closed_port_url()
    code, out, err = run(capsys, "2025-11-25", "--base-url", base, "-o", str(cache.parent / "o"))
    url = f"{base}/{COMMIT}/schema/2025-11-25/schema.ts"
    assert (code, out) == (2, "")
    assert err.startswith(f"mcp-codegen: cannot download {url}: ")
    assert err.endswith(f"Connection refused; {SUGGEST}\n")
    assert empty(cache) and not (cache.parent / "o").exists()


def test_offline_never_touches_the_network(
    cache: Path, fake_mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(fake_mirror) as mirror:
        code, _, err = run(capsys, "ir", "2025-11-25", "--offline", "--base-url", mirror.url)
    assert mirror.requests == []
    assert (code, err) == (
        2,
        (
            f"mcp-codegen: 2025-11-25 is not in the spec cache ({cache}) and --offline forbids "
            "downloading it: run `mcp-codegen fetch 2025-11-25` first, or use --spec-dir DIR\n"
        ),
    )


def test_hash_mismatch_names_file_and_hashes_and_caches_nothing(
    cache: Path, fake_mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(fake_mirror) as mirror:
        code, out, err = run(capsys, "fetch", "2025-11-25", "--base-url", mirror.url)
    url = f"{mirror.url}/{COMMIT}/schema/2025-11-25/schema.ts"
    expected = pins()["2025-11-25"].sha256("schema.ts")
    assert (code, out) == (2, "")
    assert err == (
        f"mcp-codegen: sha256 mismatch for 2025-11-25/schema.ts (from {url}): "
        f"expected {expected}, got {sha(b'x' * 20)}; nothing was cached\n"
    )
    assert empty(cache)


def test_truncated_response_caches_nothing(
    cache: Path, fake_mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(fake_mirror, mode="truncate") as mirror:
        code, _, err = run(capsys, "fetch", "2025-11-25", "--base-url", mirror.url)
    url = f"{mirror.url}/{COMMIT}/schema/2025-11-25/schema.ts"
    assert (code, err) == (
        2,
        (
            f"mcp-codegen: cannot download {url}: incomplete response (got 10 of 20 bytes); "
            f"{SUGGEST}\n"
        ),
    )
    assert empty(cache)


def test_hanging_server_times_out(
    cache: Path, fake_mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(fake_mirror, mode="hang") as mirror:
        code, _, err = run(capsys, "fetch", "draft", "--base-url", mirror.url, "--timeout", "0.5")
    url = f"{mirror.url}/main/schema/draft/schema.ts"
    assert (code, err) == (
        2,
        f"mcp-codegen: cannot download {url}: timed out after 0.5 s; {SUGGEST}\n",
    )
    assert empty(cache)


def test_missing_file_on_the_server(
    cache: Path, fake_mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(fake_mirror) as mirror:
        code, _, err = run(capsys, "fetch", "2025-06-18", "--base-url", mirror.url)
    url = f"{mirror.url}/{COMMIT}/schema/2025-06-18/schema.ts"
    assert (code, err) == (
        2,
        f"mcp-codegen: cannot download {url}: HTTP 404 Not Found; {SUGGEST}\n",
    )
    assert empty(cache)


def test_settings_come_from_the_environment(
    cache: Path,
    fake_mirror: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serve(fake_mirror, mode="hang") as mirror:
        monkeypatch.setenv("MCP_SPEC_BASE_URL", mirror.url)
        monkeypatch.setenv("MCP_SPEC_TIMEOUT", "0.25")
        code, _, err = run(capsys, "fetch", "draft")
    assert code == 2 and err.endswith(f"timed out after 0.25 s; {SUGGEST}\n")
    assert mirror.requests == ["/main/schema/draft/schema.ts"]
    monkeypatch.setenv("MCP_SPEC_TIMEOUT", "soon")
    code, _, err = run(capsys, "fetch", "draft")
    assert (code, err) == (
        2,
        (
            "mcp-codegen: $MCP_SPEC_TIMEOUT: expected a positive number of seconds (at most "
            "86400), not 'soon'\n"
        ),
    )


def test_path_arguments_are_left_to_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "2025-11-25").write_text("export interface X {}\n")  # an existing file wins
    options = SpecOptions(offline=True, cache_dir=tmp_path / "cache")
    assert resolve_schema_arg("2025-11-25", options) == "2025-11-25"
    assert resolve_schema_arg("missing.ts", options) == "missing.ts"
    assert resolve_schema_arg("some/dir/schema", options) == "some/dir/schema"


def test_spec_cache_directory(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$MCP_SPEC_CACHE_DIR, else $XDG_CACHE_HOME/mcp-codegen/spec."""
    from codegen.spec.options import default_cache_dir

    assert default_cache_dir() == cache
    monkeypatch.delenv("MCP_SPEC_CACHE_DIR")
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
        assert default_cache_dir() == Path("/xdg/mcp-codegen/spec")


# ----------------------------------------------------------------------- the real files


@pytest.mark.spec
def test_fetch_every_released_version_verified(
    spec_root: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(spec_root) as mirror:
        code, out, err = run(capsys, "fetch", "--base-url", mirror.url)
        assert (code, err) == (0, "")
        assert out.splitlines() == [
            f"fetched {n} at {COMMIT[:12]} into {cache / n} ({len(pins()[n].files)} files verified)"
            for n in RELEASED
        ]
        asked = len(mirror.requests)
        assert asked == sum(len(pins()[n].files) for n in RELEASED) == 142  # + 3 page templates
        assert all(r.startswith(f"/{COMMIT}/schema/") for r in mirror.requests)
        code, out, _ = run(capsys, "fetch", "2025-11-25", "--base-url", mirror.url)
        assert out == f"2025-11-25: already in {cache / '2025-11-25'} (3 files verified)\n"
        assert len(mirror.requests) == asked  # a verified cache entry is not downloaded again
    assert sorted(p.name for p in cache.iterdir()) == RELEASED
    for n in RELEASED:
        for rel, expected in pins()[n].files:
            assert sha((cache / n / rel).read_bytes()) == expected, (n, rel)


@pytest.mark.spec
def test_draft_floats(spec_root: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with serve(spec_root) as mirror:
        code, out, _ = run(capsys, "fetch", "draft", "--base-url", mirror.url)
    ts, js, mdx = (sha((spec_root / "draft" / f).read_bytes())
                   for f in ("schema.ts", "schema.json", "schema.mdx"))  # fmt: skip
    assert (code, out) == (
        0,
        (
            f"fetched draft from main into {cache / 'draft'} "
            f"(floats, not pinned: schema.ts sha256 {ts}, schema.json sha256 {js}, "
            f"schema.mdx sha256 {mdx})\n"
        ),
    )
    assert mirror.requests == [
        "/main/schema/draft/schema.ts",
        "/main/schema/draft/schema.json",
        "/main/schema/draft/schema.mdx",
    ]


@pytest.mark.spec
def test_tampered_copy_leaves_the_cache_as_it_was(
    spec_root: Path, cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(spec_root) as good:
        assert run(capsys, "fetch", "2025-11-25", "--base-url", good.url)[0] == 0
    before = {p: p.read_bytes() for p in (cache / "2025-11-25").iterdir()}
    tampered = tmp_path / "tampered"
    shutil.copytree(spec_root / "2025-11-25", tampered / "2025-11-25")
    bad = (spec_root / "2025-11-25" / "schema.json").read_bytes().replace(b'"', b"'", 1)
    (tampered / "2025-11-25" / "schema.json").write_bytes(bad)
    with serve(tampered) as mirror:
        code, _, err = run(capsys, "fetch", "2025-11-25", "--force", "--base-url", mirror.url)
    url = f"{mirror.url}/{COMMIT}/schema/2025-11-25/schema.json"
    assert (code, err) == (
        2,
        (
            f"mcp-codegen: sha256 mismatch for 2025-11-25/schema.json (from {url}): expected "
            f"{pins()['2025-11-25'].sha256('schema.json')}, got {sha(bad)}; nothing was cached\n"
        ),
    )
    assert [p.name for p in cache.iterdir()] == ["2025-11-25"]
    assert {p: p.read_bytes() for p in (cache / "2025-11-25").iterdir()} == before


@pytest.mark.spec
def test_a_damaged_cache_entry_is_fetched_again(spec_root: Path, tmp_path: Path) -> None:
    notes: list[str] = []
    with serve(spec_root) as mirror:
        options = SpecOptions(base_url=mirror.url, cache_dir=tmp_path / "c")
        path = resolve_schema_arg("2025-06-18", options, notes.append)
        Path(path).write_bytes(b"damaged")
        assert resolve_schema_arg("2025-06-18", options, notes.append) == path
        assert resolve_schema_arg("2025-06-18", options, notes.append) == path
    assert len(mirror.requests) == 6 and len(notes) == 2  # fetched twice (3 files), then a hit
    assert sha(Path(path).read_bytes()) == pins()["2025-06-18"].sha256("schema.ts")


@pytest.mark.spec
def test_spec_dir_in_either_layout_needs_no_network(
    spec_root: Path, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo_layout = tmp_path / "repo"
    (repo_layout / "schema" / "2025-03-26").mkdir(parents=True)
    shutil.copy(spec_root / "2025-03-26" / "schema.ts", repo_layout / "schema" / "2025-03-26")
    nowhere = closed_port_url()
    for root, expected in (
        (spec_root, spec_root / "2025-03-26" / "schema.ts"),
        (repo_layout, repo_layout / "schema" / "2025-03-26" / "schema.ts"),
    ):
        options = SpecOptions(spec_dir=root, base_url=nowhere, offline=True)
        assert resolve_schema_arg("2025-03-26", options) == str(expected)
    monkeypatch.setenv("MCP_SPEC_DIR", str(repo_layout))
    assert resolve_schema_arg("2025-03-26") == str(expected)
    assert empty(cache)


@pytest.mark.spec
def test_spec_dir_copy_that_is_not_the_released_file(
    spec_root: Path, cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = tmp_path / "local" / "2025-03-26"
    local.mkdir(parents=True)
    (local / "schema.ts").write_bytes(b"export interface X {}\n")
    code, _, err = run(capsys, "ir", "2025-03-26", "--spec-dir", str(local.parent), "--offline")
    assert (code, err) == (
        2,
        (
            f"mcp-codegen: sha256 mismatch for 2025-03-26/schema.ts (from {local / 'schema.ts'}): "
            f"expected {pins()['2025-03-26'].sha256('schema.ts')}, "
            f"got {sha(b'export interface X {}' + bytes([10]))}\n"
        ),
    )
