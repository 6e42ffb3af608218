"""The JSON-text rules every target follows, as vectors whose `data` is the text itself (the
cases a parsed value cannot carry): nesting depth, a key given twice, lone surrogates, integers
past 64 bits, numbers written with an exponent, what is not JSON at all. The rules
(docs/conformance.md): a value nested deeper than `MAX_DEPTH` levels and a key given twice in
one object are errors; a lone surrogate escape is a string; an integer of any size is a number
and stays exact; `1e2` is the number 100; `NaN`, `Infinity`, `1e400` and trailing text are not
JSON."""

from __future__ import annotations

import copy
import json
from typing import Any

from .cases import JSON_TEXT_RULE, Case
from .check import Problem
from .codes import JSON_TEXT

MAX_DEPTH = 256
TYPE = "CallToolRequest"  # every version has it; `params.arguments` holds any JSON


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def _bad(description: str, text: str, path: str, why: str, deviation: str = "") -> Case:
    return Case(description, text, False, [Problem(path, JSON_TEXT, why)], deviation, text=True)


def _good(description: str, text: str) -> Case:
    return Case(description, text, True, text=True)


def json_text_cases(minimal: dict[str, Any]) -> list[Case]:
    """The cases, written around `minimal`, the version's smallest `CallToolRequest`."""

    def request(id_text: str = "1", name: str = '"a"', args: str = '{"a": 1}') -> str:
        value = copy.deepcopy(minimal)
        value["id"] = _HOLE + "id"
        value["params"]["name"] = _HOLE + "name"
        value["params"]["arguments"] = _HOLE + "arguments"
        text = json.dumps(value)
        for key, raw in (("id", id_text), ("name", name), ("arguments", args)):
            text = text.replace(json.dumps(_HOLE + key), raw)
        return text

    deep = MAX_DEPTH + 44
    return [
        _good("an array nested 200 levels under `arguments`",
              request(args=f'{{"a": {_nested(200)}}}')),
        _bad(
            f"an array nested {deep} levels under `arguments` (deeper than {MAX_DEPTH})",
            request(args=f'{{"a": {_nested(deep)}}}'),
            "$.params.arguments",
            f"nested deeper than {MAX_DEPTH} levels",
            JSON_TEXT_RULE,
        ),
        _bad(
            "the key `id` given twice",
            request(id_text='1, "id": 2'),
            "$",
            'key "id" given twice',
            JSON_TEXT_RULE,
        ),
        _good("a lone surrogate escape in a string", request(name='"\\ud800"')),
        _good("an id of 2**64 (past 64 bits)", request(id_text="18446744073709551616")),
        _good("an id of -(2**63)-1 (past 64 bits)", request(id_text="-9223372036854775809")),
        _good("an integer of 30 digits under `arguments`", request(args='{"a": ' + "9" * 30 + "}")),
        _good("an id written 1e2", request(id_text="1e2")),
        _good("an id written 1E+2", request(id_text="1E+2")),
        _bad("NaN is not JSON", request(args='{"a": NaN}'), "$.params.arguments.a",
             "NaN is not JSON", JSON_TEXT_RULE),
        _bad("1e400 is too large for a double", request(args='{"a": 1e400}'),
             "$.params.arguments.a", "number too large for a double", JSON_TEXT_RULE),
        _bad("text after the value", request() + " {}", "$", "text after the JSON value"),
    ]  # fmt: skip


_HOLE = "\x00hole:"
