"""The target seam: every output kind is a plugin of `codegen.targets`, the command line knows
them only through the registry. A target defined here, in the tests, renders through the command
line with `--check`; an option of another target is refused naming both; no module outside a
target's folder and the registry imports a target package."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import REPO

from codegen import cli, targets
from codegen.cli.exits import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK
from codegen.diff import diff
from codegen.pipeline import load
from codegen.targets import Files, Option, Request, Target

V1 = str(REPO / "schemas/example/v1/schema.ts")
V2 = str(REPO / "schemas/example/v2/schema.ts")
BUILTIN = {"jsonschema", "pydantic", "python", "zod"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _render_dummy(request: Request) -> Files:
    """One file per schema naming its types, and the option's value: enough to see that the
    command line handed over the models, labels and options."""
    files = {}
    for label, schema in zip(request.labels, request.schemas):
        names = sorted(t.name for t in schema.types)
        files[f"{label}.txt"] = f"{request.option('greeting')}\n" + "\n".join(names) + "\n"
    return files


DUMMY = Target(
    name="dummy",
    summary="a test's own target",
    render=_render_dummy,
    options=(Option("--greeting", "the first line", metavar="TEXT", default="hello"),),
    several=True,
)


@pytest.fixture
def dummy() -> Iterator[Target]:
    targets.register(DUMMY)
    yield DUMMY
    targets.unregister(DUMMY.name)


def test_targets_lists_every_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "targets")
    assert code == EXIT_OK
    listed = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()}
    assert BUILTIN <= set(listed) and set(listed) == set(targets.names())
    assert listed["python"] == targets.get("python").summary
    code, out, _ = run(capsys, "targets", "--format", "json")
    data = {t["name"]: t for t in json.loads(out)}
    assert [o["flag"] for o in data["pydantic"]["options"]] == ["--profile"]
    assert data["python"]["several"] and not data["pydantic"]["several"]


def test_a_target_defined_in_the_tests_renders_through_the_command_line(
    dummy: Target, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = [V1, V2, "--target", "dummy", "--greeting", "hi", "-o", str(out)]
    assert run(capsys, *args)[0] == EXIT_OK
    assert sorted(p.name for p in out.glob("*.txt")) == ["v1.txt", "v2.txt"]
    text = (out / "v2.txt").read_text()
    assert text.startswith("hi\n") and "\nInitializeRequest\n" in text
    assert run(capsys, *args, "--check")[0] == EXIT_OK
    (out / "v1.txt").write_text("edited\n")
    code, _, err = run(capsys, *args, "--check")
    assert code == EXIT_FINDINGS and "v1.txt: differs" in err
    assert "dummy" in run(capsys, "targets")[1]


def test_an_option_of_another_target_is_refused_naming_both(
    dummy: Target, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    for flag, value, owner in (("--profile", "python-sdk", "pydantic"), ("--formatter", "black", "python")):  # fmt: skip
        code, _, err = run(capsys, V2, "--target", "dummy", flag, value, "-o", str(out))
        assert code == EXIT_BAD_INPUT
        assert f"--target dummy does not take {flag}" in err and f"--target {owner}" in err
    code, _, err = run(capsys, V2, "--target", "zod", "--greeting", "x", "-o", str(out))
    assert code == EXIT_BAD_INPUT and "--target zod does not take --greeting" in err
    assert "--target dummy" in err
    assert not out.exists()


def test_one_version_or_several_is_the_targets_declaration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code, _, err = run(capsys, V1, V2, "--target", "pydantic", "-o", str(out))
    assert code == EXIT_BAD_INPUT and "--target pydantic takes one schema (2 given)" in err
    code, _, err = run(capsys, V1, V2, "-o", str(out))  # python: several need --package
    assert code == EXIT_BAD_INPUT and "--package NAME" in err
    assert not out.exists()


def test_jsonschema_target_writes_each_versions_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert run(capsys, V1, V2, "--target", "jsonschema", "-o", str(out))[0] == EXIT_OK
    for label, schema in (("v1", V1), ("v2", V2)):
        code, printed, _ = run(capsys, "jsonschema", schema)
        assert code == EXIT_OK and (out / label / "schema.json").read_text() == printed
    one = tmp_path / "one"
    args = [V2, "--target", "jsonschema", "--number-as-integer", "-o", str(one)]
    assert run(capsys, *args)[0] == EXIT_OK
    printed = run(capsys, "jsonschema", V2, "--number-as-integer")[1]
    assert (one / "schema.json").read_text() == printed
    assert run(capsys, *args, "--check")[0] == EXIT_OK


def test_a_python_package_embeds_the_jsonschema_targets_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The python target requires jsonschema and reads its output through the registry: the
    package's schema.json is the jsonschema target's document (the distribution's, each
    version's: tests/test_distribution.py)."""
    assert targets.get("python").requires == ("jsonschema",)
    out = tmp_path / "out"
    assert run(capsys, V2, "-o", str(out))[0] == EXIT_OK
    code, printed, _ = run(capsys, "jsonschema", V2)
    assert code == EXIT_OK and (out / "schema.json").read_text() == printed


def _needing(name: str, *requires: str) -> Target:
    """A test's target that requires `requires` and writes what each of them rendered."""

    def render(request: Request) -> Files:
        files = {"own.txt": f"{name}\n"}
        for needed in requires:
            files.update({f"{needed}/{p}": t for p, t in request.output_of(needed).items()})
        return files

    return Target(name=name, summary="a test's target", render=render, requires=requires)


@pytest.fixture
def registered() -> Iterator[list[str]]:
    """Names to unregister after the test (targets it registered)."""
    names: list[str] = []
    yield names
    for name in names:
        targets.unregister(name)


def test_a_required_output_is_rendered_once_when_asked(registered: list[str]) -> None:
    calls: list[Request] = []

    def base_render(request: Request) -> Files:
        calls.append(request)
        return {"base.txt": f"{request.option('greeting')} {' '.join(request.labels)}\n"}

    base = dataclasses.replace(DUMMY, name="base", render=base_render)
    for target in (base, _needing("top", "base")):
        targets.register(target)
        registered.append(target.name)
    request = Request((load(V1), load(V2)), {}, ("v1", "v2"), "top")
    assert calls == []  # nothing rendered before it is asked for
    assert targets.get("top").render(request) == {
        "own.txt": "top\n",
        "base/base.txt": "hello v1 v2\n",  # the required target's option defaults, same labels
    }
    assert request.output_of("base") is request.output_of("base")
    assert len(calls) == 1 and calls[0].schemas == request.schemas and calls[0].target == "base"
    assert targets.requirements("top") == ("base",)


def test_output_of_refuses_a_target_not_required(registered: list[str]) -> None:
    targets.register(_needing("top", "jsonschema"))
    registered.append("top")
    schemas = (load(V2),)
    for request, name in (
        (Request(schemas, {}, ("v2",), "top"), "python"),  # a target, but not declared
        (Request(schemas, {}, ("v2",), "python"), "zod"),
        (Request(schemas, {}, ("v2",)), "jsonschema"),  # a request for no target requires none
    ):
        with pytest.raises(ValueError, match=f"does not declare '{name}' in `requires`"):
            request.output_of(name)
    assert set(Request(schemas, {}, ("v2",), "top").output_of("jsonschema")) == {"schema.json"}


def test_an_unknown_or_circular_requirement_is_a_clear_error(registered: list[str]) -> None:
    for target in (_needing("a", "b"), _needing("b", "c"), _needing("c", "a"), _needing("d", "zz")):  # fmt: skip
        targets.register(target)
        registered.append(target.name)
    with pytest.raises(ValueError, match=r"in a cycle: a -> b -> c -> a$"):
        targets.requirements("a")
    with pytest.raises(ValueError, match=r"unknown target 'zz' \(required along d -> zz\)"):
        targets.requirements("d")
    schemas = (load(V2),)
    with pytest.raises(ValueError, match=r"in a cycle: b -> c -> a -> b$"):
        targets.get("b").render(Request(schemas, {}, ("v2",), "b"))  # found before rendering
    with pytest.raises(ValueError, match="unknown target 'zz'"):
        targets.get("d").render(Request(schemas, {}, ("v2",), "d"))
    assert targets.requirements("python") == ("jsonschema",)
    assert targets.requirements("zod") == ()


def _imports(path: Path, module: str) -> Iterator[str]:
    """Every module `path` (the module `module`) imports, relative imports made absolute."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            yield base
            yield from (f"{base}.{a.name}" for a in node.names)


def test_no_module_outside_a_target_imports_it() -> None:
    plugins = {p.parent.name for p in (REPO / "codegen/targets").glob("*/__init__.py")}
    assert BUILTIN <= plugins
    offenders = []
    for path in sorted((REPO / "codegen").rglob("*.py")):
        rel = path.relative_to(REPO).with_suffix("")
        module = ".".join(rel.parts).removesuffix(".__init__")
        own = rel.parts[1] == "targets" and len(rel.parts) > 3 and rel.parts[2]
        for name in _imports(path, module):
            parts = name.split(".")
            if parts[:2] != ["codegen", "targets"] or len(parts) < 3 or parts[2] not in plugins:
                continue
            if module != "codegen.targets" and parts[2] != own:
                offenders.append(f"{module} imports {name}")
    assert offenders == []


def test_the_neutral_layer_imports_no_target_and_no_python_spelling() -> None:
    """`codegen/analysis/` speaks wire names and neutral type names only: it imports no target,
    nor the Python targets' shared name table, text or formatter modules, nor Python's keyword
    list (version keys are neutral: each target spells its folders, `targets/spelling.py`), nor
    a layer that reads it (the diff, the reference, the conformance, the published model, the
    command line). `codegen/diff/` neither: it asks the registry (`codegen.targets`, its public
    API) for targets' spellings."""
    python_only = {"codegen.pynaming", "codegen.pytext", "codegen.pyformat", "keyword"}
    above = ("diff", "reference", "conformance", "published", "cli")
    registry = {"codegen.targets", *(f"codegen.targets.{n}" for n in targets.__all__)}
    offenders = []
    for layer in ("analysis", "diff"):
        for path in sorted((REPO / "codegen" / layer).rglob("*.py")):
            module = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(
                ".__init__"
            )
            for name in _imports(path, module):
                if (
                    name.startswith("codegen.targets")
                    and (layer == "analysis" or name not in registry)
                    or name.split(".")[:2] in (n.split(".") for n in python_only)
                    or layer == "analysis"
                    and name.split(".")[:2] in (["codegen", a] for a in above)
                ):
                    offenders.append(f"{module} imports {name}")
    assert offenders == []


def _spell_squashed(wires: tuple[str, ...]) -> tuple[str, ...]:
    """A target's own spelling: word characters only, lower case, a collision numbered."""
    out: list[str] = []
    for wire in wires:
        name = re.sub(r"\W", "", wire).lower()
        out.append(name if name not in out else f"{name}{out.count(name) + 1}")
    return tuple(out)


def test_the_diff_asks_each_target_for_its_spellings() -> None:
    """`generated-name-changed` on a property: the spellings come from every target that
    declares `spell_fields` (here python, whose `a_b` / `a_b_` swap when the properties swap
    places); a target that spells as another does adds nothing, one that spells otherwise adds
    its own renames, and a target that spells nothing adds none."""
    fixture = REPO / "tests/fixtures/diff/generated-name-changed"
    old, new = (load(str(fixture / f"{side}.ts")) for side in ("old", "new"))

    def renamed() -> list[tuple[str, str | None, str | None]]:
        report = diff(old, new, "old", "new")
        found = [f for f in report.findings if f.rule == "generated-name-changed"]
        return sorted((f.subject, f.before, f.after) for f in found)

    python = [("Thing.aB", "a_b", "a_b_"), ('Thing["a-b"]', "a_b_", "a_b")]
    assert renamed() == python
    squashed = [("Thing.aB", "ab", "ab2"), ('Thing["a-b"]', "ab2", "ab")]
    for spell, expected in (
        (None, python),
        (targets.get("python").spell_fields, python),
        (_spell_squashed, sorted(python + squashed)),
    ):
        targets.register(dataclasses.replace(DUMMY, spell_fields=spell))
        try:
            assert renamed() == expected, spell
        finally:
            targets.unregister(DUMMY.name)


def test_a_required_option_is_asked_for_after_another_targets_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    needy = Target(
        name="needy",
        summary="a test's target with a required option",
        render=lambda request: {"tag.txt": f"{request.option('tag')}\n"},
        options=(Option("--tag", "the tag", metavar="TAG", required=True),),
    )
    targets.register(needy)
    try:
        out = tmp_path / "out"
        code, _, err = run(capsys, V2, "--target", "needy", "--profile", "x", "-o", str(out))
        assert code == EXIT_BAD_INPUT and "--target needy does not take --profile" in err
        code, _, err = run(capsys, V2, "--target", "needy", "-o", str(out))
        assert code == EXIT_BAD_INPUT and "--target needy needs --tag TAG" in err
        assert run(capsys, V2, "--target", "needy", "--tag", "t", "-o", str(out))[0] == EXIT_OK
        assert (out / "tag.txt").read_text() == "t\n"
    finally:
        targets.unregister("needy")
