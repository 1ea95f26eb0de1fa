"""Benchmark (c) of test/bench/backtest.bench.ts: the composite replay + backtest
vectorised in pandas ("pandas", the idioms a quant writes) or in plain numpy
("numpy"), on the same float64 bars the TypeScript side wrote. Prints one JSON line.

usage: backtest_pandas.py IMPL FILE N REPS
IMPL: pandas | numpy (the equity column) or pandas-summary | numpy-summary (the summary row:
total return, max drawdown, annualised Sharpe ratio, trades; written the way a quant writes them:
cumprod, the running maximum, mean / std).
"""
import json
import os
import resource
import sys
import time

import numpy as np
import pandas as pd

COLUMNS = ["close", "imbalance", "funding", "basis_spread", "momentum_5m", "gas", "funding_bar"]
FEE_BPS, SLIPPAGE_BPS, THRESHOLD = 5, 2, 0.1
C = (FEE_BPS + SLIPPAGE_BPS) / 1e4
BARS_PER_YEAR = 525_600
# process CPU time by default (robust on a shared machine); BENCH_CLOCK=wall for wall time
clock = time.perf_counter if os.environ.get("BENCH_CLOCK") == "wall" else time.process_time


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def pandas_labels(df):
    """Scores, composite and label (the position) per bar, in pandas."""
    s_imb = (df["imbalance"].clip(0, 1) - 0.5) * 2
    s_f = (-df["funding"] * 1e4).clip(-1, 1)
    s_b = (-df["basis_spread"] / 50).clip(-1, 1)
    s_m = (df["momentum_5m"] / 2).clip(-1, 1)
    gas = df["gas"]
    s_g = (0.3 - (gas - 1.1) / 10).clip(-1, 0.3).where(gas > 1.1, 0.3)
    comp = 0.3 * s_imb + 0.25 * s_f + 0.2 * s_b + 0.15 * s_m + 0.1 * s_g
    return np.sign(comp).where(comp.abs() >= THRESHOLD, 0.0)


def pandas_returns(df, w):
    """Per-bar strategy returns: the position held from the close, cost on its changes, funding."""
    ret = df["close"].pct_change()
    w_prev = w.shift(1, fill_value=0.0)
    cost = C * (w - w_prev).abs()
    return (w_prev * ret - cost.shift(1, fill_value=0.0) - w_prev * df["funding_bar"]).fillna(0.0)


def run_pandas(df, split):
    t0 = clock()
    w = pandas_labels(df)
    t1 = clock()
    equity = (1 + pandas_returns(df, w)).cumprod().to_numpy()
    split.append((t1 - t0, clock() - t1))
    return equity


def numpy_labels(cols):
    """Scores, composite and label (the position) per bar, in numpy."""
    imb, fund, basis, mom, gas = (cols[c] for c in COLUMNS[1:6])
    s_imb = 2 * (np.clip(imb, 0, 1) - 0.5)
    s_f = np.clip(-fund * 1e4, -1, 1)
    s_b = np.clip(-basis / 50, -1, 1)
    s_m = np.clip(mom / 2, -1, 1)
    s_g = np.where(gas <= 1.1, 0.3, np.clip(0.3 - (gas - 1.1) / 10, -1, 0.3))
    comp = 0.3 * s_imb + 0.25 * s_f + 0.2 * s_b + 0.15 * s_m + 0.1 * s_g
    return np.where(comp >= THRESHOLD, 1.0, np.where(comp <= -THRESHOLD, -1.0, 0.0))


def numpy_returns(cols, w):
    """Per-bar strategy returns (0 at bar 0), as pandas_returns."""
    close, fbar = cols["close"], cols["funding_bar"]
    n = close.shape[0]
    r = np.zeros(n)
    if n > 1:
        w_prev = w[:-1]
        w_prev2 = np.concatenate(([0.0], w[:-2]))
        r[1:] = w_prev * (close[1:] / close[:-1] - 1) - C * np.abs(w_prev - w_prev2) - w_prev * fbar[1:]
    return r


def run_numpy(cols, split):
    t0 = clock()
    w = numpy_labels(cols)
    t1 = clock()
    equity = np.cumprod(1 + numpy_returns(cols, w))
    split.append((t1 - t0, clock() - t1))
    return equity


def summary_pandas(df, split):
    """The summary a quant computes in pandas: equity by cumprod, drawdown from its running max, Sharpe from mean/std."""
    t0 = clock()
    w = pandas_labels(df)
    t1 = clock()
    r = pandas_returns(df, w)
    equity = (1 + r).cumprod()
    max_dd = (equity / equity.cummax() - 1).min()
    rr = r.iloc[1:]
    sharpe = rr.mean() / rr.std() * np.sqrt(BARS_PER_YEAR)
    filled = w.iloc[:-1]
    trades = int(((filled != 0) & (filled != filled.shift(1, fill_value=0.0))).sum())
    out = {"totalReturn": float(equity.iloc[-1] - 1), "maxDrawdown": float(max_dd), "sharpe": float(sharpe), "trades": trades}
    split.append((t1 - t0, clock() - t1))
    return out


def summary_numpy(cols, split):
    """The same in plain numpy."""
    t0 = clock()
    w = numpy_labels(cols)
    t1 = clock()
    r = numpy_returns(cols, w)
    equity = np.cumprod(1 + r)
    max_dd = np.min(equity / np.maximum.accumulate(equity) - 1)
    rr = r[1:]
    sharpe = rr.mean() / rr.std(ddof=1) * np.sqrt(BARS_PER_YEAR)
    filled = w[:-1]
    trades = int(np.count_nonzero((filled != 0) & (filled != np.concatenate(([0.0], w[:-2])))))
    out = {"totalReturn": float(equity[-1] - 1), "maxDrawdown": float(max_dd), "sharpe": float(sharpe), "trades": trades}
    split.append((t1 - t0, clock() - t1))
    return out


def main():
    impl, path, n, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    raw = np.fromfile(path, dtype="<f8", count=n * len(COLUMNS))
    cols = {c: raw[j * n:(j + 1) * n] for j, c in enumerate(COLUMNS)}
    df = pd.DataFrame(cols, copy=False) if impl.startswith("pandas") else None
    runs = {"pandas": lambda s: run_pandas(df, s), "numpy": lambda s: run_numpy(cols, s),
            "pandas-summary": lambda s: summary_pandas(df, s), "numpy-summary": lambda s: summary_numpy(cols, s)}
    rss0 = rss_bytes()
    best = float("inf")
    times = []
    equity = None
    split = []
    peak = None
    for _ in range(reps):
        t0 = clock()
        equity = runs[impl](split)
        times.append(clock() - t0)
        best = min(best, times[-1])
        if peak is None:  # peak memory of one run (as on the TypeScript side)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    result = equity if isinstance(equity, dict) else {"final": float(equity[-1]), "checksum": float(np.sum(equity))}
    print(json.dumps({
        "impl": impl, "n": n, "seconds": best, "medianSeconds": float(np.median(times)),
        "replaySeconds": min(a for a, _ in split), "backtestSeconds": min(b for _, b in split), "peakBytes": max(0, peak - rss0),
        **result,
    }))


if __name__ == "__main__":
    main()
