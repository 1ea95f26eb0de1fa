"""numba's side of the SMA grid split in parts (issue 32, item 3): `python3 test/bench/smaParts_numba.py [FILE N]`.

The yardstick's SMA grid (fast 5..24 x slow 30..220 step 10, 400 variants) over N bars: the whole grid
(yardsticks_numba.sma_grid), then its two parts apart, the same functions: sma_cross alone (400 calls) and
position_metrics alone (40 precomputed position columns), ms of process CPU a variant, three rounds, with the load.
FILE: the bench's bars (column-major float64, as yardsticks.bench.ts writes them: close is column 0, funding_bar
column 6); without one, N (5e5) seeded log-random-walk closes and a constant funding rate. Pairs with
test/bench/smaCrossForms.ts (our user's function) and test/bench/strategyProfile.ts (our parts). Not the library
and not a reference for its numbers; no timing is asserted anywhere.
"""
import os
import sys
import time

import numpy as np
from numba import njit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yardsticks_numba as y  # noqa: E402

if len(sys.argv) > 2:
    n = int(sys.argv[2])
    c = np.fromfile(sys.argv[1], dtype="<f8", count=7 * n).reshape(7, n)
    close, fbar = np.ascontiguousarray(c[0]), np.ascontiguousarray(c[6])
else:
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 500_000
    rng = np.random.default_rng(42)
    close = 60_000 * np.exp(np.cumsum(0.0008 * rng.standard_normal(n)))
    fbar = np.full(n, 1e-7)
F = np.arange(5, 25, dtype=np.int64)
S = np.arange(30, 230, 10, dtype=np.int64)
COST = (y.FEE_BPS + y.SLIPPAGE_BPS) / 1e4


@njit(cache=False)
def users(close, fasts, slows):
    h = 0.0
    for a in range(fasts.shape[0]):
        for b in range(slows.shape[0]):
            h += y.sma_cross(close, fasts[a], slows[b])[-1]
    return h


@njit(cache=False)
def engine(close, fbar, positions, res):
    for k in range(positions.shape[0]):
        y.position_metrics(close, fbar, positions[k], 1.0, COST, y.PPY, res[k])


positions = np.empty((40, n))
for k in range(40):
    positions[k] = y.sma_cross(close, F[k % 20], S[(k * 7) % 20])
res = np.empty((40, 6))
y.sma_grid(close, fbar, F, S, 1.0, COST, y.PPY)
users(close, F, S)
engine(close, fbar, positions, res)
cpu = time.process_time
print(f"numba, SMA grid 20 x 20 x {n} in parts, ms of process CPU a variant; load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
for r in range(3):
    t = cpu()
    y.sma_grid(close, fbar, F, S, 1.0, COST, y.PPY)
    whole = (cpu() - t) * 1e3 / 400
    t = cpu()
    users(close, F, S)
    u = (cpu() - t) * 1e3 / 400
    t = cpu()
    engine(close, fbar, positions, res)
    e = (cpu() - t) * 1e3 / 40
    print(f"  round {r + 1}: the grid {whole:.2f}, sma_cross alone {u:.2f}, position_metrics alone {e:.2f}")
