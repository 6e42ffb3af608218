"""The exit codes of every command: 0 ok; 1 drift (`--check`) or findings over `--fail-on`; 2 bad
input; 3 internal error (a bug in mcp-codegen); 130 interrupted."""

from __future__ import annotations

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
