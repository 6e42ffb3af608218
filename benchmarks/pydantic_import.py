"""The pydantic target against the official Python SDK's shipped wire modules, side by side in
one run: `python -m benchmarks.pydantic_import [--sdk DIR] [--repeats N]`.

Both modules of each side (2025-11-25 and 2026-07-28) are measured in fresh processes that
alternate (shipped, ours, shipped, ...), `--repeats` each (default 7), and the medians printed:
- import: `import mcp_types._v…` (bytecode compiled beforehand, as installed) after `mcp_types` itself (the hand-written monolith, the same
  on both sides) and pydantic are loaded; ours builds its models on first use (`defer_build`);
- first use: building every model of the module (what the SDK's import pays up front);
- validation: every official 2026-07-28 example (`<spec>/2026-07-28/examples`, the one version
  with examples the SDK has a module for) validated by its class in the 2026-07-28 module, all
  models built first, best of 5 passes over the examples, per process.
Ours is generated with `--profile python-sdk` from the SDK's pinned schema.ts files into a copy
of its `mcp-types`. The runner asserts nothing; `--json FILE` writes the raw numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODULES = {"2025-11-25": "_v2025_11_25", "2026-07-28": "_v2026_07_28"}

_PROBE = r"""
import json, sys, time, glob, os
import pydantic, mcp_types  # the monolith and pydantic: the same on both sides, not timed
from pydantic import BaseModel
name, examples = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
import importlib
m = importlib.import_module("mcp_types." + name)
t1 = time.perf_counter()
classes = [c for k, c in vars(m).items() if isinstance(c, type) and issubclass(c, BaseModel)
           and c.__module__ == m.__name__ and c.__name__ == k]
for c in classes:
    c.model_rebuild()
t2 = time.perf_counter()
out = {"import": t1 - t0, "build": t2 - t1, "models": len(classes)}
if examples:
    cases = []
    for p in sorted(glob.glob(os.path.join(examples, "*", "*.json"))):
        cls = getattr(m, os.path.basename(os.path.dirname(p)), None)
        if cls is not None:
            cases.append((cls, json.load(open(p, encoding="utf-8"))))
    best = None
    for _ in range(5):
        s = time.perf_counter()
        for cls, inst in cases:
            try:
                cls.model_validate(inst)
            except pydantic.ValidationError:
                pass
        d = time.perf_counter() - s
        best = d if best is None or d < best else best
    out["validate"] = best
    out["examples"] = len(cases)
print(json.dumps(out))
"""


def generate(sdk: Path, root: Path) -> Path:
    """A copy of the SDK's mcp-types whose wire modules are ours."""
    from codegen.cli import main

    types = root / "mcp-types"
    shutil.copytree(sdk / "mcp-types", types)
    for version, module in MODULES.items():
        out = types / "mcp_types" / module
        shutil.rmtree(out)
        args = [str(sdk / "spec" / version / "schema.ts"), "--target", "pydantic"]
        if main([*args, "--profile", "python-sdk", "-o", str(out)]) != 0:
            raise SystemExit(f"generation failed for {version}")
    return types


def probe(types: Path, module: str, examples: str) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(types)
    with tempfile.TemporaryDirectory() as cwd:
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, module, examples],
            capture_output=True, text=True, check=True, env=env, cwd=cwd,
        )  # fmt: skip
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sdk", default=str(REPO.parent / "shared" / "python-sdk"))
    parser.add_argument(
        "--spec", default=os.environ.get("MCP_SPEC_DIR", str(REPO.parent / "shared" / "spec"))
    )
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    sdk = Path(args.sdk)
    examples = Path(args.spec) / "2026-07-28" / "examples"
    raw: dict[str, dict[str, list[dict[str, float]]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        shipped = Path(tmp) / "shipped"
        shutil.copytree(sdk / "mcp-types", shipped / "mcp-types")
        sides = {"shipped": shipped / "mcp-types", "ours": generate(sdk, Path(tmp) / "ours")}
        for types in sides.values():  # bytecode compiled once, as an installed package has it
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(types)], check=True)
        for module in MODULES.values():
            ex = str(examples) if module == "_v2026_07_28" and examples.is_dir() else ""
            runs: dict[str, list[dict[str, float]]] = {s: [] for s in sides}
            for _ in range(args.repeats):
                for side, types in sides.items():  # alternating: the machine's load hits both
                    runs[side].append(probe(types, module, ex))
            raw[module] = runs
    lines = [
        "| module | measure | shipped (median) | ours (median) | shipped / ours |",
        "|---|---|---|---|---|",
    ]
    for module, runs in raw.items():
        for key, unit in (("import", "ms"), ("build", "ms"), ("validate", "ms")):
            if key not in runs["ours"][0]:
                continue
            a = statistics.median(r[key] for r in runs["shipped"]) * 1000
            b = statistics.median(r[key] for r in runs["ours"]) * 1000
            label = {"import": "import", "build": "first use: build every model"}.get(key, "")
            label = label or f"validate {int(runs['ours'][0]['examples'])} examples"
            lines.append(f"| {module} | {label} | {a:.1f} {unit} | {b:.1f} {unit} | {a / b:.2f}x |")
    print(f"{args.repeats} processes per side and module, alternating; medians\n")
    print("\n".join(lines))
    if args.json:
        Path(args.json).write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
