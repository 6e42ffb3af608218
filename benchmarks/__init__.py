"""mcp-codegen benchmarks: `python -m benchmarks.run` (see README.md here). Not part of the test suite.

tests/corpus.py (labelled corpus, official validators) and tests/schemagen.py (replicate) are
support modules meant to be imported without pytest; every benchmark module imports them by name.
"""

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent.parent / "tests")
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
