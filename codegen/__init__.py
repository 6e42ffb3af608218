"""mcp-codegen: MCP schema.ts -> IR -> bindings, validators, registry, JSON Schema, diffs."""
