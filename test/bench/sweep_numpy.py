"""Reference (b) of test/bench/sweep.bench.ts: the same composite sweep vectorised in
numpy, the way a quant would write it: the five components scored once, then per
weight vector one matrix-vector product for the composite and, per threshold, one
vectorised pass for positions, returns, equity and the six metrics. Reads the float64
bars the TypeScript side wrote and the variants from a JSON file; prints one JSON line
(best seconds over REPS, and per-variant totalReturn / sharpe / trades to check agreement).

usage: sweep_numpy.py FILE N VARIANTS_JSON REPS
"""
import json
import os
import sys
import time

import numpy as np

COLUMNS = ["close", "imbalance", "funding", "basis_spread", "momentum_5m", "gas", "funding_bar"]
COMPONENTS = ["imbalance", "funding", "basis_spread", "momentum_5m", "gas"]
clock = time.perf_counter if os.environ.get("BENCH_CLOCK", "wall") == "wall" else time.process_time


def sweep(cols, weights, thresholds, cost, ppy):
    close, imb, fund, basis, mom, gas, fbar = (cols[c] for c in COLUMNS)
    scores = np.column_stack([
        2 * (np.clip(imb, 0, 1) - 0.5),
        np.clip(-fund * 1e4, -1, 1),
        np.clip(-basis / 50, -1, 1),
        np.clip(mom / 2, -1, 1),
        np.where(gas <= 1.1, 0.3, np.clip(0.3 - (gas - 1.1) / 10, -1, 0.3)),
    ])
    n = close.shape[0]
    price_ret = close[1:] / close[:-1] - 1
    out = []
    for w in weights:
        comp = scores @ np.array([w[c] for c in COMPONENTS])
        for t in thresholds:
            pos = np.where((comp >= t) & (comp > 0), 1.0, np.where((comp <= -t) & (comp < 0), -1.0, 0.0))
            held = pos[:-1]  # the target filled at close i, held over bar i+1 (the last is never filled)
            prev = np.concatenate(([0.0], held[:-1]))
            dpos = np.abs(held - prev)
            r = held * price_ret - cost * dpos - held * fbar[1:]
            equity = np.cumprod(1 + r)
            sharpe = r.mean() / r.std(ddof=1) * np.sqrt(ppy)
            wealth = np.concatenate(([1.0], equity))
            mdd = (wealth / np.maximum.accumulate(wealth) - 1).min()
            # round trips opened: a fill that leaves 0 or flips the side (the last one may still be open)
            trades = int(np.count_nonzero((held != 0) & (np.sign(held) != np.sign(prev))))
            out.append((equity[-1] - 1, sharpe, mdd, trades, dpos.sum(), np.count_nonzero(pos) / n))
    return out


def main():
    path, n, variants_path, reps = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    raw = np.fromfile(path, dtype="<f8", count=n * len(COLUMNS))
    cols = {c: raw[j * n:(j + 1) * n] for j, c in enumerate(COLUMNS)}
    with open(variants_path) as f:
        spec = json.load(f)
    best = float("inf")
    out = None
    for _ in range(reps):
        t0 = clock()
        out = sweep(cols, spec["weights"], spec["thresholds"], spec["cost"], spec["periodsPerYear"])
        best = min(best, clock() - t0)
    print(json.dumps({
        "seconds": best,
        "totalReturn": [x[0] for x in out],
        "sharpeRatio": [x[1] for x in out],
        "maxDrawdown": [x[2] for x in out],
        "trades": [x[3] for x in out],
        "turnover": [x[4] for x in out],
        "exposure": [x[5] for x in out],
    }))


if __name__ == "__main__":
    main()
