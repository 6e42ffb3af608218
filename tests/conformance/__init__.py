"""The official MCP conformance suite against examples/server.py and examples/client.py."""
