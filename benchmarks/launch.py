"""Spawn a command and report its wall time and its own peak RSS (run as a script, `python -S`).

Why a launcher: Linux counts a process's peak RSS from before its exec, and a child forked from
the benchmark runner (hundreds of MiB once the validation contenders are loaded) would report
the runner's size. Forked from this small process instead, the command's peak RSS is its own.
The launcher's start-up is outside the timed span.

    python -S benchmarks/launch.py RESULT.json COMMAND [ARGS...]
"""

import json
import os
import sys
import time


def main() -> int:
    result, argv = sys.argv[1], sys.argv[2:]
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the command
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    with open(result, "w", encoding="utf-8") as f:
        code = os.waitstatus_to_exitcode(status)
        json.dump({"wall_s": wall, "peak_rss_kib": usage.ru_maxrss, "returncode": code}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
