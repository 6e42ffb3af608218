"""Every JSDoc tag the official generator writes into `schema.json` is compared as schema, not as
documentation: `@nullable` (05111eb2 adds it to `Task.ttl`, already `number | null`) and the
validation and annotation keywords of typescript-json-schema 0.68.0."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.constraints import (
    SCHEMA_ANNOTATION_TAGS,
    SCHEMA_VALIDATION_TAGS,
    STRUCTURAL_TAGS,
    schema_keyword,
)
from codegen.diff import diff
from codegen.pipeline import load, load_text

FIXTURES = Path(__file__).parent / "fixtures" / "diff"

# typescript-json-schema 0.68.0, dist/typescript-json-schema.js: `validationKeywords`, the tags
# it copies into the schema as keywords (read from the package `npm pack` fetches)
TJS_0_68_VALIDATION_KEYWORDS = (
    "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
    "minLength", "pattern", "items", "maxItems", "minItems", "uniqueItems", "contains",
    "maxProperties", "minProperties", "additionalProperties", "enum", "type", "examples",
    "ignore", "description", "format", "default", "$ref", "id", "$id", "$comment", "title",
)  # fmt: skip


def test_every_generator_keyword_is_schema() -> None:
    modeled = {k.keyword for k in ir.KEYWORDS}
    for kw in TJS_0_68_VALIDATION_KEYWORDS:
        assert kw in modeled | SCHEMA_VALIDATION_TAGS | SCHEMA_ANNOTATION_TAGS, kw
        assert kw in STRUCTURAL_TAGS or schema_keyword(kw) == kw
        assert f"TJS-{kw}" in STRUCTURAL_TAGS or schema_keyword(f"TJS-{kw}") == kw
    assert schema_keyword("items.minimum") == "items"
    assert schema_keyword("TJS-minimum") == "minimum" and schema_keyword("minimum") is None
    assert schema_keyword("see") is None and schema_keyword("deprecated") is None


def test_nullable_tag_on_a_nullable_type_is_reported() -> None:
    d = FIXTURES / "property-became-nullable--nullable-tag"
    r = diff(load(str(d / "old.ts")), load(str(d / "new.ts")))
    assert [(f.rule, f.subject, f.after) for f in r.findings] == [
        ("property-became-nullable", "Task.ttl", "nullable")
    ]
    back = diff(load(str(d / "new.ts")), load(str(d / "old.ts")))
    assert [f.rule for f in back.findings] == ["property-no-longer-nullable"]


def test_schema_tags_are_not_documentation() -> None:
    old = load_text("export interface T {\n  /** @minLength 1 */\n  a: string;\n}\n", "o.ts")
    new = load_text("export interface T {\n  /** @minLength 2 */\n  a: string;\n}\n", "n.ts")
    (f,) = diff(old, new).findings
    assert (f.rule, f.level, f.before, f.after) == (
        "schema-keyword-changed",
        "risky",
        "@minLength 1",
        "@minLength 2",
    )
