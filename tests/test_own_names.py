"""The generator's own names come from one place: what validators.py's template defines or
imports is read from the template (`templating.module_names`), models.py's names are the ones
its template and views spell through the table (`pynaming.MODELS_OWN`). A template that defines
a name the table does not know fails here; a schema whose types take every one of those names
generates a package that passes `mypy --strict` and still explains a non-JSON value as such."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from bindings_support import generate_text, mypy_strict

from codegen import pynaming, templating
from codegen.pipeline import load_text
from codegen.pynaming import MODELS_LOCALS, MODELS_OWN, NameTable, validators_own
from codegen.templating import module_names, template_dir

# The module templates whose module also holds the schema's names (models.py) or names derived
# from them (validators.py's `is_<T>`, `_explain_<T>`); the other modules name the schema's
# types through `_m.` and keep their own namespace.
MODELS = "python/models.py.j2"
VALIDATORS = pynaming.VALIDATORS_TEMPLATE
_VALIDATOR_PREFIXES = ("is_", "_explain_", "_KEYS_")


def _private(names: frozenset[str]) -> set[str]:
    return {n for n in names if not n.startswith("__")}


def test_every_name_the_templates_define_is_in_the_table() -> None:
    table = NameTable(load_text("export interface A { a: string }\n", "a.ts"))
    assert _private(module_names(VALIDATORS)) <= table._validators_taken
    assert _private(module_names(MODELS)) <= set(MODELS_OWN)
    spelled = set()  # what every Python template spells through the table: `{{ g.NAME }}`
    for path in sorted((template_dir() / "python").glob("*.j2")):
        spelled |= set(re.findall(r"\bg\.(\w+)", path.read_text()))
    assert spelled <= set(MODELS_OWN) | set(MODELS_LOCALS)
    # the names issue 34 found missing from the hand list, and one it still had
    assert {"_explain_json", "_is_json", "_json_members", "_is_chain"} <= validators_own()
    assert "_isfinite" not in validators_own()


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
    )
    monkeypatch.setattr(templating, "static_source", lambda name: text)
    found = module_names.__wrapped__("fake.j2")  # type: ignore[attr-defined]
    assert found == {"annotations", "re", "_a", "b", "_HELPER", "_T", "_fn", "_C"}


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
