"""Issue 7 against the generated bindings: injection through a hostile schema (nothing from a
comment or literal runs), hostile messages against the official versions' validators and codec
(only ValidationError or a correct verdict), and property-based fuzzing of random schemas."""

from __future__ import annotations

import ast
import json
import math
import os
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import corpus
import hypothesis
import pytest
import random_schemas
from bindings_support import generate, generate_file, generate_text, mypy_strict, ruff_check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen import ir
from codegen.naming import Overrides
from codegen.pipeline import load_text

REPO = Path(__file__).resolve().parent.parent
INJECTION = REPO / "tests/fixtures/hostile/injection.ts"


# -- 2. injection -------------------------------------------------------------------------------


@pytest.mark.slow
def test_injection_payloads_never_run_and_appear_literally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a payload that ran would create PWNED_* here
    m = generate_file(INJECTION, tmp_path / "pkgs", "injection_pkg")
    assert m.PAYLOAD == '"""; __import__(\'os\').system(\'touch PWNED_CONST\'); """'
    assert m.TRICKY == "line1\nline2 'single' \"double\" back\\slash {{ x }} {% y %}"
    # The JSDoc above PAYLOAD is its attribute docstring: every hostile line must be there as text.
    source = Path(m.models.__file__).read_text(encoding="utf-8")
    strings = [
        n.value.value
        for n in ast.parse(source).body
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    ]
    doc = next(d for d in strings if isinstance(d, str) and d.startswith("Injection fixture"))
    for line in (
        '""" import os; open("PWNED_DOCSTRING", "w").write("x") """',
        """''' import os; open("PWNED_SINGLE", "w").write("x") '''""",
        '{{ cycler.__init__.__globals__.os.system("touch PWNED_JINJA") }}',
        "{% for x in range(1) %}{{ x }}{% endfor %}",
        "A trailing backslash \\",
    ):
        assert line in doc, line
    assert "\u202e abc \u202c" in doc and "日本語" in doc
    assert m.Hostile.__doc__ is not None and "Trailing backslash" in m.Hostile.__doc__
    value = {
        "class": "c", "match": "line\nbreak", "list": ["a"], "a-b": 1.5, "$ref": "r", "1st": "x",
        "aBc": "upper", "ab": "lower", "é-名前": "ü", "import": "\u202e", "payload": m.PAYLOAD,
        "from": 2, "type": '"""', "None": True, "self": "s", "extra": "declared, not an extra",
        "_meta": {"k": [1]}, "undeclared": {"kept": None},
    }  # fmt: skip
    obj = m.decode("Hostile", value)
    assert json.dumps(m.encode(obj), sort_keys=True) == json.dumps(value, sort_keys=True)
    for bad in ("{{ x }}x", 'a\\"b', "line\\nbreak"):
        assert not m.is_valid("Hostile", {**value, "match": bad})
    assert m.is_valid("Hostile", {**value, "match": "{% y %}"})
    nested = m.decode(
        "Container",
        {"def": {"lambda": {"yield": "y"}, "await": {"items": [value]}}, "n": {"value": None}},
    )
    assert m.encode(nested)["def"]["await"]["items"][0]["payload"] == m.PAYLOAD
    pkg = tmp_path / "pkgs" / "injection_pkg"
    mypy = mypy_strict([pkg], tmp_path / "cache")
    assert mypy.returncode == 0, mypy.stdout
    ruff = ruff_check(sorted(p for p in pkg.glob("*.py") if p.name != "registry.py"))
    assert ruff.returncode == 0, ruff.stdout
    planted = sorted(p.name for p in tmp_path.rglob("PWNED*")) + sorted(
        p.name for p in REPO.glob("PWNED*")
    )
    assert planted == []


# -- 4. hostile messages on the official versions -------------------------------------------------

WRONG: list[Any] = [None, True, False, 0, -1, 1.5, "", "x", [], {}, [None], {"": None}]


@pytest.fixture(scope="module")
def official(
    spec_root: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[ModuleType, list[corpus.Example]]:
    version = corpus.get_version("draft")
    m = generate_file(version.schema_ts, tmp_path_factory.mktemp("hostile"), "hostile_draft")
    return m, corpus.examples(version)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


def _verdict_only(m: ModuleType, type_name: str, value: Any) -> str:
    """Run validator and codec; anything but ValidationError escaping is a failure."""
    ok = m.is_valid(type_name, value)
    try:
        obj = m.decode(type_name, value)
    except m.ValidationError as err:
        # Undeclared members are the decoder's to check: a valid-checked value whose undeclared
        # member is not JSON (NaN) does not decode.
        assert (not ok or m._runtime.not_json(value) is not None) and err.errors
        return "invalid"
    assert ok
    assert _same(m.encode(obj), value)
    return "valid"


def _same(a: Any, b: Any) -> bool:
    """JSON equality (so True != 1); values under `unknown` may hold non-JSON keys, kept as is."""
    try:
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    except TypeError:
        return bool(a == b)


def _official_with_listed_deviations(version: corpus.Version) -> Any:
    """The official schema with the reviewed deviation list applied (tests/jsonschema_deviations.json):
    for the versions here, the single entry is JSONValue admitting null, as schema.ts says."""
    import copy

    import jsonschema

    listed = json.loads((REPO / "tests/jsonschema_deviations.json").read_text())["deviations"]
    mine = [(d["definition"], d["path"]) for d in listed if d["version"] == version.name]
    assert mine == [("JSONValue", "/anyOf")]
    doc = copy.deepcopy(corpus.official_schema(version))
    defs = doc[corpus.defs_key(version)]
    for branch in defs["JSONValue"]["anyOf"]:
        if isinstance(branch.get("type"), list):
            branch["type"].append("null")
    cls = jsonschema.validators.validator_for(doc)

    def label(type_name: str, value: Any) -> bool:
        schema = {**doc, "$ref": f"#/{corpus.defs_key(version)}/{type_name}"}
        return bool(cls(schema).is_valid(value))

    return label


@pytest.mark.slow
@pytest.mark.spec
def test_every_value_replaced_by_every_wrong_json_type(
    official: tuple[ModuleType, list[corpus.Example]],
) -> None:
    m, examples = official
    version = corpus.get_version("draft")
    patched = _official_with_listed_deviations(version)
    tried = agree = 0
    unexplained = []
    for ex in examples:
        for path in _paths(ex.instance)[1:]:
            for new in WRONG:
                mutated = _replace(ex.instance, path, new)
                ours = _verdict_only(m, ex.type_name, mutated) == "valid"
                tried += 1
                if ours == corpus.label(version, ex.type_name, mutated):
                    agree += 1
                elif ours != patched(ex.type_name, mutated) and not (ours and new == 1.5):
                    # The only allowed disagreement: schema.ts says `number`, the official file
                    # says `integer` (its --defaultNumberType integer defect), so 1.5 is valid here.
                    unexplained.append((ex.id, path, new, ours))
    print(
        f"\ndraft: {tried} wrong-type replacements, {agree} agree with the official schema, "
        f"the other {tried - agree} are listed deviations (null in JSONValue; 1.5 where schema.ts says number)"
    )
    assert tried > 10_000
    assert unexplained == [], "\n".join(map(str, unexplained))


@pytest.mark.spec
@pytest.mark.parametrize(
    "junk",
    [
        math.nan,
        math.inf,
        -math.inf,
        True,
        2**70,
        pytest.param("x" * 10_000_000, marks=pytest.mark.slow),
        {1: "non-string key"},
        {("t",): 1},
        b"bytes",
        1j,
    ],
    ids=[
        "nan",
        "inf",
        "-inf",
        "true",
        "bigint",
        "10MB-string",
        "int-key",
        "tuple-key",
        "bytes",
        "complex",
    ],
)
def test_hostile_values_at_every_position_give_only_validation_errors(
    official: tuple[ModuleType, list[corpus.Example]], junk: Any
) -> None:
    m, examples = official
    rnd = random.Random(7)
    for ex in rnd.sample(examples, 24):
        paths = _paths(ex.instance)
        for path in rnd.sample(paths, min(4, len(paths))):
            _verdict_only(m, ex.type_name, _replace(ex.instance, path, junk))


@pytest.mark.spec
def test_a_checker_answers_as_is_valid_for_its_type(
    official: tuple[ModuleType, list[corpus.Example]],
) -> None:
    m, examples = official
    rnd = random.Random(11)
    tried = 0
    for ex in examples:
        check = m.validators.checker(ex.type_name)
        assert check is not m.validators.checker(ex.type_name)  # a new binding, nothing cached
        assert check(ex.instance) is m.is_valid(ex.type_name, ex.instance) is True
        paths = _paths(ex.instance)[1:]
        for path in rnd.sample(paths, min(6, len(paths))):
            for new in (None, 1.5, "x", [], {}):
                mutated = _replace(ex.instance, path, new)
                assert check(mutated) is m.is_valid(ex.type_name, mutated), (ex.id, path, new)
                tried += 1
    assert tried > 1_000
    model = type(m.decode(examples[0].type_name, examples[0].instance))
    assert m.validators.checker(model)(examples[0].instance)  # a model class, as is_valid takes
    with pytest.raises(Exception) as by_checker:
        m.validators.checker("NoSuchType")
    with pytest.raises(Exception) as by_is_valid:
        m.is_valid("NoSuchType", {})
    assert type(by_checker.value) is type(by_is_valid.value)
    assert str(by_checker.value) == str(by_is_valid.value)


@pytest.mark.spec
def test_nan_and_true_are_not_numbers_or_integers(
    official: tuple[ModuleType, list[corpus.Example]],
) -> None:
    m, _ = official
    base = {"progressToken": "t", "progress": 1}
    assert m.is_valid("ProgressNotificationParams", base)
    for bad in (math.nan, math.inf, True, "1", None):
        assert not m.is_valid("ProgressNotificationParams", {**base, "progress": bad}), bad


@pytest.mark.spec
def test_small_checks_are_inline_and_what_they_refuse_is_explained_at_its_path(
    official: tuple[ModuleType, list[corpus.Example]],
) -> None:
    """The fast checks write a small nested object, a value of any JSON and an empty capability
    where their parent checks them, without a Python frame of their own (over the official
    examples a median of 3 calls with `is_valid`; 4 before); the explanations stay calls, and
    what the inline checks refuse is explained at its path."""
    m, examples = official
    calls: list[str] = []

    def count(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            calls.append(frame.f_code.co_name)

    def traced(type_name: str, value: Any) -> list[str]:
        calls.clear()
        sys.setprofile(count)
        try:
            m.is_valid(type_name, value)
        finally:
            sys.setprofile(None)
        return list(calls)

    per_example = sorted(len(traced(ex.type_name, ex.instance)) for ex in examples)
    assert per_example[len(per_example) // 2] <= 3, per_example
    caps = {"sampling": {"tools": {}}, "elicitation": {}}
    assert traced("ClientCapabilities", caps) == ["is_valid", "is_ClientCapabilities"]
    for bad, path in (
        ({"sampling": {"tools": {"x": math.nan}}}, "$.sampling.tools.x"),
        ({"roots": {"listChanged": math.inf}}, "$.roots.listChanged"),
        ({"experimental": {"a": {"b": {1, 2}}}}, "$.experimental.a.b"),
    ):
        assert not m.is_valid("ClientCapabilities", bad)
        assert [e.path for e in m.errors("ClientCapabilities", bad)] == [path]


@pytest.mark.slow
@pytest.mark.spec
def test_deep_and_wide_messages(official: tuple[ModuleType, list[corpus.Example]]) -> None:
    m, examples = official
    call = next(e for e in examples if e.type_name == "CallToolRequest")
    deep: Any = 1
    for _ in range(100_000):
        deep = {"a": [deep]}
    # Under `unknown` any JSON value is valid up to MAX_DEPTH levels; deeper is a located
    # ValidationError, never a RecursionError (issue 23: it used to be accepted, and then
    # `to_json` could not write it).
    too_deep = _replace(call.instance, ("params", "arguments"), {"x": deep})
    assert not m.is_valid("CallToolRequest", too_deep)
    with pytest.raises(m.ValidationError, match="nested deeper than 256 levels") as err:
        m.decode("CallToolRequest", too_deep)
    assert err.value.errors[0].path.startswith("$.params.arguments.x.a[0].a[0]")
    shallow: Any = 1
    for _ in range(127):
        shallow = {"a": [shallow]}
    assert m.is_valid(
        "CallToolRequest", _replace(call.instance, ("params", "arguments"), {"x": shallow})
    )
    # Under JSONObject every level is checked: too deep is a ValidationError, never RecursionError.
    caps = {"experimental": {"x": {"k": deep}}}
    assert not m.is_valid("ClientCapabilities", caps)
    with pytest.raises(m.ValidationError) as info:
        m.decode("ClientCapabilities", caps)
    assert "nested deeper than" in str(info.value)
    wide = _replace(call.instance, ("params", "arguments"), {"items": list(range(1_000_000))})
    assert _verdict_only(m, "CallToolRequest", wide) == "valid"
    content = next(e for e in examples if e.type_name == "CallToolResult").instance
    many = {**content, "content": [{"type": "text", "text": "t"}] * 1_000_000}
    assert _verdict_only(m, "CallToolResult", many) == "valid"
    many["content"] = [*many["content"][:-1], {"type": "text", "text": 1}]
    assert _verdict_only(m, "CallToolResult", many) == "invalid"


# -- 5. fuzzing: random schemas -------------------------------------------------------------------

COUNTS = {"schemas": 0, "instances": 0}
# Unset (CI): the same schemas on every run. Set: explore new ones (also with FUZZ_EXAMPLES).
FUZZ_SEED = os.environ.get("FUZZ_SEED")


def _fuzz_seed(test: Any) -> Any:
    return test if FUZZ_SEED is None else hypothesis.seed(int(FUZZ_SEED))(test)


@_fuzz_seed
@pytest.mark.slow
@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=FUZZ_SEED is None,
    database=None,
)
@given(text=random_schemas.schemas(), seed=st.integers(0, 2**16))
def test_random_schemas_generate_import_and_round_trip(
    tmp_path_factory: pytest.TempPathFactory, text: str, seed: int
) -> None:
    """Random schemas (tests/random_schemas.py) generate, import, and round-trip random valid
    instances of every type.

    Deterministic by default, so CI is never flaky: hypothesis derives its seed from this test
    (derandomize) and keeps no example database, so every run draws the same schemas. To explore
    new ones locally, set `FUZZ_SEED` (any integer; the same seed draws the same schemas again)
    and optionally `FUZZ_EXAMPLES` (default 25), e.g.
    `FUZZ_SEED=$RANDOM FUZZ_EXAMPLES=200 pytest tests/test_hostile_bindings.py -k random_schemas`.
    A failure found that way becomes a regression test with its schema written out.
    """
    resolved = load_text(text, "fuzz.ts")
    root = tmp_path_factory.mktemp("fuzz")
    m = generate_text(text, root, f"fuzz_{seed}_{abs(hash(text)) % 10**8}")
    rnd = random.Random(seed)
    COUNTS["schemas"] += 1
    for td in resolved.types:
        for _ in range(3):
            value = random_schemas.instance(resolved, td.type, rnd)
            assert m.is_valid(td.name, value), (
                td.name,
                value,
                [str(e) for e in m.errors(td.name, value)],
            )
            obj = m.decode(td.name, value)
            assert json.dumps(m.encode(obj), sort_keys=True) == json.dumps(value, sort_keys=True)
            COUNTS["instances"] += 1


def test_fuzz_counts_reported() -> None:
    print(
        f"\nrandom schemas: {COUNTS['schemas']} generated and imported, {COUNTS['instances']} instances round-tripped"
    )


# -- regressions found by the fuzz test ------------------------------------------------------------

NULLABLE_ALIASES = """
export type T2 = { name: string } | null;
type T4 = T2 | null;
export type T6 = T4 | null | string;
export type Arr = { name: string }[];
export type ArrN = Arr | null;
export type Mixed = T2 | { id: number } | Arr;
export interface Holder { a: T4; b?: T6; c: ArrN; d: Mixed | null }
"""


def _round_trip(m: ModuleType, type_name: str, value: Any) -> Any:
    assert m.is_valid(type_name, value), m.errors(type_name, value)
    obj = m.decode(type_name, value)
    assert json.dumps(m.encode(obj), sort_keys=True) == json.dumps(value, sort_keys=True)
    return obj


# Wire names and literals spelled like the checks' variables (`v`, `x`, `_y`), in an object small
# enough to be checked inline by its parent and by a discriminated union's case.
INLINE_NAMES = """
export interface Inner { x?: "v"; v: "x"; _y?: number }
export interface Outer { inner: Inner; x: "v"; kind?: Inner }
export interface TaggedV { type: "v"; x: "x" }
export interface TaggedX { type: "x"; v?: number }
export type Tagged = TaggedV | TaggedX;
export interface Holder { items: Tagged[] }
"""


def test_inline_checks_keep_names_that_look_like_their_variables(tmp_path: Path) -> None:
    """A small object's check written in its parent renames the object's variables, never a
    wire name or a literal spelled the same."""
    m = generate_text(INLINE_NAMES, tmp_path, "inline_names")
    source = Path(m.validators.__file__).read_text(encoding="utf-8")
    outer = source[source.index("def is_Outer(") : source.index("def _explain_Outer(")]
    assert "is_Inner(" not in outer and '"x"' in outer, outer  # inline, literals kept
    inner = {"v": "x", "x": "v", "_y": 1.5}
    assert m.is_valid("Outer", {"inner": inner, "x": "v", "kind": {"v": "x"}})
    for bad, path in (
        ({"inner": {**inner, "v": "v"}, "x": "v"}, "$.inner.v"),
        ({"inner": {**inner, "x": "x"}, "x": "v"}, "$.inner.x"),
        ({"inner": {**inner, "_y": math.nan}, "x": "v"}, "$.inner._y"),
        ({"inner": {"x": "v"}, "x": "v"}, "$.inner.v"),  # missing
        ({"inner": inner, "x": "x"}, "$.x"),
        ({"inner": inner, "x": "v", "kind": {"v": "v"}}, "$.kind.v"),
    ):
        _rejected(m, "Outer", bad)
        assert [e.path for e in m.errors("Outer", bad)] == [path], bad
    items = [{"type": "v", "x": "x"}, {"type": "x", "v": 2}, {"type": "x"}]
    assert m.is_valid("Holder", {"items": items})
    for bad, path in (
        ({"type": "v", "x": "v"}, "$.items[0].x"),
        ({"type": "x", "v": "2"}, "$.items[0].v"),
        ({"type": "v"}, "$.items[0].x"),  # missing
    ):
        _rejected(m, "Holder", {"items": [bad]})
        assert [e.path for e in m.errors("Holder", {"items": [bad]})] == [path], bad


# Literals spelled like the code checks are made of (`:=`, the variables, parentheses): whether a
# check binds a name, how often it reads its variable and where its parentheses close are known
# from how it was built (exprs.py), never read from its text.
CODE_LITERALS = """
export interface Inner { op: "_y := x" | "(x) or (x"; n?: 1 | 2 }
export interface Outer { inner: Inner; tag: "))" }
export interface Top { outer: Outer }
"""


def test_inline_checks_read_no_literal_as_code(tmp_path: Path) -> None:
    m = generate_text(CODE_LITERALS, tmp_path, "code_literals")
    source = Path(m.validators.__file__).read_text(encoding="utf-8")
    outer = source[source.index("def is_Outer(") : source.index("def _explain_Outer(")]
    top = source[source.index("def is_Top(") : source.index("def _explain_Top(")]
    assert "is_Inner(" not in outer, outer  # its literal `_y := x` binds nothing: inline
    assert "is_Outer(" not in top and "is_Inner(" in top, top  # one level: Inner's is a call
    inner = {"op": "(x) or (x", "n": 2}
    assert m.is_valid("Top", {"outer": {"inner": inner, "tag": "))"}})
    for bad, path in (
        ({"inner": {**inner, "op": "x"}, "tag": "))"}, "$.outer.inner.op"),
        ({"inner": {**inner, "n": True}, "tag": "))"}, "$.outer.inner.n"),
        ({"inner": {"n": 1}, "tag": "))"}, "$.outer.inner.op"),  # missing
        ({"inner": inner, "tag": ")"}, "$.outer.tag"),
    ):
        _rejected(m, "Top", {"outer": bad})
        assert [e.path for e in m.errors("Top", {"outer": bad})] == [path], bad


def _rejected(m: ModuleType, type_name: str, value: Any) -> list[str]:
    assert not m.is_valid(type_name, value)
    with pytest.raises(m.ValidationError):
        m.decode(type_name, value)
    return [str(e) for e in m.errors(type_name, value)]


@pytest.mark.slow
def test_aliases_of_unions_with_null_generate_validate_and_round_trip(tmp_path: Path) -> None:
    """`type T2 = {...} | null` once named its object T2 too (is_T2 then called itself: None
    was 'nested deeper than 256 levels'); `type T4 = T2 | null` could not be decoded."""
    m = generate_text(NULLABLE_ALIASES, tmp_path, "nullable_aliases")
    row, item = m.models.T2Name, m.models.ArrItem  # the object is named apart from the alias
    for name in ("T2", "T4", "T6", "ArrN"):
        assert _round_trip(m, name, None) is None
    for name in ("T2", "T4", "T6"):
        obj = _round_trip(m, name, {"name": "n", "x-extra": [1]})
        assert isinstance(obj, row) and obj.name == "n" and obj.extra == {"x-extra": [1]}
        errs = _rejected(m, name, {"name": 1})
        assert errs and not any("deeper" in e for e in errs), errs
        _rejected(m, name, {})
        _rejected(m, name, [])
    assert _round_trip(m, "T6", "s") == "s"
    _rejected(m, "T4", "s")
    items = _round_trip(m, "ArrN", [{"name": "a"}, {"name": "b", "k": None}])
    assert [type(i) for i in items] == [item, item] and items[1].extra == {"k": None}
    _rejected(m, "ArrN", [{"name": "a"}, None])
    _rejected(m, "ArrN", {"name": "a"})
    # Mixed: T2's object and null split out, next to another object member and an array alias.
    assert isinstance(_round_trip(m, "Mixed", {"name": "n"}), row)
    assert isinstance(_round_trip(m, "Mixed", {"id": 1}), m.models.MixedId)
    assert [type(i) for i in _round_trip(m, "Mixed", [{"name": "n"}])] == [item]
    assert _round_trip(m, "Mixed", None) is None
    _rejected(m, "Mixed", {"id": "1"})
    _rejected(m, "Mixed", "s")
    holder = _round_trip(m, "Holder", {"a": None, "c": None, "d": None})
    assert holder.a is None and holder.c is None
    holder = _round_trip(
        m, "Holder", {"a": {"name": "a"}, "b": "s", "c": [{"name": "c"}], "d": {"id": 2}}
    )
    assert isinstance(holder.a, row) and isinstance(holder.c[0], item)
    assert isinstance(holder.d, m.models.MixedId)
    _rejected(m, "Holder", {"a": {"name": 1}, "c": None, "d": None})
    _rejected(m, "Holder", {"c": None, "d": None})  # `a` is required, even though it may be null
    pkg = tmp_path / "nullable_aliases"
    mypy = mypy_strict([pkg], tmp_path / "cache")
    assert mypy.returncode == 0, mypy.stdout
    ruff = ruff_check(sorted(p for p in pkg.glob("*.py") if p.name != "registry.py"))
    assert ruff.returncode == 0, ruff.stdout


def test_an_intersection_member_is_named_like_any_inline_member(tmp_path: Path) -> None:
    """An intersection in an alias's union is named by what tells it apart, as an inline object
    member is (`T` + its keys), never with the alias's own name; a names file can rename it."""
    text = "export type T = ({ a: string } & { b: string }) | null;\n"
    m = generate(load_text(text, "t.ts"), tmp_path, "intersection_alias")
    assert _round_trip(m, "T", None) is None
    assert isinstance(_round_trip(m, "T", {"a": "x", "b": "y"}), m.models.TAB)
    _rejected(m, "T", {"a": "x"})
    renamed = load_text(text, "t.ts", Overrides({"T.a-b": "TBoth"}))
    union = renamed.type("T").type
    assert isinstance(union, ir.Union_)
    assert [x.name for x in union.members if isinstance(x, ir.Obj)] == ["TBoth"]


DUPLICATE_MEMBERS = """
export type T1 = Record<string, { name: string; value: string; type: string; class: string; }>;
export interface T2 { name: string; self: T1 | T1; }
export type Twice = { a: string } | { a: string } | null | null;
export type Lists = T2[] | T2[];
"""


@pytest.mark.slow
def test_a_union_of_equal_members_is_that_member(tmp_path: Path) -> None:
    """`T1 | T1` once failed with 'cannot decode union: several map-like object members'."""
    m = generate_text(DUPLICATE_MEMBERS, tmp_path, "duplicate_members")
    row = {"name": "n", "value": "v", "type": "t", "class": "c"}
    obj = _round_trip(m, "T2", {"name": "x", "self": {"k": row}})
    assert isinstance(obj.self["k"], m.models.T1Value)
    _rejected(m, "T2", {"name": "x", "self": {"k": {**row, "name": 1}}})
    assert isinstance(_round_trip(m, "Twice", {"a": "x"}), m.models.TwiceA)
    assert _round_trip(m, "Twice", None) is None
    _rejected(m, "Twice", {"a": 1})
    lists = _round_trip(m, "Lists", [{"name": "x", "self": {}}])
    assert isinstance(lists[0], m.models.T2)
    _rejected(m, "Lists", [{"name": "x"}])
    mypy = mypy_strict([tmp_path / "duplicate_members"], tmp_path / "cache")
    assert mypy.returncode == 0, mypy.stdout
