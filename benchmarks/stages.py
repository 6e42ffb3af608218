"""Where generation time goes, measured inside one fresh process (run as a subprocess).

    python -m benchmarks.stages SCHEMA.ts OUT_DIR [--profile FILE.prof]

Prints one JSON object: seconds spent importing, parsing (tree-sitter), lowering, resolving,
rendering (everything `render_all` does, formatting excluded), formatting (black, timed by
wrapping black's entry points as soon as anything imports black; black's own import time
lands in whichever stage first imports it) and writing, plus the process's
peak RSS. With --profile the same run is done under cProfile and the stats saved for
`profile_summary`; cProfile inflates call-heavy code, so its shares are indicative, the
un-profiled stage times are the numbers.
"""

from __future__ import annotations

import argparse
import builtins
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_FORMAT = {"seconds": 0.0, "calls": 0, "depth": 0}
_ENTRY_POINTS = ("format_str", "format_file_contents")


def _timed(original: Any) -> Any:
    def timed(*args: Any, **kwargs: Any) -> Any:
        _FORMAT["depth"] += 1
        t0 = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            _FORMAT["depth"] -= 1
            if not _FORMAT["depth"]:  # count only the outermost call (one entry calls the other)
                _FORMAT["seconds"] += time.perf_counter() - t0
                _FORMAT["calls"] += 1

    timed.__wrapped__ = original  # type: ignore[attr-defined]
    return timed


def _ruff_format(source: str, **_: Any) -> str:
    """The experiment's substitute formatter: `ruff format` (pinned in the test extra) on stdin,
    with black's settings as codegen passes them (line length 100, py310), no config files."""
    ruff = str(Path(sys.executable).parent / "ruff")
    argv = [ruff, "format", "--isolated", "--line-length", "100", "--target-version", "py310", "-"]
    proc = subprocess.run(argv, input=source, capture_output=True, text=True, check=True)
    return proc.stdout


def _unformatted(source: str, **_: Any) -> str:
    return source


SUBSTITUTES = {"black": None, "ruff": _ruff_format, "none": _unformatted}


def _watch_black(formatter: str = "black") -> None:
    """Wrap black's formatting entry points as soon as anything imports black, so the timing
    does not import black itself and sees `import black` and `from black import format_str` alike.
    With `formatter` other than black, the entry points are replaced (an experiment only: what
    generation would cost with that formatter; codegen itself is not changed)."""
    original_import = builtins.__import__
    substitute = SUBSTITUTES[formatter]

    def hooked(name: str, *args: Any, **kwargs: Any) -> Any:
        module = original_import(name, *args, **kwargs)
        black = sys.modules.get("black")
        if black is not None and not getattr(black, "_bench_wrapped", False):
            black._bench_wrapped = True  # type: ignore[attr-defined]
            for entry in _ENTRY_POINTS:
                if hasattr(black, entry):
                    setattr(black, entry, _timed(substitute or getattr(black, entry)))
            builtins.__import__ = original_import  # done: no hook cost for the rest of the run
        return module

    builtins.__import__ = hooked


def run_stages(schema: str, out: str, formatter: str = "black") -> dict[str, float]:
    t: dict[str, float] = {}
    _watch_black(formatter)
    t0 = time.perf_counter()
    from codegen import outputs, parse, pipeline, write  # noqa: F401
    from codegen.lower import lower
    from codegen.resolve import resolve

    t["import"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    src = parse.read_source(schema)
    t["parse"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    declared = lower(src)
    t["lower"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    resolved = resolve(declared, {})
    t["resolve"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    files = outputs.render_all(resolved)
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
        choices=sorted(SUBSTITUTES),
        default="black",
        help="experiment: replace black's entry points with ruff format or nothing",
    )
    args = p.parse_args(argv)
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
    sys.exit(main())
