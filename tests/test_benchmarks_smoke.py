"""The benchmark runner still runs: `python -m benchmarks.run --quick` (a few instances, one round,
one repeat, the smallest official schema; scaling on the bundled example). No timings are asserted; only that every section completes
and reports. The README's test command (and so CI) installs the `bench` extra; without it the
test skips locally and fails under CI=true, so a change that breaks the benchmarks is seen."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import corpus
import pytest

REPO = Path(__file__).resolve().parent.parent
BENCH_MODULES = ("fastjsonschema", "jsonschema_rs", "mcp", "datamodel_code_generator")


@pytest.mark.spec  # runs the benchmarks on the smallest official schema
@pytest.mark.slow
def test_runner_quick_mode(tmp_path: Path) -> None:
    missing = [m for m in BENCH_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        corpus.missing(f"bench extra not installed (missing: {', '.join(missing)})")
    corpus.require_spec_dir()
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.run", "--quick", "--results", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = (tmp_path / "latest.md").read_text(encoding="utf-8")
    for heading in (
        "## Targets",
        "## 1. Validation",
        "## Codec: decoding, encoding, JSON text",
        "## Application types against the SDK's hand-written layer",
        "## 2. Generation",
        "## 3. Scaling",
        "## Scaling by shape",
        "## Generation profile",
    ):
        assert heading in report
    raw = json.loads((tmp_path / "latest.json").read_text(encoding="utf-8"))
    # a second process measured each section, its rounds pooled with the first's (1 round each)
    assert raw["validation"]["processes"] == 2 and raw["validation"]["samples_per_instance"] == 2
    assert raw["codec"]["processes"] == 2 and raw["codec"]["samples_per_case"] == 2
    summaries = {s["key"]: s for s in raw["validation"]["summaries"]}
    # the JSON Schema validators cover every instance and agree with the labels (they share the schema)
    for key in ("jsonschema", "fastjsonschema", "jsonschema_rs"):
        assert summaries[key]["covered"] == summaries[key]["total"] > 0
        assert summaries[key]["agree"] == summaries[key]["covered"]
    assert raw["generation"]["per_version"]["2024-11-05"]["mcp_codegen_failures"] == 0
    assert raw["codec"]["examples"] > 0 and len(raw["codec"]["imports"]) == 5
    # JSON text on both paths: orjson (the bench extra) and the standard library's
    assert raw["codec"]["json_backend"] == "orjson"
    assert {"text", "text_stdlib", "text_decode_stdlib", "text_encode"} <= set(raw["codec"]["ops"])
    assert set(raw["apptypes"]["summary"]) == {"parse", "serialize"}
