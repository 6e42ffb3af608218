"""Hostile and broken schemas: one clear located line per problem, exit 2, no traceback, nothing
written; big and deep inputs fail cleanly or succeed in linear time; output is swapped in atomically."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from cli_support import run_cli
from cpu_cost import cpu_seconds
from schemagen import replicate, replicate_to_size

from codegen import cli, ir, write
from codegen.errors import SchemaError
from codegen.jsonout import dumps
from codegen.pipeline import load_text
from codegen.targets.python import outputs
from codegen.targets.python.bindings import render_package

REPO = Path(__file__).resolve().parent.parent
ERRORS = sorted((REPO / "tests/fixtures/errors").glob("*.ts"))
EXAMPLE = REPO / "schemas/example/v2/schema.ts"
LINE = re.compile(r"^.+:\d+:\d+: \S.*$")


@pytest.mark.parametrize("path", ERRORS, ids=[p.stem for p in ERRORS])
def test_broken_schema_exit_2_located_lines_nothing_written(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    proc = run_cli(str(path), "-o", str(out))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines and all(LINE.match(line) for line in lines), proc.stderr
    assert lines == sorted(
        lines,
        key=lambda s: [int(x) if x.isdigit() else x for x in re.split(r":(\d+):(\d+):", s)[:3]],
    )
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_missing_file_is_bad_input(tmp_path: Path) -> None:
    proc = run_cli(str(tmp_path / "nope.ts"))
    assert (
        proc.returncode == 2
        and "cannot read schema" in proc.stderr
        and "Traceback" not in proc.stderr
    )


@pytest.mark.parametrize(
    "body",
    [
        "{ a: " * 5000 + "string" + " }" * 5000,
        "(" * 5000 + "string" + ")" * 5000,
        "string" + "[]" * 5000,
        "Array<" * 5000 + "string" + ">" * 5000,
    ],
    ids=["objects", "parens", "arrays", "generic-arrays"],
)
def test_5000_levels_fail_cleanly(body: str) -> None:
    with pytest.raises(SchemaError) as err:
        load_text(f"export type T = {body};\n", "deep.ts")
    assert len(err.value.diagnostics) == 1
    d = err.value.diagnostics[0]
    assert (d.loc.file, d.loc.line) == (
        "deep.ts",
        1,
    ) and d.message == "type nested deeper than 200 levels"


def test_5000_wide_union_is_read() -> None:
    members = "".join(f'"v{i}" | ' for i in range(5000))  # distinct: equal members are kept once
    resolved = load_text(f"export type T = {members}number;\n", "wide.ts")
    union = resolved.type("T").type
    assert isinstance(union, ir.Union_) and len(union.members) == 5001
    repeated = load_text("export type T = " + "string | " * 5000 + "number;\n", "wide.ts")
    assert repeated.type("T").type == ir.Union_(
        (ir.Prim(ir.PrimKind.STRING), ir.Prim(ir.PrimKind.NUMBER))
    )


@pytest.mark.slow
def test_10mb_schema_is_read_in_linear_time() -> None:
    base = EXAMPLE.read_text(encoding="utf-8")
    small = replicate_to_size(base, 1_000_000)
    big = replicate_to_size(base, 10_000_000)
    assert len(big.encode()) >= 10_000_000
    types: dict[int, int] = {}  # input length -> declarations read

    def read(text: str) -> None:
        types[len(text)] = len(load_text(text, "big.ts").types)

    load_text(base, "warm.ts")  # imports and the parser's first use stay out of the measure
    cost_small = cpu_seconds(lambda: read(small), repeat=2)
    cost_big = cpu_seconds(lambda: read(big))
    # The work really is 10x: ten times the declarations read.
    assert 9 * types[len(small)] <= types[len(big)] <= 11 * types[len(small)], types
    # 10x the input: linear costs ~10x, quadratic ~100x. Only the ratio of the two is compared.
    assert cost_big / cost_small < 30, (cost_small, cost_big)


def _extends_chain(n: int) -> str:
    links = (
        f"export interface E{i} extends E{i - 1} {{\n  p{i}?: string;\n}}\n" for i in range(1, n)
    )
    return "export interface E0 {\n  p0: string;\n}\n" + "".join(links)


def test_extends_chain_output_grows_linearly() -> None:
    """Each link of an `extends` chain adds a bounded amount to ir.json, models.py and
    validators.py (past `RESTATED_MAX` inherited properties the base's are referred to, not
    restated): twice the chain, about twice the bytes, where restating them all gave four
    times. (schema.json keeps the official layout: every definition complete.)"""
    sizes: dict[int, dict[str, int]] = {}
    for n in (40, 80):
        resolved = load_text(_extends_chain(n), "chain.ts")
        files = render_package(resolved, formatter=None) | {"ir.json": dumps(ir.to_json(resolved))}
        sizes[n] = {name: len(files[name]) for name in ("ir.json", "models.py", "validators.py")}
    for name, small in sizes[40].items():
        assert sizes[80][name] / small < 2.3, (name, sizes)


def test_replicated_schema_has_renamed_copies() -> None:
    text = replicate("export interface A { b: B }\nexport type B = string;\n", 3)
    resolved = load_text(text, "r.ts")
    assert [t.name for t in resolved.types] == ["A", "B", "A_1", "B_1", "A_2", "B_2"]


@pytest.mark.slow
def test_random_mutations_of_real_schema_text_give_only_located_errors() -> None:
    """Mutate real schema text at random: anything that escapes is a bug, unless it is our own
    SchemaError with a location inside the file."""
    rng = random.Random(20261129)
    text = EXAMPLE.read_text(encoding="utf-8")
    tokens = ["{", "}", "|", "&", ":", ";", "?", "<", ">", "[", "]", "(", ")", '"', "typeof ", "extends ",
              "Omit<", "Record<", "null", "-1", "/**", "*/", "@TJS-type integer", "\\", "\u202e", "\x00"]  # fmt: skip
    tried = errors = 0
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(chars))
            op = rng.random()
            if op < 0.4:
                del chars[pos : pos + rng.randint(1, 20)]
            elif op < 0.8:
                chars.insert(pos, rng.choice(tokens))
            else:
                j = rng.randrange(len(chars))
                chars[pos], chars[j] = chars[j], chars[pos]
        mutated = "".join(chars)
        tried += 1
        try:
            load_text(mutated, "m.ts")
        except SchemaError as err:
            errors += 1
            assert err.diagnostics
            nlines = mutated.count("\n") + 1
            for d in err.diagnostics:
                assert d.loc.file == "m.ts" and 1 <= d.loc.line <= nlines, str(d)
    print(
        f"\nschema text mutations: {tried} tried, {errors} rejected with located errors, 0 escaped"
    )
    assert errors > tried // 2


def _generate(out: Path) -> int:
    return cli.main([str(EXAMPLE), "-o", str(out)])


def test_failure_mid_write_leaves_previous_output_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "pkg"
    assert _generate(out) == 0
    (out / "USER_NOTES.md").write_text("mine\n")
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    real = Path.write_bytes
    calls = {"n": 0}

    def failing(self: Path, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device (injected)")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    with pytest.raises(write.OutputError, match="No space left on device"):
        write.write_tree(out, {"a.py": "x = 1\n", "b.py": "y = 2\n", "c.py": "z = 3\n"})
    monkeypatch.undo()
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pkg"]  # no temp dirs left behind


def test_render_failure_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "pkg"
    assert _generate(out) == 0
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def boom(*args: object) -> dict[str, str]:
        raise RuntimeError("injected failure mid-render")

    monkeypatch.setattr(outputs, "render_all", boom)
    assert _generate(out) == 3
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_user_files_survive_regeneration_and_stale_generated_files_go(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    write.write_tree(out, {"a.py": "1\n", "old.py": "2\n"})
    (out / "mine.txt").write_text("keep")
    (out / "sub").mkdir()
    (out / "sub" / "mine2.txt").write_text("keep too")
    write.write_tree(out, {"a.py": "3\n"})
    assert (out / "a.py").read_text() == "3\n"
    assert not (out / "old.py").exists()
    assert (out / "mine.txt").read_text() == "keep" and (
        out / "sub" / "mine2.txt"
    ).read_text() == "keep too"


BRANDED = 'export type Id = string & { readonly __brand: "Id"; readonly pattern: "^i" };\n'


@pytest.mark.parametrize(
    "command",
    [[], ["ir"], ["ir", "--declared"], ["jsonschema"], ["diff", "clean.ts"], ["registry"]],
    ids=["generate", "ir", "ir-declared", "jsonschema", "diff", "registry"],
)
def test_unknown_annotation_member_is_one_located_warning_exit_0(
    command: list[str], tmp_path: Path
) -> None:
    (tmp_path / "branded.ts").write_text(BRANDED, encoding="utf-8")
    (tmp_path / "clean.ts").write_text("export type Id = string;\n", encoding="utf-8")
    args = [*command[:1], "branded.ts", *command[1:]] if command else ["branded.ts", "-o", "out"]
    proc = run_cli(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if ": warning: " in line]
    assert warnings == [
        (
            "branded.ts:1:29: warning: annotation member '__brand' names no constraint"
            " (format, pattern, minimum, maximum, minItems, maxItems); dropped"
        )
    ], proc.stderr
