"""The candidates for the runtime's accelerated JSON text path, side by side (issue 28): the
evidence for orjson. Not a section of `benchmarks.run`; run it by hand:

    .venv/bin/pip install msgspec   # not pinned: only this comparison uses it
    .venv/bin/python -m benchmarks.json_libraries [--rounds N]

Each candidate as a complete function that gives the standard path's results (what the runtime
would need around it): reading = parse, write the value back, count colons against the text (a
repeated key; none of the three detects one); writing = serialise and look for the floats the
library spells unlike Python (orjson and pydantic-core: 1e-9 <= |x| < 1e-4; msgspec also every
exponent from 1e16: `1e16` for Python's `1e+16`, so every `e` after a digit). The cases: the
2026-07-28 official examples (as `json.dumps` text) and the codec benchmark's 50-tool
`ListToolsResult`. CPU time per call (`thread_time_ns`), k calls per sample (~0.3 ms), rounds
interleaved with the order rotating; medians. A library that is not installed is left out.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import re
import sys
import time
from collections.abc import Callable
from typing import Any

import corpus  # tests/corpus.py, on sys.path via benchmarks/__init__.py

from .codec import VERSION, tool_list
from .common import BENCH, median, rotated

_REREAD = object()


def _runtime() -> Any:
    path = BENCH.parent / "templates" / "python" / "static" / "_runtime.py"
    spec = importlib.util.spec_from_file_location("_runtime_json_libraries", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _colons_agree(text: str, again: bytes) -> bool:
    if "\\" in text and "\\u003" in text:
        return False
    return text.count(":") == again.count(b":")


def candidates(rt: Any) -> dict[str, tuple[Callable[[str], Any], Callable[[Any], Any]]]:
    """name -> (read, write); read gives `_REREAD`, write None, where the standard path must."""
    saved = rt._ORJSON

    def std_read(text: str) -> Any:
        rt._ORJSON = None
        try:
            return rt.loads(text)
        finally:
            rt._ORJSON = saved

    def std_write(value: Any) -> Any:
        rt._ORJSON = None
        try:
            return rt.dumps(value, "JSON", True)
        finally:
            rt._ORJSON = saved

    out: dict[str, tuple[Callable[[str], Any], Callable[[Any], Any]]] = {
        "stdlib json": (std_read, std_write)
    }
    if saved is not None:
        fast = saved
        out["orjson"] = (
            lambda text: rt._fast_loads(fast, text),
            lambda value: rt._fast_dumps(fast, value),
        )
    try:
        import msgspec

        dec, enc = msgspec.json.Decoder(), msgspec.json.Encoder()
        exponent = re.compile(r"\de[-\d]|0\.0000")

        def ms_read(text: str) -> Any:
            try:
                value = dec.decode(text)
                again = enc.encode(value)
            except Exception:  # noqa: BLE001
                return _REREAD
            return value if _colons_agree(text, again) else _REREAD

        def ms_write(value: Any) -> Any:
            try:
                text = enc.encode(value).decode()
            except Exception:  # noqa: BLE001
                return None
            return None if exponent.search(text) else text

        out["msgspec"] = (ms_read, ms_write)
    except ImportError:
        pass
    try:
        import pydantic_core

        def pc_read(text: str) -> Any:
            try:
                value = pydantic_core.from_json(text, allow_inf_nan=False)
                again = pydantic_core.to_json(value)
            except Exception:  # noqa: BLE001
                return _REREAD
            return value if _colons_agree(text, again) else _REREAD

        def pc_write(value: Any) -> Any:
            try:
                text = pydantic_core.to_json(value).decode()
            except Exception:  # noqa: BLE001
                return None
            return text if rt._python_floats(text) else None

        out["pydantic-core"] = (pc_read, pc_write)
    except ImportError:
        pass
    return out


def _calls(fn: Callable[[Any], Any], arg: Any, target_ns: int = 300_000) -> int:
    fn(arg)
    t0 = time.perf_counter_ns()
    for _ in range(5):
        fn(arg)
    return max(1, min(10_000, target_ns // max(1, (time.perf_counter_ns() - t0) // 5)))


def _sample(fn: Callable[[Any], Any], arg: Any, k: int) -> float:
    gc.disable()
    try:
        t0 = time.thread_time_ns()
        for _ in range(k):
            fn(arg)
        return (time.thread_time_ns() - t0) / k / 1e3
    finally:
        gc.enable()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    rt = _runtime()
    libs = candidates(rt)
    groups = {
        "examples": [e.instance for e in corpus.examples(VERSION)],
        "tool list": [tool_list(VERSION)],
    }
    heads = [f"{op}, {g} µs" for g in groups for op in ("read", "write")]
    print("| candidate | " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * (2 * len(groups)))
    rows: dict[str, list[str]] = {name: [] for name in libs}
    for values in groups.values():
        texts = [json.dumps(v, ensure_ascii=False) for v in values]
        times: dict[tuple[str, str, int], list[float]] = {}
        ks: dict[tuple[str, str, int], int] = {}
        for r in range(args.rounds):
            for i, (text, value) in enumerate(zip(texts, values)):
                for name in rotated(list(libs), r + i):
                    for op, fn, arg in (
                        ("read", libs[name][0], text),
                        ("write", libs[name][1], value),
                    ):
                        key = (name, op, i)
                        if key not in ks:
                            ks[key] = _calls(fn, arg)
                        times.setdefault(key, []).append(_sample(fn, arg, ks[key]))
        for name in libs:
            for op in ("read", "write"):
                per_case = [median(times[(name, op, i)]) for i in range(len(values))]
                rows[name].append(f"{median(per_case):.2f}")
    for name, cells in rows.items():
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
