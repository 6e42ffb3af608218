"""Hostile names (issues 22 and 23): the one Python naming rule of codegen/pynaming.py.

Schema names win: a type named like a name the generated modules import or define for
themselves (`Mapping`, `_v`, `_KEYS_Root`, `ValidationError`...) is that class, and the
generator's name yields; keywords, builtins and dunders are renamed deterministically; two
declarations that end up with one Python name (`from`/`from_`, NFKC-equal identifiers) are a
located error naming both.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import typing
from pathlib import Path
from types import ModuleType

import pytest
from bindings_support import generate_text, mypy_strict, ruff_check
from cli_support import run_cli

from codegen.errors import SchemaError
from codegen.pipeline import load_text

# The 14 names issue 23 found shadowing the generated modules' own, and those issue 22 lists.
SHADOWING = ["Mapping", "_field", "_v", "_new", "_loads", "_plain", "_encode", "valid",
             "_KEYS_Root", "_build_U", "__class__", "__all__", "__builtins__", "__dict__"]  # fmt: skip
ISSUE_22 = ["Sequence", "JSONInput", "Any", "Final", "UNSET", "Model", "ValidationError", "field"]
# The decoders' locals (`_from_valid(v)`, `self`, comprehension variables), which hid a class
# of that name where the decoder names it.
LOCALS = ["v", "self", "i", "k"]
# Their Python names: only the dunders are renamed (`T` in front: a dunder is Python's).
PY = {n: "T" + n if n.startswith("__") else n for n in SHADOWING + ISSUE_22 + LOCALS}


def _schema() -> str:
    """One interface per name, each with its own required property `p<i>` (so a value of one is
    rejected by every other: decoding against the wrong class shows), and an optional one (so
    `_KEYS_<T>` and `UNSET` are used), plus the types that make the generator write the helpers
    whose names the schema takes: `Root` (`_KEYS_Root`), the union alias `U` (`_build_U`)."""
    lines = []
    for i, name in enumerate(SHADOWING + ISSUE_22):
        lines.append(f"export interface {name} {{ p{i}: string; o{i}?: number; u{i}?: unknown }}")
    lines += [
        "export interface Root { root: string; maybe?: Mapping }",
        "export interface Other { other: number }",
        "export type U = Root | Other;",
        "export interface Uses { u: U; m: Mapping[]; s: Sequence | null; any?: Any }",
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def shadowed(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path]:
    root = tmp_path_factory.mktemp("shadowed")
    return generate_text(_schema(), root, "shadowed"), root / "shadowed"


def _value(name: str) -> dict[str, object]:
    return {f"p{(SHADOWING + ISSUE_22).index(name)}": "x"}


@pytest.mark.slow
def test_the_shadowing_package_passes_mypy_strict_and_ruff(
    shadowed: tuple[ModuleType, Path], tmp_path: Path
) -> None:
    _, pkg = shadowed
    proc = mypy_strict([pkg], tmp_path / "cache")
    assert proc.returncode == 0, proc.stdout[-5000:]
    proc = ruff_check(sorted(pkg.glob("*.py")))
    assert proc.returncode == 0, proc.stdout[-5000:]


def test_star_import_of_models_gives_every_schema_name(shadowed: tuple[ModuleType, Path]) -> None:
    m, pkg = shadowed
    code = f"import json\nfrom {pkg.name}.models import *\nprint(json.dumps(dir()))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=pkg.parent, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert {PY[n] for n in SHADOWING + ISSUE_22} <= set(json.loads(proc.stdout))
    assert m.models.__all__ is not m.models.T__all__ and "T__all__" in m.models.__all__


def _one(name: str) -> str:
    """A schema around one shadowing name: the type itself, a union and a class that hold it,
    and the types whose helpers the generator names `_KEYS_Root` and `_build_U`."""
    return (
        f"export interface {name} {{ p: string; o?: number; u?: unknown }}\n"
        "export interface Other { q: number }\n"
        f"export interface Root {{ root: string; maybe?: {name} }}\n"
        "export type U = Root | Other;\n"
        f"export type Pick = {name} | Other;\n"
        f"export interface Holder {{ x: {name}; y: Pick; u: U; z?: {name}[];\n"
        f"  rec: Record<string, number>; arr: string[]; any?: unknown; m?: Record<string, {name}[]>;\n"
        f"  [key: string]: {name} | string | number | {name}[] | object }}\n"
    )


_PACKAGES: dict[str, ModuleType] = {}


@pytest.fixture(scope="module")
def one_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("one")


def _package(name: str, root: Path) -> ModuleType:
    """The package of `_one(name)` (generated once per name, imported as `one_<i>`)."""
    if name not in _PACKAGES:
        i = (SHADOWING + ISSUE_22 + LOCALS).index(name)
        _PACKAGES[name] = generate_text(_one(name), root, f"one_{i}")
    return _PACKAGES[name]


@pytest.mark.slow
def test_every_one_name_package_passes_mypy_strict_and_ruff(one_root: Path) -> None:
    for name in SHADOWING + LOCALS:
        _package(name, one_root)
    pkgs = sorted(one_root.glob("one_*"))
    proc = mypy_strict(pkgs, one_root / ".cache")
    assert proc.returncode == 0, proc.stdout[-5000:]
    proc = ruff_check([p for pkg in pkgs for p in sorted(pkg.glob("*.py"))])
    assert proc.returncode == 0, proc.stdout[-5000:]


@pytest.mark.parametrize("name", SHADOWING + LOCALS)
def test_one_shadowing_name_generates_imports_and_decodes_as_its_class(
    one_root: Path, name: str
) -> None:
    m = _package(name, one_root)
    cls = getattr(m.models, PY[name])
    assert isinstance(cls, type) and cls.__name__ == PY[name] and name in m.validators.TYPES
    for c in (cls, m.models.Holder, m.models.Root):  # every annotation means what it says
        typing.get_type_hints(c)
    value = {"p": "x", "u": [{"a": 1}], "zz": 1}
    wire = {"x": value, "y": value, "u": {"q": 1}, "z": [value], "rec": {}, "arr": ["a"]}
    held = m.decode("Holder", wire)
    assert type(held.x) is cls and type(held.y) is cls and type(held.z[0]) is cls
    assert type(held.u) is m.models.Other and held.x.extra == {"zz": 1}
    assert type(m.decode("Pick", {"q": 2})) is m.models.Other
    assert type(m.decode("U", {"root": "r", "maybe": value})) is m.models.Root
    assert m.encode(held) == wire
    more = m.decode("Holder", {**wire, "m": {"a": [value]}, "e": value})
    assert type(more.m["a"][0]) is cls and type(more.extra["e"]) is cls
    assert m.encode(more) == {**wire, "m": {"a": [value]}, "e": value}
    assert cls.from_json(held.x.to_json()) == held.x
    assert m.validators.is_valid(name, value) and not m.validators.is_valid(name, {"q": 1})
    assert not m.validators.is_valid("Holder", {**wire, "x": {"q": 1}})
    with pytest.raises(m.validators.ValidationError):
        cls.from_dict({"p": 1})


@pytest.mark.parametrize("name", SHADOWING + ISSUE_22)
def test_each_shadowing_name_is_its_own_class_and_decodes(
    shadowed: tuple[ModuleType, Path], name: str
) -> None:
    """The same, all names in one package: none of them meets another's or a helper's name."""
    m, _ = shadowed
    cls = getattr(m.models, PY[name])
    assert isinstance(cls, type) and cls.__module__ == "shadowed.models"
    assert cls.__name__ == PY[name]
    value = _value(name)
    obj = m.decode(name, value)
    assert type(obj) is cls and m.decode(cls, value) == obj == cls.from_dict(value)
    assert cls.from_json(obj.to_json()) == obj and m.encode(obj) == value
    # validated against this class, not another one of the same Python name
    assert m.is_valid(name, value) and m.is_valid(cls, value)
    other = "Mapping" if name != "Mapping" else "Sequence"
    assert not m.is_valid(name, _value(other))
    with pytest.raises(m.validators.ValidationError):
        cls.from_dict(_value(other))
    # undeclared members kept (the `_KEYS_` set and `_extras`), optional ones `UNSET`
    wide = {**value, "zz": [1]}
    back = cls.from_dict(wide)
    assert back.extra == {"zz": [1]} and back.to_dict() == wide
    assert getattr(back, f"o{(SHADOWING + ISSUE_22).index(name)}") is m.validators._rt.UNSET


def test_the_generator_names_still_work_where_the_schema_took_them(
    shadowed: tuple[ModuleType, Path],
) -> None:
    m, _ = shadowed
    v, models = m.validators, m.models
    # `valid` does not shadow validators.is_valid; its own check is `is_valid_`
    assert callable(v.is_valid) and v.is_valid("valid", {"p7": "x"}) is True
    assert v.is_valid_({"p7": "x"}) and not v.is_valid_({})
    # `_KEYS_Root` is the schema's class; Root's key set is another name
    assert isinstance(models._KEYS_Root, type) and models._KEYS_Root_ == {"root", "maybe"}
    root = m.decode("Root", {"root": "r", "maybe": {"p0": "x"}, "extra": 1})
    assert type(root.maybe) is models.Mapping and root.extra == {"extra": 1}
    # `_build_U` is the schema's class; U's builder picks the member by shape
    assert isinstance(models._build_U, type)
    uses = m.decode("Uses", {"u": {"other": 1}, "m": [{"p0": "a"}], "s": None})
    assert type(uses.u) is models.Other and type(uses.m[0]) is models.Mapping
    assert type(m.decode("U", {"root": "x"})) is models.Root
    # the dunders are renamed, so the module's own stay what Python made them
    assert models.__dict__ is vars(models) and models.__class__ is type(models)
    assert isinstance(models.__builtins__, dict) or models.__builtins__ is __builtins__
    # the package exports the schema's ValidationError; the exception stays in validators
    assert m.ValidationError is models.ValidationError
    assert issubclass(m.validators.ValidationError, Exception)
    assert m.UNSET is models.UNSET and m.validators._rt.UNSET is not models.UNSET


LITERALS = """
export interface Literal { kind: "a"; a: string }
export interface Literal_ { kind: "b"; b: number }
export type Either = Literal | Literal_;
"""


@pytest.mark.slow
def test_literal_and_literal_underscore_are_two_classes_that_both_decode(tmp_path: Path) -> None:
    m = generate_text(LITERALS, tmp_path, "literals")
    one, two = m.models.Literal, m.models.Literal_
    assert one is not two and (one.__name__, two.__name__) == ("Literal", "Literal_")
    assert type(m.decode("Literal", {"kind": "a", "a": "x"})) is one
    assert type(m.decode("Literal_", {"kind": "b", "b": 1})) is two
    assert type(m.decode("Either", {"kind": "b", "b": 1})) is two
    assert two.from_dict({"kind": "b", "b": 1}).b == 1 and one.from_dict({"kind": "a", "a": "x"})
    assert not m.is_valid("Literal_", {"kind": "a", "a": "x"})
    assert mypy_strict([tmp_path / "literals"], tmp_path / "cache").returncode == 0


LOCATED = re.compile(r"^(?P<file>.+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


def _refused(text: str, tmp_path: Path) -> list[re.Match[str]]:
    """Generate `text` with the CLI: exit 2, only located lines, nothing written."""
    schema = tmp_path / "names.ts"
    schema.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli(str(schema), "-o", str(out))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()
    lines = [LOCATED.match(line) for line in proc.stderr.splitlines()]
    assert lines and all(lines), proc.stderr
    return [m for m in lines if m is not None]


def test_fields_from_and_from_underscore_are_a_located_error_naming_both(tmp_path: Path) -> None:
    (err,) = _refused("export interface F {\n  from: string;\n  from_: number;\n}\n", tmp_path)
    assert (err["line"], err["col"]) == ("3", "3")
    assert "'from'" in err["message"] and "'from_'" in err["message"]
    assert "names.ts:2:3" in err["message"] and "'from_'" in err["message"].split("attribute")[1]


def test_two_properties_of_one_snake_case_name_are_a_located_error(tmp_path: Path) -> None:
    (err,) = _refused('export interface F { aB: string; "a-b": number }\n', tmp_path)
    assert "'aB'" in err["message"] and "'a-b'" in err["message"] and "'a_b'" in err["message"]


@pytest.mark.parametrize(
    ("first", "second", "py"),
    [("Hello", "\u210cello", "Hello"), ("Root", "\uff32\uff4f\uff4f\uff54", "Root")],
    ids=["fraktur-H", "fullwidth-Root"],
)
def test_nfkc_equal_identifiers_are_a_located_error_naming_both(
    tmp_path: Path, first: str, second: str, py: str
) -> None:
    text = f"export interface {first} {{ a: string }}\nexport type {second} = {{ b: number }};\n"
    (err,) = _refused(text, tmp_path)
    assert (err["line"], err["col"]) == ("2", "8")
    msg = err["message"]
    assert f"'{first}'" in msg and f"'{second}'" in msg and f"'{py}'" in msg
    assert "names.ts:1:8" in msg


def test_a_keyword_rename_meeting_a_real_type_name_is_a_located_error(tmp_path: Path) -> None:
    (err,) = _refused("export type None = null;\nexport interface None_ { a: string }\n", tmp_path)
    assert "'None'" in err["message"] and "'None_'" in err["message"]


def test_a_ligature_name_is_written_in_nfkc_so_star_import_works(tmp_path: Path) -> None:
    m = generate_text("export interface \ufb01le { a: string }\n", tmp_path, "ligature")
    assert m.models.__all__ == ["file"] and "file" in m.__all__
    proc = subprocess.run(
        [sys.executable, "-c", "from ligature.models import *; print(file.__name__)"],
        capture_output=True, text=True, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.strip() == "file", proc.stderr
    assert type(m.decode("\ufb01le", {"a": "x"})) is m.models.file  # by its schema name too
    assert type(m.decode("file", {"a": "x"})) is m.models.file


def test_name_table_api() -> None:
    """What another Python target (pydantic) reads: one table from the resolved IR."""
    from codegen.pynaming import NameTable, py_identifier

    resolved = load_text(
        "export interface Mapping { from: string; inputSchema?: number }\n"
        "export type U = Mapping | string;\nexport const None = 1;\n",
        "api.ts",
    )
    names = NameTable(resolved)
    names.check()
    assert [names.type_name(n) for n in ("Mapping", "U", "None")] == ["Mapping", "U", "None_"]
    assert names.attributes("Mapping") == ("from_", "input_schema")
    assert names.own["Mapping"] == "_Mapping" and names.own["Any"] == "Any"
    assert names.keys["Mapping"] == "_KEYS_Mapping" and names.builders["U"] == "_build_U"
    assert names.renamed == {"None": "None_"}
    assert names.spell(["BaseModel", "Mapping", "U"], ["v"]) == {
        "BaseModel": "BaseModel", "Mapping": "_Mapping", "U": "_U", "v": "v",
    }  # fmt: skip
    assert [py_identifier(n) for n in ("class", "__all__", "1st", "a$b", "\ufb01le")] == [
        "class_", "T__all__", "T1st", "a_b", "file",
    ]  # fmt: skip
    bad = NameTable(load_text("export interface A { from: string; from_: string }\n", "bad.ts"))
    with pytest.raises(SchemaError, match="'from' .* and 'from_' of A"):
        bad.check()
