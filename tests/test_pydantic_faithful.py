"""The pydantic target's faithful default (no profile) on the seven official versions: every
module imports, every model builds (deferred building resolves every annotation), every
official example round-trips exactly (through Python objects and through JSON text), and the
modules pass ruff and mypy --strict with the pydantic plugin. Also the target's rules on small
inputs, and bad profiles (exit 2, the entry named, nothing written)."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import pytest
from bindings_support import tool

from codegen.cli import main
from codegen.pipeline import load, load_text
from codegen.targets.pydantic.render import render_pydantic

VERSIONS = corpus.version_names()
TYPE_CHECKED = ("2024-11-05", "2026-07-28")


def _package(version: str) -> str:
    return "pyd_" + "".join(c if c.isalnum() else "_" for c in version.lower())


@pytest.fixture(scope="module")
def modules(spec_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pydantic_faithful")
    for v in corpus.versions(spec_root):
        files = render_pydantic(load(str(v.schema_ts)))
        (root / _package(v.name)).mkdir()
        (root / _package(v.name) / "__init__.py").write_text(files["__init__.py"], encoding="utf-8")
    return root


def _import(root: Path, version: str) -> ModuleType:
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(_package(version))


def _models(m: ModuleType) -> list[Any]:
    from pydantic import BaseModel

    return [
        c for n, c in vars(m).items()
        if isinstance(c, type) and issubclass(c, BaseModel) and c.__module__ == m.__name__ and n == c.__name__
    ]  # fmt: skip


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.spec
@pytest.mark.parametrize("version", VERSIONS)
def test_every_model_builds_and_every_example_round_trips(modules: Path, version: str) -> None:
    m = _import(modules, version)
    classes = _models(m)
    assert classes
    for cls in classes:
        cls.model_rebuild()  # deferred: building resolves every annotation
    examples = corpus.examples(version)
    for ex in examples:
        cls = getattr(m, ex.type_name)
        obj = cls.model_validate(ex.instance)
        assert _json(obj.model_dump(mode="json")) == _json(ex.instance), ex.id
        text = json.dumps(ex.instance)
        again = cls.model_validate_json(text).model_dump_json()
        assert _json(json.loads(again)) == _json(ex.instance), ex.id
    print(f"{version}: {len(classes)} models, {len(examples)} examples round-tripped")


@pytest.mark.spec
def test_no_corrective_patch_is_needed(modules: Path) -> None:
    """What the SDK patches schema.json for is right from schema.ts: numbers that are numbers,
    `JSONValue`'s `null` and `number`, open objects; its deliberate leniencies are not here (they
    are entries of its profile)."""
    from pydantic import ValidationError

    m = _import(modules, "2026-07-28")
    number = m.NumberSchema.model_validate({"type": "number", "minimum": 0.5, "default": 2})
    assert number.minimum == 0.5 and type(number.default) is int
    caps = {"extensions": {"x": {"k": None, "n": 1.5}}}
    assert m.ServerCapabilities.model_validate(caps).model_dump(mode="json") == caps
    tool = {"name": "t", "inputSchema": {"type": "object", "$defs": {"a": {}}, "title": "T"}}
    assert m.Tool.model_validate(tool).model_dump(mode="json") == tool
    assert m.ElicitResult.model_validate({"action": "accept", "content": {"n": 1.5}})
    with pytest.raises(ValidationError):  # the SDK's null arm is a leniency of its profile
        m.ElicitResult.model_validate({"action": "accept", "content": {"n": None}})


@pytest.mark.spec
def test_the_former_names_are_deprecated_aliases(modules: Path) -> None:
    """As in the dataclass packages: a name the shipped reviewed names replaced is the same
    class, with a DeprecationWarning (and PEP 702 for type checkers); a profile has none."""
    old, new = _import(modules, "2025-06-18"), _import(modules, "2025-11-25")
    with pytest.warns(DeprecationWarning, match="^JSONRPCErrorError is now Error$"):
        assert old.JSONRPCErrorError is old.Error
    with pytest.warns(DeprecationWarning, match="is now URLElicitationRequiredErrorData$"):
        assert new.URLElicitationRequiredErrorErrorData is new.URLElicitationRequiredErrorData
    with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
        new.NoSuchName  # noqa: B018
    assert not [n for n in vars(new) if "ErrorError" in n]
    from codegen.targets.pydantic.profile import load_profile

    sdk = render_pydantic(corpus.resolved("2025-11-25"), load_profile("python-sdk"))
    assert "_FORMER" not in sdk["__init__.py"] and "__getattr__" not in sdk["__init__.py"]


@pytest.mark.spec
@pytest.mark.slow
def test_the_modules_pass_ruff_mypy_strict_and_pyright_strict(
    modules: Path, tmp_path: Path
) -> None:
    """ruff (defaults, isort, pyupgrade) over the seven modules; mypy --strict with the pydantic
    plugin and pyright strict, side by side, over the oldest and the newest (the type checkers
    take about a minute per run on the shared machine; the modules differ only in the schema)."""
    paths = [str(modules / _package(v) / "__init__.py") for v in VERSIONS]
    checked = [str(modules / _package(v) / "__init__.py") for v in TYPE_CHECKED]
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = pydantic.mypy\nstrict = True\n")
    mypy = [
        tool("mypy"),
        "--config-file",
        str(tmp_path / "mypy.ini"),
        f"--cache-dir={tmp_path / 'c'}",
    ]
    running = {"mypy": _start([*mypy, *checked], modules)}
    pyright = shutil.which("pyright", path=str(Path(sys.executable).parent)) or shutil.which(
        "pyright"
    )
    if pyright is not None:
        include = [_package(v) for v in TYPE_CHECKED]
        config = {"typeCheckingMode": "strict", "pythonVersion": "3.10", "include": include}
        (modules / "pyrightconfig.json").write_text(json.dumps(config))
        running["pyright"] = _start([pyright, "--pythonpath", sys.executable], modules)
    elif corpus.in_ci():
        pytest.fail("pyright not installed (the test extra has it)")
    ruff = [tool("ruff"), "check", "--isolated", "--no-cache", "--target-version", "py310"]
    cmd = [*ruff, "--extend-select", "I,UP", *paths]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    for name, proc in running.items():
        out, _ = proc.communicate()
        assert proc.returncode == 0, f"{name}:\n{out[-4000:]}"
    if pyright is None:
        pytest.skip("pyright not installed: ruff and mypy passed")


def _start(cmd: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


SCHEMA = """
export const LATEST_PROTOCOL_VERSION = "1";
/** A thing. */
export interface Thing {
  /** Its count. */
  count: number;
  whole?: integer;
  label?: string | null;
  note?: string;
  kind?: "a" | "b";
  _meta?: { [key: string]: unknown };
}
/** @TJS-type integer */
type integer = number;
export interface Bag {
  [key: string]: number;
  size: integer;
}
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    root = tmp_path_factory.mktemp("pydantic_small")
    (root / "pyd_small").mkdir()
    text = render_pydantic(load_text(SCHEMA, "small.ts"))["__init__.py"]
    (root / "pyd_small" / "__init__.py").write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    return importlib.import_module("pyd_small")


def test_numbers_keep_their_kind_and_integers_are_integers(small: ModuleType) -> None:
    from pydantic import ValidationError

    one = small.Thing.model_validate({"count": 1})
    assert type(one.count) is int and one.model_dump() == {"count": 1}
    assert type(small.Thing.model_validate({"count": 1.5}).count) is float
    with pytest.raises(ValidationError):
        small.Thing.model_validate({"count": 1, "whole": 1.5})


def test_absent_and_null_stay_apart(small: ModuleType) -> None:
    from pydantic import MISSING, ValidationError

    absent = small.Thing.model_validate({"count": 1})
    assert absent.label is MISSING and "label" not in absent.model_dump()
    null = small.Thing.model_validate({"count": 1, "label": None})
    assert null.label is None and null.model_dump() == {"count": 1, "label": None}
    with pytest.raises(ValidationError):  # `note` may be absent, never null
        small.Thing.model_validate({"count": 1, "note": None})


def test_wire_names_unknown_members_and_docstrings(small: ModuleType) -> None:
    from pydantic import ValidationError

    value = {"count": 2, "_meta": {"x": 1}, "other": [1]}
    thing = small.Thing.model_validate(value)
    assert thing.meta == {"x": 1} and thing.model_dump() == value
    assert small.Thing(count=3, kind="a").model_dump() == {"count": 3, "kind": "a"}
    assert small.Thing.__doc__ == "A thing."
    bag = small.Bag.model_validate({"size": 1, "extra": 2.5})
    assert bag.model_dump() == {"size": 1, "extra": 2.5}
    with pytest.raises(ValidationError):  # the index signature types the unknown members
        small.Bag.model_validate({"size": 1, "extra": "no"})


def test_the_output_is_the_same_bytes_every_run() -> None:
    resolved = load_text(SCHEMA, "small.ts")
    assert render_pydantic(resolved) == render_pydantic(resolved)


WORDS_IN_LITERALS = """
/** A thing. */
export interface Thing {
  kind: "Any";
  target?: "Other";
}

/** Another thing. */
export interface Other {
  back?: Thing;
}
"""


def test_imports_and_class_order_follow_the_names_annotations_use() -> None:
    """A literal value names nothing: `"Any"` imports no `typing.Any` (unused: ruff's F401), and
    `"Other"`, a class's name, neither moves `Other` before `Thing` nor quotes an annotation."""
    text = render_pydantic(load_text(WORDS_IN_LITERALS, "words.ts"))["__init__.py"]
    assert "from typing import Literal\n" in text
    assert text.index("class Thing(") < text.index("class Other(")  # the schema's order
    assert "    back: Thing | MISSING = MISSING\n" in text


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ("no-such-profile", "unknown profile 'no-such-profile'"),
        ('{"versions": ', "cannot read profile"),
        (
            '{"versions": {"1": {"open_classes": {"Nope": "why"}}}}',
            "open_classes['Nope'] matches nothing in 1",
        ),
        (
            '{"versions": {"1": {"names": {"Thing.gone": "Gone"}}}}',
            "names['Thing.gone'] matches nothing in 1",
        ),
        (
            '{"versions": {"1": {"leniencies": {"Thing.nope": {"annotation": "Any", "reason": "r"}}}}}',
            "leniencies['Thing.nope']",
        ),
        ('{"versions": {"1": {"extra": {"value": "ignore"}}}}', 'needs a \\"reason\\"'),
        ('{"versions": {"2": {}}}', "no section for protocol version 1"),
        (
            '{"versions": {"1": {"optional": {"value": "maybe", "reason": "r"}}}}',
            "one of: missing, none",
        ),
        ('{"versions": {"1": {"colour": {}}}}', "unknown profile setting 'colour'"),
    ],
)
def test_a_bad_profile_is_exit_2_naming_the_entry_and_nothing_is_written(
    profile: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = tmp_path / "schema.ts"
    schema.write_text(SCHEMA, encoding="utf-8")
    if profile.startswith("{"):
        (tmp_path / "p.json").write_text(profile, encoding="utf-8")
        profile = str(tmp_path / "p.json")
    out = tmp_path / "out"
    code, err = _run(
        [str(schema), "--target", "pydantic", "--profile", profile, "-o", str(out)], capsys
    )
    assert code == 2 and message.replace('\\"', '"') in err, err
    assert not out.exists()


def test_the_cli_writes_the_module_and_the_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = tmp_path / "schema.ts"
    schema.write_text(SCHEMA, encoding="utf-8")
    out = tmp_path / "out"
    code, err = _run([str(schema), "--target", "pydantic", "-o", str(out)], capsys)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == [".mcp-codegen-manifest.json", "__init__.py"]
    manifest = json.loads((out / ".mcp-codegen-manifest.json").read_text())
    assert manifest["files"] == [".mcp-codegen-manifest.json", "__init__.py"]
    code, err = _run([str(schema), "--target", "pydantic", "-o", str(out), "--check"], capsys)
    assert code == 0, err
