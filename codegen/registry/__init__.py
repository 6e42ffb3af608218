"""`mcp-codegen registry`: the method model (`codegen/methods.py`) of several schemas side by
side, as a table, as JSON, or as a Python module of method -> versions (`cli.py`)."""
