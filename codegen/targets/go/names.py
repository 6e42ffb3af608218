"""Go spellings of the neutral names: packages, exported identifiers, enum constants.

The rule (docs/targets-go.md): a declared type keeps its schema.ts name; every other identifier
(struct fields, inline types, constants of string-literal unions, method constants) is made of
the words of its neutral name (`mimeType` -> mime, type; `_meta` -> meta;
`notifications/tools/list_changed` -> notifications, tools, list, changed), each capitalized,
and a word that is a common initialism written in capitals: `ID`, `URI`, `URL`, `JSON`,
`JSONRPC`, `MIME`, `HTTP`, `TTL`... (`mimeType` -> `MIMEType`, `websiteUrl` -> `WebsiteURL`).
"""

from __future__ import annotations

import re

from ...analysis.versions import identify
from ..spelling import version_names

# Go's keywords: a version's package cannot be named one (a label `type` is package `vtype`).
KEYWORDS = frozenset(
    {
        "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
        "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
        "return", "select", "struct", "switch", "type", "var",
    }
)  # fmt: skip
# The module's own top-level directory beside the version packages.
RESERVED = frozenset({"internal"})

# Go's common initialisms (the list golint and gopls use), with the protocol's own.
INITIALISMS = frozenset(
    {
        "acl",
        "api",
        "ascii",
        "cpu",
        "css",
        "dns",
        "eof",
        "guid",
        "html",
        "http",
        "https",
        "id",
        "ip",
        "json",
        "jsonrpc",
        "lhs",
        "mime",
        "qps",
        "ram",
        "rhs",
        "rpc",
        "sla",
        "smtp",
        "sql",
        "ssh",
        "sse",
        "tcp",
        "tls",
        "ttl",
        "udp",
        "ui",
        "uid",
        "uuid",
        "uri",
        "url",
        "utf8",
        "vm",
        "xml",
        "xmpp",
        "xsrf",
        "xss",
    }
)

# Words of an identifier: runs of capitals before a capitalized word (`JSONRPC|Request`),
# capitalized words, lower-case runs, digits.
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(name: str) -> list[str]:
    return _WORDS.findall(name)


def word(w: str) -> str:
    low = w.lower()
    if low in INITIALISMS:
        return w.upper()
    return w[0].upper() + w[1:]


def exported(name: str) -> str:
    """An exported identifier from any neutral name (`mimeType` -> `MIMEType`)."""
    out = "".join(word(w) for w in words(name))
    if not out:
        return "X"
    if out[0].isdigit():
        out = "N" + out
    return out


def type_name(name: str, declared: bool) -> str:
    """A declared type keeps its name (capitalized when it is not); an inline one is spelled
    by the rule (`ElicitRequestUrlParams` would be `ElicitRequestURLParams`)."""
    if declared and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        return name[0].upper() + name[1:]
    return exported(name)


def package_names(schemas: list) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    """(Go package name, version key) per schema, by the shared rule with no separator and Go's
    keywords (`v20251125`, `draft`, `vdraft2025v3`; codegen/targets/spelling.py)."""
    versions = identify(schemas)
    names = version_names(
        versions,
        what="Go package",
        keywords=KEYWORDS,
        reserved=RESERVED,
        reserved_why="a directory of the module's top level",
        separator="",
    )
    return [(name, v.key) for v, name in zip(versions, names)]
