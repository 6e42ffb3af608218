"""The node side of the zod target's tests and of the drift check: the pinned toolchain in
tests/zod (zod, typescript, prettier, two TypeScript SDK releases; `npm ci` from its lock into
tests/zod/node_modules, which git ignores), type-checking and formatting checks, and the corpus
run through `tests/zod/run.mjs` (one node process per version and question).

`ensure_toolchain()` raises `ToolchainUnavailable` with the fix in its message; the tests turn
that into a skip locally and a failure under CI=true.
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import corpus
from npm_install import npm_ci, require_node
from random_schemas import instance as random_instance

from codegen import ir
from codegen.targets.zod.layout import WIDTH

ZOD_DIR = Path(__file__).resolve().parent / "zod"
BIN = ZOD_DIR / "node_modules" / ".bin"
RUNNER = ZOD_DIR / "run.mjs"
NODE_MIN_MAJOR = 20
# Synthetic corpus for versions without examples: the same sizes as the bindings' agreement test.
SYNTHETIC_PER_TYPE = 2
SYNTHETIC_MUTATIONS = 40


class ToolchainUnavailable(RuntimeError):
    """node/npm missing or `npm ci` failed; the message says how to fix it."""


def pinned() -> dict[str, str]:
    deps: dict[str, str] = json.loads((ZOD_DIR / "package.json").read_text())["dependencies"]
    return deps


def _installed(name: str) -> str | None:
    try:
        data = json.loads((ZOD_DIR / "node_modules" / name / "package.json").read_text())
    except (OSError, ValueError):
        return None
    version = data.get("version")
    return version if isinstance(version, str) else None


def _up_to_date() -> bool:
    return all(_installed(n) == spec.rsplit("@", 1)[-1] for n, spec in pinned().items())


@functools.cache
def ensure_toolchain() -> str:
    """The node executable, after `npm ci` in tests/zod if anything pinned is missing."""
    node, npm = require_node(NODE_MIN_MAJOR, ToolchainUnavailable, "the zod tests")
    npm_ci(ZOD_DIR, _up_to_date, ToolchainUnavailable, npm)
    return node


def tsconfig(directory: Path) -> Path:
    """A strict tsconfig for the modules in `directory`, resolving `zod` to the pinned one."""
    zod = str(ZOD_DIR / "node_modules" / "zod")
    config = {
        "compilerOptions": {
            "strict": True,
            "noEmit": True,
            "target": "ES2022",
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "skipLibCheck": True,
            "types": [],
            "paths": {"zod": [zod]},
        },
        "include": ["*.ts"],
    }
    path = directory / "tsconfig.json"
    path.write_text(json.dumps(config, indent=2))
    return path


def tsc(directory: Path) -> subprocess.CompletedProcess[str]:
    """`tsc --strict --noEmit` over every module in `directory`, in one run."""
    node = ensure_toolchain()
    cmd = [node, str(ZOD_DIR / "node_modules" / "typescript" / "bin" / "tsc"), "-p"]
    return subprocess.run(
        [*cmd, str(tsconfig(directory))], capture_output=True, text=True, check=False
    )


def prettier_check(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    node = ensure_toolchain()
    cli = ZOD_DIR / "node_modules" / "prettier" / "bin" / "prettier.cjs"
    cmd = [node, str(cli), "--no-config", f"--print-width={WIDTH}", "--check", *map(str, paths)]
    return subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=ZOD_DIR)


def run(request: dict[str, Any]) -> Any:
    """`node run.mjs` on `request` (written to a file: the corpus is large); its JSON answer."""
    node = ensure_toolchain()
    with tempfile.TemporaryDirectory(prefix="zod-corpus-") as tmp:
        path = Path(tmp) / "input.json"
        path.write_text(json.dumps(request))
        proc = subprocess.run(
            [node, str(RUNNER), str(path)], capture_output=True, text=True, check=False
        )
    if proc.returncode != 0:
        raise RuntimeError(f"node run.mjs failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout)


# -- the corpus ------------------------------------------------------------------------------


def cases(version: str, resolved: ir.Resolved, types: set[str]) -> list[dict[str, Any]]:
    """Every official example and its mutations; for versions without examples, random
    instances from the IR of every official definition we also name, and their mutations (the
    corpus of tests/test_bindings_official.py, without the official labels)."""
    out: list[dict[str, Any]] = []
    examples = corpus.examples(version)
    for ex in examples:
        out.append(_case(ex.type_name, ex.instance, f"{ex.id}: example", True))
        for m in corpus.mutations(version, ex.type_name, ex.instance):
            out.append(_case(ex.type_name, m.instance, f"{ex.id}: {m.kind} at {m.path}", False))
    if examples:
        return out
    for name in sorted(set(corpus.definitions(version)) & types):
        for k in range(SYNTHETIC_PER_TYPE):
            value = random_instance(resolved, ir.Ref(name), random.Random(f"{version}/{name}/{k}"))
            out.append(_case(name, value, f"{name}#{k}: synthetic", True))
            for m in corpus.mutations(version, name, value, cap=SYNTHETIC_MUTATIONS):
                out.append(_case(name, m.instance, f"{name}#{k}: {m.kind} at {m.path}", False))
    return out


def _case(type_name: str, instance: Any, description: str, seed: bool) -> dict[str, Any]:
    return {"type": type_name, "instance": instance, "description": description, "seed": seed}
