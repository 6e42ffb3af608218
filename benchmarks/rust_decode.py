"""The Rust target's decode speed (outside CI): typed decode of every official example of
2026-07-28 against parsing the same texts into `serde_json::Value`, in release mode.

    PYTHONPATH=. python -m benchmarks.rust_decode [--rounds N] [--target-dir DIR]

Generates the crate for 2026-07-28 into a temporary folder, adds an example program that times
both in the same process (interleaved rounds, best round of each), builds it with
`cargo run --release` offline against Debian's serde packages (the cargo home the tests use),
and prints the ratio typed / Value (the issue's target: at most 1.5).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import corpus

from codegen.pipeline import load_many
from codegen.targets import Request, get
from codegen.write import write_tree

VERSION = "2026-07-28"
REGISTRY = "/usr/share/cargo/registry"

BENCH = """\
#![allow(deprecated)] // the deprecated types are timed too

use std::time::Instant;

use mcp_schema::runtime::{self as rt, Cx};
use mcp_schema::v2026_07_28 as v;

fn typed(name: &str, text: &str) -> Result<(), rt::Error> {
    let cx = Cx::default();
    match name {
%(arms)s
        _ => panic!("{name}"),
    }
    Ok(())
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(200);
    let cases: Vec<(String, String)> = std::env::args()
        .skip(2)
        .map(|p| {
            let name = std::path::Path::new(&p).parent().unwrap().file_name().unwrap();
            (name.to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    let (mut best_value, mut best_typed, mut best_read) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let start = Instant::now();
        for (_, text) in &cases {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            std::hint::black_box(value);
        }
        best_value = best_value.min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        for (name, text) in &cases {
            typed(name, text).unwrap();
        }
        best_typed = best_typed.min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        for (_, text) in &cases {
            std::hint::black_box(rt::parse(text).unwrap());
        }
        best_read = best_read.min(start.elapsed().as_secs_f64());
    }
    let n = cases.len() as f64;
    println!("{} examples, best of {rounds} rounds", cases.len());
    println!("serde_json::Value parse: {:.2} us/example", best_value / n * 1e6);
    println!("  of which reading the text by the JSON-text rules: {:.2} us/example", best_read / n * 1e6);
    println!("typed decode:            {:.2} us/example", best_typed / n * 1e6);
    println!("ratio typed / Value:     {:.2}", best_typed / best_value);
}
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument(
        "--target-dir", default=str(Path(tempfile.gettempdir()) / "mcp-codegen-rust-target")
    )
    args = parser.parse_args()
    spec = corpus.require_spec_dir()
    examples = corpus.examples(VERSION)
    schema = load_many([str(spec / VERSION / "schema.ts")])
    files = get("rust").render(Request(tuple(schema), {"package": "mcp_schema"}, (VERSION,)))
    names = sorted({ex.type_name for ex in examples})
    arms = "\n".join(
        f'        "{n}" => std::hint::black_box(rt::from_str::<v::{n}>(text, cx).map(drop)?),'
        for n in names
    )
    files["examples/decode.rs"] = BENCH % {"arms": arms}
    with tempfile.TemporaryDirectory() as tmp:
        crate, home = Path(tmp) / "crate", Path(tmp) / "cargo-home"
        write_tree(crate, files)
        home.mkdir()
        (home / "config.toml").write_text(
            f'[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "{REGISTRY}"\n',
            encoding="utf-8",
        )
        env = dict(os.environ, CARGO_HOME=str(home), CARGO_TARGET_DIR=args.target_dir)
        command = ["cargo", "run", "--offline", "--release", "-q", "--example", "decode", "--"]
        command += [str(args.rounds), *(str(ex.path) for ex in examples)]
        return subprocess.run(command, cwd=crate, env=env, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main())
