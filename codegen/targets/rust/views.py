"""The item views of one version's `types.rs`, as the templates read them: plain data, Rust text
already spelled (types, decode and encode lines), in rustfmt's layout. `items` builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The Rust types of any JSON value and of a JSON object (`json`: the modules `use serde_json as json`).
JSON_VALUE = "json::Value"
JSON_MAP = "json::Map<String, json::Value>"


@dataclass
class Doc:
    lines: list[str]  # `///` lines, indented
    deprecated: str | None  # the `#[deprecated]` line, indented


@dataclass
class Field:
    name: str
    rtype: str
    doc: Doc
    decode: str  # the line(s) in the struct literal
    encode: str  # the statement line(s)


@dataclass
class Struct:
    name: str
    doc: Doc
    fields: list[Field]
    checks: list[str]  # constant members: decode statements
    consts: list[str]  # constant members: encode statements
    mutable: bool  # the decoder takes members out of its object


@dataclass
class Variant:
    name: str
    rtype: str | None  # None: a unit variant (`Null`)
    doc: str


@dataclass
class Union:
    name: str
    doc: Doc
    variants: list[Variant]
    consts: list[str]  # associated const lines
    body: list[str]  # the decoder's body lines (indented 8)


@dataclass
class StrEnum:
    name: str
    doc: Doc
    values: list[tuple[str, str]]  # (variant, wire)
    open: bool  # `Other(String)` (a `string` member) instead of `Unknown(String)`
    expected: str  # the values for messages, as a Rust literal


@dataclass
class Alias:
    name: str
    doc: Doc
    target: str


Item = Struct | Union | StrEnum | Alias


@dataclass
class Items:
    items: list[Item] = field(default_factory=list)
    type_names: list[str] = field(default_factory=list)  # every named schema type
