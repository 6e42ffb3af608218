"""The generator's own names come from one place: what validators.py's template and the
former-names block (`_former.j2`, `_former_imports.j2`: the deprecated aliases of renamed
classes in a package `__init__`, an application `__init__` and a pydantic module) define or
import is read from the templates (`templating.module_names`), models.py's names are the ones
its template and views spell through the table (`pynaming.MODELS_OWN`). Every Python template
is either a module that holds the schema's names (each with its table) or one that keeps its own
namespace; a template that defines a name its table does not know fails here. A schema whose
types take every one of those names generates a package that passes `mypy --strict`, still
explains a non-JSON value as such, and still warns on a former name."""

from __future__ import annotations

import importlib
import re
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from bindings_support import generate_text, mypy_strict

from codegen import pynaming, templating
from codegen.pipeline import load_text
from codegen.pynaming import (
    FORMER_TEMPLATES,
    MODELS_LOCALS,
    MODELS_OWN,
    NameTable,
    former_own,
    validators_own,
)
from codegen.targets.pydantic.names import MODULE_NAMES
from codegen.templating import module_names, template_dir

# The module templates whose module also holds the schema's names (models.py) or names derived
# from them (validators.py's `is_<T>`, `_explain_<T>`); the other modules name the schema's
# types through `_m.` and keep their own namespace.
MODELS = "python/models.py.j2"
VALIDATORS = pynaming.VALIDATORS_TEMPLATE
_VALIDATOR_PREFIXES = ("is_", "_explain_", "_KEYS_")


def _private(names: frozenset[str]) -> set[str]:
    return {n for n in names if not n.startswith("__")}


def _tables() -> dict[str, frozenset[str]]:
    """Each module template whose module holds the schema's names -> the names its table knows
    (what the module may define or import itself, and spell through the table as `g.NAME`)."""
    table = NameTable(load_text("export interface A { a: string }\n", "a.ts"))
    former = frozenset(former_own())
    return {
        MODELS: frozenset(MODELS_OWN) | frozenset(MODELS_LOCALS),
        VALIDATORS: table._validators_taken,
        "python/__init__.py.j2": former,  # its other names: the views' (`NameTable.exports`)
        "python/app/__init__.py.j2": former,
        "pydantic/module.py.j2": former | frozenset(MODULE_NAMES),  # imports: the view's
    }


# Modules that name the schema's types through `_m.` (or not at all): their names meet none.
OWN_NAMESPACE = ("python/codec.py.j2", "python/registry.py.j2", "python/app/convert.py.j2",
                 "python/dist/__init__.py.j2", "python/dist/client.py.j2",
                 "python/dist/server.py.j2", "python/dist/versions.py.j2")  # fmt: skip
_INCLUDE = re.compile(r"""\{%-?\s*include\s+["']([^"']+)["']""")


def _with_includes(name: str) -> list[str]:
    """`name` and every template it includes, however deep (`include "python/_validator_" ~
    kind ~ ".j2"`: every template it may be)."""
    out, todo = [], [name]
    while todo:
        t = todo.pop()
        if t in out:
            continue
        out.append(t)
        for inc in _INCLUDE.findall((template_dir() / t).read_text()):
            found = [inc] if inc.endswith(".j2") else template_dir().glob(inc + "*.j2")
            todo += [Path(p).relative_to(template_dir()).as_posix() if Path(p).is_absolute()
                     else str(p) for p in found]  # fmt: skip
    return out


def _defined(name: str) -> set[str]:
    """What a template defines or imports at module level (a partial that is no module on its
    own, a function body's piece, defines nothing there) and what it spells as `g.NAME`."""
    text = (template_dir() / name).read_text()
    spelled = set(re.findall(r"\bg\.(\w+)", text))
    try:
        return _private(module_names(name)) | spelled
    except SyntaxError:
        return spelled


def test_every_name_the_templates_define_is_in_the_table() -> None:
    modules = [p.relative_to(template_dir()).as_posix() for p in template_dir().rglob("*.py.j2")]
    python = sorted(m for m in modules if m.startswith(("python/", "pydantic/")))
    tables = _tables()
    assert sorted([*tables, *OWN_NAMESPACE]) == python  # a new module template is placed here
    for module, table in tables.items():
        for name in _with_includes(module):
            unknown = _defined(name) - table
            assert not unknown, f"{name} (in {module}) defines {sorted(unknown)}: not in its table"
    for module in ("python/__init__.py.j2", "python/app/__init__.py.j2", "pydantic/module.py.j2"):
        assert set(FORMER_TEMPLATES) <= set(_with_includes(module))
    assert former_own() == ("TYPE_CHECKING", "_FORMER", "deprecated", "warnings")
    # the names issue 34 found missing from the hand list, and one it still had
    assert {"_explain_json", "_is_json", "_json_members", "_is_chain"} <= validators_own()
    assert "_isfinite" not in validators_own()


def test_a_template_defining_an_unknown_name_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a former-names block that imports one more name."""
    real, table = templating.static_source, _tables()["python/__init__.py.j2"]

    def source(name: str) -> str:
        text = real(name)
        return text.replace("import warnings\n", "import warnings\nimport sys\n", 1)

    monkeypatch.setattr(templating, "static_source", source)
    module_names.cache_clear()
    try:
        assert _defined("python/_former_imports.j2") - table == {"sys"}
    finally:
        monkeypatch.undo()
        module_names.cache_clear()


def test_module_names_reads_a_templates_definitions(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        "from __future__ import annotations\n"
        "import re\nfrom x import a as _a, b\n"
        "{% if view.flag %}\n_HELPER = 1\n{% endif %}\n"
        "{{ name }} = {{ value }}\n"
        "_T: {{ hint }} = 2\n"
        "def _fn() -> None:\n    inner = 1\n"
        "class _C:\n    attr = 2\n"
        "{# a comment #}{% for f in view.functions %}\n{% include 'x.j2' %}\n{% endfor %}\n"
        "{{ g._OWN }} = {}\n{{g.spelled}}: int = 1\n"
        "if {{ g.TYPE_CHECKING }}:\n    import m as {{ g.m }}\nelse:\n    from n import o\n"
    )
    monkeypatch.setattr(templating, "static_source", lambda name: text)
    found = module_names.__wrapped__("fake.j2")  # type: ignore[attr-defined]
    assert found == {"annotations", "re", "_a", "b", "_HELPER", "_T", "_fn", "_C", "_OWN",
                     "spelled", "m", "o"}  # fmt: skip


def _colliding_types() -> list[str]:
    """Type names that take every name of models.py (as written) and every name of
    validators.py (through the per-type `is_<T>`, `_explain_<T>`, `_KEYS_<T>`)."""
    names = set(MODELS_OWN) | set(MODELS_LOCALS) | {"json"}
    for own in validators_own():
        names |= {own[len(p) :] for p in _VALIDATOR_PREFIXES if own.startswith(p)}
    return sorted(n for n in names if re.fullmatch(r"[A-Za-z_]\w*", n))


def _schema(names: list[str]) -> str:
    lines = [f"export interface {n} {{ p{i}: string; o{i}?: number }}" for i, n in enumerate(names)]
    refs = "; ".join(f"r{i}?: {n}" for i, n in enumerate(names))
    lines.append(f"export interface Holder {{ u: unknown; {refs} }}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def taken(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path]:
    root = tmp_path_factory.mktemp("own_names")
    return generate_text(_schema(_colliding_types()), root, "taken"), root / "taken"


def test_a_type_named_json_keeps_the_json_checks(taken: tuple[ModuleType, Path]) -> None:
    pkg, _ = taken
    assert {"json", "chain", "Any", "_v"} <= set(_colliding_types())
    errors = pkg.validators.errors("Holder", {"u": {1, 2}})
    assert [(e.path, e.message) for e in errors] == [
        ("$.u", "expected a JSON value, got set (not a JSON value)")
    ]
    index = _colliding_types().index("json")
    bad = {"u": 1, f"r{index}": {f"p{index}": 3}}
    assert [e.path for e in pkg.validators.errors("Holder", bad)] == [f"$.r{index}.p{index}"]
    assert pkg.validators.is_valid("json", {f"p{index}": "x"})
    assert pkg.models.json.from_dict({f"p{index}": "x"}).to_dict() == {f"p{index}": "x"}


@pytest.mark.slow
def test_the_package_of_every_own_name_passes_mypy_strict(
    taken: tuple[ModuleType, Path], tmp_path: Path
) -> None:
    _, pkg = taken
    proc = mypy_strict([pkg], tmp_path / "cache")
    assert proc.returncode == 0, proc.stdout[-5000:]


# The pydantic module's own names; schema types take every one of them.
PYDANTIC_OWN = ("Annotated", "Any", "Literal", "BaseModel", "ConfigDict", "Field", "RootModel",
                "MISSING")  # fmt: skip
PYDANTIC_SCHEMA = "".join(f"export interface {n} {{ tag: {n}Kind; payload?: unknown }}\n"
                          f'export type {n}Kind = "{n.lower()}" | "other";\n'
                          for n in PYDANTIC_OWN) + (
    "export interface Holder { fieldName?: Field; ann: Annotated; free?: { [key: string]: any } }\n"
    "export type Alias = Any | Literal;\n"
)  # fmt: skip


def _pydantic_module(tmp_path: Path) -> tuple[ModuleType, str]:
    from bindings_support import import_package

    from codegen.targets.pydantic.render import render_pydantic

    files = render_pydantic(load_text(PYDANTIC_SCHEMA, "own.ts"))
    pkg = tmp_path / "pyd_own"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(files["__init__.py"])
    return import_package(tmp_path, "pyd_own"), files["__init__.py"]


def test_pydantic_schema_names_win_over_the_modules_own(tmp_path: Path) -> None:
    """The dataclass target's rule: the schema's `Field` is `Field`, pydantic's is `_Field`."""
    m, text = _pydantic_module(tmp_path)
    for name in PYDANTIC_OWN:
        cls = getattr(m, name)
        assert cls.__name__ == name and cls.model_fields["tag"].annotation is not None
    assert "from pydantic import BaseModel as _BaseModel" in text
    assert "from typing import Any as _Any\nfrom typing import Literal as _Literal\n" in text
    held = m.Holder.model_validate({"fieldName": {"tag": "field"}, "ann": {"tag": "other"}})
    assert type(held.field_name) is m.Field and type(held.ann) is m.Annotated
    assert held.model_dump(exclude_unset=True) == {
        "fieldName": {"tag": "field"}, "ann": {"tag": "other"},
    }  # fmt: skip
    with pytest.raises(Exception, match="tag"):
        m.Field.model_validate({"tag": "annotated"})


# Types that take every name the former-names block writes, beside a path the shipped reviewed
# names rename (`HeaderMismatchError.error` -> `HeaderMismatchErrorObject`): the block's names
# yield (`import warnings as _warnings`), the former name still warns.
FORMER_CLASH = "".join(
    f"export interface {n} {{ v{i}: string }}\n" for i, n in enumerate(former_own())
) + (
    "export interface HeaderMismatchError { error: { code: number; message: string } }\n"
    "export interface Holder { h: HeaderMismatchError; "
    + "; ".join(f"r{i}?: {n}" for i, n in enumerate(former_own()))
    + " }\n"
)
FORMER, REVIEWED = "HeaderMismatchErrorError", "HeaderMismatchErrorObject"
USES_THE_FORMER_NAMES = """
from former_pkg import HeaderMismatchErrorError, HeaderMismatchErrorObject, warnings
from former_dist.app import HeaderMismatchErrorError as AppFormer
from former_pyd import HeaderMismatchErrorError as PydanticFormer


def holder(old: HeaderMismatchErrorObject, w: warnings) -> object:
    return HeaderMismatchErrorError, AppFormer, PydanticFormer
"""


@pytest.fixture(scope="module")
def former_clash(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A package and a pydantic module of FORMER_CLASH, side by side."""
    from codegen.targets.pydantic.render import render_pydantic

    root = tmp_path_factory.mktemp("former_clash")
    generate_text(FORMER_CLASH, root, "former_pkg")
    (root / "former_pyd").mkdir()
    pyd = render_pydantic(load_text(FORMER_CLASH, "former.ts"))["__init__.py"]
    (root / "former_pyd" / "__init__.py").write_text(pyd, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def former_dist(former_clash: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Beside them, a two-version distribution (the example protocol, FORMER_CLASH added to
    both versions): its application types' `__init__` has the block too."""
    from codegen.targets.python.distribution import render_distribution
    from codegen.write import write_tree

    texts = [
        (template_dir().parent / "schemas" / "example" / v / "schema.ts").read_text() + FORMER_CLASH
        for v in ("v1", "v2")
    ]
    schemas = [load_text(t, f"{v}.ts") for t, v in zip(texts, ("v1", "v2"), strict=True)]
    out = tmp_path_factory.mktemp("former_dist")
    write_tree(out, render_distribution(schemas, "former_dist"))
    shutil.copytree(out / "former_dist", former_clash / "former_dist")
    return former_clash


@pytest.mark.parametrize(
    "module",
    ["former_pkg", "former_pyd", pytest.param("former_dist.app", marks=pytest.mark.slow)],
)
def test_the_former_names_block_yields_to_schema_names(
    request: pytest.FixtureRequest, module: str
) -> None:
    from bindings_support import import_package

    root = request.getfixturevalue("former_dist" if "." in module else "former_clash")
    import_package(root, module.split(".")[0])
    m = importlib.import_module(module)
    for name in former_own():  # the schema's classes, not the block's helpers
        assert isinstance(getattr(m, name), type) and getattr(m, name).__name__ == name
    text = Path(m.__file__ or "").read_text()
    assert "import warnings as _warnings\n" in text and "_FORMER_ = {" in text
    assert f'@_deprecated("{FORMER} is now {REVIEWED}")' in text
    with pytest.warns(DeprecationWarning, match=f"^{FORMER} is now {REVIEWED}$"):
        assert getattr(m, FORMER) is getattr(m, REVIEWED)
    with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
        m.NoSuchName  # noqa: B018


@pytest.mark.slow
def test_the_former_names_clash_passes_mypy_strict(former_dist: Path, tmp_path: Path) -> None:
    """The three modules pass `mypy --strict` (the pydantic plugin on); a user of the former
    names is told they are deprecated (PEP 702, mypy's opt-in `deprecated` code), nothing else."""
    user = former_dist / "former_user.py"
    user.write_text(USES_THE_FORMER_NAMES, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = pydantic.mypy\n")
    paths = [former_dist / n for n in ("former_pkg", "former_dist", "former_pyd")] + [user]
    flags = ("--config-file", str(tmp_path / "mypy.ini"), "--enable-error-code=deprecated")
    proc = mypy_strict(paths, tmp_path / "cache", *flags)
    errors = [ln for ln in proc.stdout.splitlines() if ": error:" in ln]
    assert len(errors) == 3, proc.stdout[-5000:]
    assert all(e.startswith("former_user.py:") and "[deprecated]" in e for e in errors), errors
    assert all(f"is deprecated: {FORMER} is now {REVIEWED}" in e for e in errors), errors
