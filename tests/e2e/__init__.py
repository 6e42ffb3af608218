"""End-to-end tests against real MCP servers over stdio (see peers.py and stdio.py)."""
