"""Where generation time goes, measured inside one fresh process (run as a subprocess).

    python -m benchmarks.stages SCHEMA.ts OUT_DIR [--profile FILE.prof]

Prints one JSON object: seconds spent importing, parsing (tree-sitter), lowering, resolving,
rendering (everything `render_all` does, formatting excluded), formatting (the main process's
time starting `ruff format` on each group of modules and waiting for it, or black with
`--formatter black`; most of ruff's work overlaps rendering) and writing,
plus the process's peak RSS. With --profile the same run is done under cProfile and the stats saved for
`profile_summary`; cProfile inflates call-heavy code, so its shares are indicative, the
un-profiled stage times are the numbers.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

_FORMAT = {"seconds": 0.0, "calls": 0}


def _timed(impl: Any) -> Any:
    def timed(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return impl(*args, **kwargs)
        finally:
            _FORMAT["seconds"] += time.perf_counter() - t0
            _FORMAT["calls"] += 1

    return timed


def _unformatted(files: Any, formatter: str = "ruff") -> Any:
    return dict(files)


def _patch_formatter(formatter: str) -> None:
    """Time codegen's formatting entry points wherever codegen has imported them: since ruff
    formats each group of modules as soon as it is rendered, `codegen.pyformat.start_format`
    (write the files, start ruff) and `Formatting.result` (wait for it), in this process only
    (the rendering process formats validators.py meanwhile); older commits: `format_files`.
    With `none`, formatting is replaced by nothing (an experiment only: what generation costs
    without a formatter; codegen is not changed)."""
    module = sys.modules.get("codegen.pyformat")
    if module is None:
        return
    start = getattr(module, "start_format", None)
    if start is not None:
        if formatter == "none":
            _replace(start, _timed(lambda files, formatter="ruff": start(files, None)))
            return
        _replace(start, _timed(start))
        module.Formatting.result = _timed(module.Formatting.result)  # type: ignore[attr-defined]
        return
    original = getattr(module, "format_files", None)
    if original is not None:
        _replace(original, _timed(_unformatted if formatter == "none" else original))


def _replace(original: Any, wrapped: Any) -> None:
    for name, mod in list(sys.modules.items()):
        if name == "codegen" or name.startswith("codegen."):
            for attr, value in list(vars(mod).items()):
                if value is original:
                    setattr(mod, attr, wrapped)


FORMATTERS = ("ruff", "black", "none")


def run_stages(schema: str, out: str, formatter: str = "ruff") -> dict[str, float]:
    t: dict[str, float] = {}
    t0 = time.perf_counter()
    # every module a generation loads (the CLI loads `bindings` once the JSON files' process
    # has started, so that they overlap; here the import figure holds them all)
    from codegen import parse, pipeline, write  # noqa: F401
    from codegen.lower import lower
    from codegen.resolve import resolve
    from codegen.targets.python import bindings, outputs  # noqa: F401

    t["import"] = time.perf_counter() - t0
    _patch_formatter(formatter)

    t0 = time.perf_counter()
    src = parse.read_source(schema)
    t["parse"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    declared = lower(src)
    t["lower"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    resolved = resolve(declared)
    t["resolve"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    files = outputs.render_all(resolved, "ruff" if formatter == "none" else formatter)
    total_render = time.perf_counter() - t0
    t["format"] = _FORMAT["seconds"]
    t["render"] = total_render - t["format"]
    t["format_calls"] = _FORMAT["calls"]

    t0 = time.perf_counter()
    write.write_tree(Path(out), files)
    t["write"] = time.perf_counter() - t0
    t["files"] = len(files)
    t["output_bytes"] = sum(len(text.encode("utf-8")) for text in files.values())
    return t


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.stages")
    p.add_argument("schema")
    p.add_argument("out")
    p.add_argument("--profile", help="run under cProfile and dump the stats here")
    p.add_argument(
        "--formatter",
        choices=FORMATTERS,
        default="ruff",
        help="ruff (codegen's default), black (--formatter black) or none (experiment: no formatter)",
    )
    args = p.parse_args(argv)
    gc.disable()  # as `codegen.cli.main` runs a command
    started = time.perf_counter()
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
        result = run_stages(args.schema, args.out, args.formatter)
        prof.disable()
        prof.dump_stats(args.profile)
    else:
        result = run_stages(args.schema, args.out, args.formatter)
    result["in_process"] = time.perf_counter() - started
    result["peak_rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)  # as the mcp-codegen program ends (`codegen.cli._end`): no teardown
