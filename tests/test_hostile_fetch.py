"""A hostile or broken spec server and bad download settings: a whole download has one deadline
(a server dripping bytes is cut off on time), a response larger than the pinned size (the draft:
a fixed cap) is refused without being read whole, memory stays at one chunk while downloading,
and every bad option or unwritable cache is one line, exit 2, with nothing left in the cache."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from cli_support import read_only
from spec_server import closed_port_url, serve

from codegen.cli import main
from codegen.spec import fetch
from codegen.spec.pins import pins

SUGGEST = "to work without the network, use --spec-dir DIR (a local copy of the specification)"
COMMIT = pins()["2025-11-25"].ref


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty spec cache of this test's own; no local copy, no settings from outside."""
    for var in ("MCP_SPEC_DIR", "MCP_SPEC_BASE_URL", "MCP_SPEC_TIMEOUT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MCP_SPEC_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def mirror_root(tmp_path: Path) -> Path:
    """What the mirror serves: files of the right names (their content does not matter here)."""
    root = tmp_path / "mirror"
    for version in ("2025-11-25", "draft"):
        (root / version).mkdir(parents=True)
        for name, _ in pins()[version].files:  # every file the version is fetched with
            (root / version / name).parent.mkdir(parents=True, exist_ok=True)
            (root / version / name).write_bytes(b"{}")
        (root / version / "schema.ts").write_bytes(b"export interface X {}\n" * 1000)
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def empty(cache: Path) -> bool:
    return not cache.exists() or list(cache.iterdir()) == []


@pytest.mark.parametrize("mode", ["drip", "drip-headers"])
@pytest.mark.slow
def test_a_dripping_server_is_cut_off_at_the_deadline(
    mode: str, cache: Path, mirror_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A byte every half second never trips a per-read timeout; the deadline covers the whole
    request, headers included."""
    with serve(mirror_root, mode=mode) as mirror:
        start = time.monotonic()
        code, err = run(capsys, "fetch", "2025-11-25", "--base-url", mirror.url, "--timeout", "2")
        took = time.monotonic() - start
    url = f"{mirror.url}/{COMMIT}/schema/2025-11-25/schema.ts"
    assert code == 2
    assert one_line(err) == f"mcp-codegen: cannot download {url}: timed out after 2 s; {SUGGEST}"
    assert took < 8, took  # about 2 s; a per-read timeout took until the server gave up
    assert 0 < mirror.sent < 20
    assert empty(cache)


def test_a_response_larger_than_the_pinned_size_is_refused_unread(
    cache: Path, mirror_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    limit = pins()["2025-11-25"].size("schema.ts")
    assert limit is not None
    with serve(mirror_root, mode="huge") as mirror:
        code, err = run(capsys, "fetch", "2025-11-25", "--base-url", mirror.url)
    url = f"{mirror.url}/{COMMIT}/schema/2025-11-25/schema.ts"
    assert code == 2
    assert one_line(err) == (
        f"mcp-codegen: cannot download {url}: the response has {1 << 30} bytes, more than the "
        f"{limit} allowed; {SUGGEST}"
    )
    assert mirror.sent < 64 << 20  # what the socket buffers took, not the gigabyte
    assert empty(cache)


def test_an_endless_draft_is_cut_at_the_cap(
    cache: Path,
    mirror_root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The draft has no pinned size and the response no length: read up to the cap, no more."""
    monkeypatch.setattr(fetch, "DRAFT_LIMIT", 4 << 20)
    with serve(mirror_root, mode="huge-unsized") as mirror:
        code, err = run(capsys, "fetch", "draft", "--base-url", mirror.url)
    url = f"{mirror.url}/main/schema/draft/schema.ts"
    assert code == 2
    assert one_line(err) == (
        f"mcp-codegen: cannot download {url}: the response is larger than the {4 << 20} bytes "
        f"allowed; {SUGGEST}"
    )
    assert mirror.sent < 64 << 20
    assert empty(cache)


def test_memory_stays_at_one_chunk_while_downloading(
    cache: Path, mirror_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An 8 MiB draft file is streamed to disk: the download's peak allocation stays far below
    the file's size (reading it whole would hold all 8 MiB at once)."""
    big = b"export interface Big { a: string }\n" * (8 * 1024 * 1024 // 35)
    (mirror_root / "draft" / "schema.ts").write_bytes(big)
    with serve(mirror_root) as mirror:
        tracemalloc.start()
        try:
            code, err = run(capsys, "fetch", "draft", "--base-url", mirror.url)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert code == 0, err
    assert (cache / "draft" / "schema.ts").read_bytes() == big
    assert peak < 2 << 20, peak


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "-1", "0", "1e400", "100000", "soon"])
def test_bad_timeouts_are_one_line_exit_2(
    value: str, cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = f"expected a positive number of seconds (at most 86400), not {value!r}"
    for argv in (
        ["fetch", "draft", f"--timeout={value}"],
        ["ir", "2025-11-25", f"--timeout={value}"],
    ):
        code, err = run(capsys, *argv)
        assert (code, one_line(err)) == (2, f"mcp-codegen: --timeout: {expected}")
    monkeypatch.setenv("MCP_SPEC_TIMEOUT", value)
    code, err = run(capsys, "fetch", "draft")
    assert (code, one_line(err)) == (2, f"mcp-codegen: $MCP_SPEC_TIMEOUT: {expected}")
    assert empty(cache)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://[::1", "'http://[::1' is not a URL (Invalid IPv6 URL)"),
        (
            "http://example.org:port",
            (
                "'http://example.org:port' is not a URL (Port could not be cast to integer value "
                "as 'port')"
            ),
        ),
        (
            "ftp://example.org",
            "expected an http:// or https:// URL with a host, not 'ftp://example.org'",
        ),
        ("example.org", "expected an http:// or https:// URL with a host, not 'example.org'"),
    ],
)
def test_bad_base_urls_are_one_line_exit_2(
    url: str, problem: str, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["fetch", "draft"], ["diff", "2025-06-18", "2025-11-25"]):
        code, err = run(capsys, *argv, "--base-url", url)
        assert (code, one_line(err)) == (2, f"mcp-codegen: --base-url: {problem}")
    assert empty(cache)


def test_a_cache_that_cannot_be_written_is_one_line_exit_2(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    nowhere = closed_port_url()
    a_file = tmp_path / "cache-file"
    a_file.write_text("not a folder\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    cases = {a_file: "File exists", locked / "cache": "", a_file / "sub": "Not a directory"}
    with read_only(locked):
        for root, reason in cases.items():
            monkeypatch.setenv("MCP_SPEC_CACHE_DIR", str(root))
            for argv in (["fetch", "2025-11-25"], ["ir", "2025-11-25"]):
                code, err = run(capsys, *argv, "--base-url", nowhere)
                line = one_line(err)
                assert code == 2
                assert line.startswith(f"mcp-codegen: cannot write the spec cache {root}: "), line
                assert reason in line and line.endswith(
                    "; set $MCP_SPEC_CACHE_DIR to a folder you can write, or use --spec-dir DIR"
                )
    assert a_file.read_text() == "not a folder\n" and list(locked.iterdir()) == []


@pytest.mark.spec
def test_pinned_sizes_are_the_sizes_of_the_pinned_files(spec_root: Path) -> None:
    """The size limits are exact: every pinned file of the corpus has its pinned size."""
    for pin in pins().values():
        if pin.floats:
            continue
        assert {rel for rel, _ in pin.sizes} == {rel for rel, _ in pin.files}, pin.name
        for rel, size in pin.sizes:
            assert (spec_root / pin.name / rel).stat().st_size == size, (pin.name, rel)


def test_what_killed_downloads_left_in_the_cache_is_removed(
    cache: Path, mirror_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A download killed mid-way leaves its staging directory; the next download of that
    version removes it (and an old copy a killed install left), and replaces the version."""
    for leftover in (".draft.k1ll3d00.partial", ".draft.k1ll3d01.old"):
        (cache / leftover / "draft").mkdir(parents=True)
        (cache / leftover / "draft" / "schema.ts").write_text("half")
    with serve(mirror_root) as mirror:
        for _ in range(2):
            code, err = run(capsys, "fetch", "draft", "--base-url", mirror.url)
            assert code == 0, err
    assert sorted(p.name for p in cache.iterdir()) == ["draft"]
    assert (cache / "draft" / "schema.ts").read_bytes() == (
        mirror_root / "draft" / "schema.ts"
    ).read_bytes()
