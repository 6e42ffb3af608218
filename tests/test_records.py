"""`@record` behaves as `@dataclass(frozen=True)` does: equality, hash, repr, immutability,
`fields` and `replace`, with and without slots."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from codegen import ir
from codegen.errors import Location
from codegen.records import record


def _pair(slots: bool) -> tuple[type, type]:
    @record(slots=slots)
    class Rec:
        name: str
        size: int = 0
        tags: tuple[str, ...] = ()
        where: str | None = field(default=None, compare=False)

    @dataclass(frozen=True, slots=slots)
    class Rec_:
        name: str
        size: int = 0
        tags: tuple[str, ...] = ()
        where: str | None = field(default=None, compare=False)

    return Rec, Rec_


@pytest.mark.parametrize("slots", [False, True])
def test_a_record_is_a_frozen_dataclass(slots: bool) -> None:
    rec, plain = _pair(slots)
    samples = [("a",), ("a", 1), ("a", 1, ("x",)), ("b", 1, (), "here"), ("a", 1, (), "there")]
    made = [rec(*args) for args in samples]
    made_plain = [plain(*args) for args in samples]
    for r, p in zip(made, made_plain):
        assert repr(r) == repr(p).replace("Rec_(", "Rec(")
        assert hash(r) == hash(p)
        for r2, p2 in zip(made, made_plain):
            assert (r == r2) == (p == p2)
            assert (r != r2) == (p != p2)
    assert rec("a", 1, ()) == rec("a", 1, (), "elsewhere")  # compare=False is not compared
    assert rec("a") != plain("a") and rec("a") != ("a", 0, ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].name = "x"
    assert [f.name for f in dataclasses.fields(rec)] == ["name", "size", "tags", "where"]
    assert dataclasses.replace(made[0], size=5) == rec("a", 5)
    assert hasattr(made[0], "__dict__") is not slots
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made[0].size
    assert copy.deepcopy(made[3]).where == "here"


def test_a_slotted_record_pickles_and_takes_default_factories() -> None:
    assert dataclasses.fields(ir.Ref)[0].name == "name" and ir.Ref.__dataclass_params__.frozen
    prop = ir.Property("name", ir.Ref("X"), optional=True, loc=Location("a.ts", 1, 2))
    back = pickle.loads(pickle.dumps(prop))  # a forked worker's result comes back (slots)
    assert back == prop and back.loc == prop.loc and back.optional

    @record
    class Bag:
        items: list[str] = field(default_factory=list)

    assert Bag().items == [] and Bag().items is not Bag().items and Bag(["a"]).items == ["a"]


def test_the_model_is_made_of_records() -> None:
    prop = ir.Property("name", ir.Prim(ir.PrimKind.STRING), optional=False)
    assert prop == ir.Property("name", ir.Prim(ir.PrimKind.STRING), False, loc=None)
    assert hash(prop) == hash(dataclasses.replace(prop))
    assert repr(ir.Ref("X")) == "Ref(name='X', loc=None)"
    assert {ir.Lit(1, "number"), ir.Lit(1, "number"), ir.Lit(True, "boolean")} == {
        ir.Lit(1, "number"),
        ir.Lit(True, "boolean"),
    }
