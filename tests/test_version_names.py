"""Each target names a version's folder, file or module from its neutral key (the key:
`analysis.versions.identify`) by one shared rule (`codegen/targets/spelling.py`) with its own
keywords and reserved names: a label that is a Rust or Go keyword gets `v` first in that target
only, two keys spelling one name are a located error naming the target's spelling."""

from __future__ import annotations

import pytest

from codegen import ir, targets
from codegen.analysis.versions import identify
from codegen.errors import SchemaError
from codegen.pipeline import load_text
from codegen.targets import Request
from codegen.targets.go.names import package_names
from codegen.targets.python.distribution import versions_of
from codegen.targets.zod.module import render_zod

_TINY = """
export const LATEST_PROTOCOL_VERSION = "1.0";
export interface Result { [key: string]: unknown; }
/** @category `ping` */
export interface PingRequest { method: "ping"; id: string | number; }
export type ClientRequest = PingRequest;
export type ServerResult = Result;
"""


def _drafts(*labels: str) -> list[ir.Resolved]:
    """The release `1.0` and a draft of it per label: each draft is keyed by its label."""
    return [load_text(_TINY, f"s/{label}/schema.ts") for label in ("1.0", *labels)]


def _rust_modules(schemas: list[ir.Resolved]) -> list[str]:
    labels = tuple(v.label for v in identify(schemas))
    files = targets.get("rust").render(Request(tuple(schemas), {"package": "x"}, labels))
    return sorted({p.split("/")[1] for p in files if p.startswith("src/") and p.count("/") == 2})


def test_a_keyword_label_is_spelled_by_each_target_its_own_way() -> None:
    schemas = _drafts("type", "mod", "go", "class")
    assert [v.key for v in identify(schemas)] == ["1.0", "type", "mod", "go", "class"]
    python = [v.subpackage for v in versions_of(schemas)]
    assert python == ["v1_0", "type", "mod", "go", "vclass"]  # `class` is Python's keyword
    assert [name for name, _ in package_names(schemas)] == ["v10", "vtype", "mod", "vgo", "class"]
    assert _rust_modules(schemas) == sorted(["v1_0", "vtype", "vmod", "go", "class"])
    assert sorted(render_zod(schemas, "x")) == ["class.ts", "go.ts", "mod.ts", "type.ts", "v1_0.ts"]


def test_the_rust_crate_and_go_module_declare_the_spelled_names() -> None:
    schemas = _drafts("type")
    labels = tuple(v.label for v in identify(schemas))
    crate = targets.get("rust").render(Request(tuple(schemas), {"package": "x"}, labels))
    assert "pub mod vtype;" in crate["src/lib.rs"] and "\nvtype = []\n" in crate["Cargo.toml"]
    module = targets.get("go").render(Request(tuple(schemas), {"module": "example.com/m"}, labels))
    assert (
        module["vtype/types.go"].startswith("// ")
        and "\npackage vtype\n" in module["vtype/types.go"]
    )


@pytest.mark.parametrize(
    ("label", "spell", "message"),
    [
        ("runtime", _rust_modules, "module 'runtime' is a module or a cargo feature of the crate"),
        ("default", _rust_modules, "module 'default' is a module or a cargo feature of the crate"),
        ("internal", package_names, "Go package 'internal' is a directory of the module's top"),
        ("app", versions_of, "subpackage 'app' is a module of the distribution's top level"),
    ],
)
def test_a_label_taking_a_top_level_name_is_refused(
    label: str, spell: object, message: str
) -> None:
    with pytest.raises(SchemaError, match=message) as info:
        spell(_drafts(label))  # type: ignore[operator]
    assert str(info.value).startswith(f"s/{label}/schema.ts:1:1: ")


def test_two_keys_spelling_one_name_are_refused_in_the_target_that_spells_them_so() -> None:
    """`a-b` and `a_b` are two keys; Python, Rust and zod spell both `a_b`, Go `ab`; `ab` and
    `a_b` collide in Go only."""
    for spell, name in ((versions_of, "subpackage 'a_b'"), (_rust_modules, "module 'a_b'"),
                        (lambda s: render_zod(s, "x"), "module 'a_b'")):  # fmt: skip
        with pytest.raises(SchemaError, match=f"s/a_b/schema.ts:1:1: {name} is also that of s/a-b"):
            spell(_drafts("a-b", "a_b"))  # type: ignore[operator]
    schemas = _drafts("ab", "a_b")
    assert [v.subpackage for v in versions_of(schemas)] == ["v1_0", "ab", "a_b"]
    with pytest.raises(SchemaError, match="Go package 'ab' is also that of s/ab/schema.ts"):
        package_names(schemas)
