"""numba's users' path, part by part (issue 32): the twin of userpathPhases.ts.

/usr/bin/python3 test/bench/userpathPhases_numba.py FILE N CALLS
FILE: the bench's bars (backtestData.ts writeBars). Per call, process CPU ms and minor page faults of
yardsticks_numba.py's three parts of `userpath`: the label column (`labels_of`), the user's copy into
a position column (`label.copy()`), the backtest of the positions (`equity_of_positions`). The first
call (numba's JIT compile) is left out. Prints one line per part, best / median ms.
"""
import os
import resource
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from yardsticks_numba import FEE_BPS, SLIPPAGE_BPS, THRESHOLD, equity_of_positions, labels_of  # noqa: E402


def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def main():
    path, n, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    c = np.fromfile(path, dtype="<f8", count=7 * n).reshape(7, n)
    rate = (FEE_BPS + SLIPPAGE_BPS) / 1e4
    names = ["label", "user copy", "backtest", "whole"]
    ms = {k: [] for k in names}
    fs = {k: [] for k in names}
    sink = 0.0
    for k in range(calls + 1):
        t = [time.process_time()]
        f = [faults()]
        label = labels_of(c[1], c[2], c[3], c[4], c[5], THRESHOLD)
        t.append(time.process_time()); f.append(faults())
        position = label.copy()
        t.append(time.process_time()); f.append(faults())
        sink += equity_of_positions(c[0], position, c[6], rate)[n - 1]
        t.append(time.process_time()); f.append(faults())
        if k == 0:
            continue
        for p in range(3):
            ms[names[p]].append(1e3 * (t[p + 1] - t[p]))
            fs[names[p]].append(f[p + 1] - f[p])
        ms["whole"].append(1e3 * (t[3] - t[0]))
        fs["whole"].append(f[3] - f[0])
    print(f"numba's users' path by phase, {n} bars, {calls} calls after the compile, process CPU ms / minor faults; load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for k in names:
        print(f"{k:<10} best {min(ms[k]):6.1f} median {statistics.median(ms[k]):6.1f} ms, faults median {statistics.median(fs[k]):g}  ({' '.join(f'{a:.0f}/{b}' for a, b in zip(ms[k], fs[k]))})")
    if sink == 0.5:
        print(sink)


main()
