"""Validation facts read from JSDoc tags, checked where they are written.

The one reader of constraint tags (`@minimum`, `@maximum`, `@minItems`, `@maxItems`, `@format`,
`@pattern`/`@TJS-pattern`) and of `@TJS-type`. The resolver calls it for every property and every
type definition; emitters read the resulting `ir.Constraints` and never look at the tags again.
A value that does not parse (`@minimum abc`, a regex that does not compile) is an input error
located at its tag, so it is found before anything is emitted; a `@format` of several words,
which the official generator keeps as written, is kept with a located warning.
"""

from __future__ import annotations

import re
from typing import Any

from . import ir
from .errors import Collector, Location
from .numbers import NumberError, parse_json_number
from .numbers import clip as _clip
from .records import record

# JSON number syntax: what `@minimum`/`@maximum` may say (TJS writes the text into the schema).
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_COUNT = re.compile(r"0|[1-9]\d*")
TJS_TYPES = ("integer", "number")
STRUCTURAL_TAGS = frozenset(
    {k.keyword for k in ir.KEYWORDS} | {"TJS-type", "TJS-pattern", "nullable"}
)
"""The tags whose meaning the model holds as structure (constraints, `@TJS-type`, and
`@nullable`, which the resolver reads): the diff compares them there, not as documentation."""

# typescript-json-schema 0.68.0 (the generator the specification pins) writes these JSDoc tags
# into the schema as keywords of the same name (its `validationKeywords`, also spelt
# `@TJS-<name>`, and `items.<k>` / `additionalProperties.<k>` / `contains.<k>` for a
# sub-schema). The model reads some of them (STRUCTURAL_TAGS); the others are compared as schema
# keywords (`@TJS-minimum` is `minimum` to the generator, not read by the model). Those that
# change what validates:
SCHEMA_VALIDATION_TAGS = frozenset(
    {"multipleOf", "exclusiveMaximum", "exclusiveMinimum", "maxLength", "minLength", "items",
     "uniqueItems", "contains", "maxProperties", "minProperties", "additionalProperties",
     "enum", "type"} | {k.keyword for k in ir.KEYWORDS}
)  # fmt: skip
# ... and those that only annotate (`description` is the doc comment's own text, compared as
# documentation; `@description` overrides it in the schema and is compared here).
SCHEMA_ANNOTATION_TAGS = frozenset(
    {"default", "examples", "title", "$comment", "id", "$id", "$ref", "ignore", "description"}
)
_SUB_SCHEMAS = ("items.", "additionalProperties.", "contains.")


def schema_keyword(tag: str) -> str | None:
    """The schema keyword a tag the model does not hold becomes in the official generator's
    output (`@TJS-maxLength` -> `maxLength`, `@items.minimum` -> `items`), else None."""
    name = tag.removeprefix("TJS-")
    if tag in STRUCTURAL_TAGS:
        return None  # the model reads it
    if name.startswith(_SUB_SCHEMAS):
        return name.split(".", 1)[0]
    if name in SCHEMA_VALIDATION_TAGS or name in SCHEMA_ANNOTATION_TAGS:
        return name
    return None


@record(slots=True)
class Typing:
    """What `@TJS-type` says: `integer` narrows `number`; `number` keeps it a JSON number even
    where the official generator renders a bare `number` as `integer`."""

    integer: bool = False
    keeps_number: bool = False


class TagReader:
    """Reads the constraint tags of one schema, reporting bad values to `errors`."""

    def __init__(self, errors: Collector, source: str) -> None:
        self.errors = errors
        self.source = source

    def _loc(self, tag: ir.Tag) -> Location:
        return tag.loc or Location(self.source, 1, 1)

    def _one(self, doc: ir.Doc, name: str) -> ir.Tag | None:
        found = [t for t in doc.tags if t.name == name]
        for extra in found[1:]:
            self.errors.add(self._loc(extra), f"@{name} given twice")
        return found[0] if found else None

    def constraints(self, doc: ir.Doc) -> ir.Constraints:
        """Every keyword of `ir.KEYWORDS`, read from its tag and checked for its kind."""
        values: dict[str, Any] = {k.field: self._read(doc, k) for k in ir.KEYWORDS}
        return ir.Constraints(**values)  # each value was checked for its keyword's kind

    def _read(self, doc: ir.Doc, k: ir.Keyword) -> str | int | float | None:
        if k.field == "pattern":  # also spelled @TJS-pattern
            return self._pattern(doc)
        if k.kind == "string":
            return self._format(doc, k.keyword)
        if k.kind == "count":
            return self._count(doc, k.keyword)
        return self._number(doc, k.keyword)

    def typing(self, doc: ir.Doc) -> Typing:
        tag = self._one(doc, "TJS-type")
        if tag is None:
            return Typing()
        if tag.value not in TJS_TYPES:
            self.errors.add(
                self._loc(tag),
                f"@TJS-type {tag.value!r} is not supported (use one of: {', '.join(TJS_TYPES)})",
            )
            return Typing()
        return Typing(integer=tag.value == "integer", keeps_number=tag.value == "number")

    def _format(self, doc: ir.Doc, name: str) -> str | None:
        tag = self._one(doc, name)
        if tag is None:
            return None
        if not tag.value:
            self.errors.add(self._loc(tag), f"@{name} needs one word, got {tag.value!r}")
            return None
        if any(c.isspace() for c in tag.value):
            # Real drafts (2025-09-09, 2025-09-11) write `@format: uri`; the official generator
            # keeps the text as the format (`": uri"`), an annotation no validator checks, so a
            # spec tracker must read them: kept as written, with a warning.
            hint = f" (meant '@{name} {tag.value[1:].strip()}'?)" if tag.value[0] in ":=" else ""
            self.errors.warn(
                self._loc(tag),
                f"@{name} {_clip(tag.value)!r} is not one word{hint}; kept as written,"
                " as the official generator does",
            )
        return tag.value

    def _number(self, doc: ir.Doc, name: str) -> int | float | None:
        tag = self._one(doc, name)
        if tag is None:
            return None
        if not _JSON_NUMBER.fullmatch(tag.value):
            self.errors.add(self._loc(tag), f"@{name} needs a number, got {_clip(tag.value)!r}")
            return None
        try:
            return parse_json_number(tag.value)
        except NumberError as err:
            self.errors.add(self._loc(tag), f"@{name} {_clip(tag.value)} {err}")
            return None

    def _count(self, doc: ir.Doc, name: str) -> int | None:
        tag = self._one(doc, name)
        if tag is None:
            return None
        if not _COUNT.fullmatch(tag.value):
            self.errors.add(
                self._loc(tag), f"@{name} needs a non-negative integer, got {_clip(tag.value)!r}"
            )
            return None
        try:
            return int(parse_json_number(tag.value))
        except NumberError as err:
            self.errors.add(self._loc(tag), f"@{name} {_clip(tag.value)} {err}")
            return None

    def _pattern(self, doc: ir.Doc) -> str | None:
        tags = [t for name in ("TJS-pattern", "pattern") if (t := self._one(doc, name))]
        if len(tags) == 2 and tags[0].value != tags[1].value:
            self.errors.add(
                self._loc(tags[1]), "@pattern and @TJS-pattern disagree; keep one of them"
            )
        if not tags:
            return None
        tag = tags[0]
        if not tag.value:
            self.errors.add(self._loc(tag), f"@{tag.name} needs a regular expression")
            return None
        try:
            re.compile(tag.value)
        except re.error as err:
            self.errors.add(
                self._loc(tag),
                f"@{tag.name} {tag.value!r} is not a valid regular expression: {err}",
            )
            return None
        return tag.value
