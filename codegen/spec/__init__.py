"""Official MCP schemas by version name: the pins shipped with the package, the spec cache,
downloading, and resolving a command's schema argument (path, released version or `draft`)."""

from __future__ import annotations

from ..errors import SpecError
from .arguments import resolve_schema_arg
from .options import SpecOptions, from_environment
from .pins import known_versions

__all__ = ["SpecError", "SpecOptions", "from_environment", "known_versions", "resolve_schema_arg"]
