"""CPU cost of a call, for the linear-time tests: they compare the cost of two input sizes
measured in the same run, never a cost against a fixed number of seconds.

CPU time of this process (not wall-clock time) leaves out the time the shared machine gives to
other processes; the cyclic garbage collector is paused while measuring, because its full
collections walk the whole heap and grow with everything alive, not with the work measured.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from typing import Any


def cpu_seconds(fn: Callable[[], Any], repeat: int = 1) -> float:
    """The least CPU time of `repeat` calls of `fn`."""
    best = math.inf
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best
