"""
numba yardsticks of test/bench/yardsticks.bench.ts (issue 32): the engine's exact
arithmetic, written the way a vectorbt user's numba loop is written (one @njit
loop over the bars, fresh output arrays from np.empty), so every number is the
engine's to the last bit (the bench checks them: the equity column byte for
byte, the summary row, all 768 numbers of the 128-variant sweep, all 2,400 of
the SMA-cross grid). NOT the library and not a reference for its numbers: a
second copy of its default-mode arithmetic, like backtest_native.c and
sweep_native.c (whose operations, in the same order, this follows), to say
what numba does with the same work on this machine. No fastmath (numba's
default: no fused multiply-adds, no reassociation, NaN tests kept).

usage: python3 yardsticks_numba.py WHAT FILE N REPS [SPEC]
  WHAT: equity | summary | userpath | sweep | sweep2 (numba threads, prange over
  weight vectors) | sma | sma-shared (each rolling mean once per length); FILE: the bench's bars (column-major float64: close,
  imbalance, funding, basis_spread, momentum_5m, gas, funding_bar); SPEC: a JSON
  file (sweep: vectors as [[component, weight], ...] in key order, thresholds,
  initialCash, costBps, periodsPerYear; sma: fast, slow lists, feeBps, ...).
Prints one JSON line: compileSeconds (the first call: JIT compile + one run),
the runs' process CPU seconds (wall for sweep2), their minor page faults, and the results.
Env: BENCH_DUMP=path writes the last equity column (float64, little-endian).
"""
import json
import math
import os
import resource
import sys
import time

import numpy as np
from numba import njit, prange

FEE_BPS, SLIPPAGE_BPS, THRESHOLD, PPY = 5.0, 2.0, 0.1, 525600.0


@njit(cache=False)
def limit(x, lo, hi):
    return lo if x < lo else (hi if x > hi else x)


@njit(cache=False)
def label_at(imb, fund, basis, mom, gas, thr):
    x = (0.3 * (2 * (limit(imb, 0.0, 1.0) - 0.5)) + 0.25 * limit(-fund * 1e4, -1.0, 1.0)
         + 0.2 * limit(-basis / 50, -1.0, 1.0) + 0.15 * limit(mom / 2, -1.0, 1.0)
         + 0.1 * limit(0.3 - (gas - 1.1) / 10, -1.0, 0.3))
    return 1.0 if (x >= thr and x > 0) else (-1.0 if (x <= -thr and x < 0) else 0.0)


@njit(cache=False)
def equity_fused(close, imb, fund, basis, mom, gas, fbar, rate, thr):
    """backtest({ signal: replay }): labels and the default-mode accounting in one loop, the equity column out."""
    n = close.shape[0]
    equity = np.empty(n)
    V = 1.0
    E = 1.0
    q = 0.0
    L = close[0]
    held = 0.0
    for i in range(n):
        p = close[i]
        if i > 0:
            r = fbar[i]
            if q != 0 and r == r and r != 0:
                V -= q * L * r
            if q != 0:
                V += q * (p - L)
            L = p
            E = V
        equity[i] = E
        if i < n - 1:
            wi = label_at(imb[i], fund[i], basis[i], mom[i], gas[i], thr)
            traded = abs(wi - held) * E
            if traded != 0:
                V -= rate * traded
            q = E * (wi / p)
            held = wi
    return equity


@njit(cache=False)
def summary_fused(close, imb, fund, basis, mom, gas, fbar, rate, thr, ppy):
    """backtest({ ..., outputs: ["metrics"] }): total return, max drawdown, Sharpe, trades; no per-bar output."""
    n = close.shape[0]
    V = 1.0
    E = 1.0
    q = 0.0
    L = close[0]
    held = 0.0
    peak = 1.0
    mdd = 0.0
    s = 0.0
    s2 = 0.0
    trades = 0
    for i in range(n):
        p = close[i]
        if i > 0:
            r = fbar[i]
            if q != 0 and r == r and r != 0:
                V -= q * L * r
            if q != 0:
                V += q * (p - L)
            L = p
            ret = V / E - 1
            E = V
            s += ret
            s2 += ret * ret
            if E > peak:
                peak = E
            elif E / peak - 1 < mdd:
                mdd = E / peak - 1
        if i < n - 1:
            wi = label_at(imb[i], fund[i], basis[i], mom[i], gas[i], thr)
            traded = abs(wi - held) * E
            if traded != 0:
                V -= rate * traded
                if wi != 0:
                    trades += 1
            q = E * (wi / p)
            held = wi
    mean = s / (n - 1)
    sd = math.sqrt((s2 - s * mean) / (n - 2))
    return E - 1, mdd, mean / sd * math.sqrt(ppy), trades


@njit(cache=False)
def labels_of(imb, fund, basis, mom, gas, thr):
    n = imb.shape[0]
    out = np.empty(n)
    for i in range(n):
        out[i] = label_at(imb[i], fund[i], basis[i], mom[i], gas[i], thr)
    return out


@njit(cache=False)
def equity_of_positions(close, position, fbar, rate):
    n = close.shape[0]
    equity = np.empty(n)
    V = 1.0
    E = 1.0
    q = 0.0
    L = close[0]
    held = 0.0
    for i in range(n):
        p = close[i]
        if i > 0:
            r = fbar[i]
            if q != 0 and r == r and r != 0:
                V -= q * L * r
            if q != 0:
                V += q * (p - L)
            L = p
            E = V
        equity[i] = E
        if i < n - 1:
            wi = position[i]
            traded = abs(wi - held) * E
            if traded != 0:
                V -= rate * traded
            q = E * (wi / p)
            held = wi
    return equity


def userpath(c, rate):
    """The users' path: the labels column, their own loop turning labels into positions, then a backtest of the positions."""
    label = labels_of(c[1], c[2], c[3], c[4], c[5], THRESHOLD)
    position = label.copy()
    return equity_of_positions(c[0], position, c[6], rate)


# ---- the sweep: sweep_native.c's score columns and its pass (4 threshold accounts a weight vector), operation for operation


@njit(cache=False)
def score_columns(imb, fund, basis, mom, gas):
    n = imb.shape[0]
    s = np.empty((5, n))
    for i in range(n):
        x = imb[i]
        x = 0.0 if x < 0 else (1.0 if x > 1 else x)
        s[0, i] = 2 * (x - 0.5)
        x = -fund[i] * 1e4
        s[1, i] = -1.0 if x < -1 else (1.0 if x > 1 else x)
        x = -basis[i] / 50
        s[2, i] = -1.0 if x < -1 else (1.0 if x > 1 else x)
        x = mom[i] / 2
        s[3, i] = -1.0 if x < -1 else (1.0 if x > 1 else x)
        x = 0.3 - (gas[i] - 1.1) / 10
        s[4, i] = -1.0 if x < -1 else (0.3 if x > 0.3 else x)
    return s


@njit(cache=False)
def account_bar(s, i, n, c, r, tw, st, ruined, trades):
    """One account's bar (sweep_native.c's pass body). st: q, l, h, V, E, peak, mdd, ddFloor, sr, sr2, turn, netx, grossx."""
    q = st[0]
    l = st[1]
    h = st[2]
    V = st[3]
    E = st[4]
    if q == 0 and h == 0 and tw == 0 and V - E == 0:
        if c == c:
            st[1] = c
        return
    if i > 0:
        if q != 0 and r == r and r != 0:
            V -= q * l * r
        if c == c:
            if q != 0:
                V += q * (c - l)
            l = c
        if V <= 0 and ruined[s] == 0:
            ruined[s] = 1
            q = 0.0
            h = 0.0
            if V < 0:
                V = 0.0
        prev = E
        E = V
        if E != prev:
            ret = E / prev - 1
            st[8] += ret
            st[9] += ret * ret
            if E > st[5]:
                st[5] = E
                st[7] = st[5] * (1 + st[6]) + st[5] * 1e-9
            elif not (E >= st[7]):
                dd = E / st[5] - 1
                if dd < st[6]:
                    st[6] = dd
                    st[7] = st[5] * (1 + st[6]) + st[5] * 1e-9
    elif c == c:
        l = c
    if i < n - 1 and ruined[s] == 0 and c == c:
        old = q
        fE = E
        nu = fE * (tw / c)
        traded = abs(tw - h) * fE
        fee = 0.0
        if traded != 0:
            fee = st[13] * traded + 0
            st[10] += traded / fE if fE > 0 else 0.0
        h = tw
        l = c
        q = nu
        if old > 0:
            changed = not (nu > 0)
        elif old < 0:
            changed = not (nu < 0)
        else:
            changed = nu > 0 or nu < 0
        if changed and nu != 0:
            trades[s] += 1
        V -= fee
    wk = 0.0 if (q == 0 or E == 0) else (q * l) / E
    st[11] += wk
    st[12] += abs(wk)
    st[0] = q
    st[1] = l
    st[2] = h
    st[3] = V
    st[4] = E


@njit(cache=False)
def account_metrics(st, trades, n, initial, ppy, out):
    cnt = float(n - 1)
    mean = st[8] / cnt
    var = max(0.0, (st[9] - st[8] * mean) / (cnt - 1))
    out[0] = st[4] / initial - 1
    out[1] = mean / math.sqrt(var) * math.sqrt(ppy) if n - 1 >= 2 else np.nan
    out[2] = st[6]
    out[3] = float(trades)
    out[4] = st[10]
    out[5] = st[12] / float(n)


@njit(cache=False)
def new_state(initial, rate):
    st = np.zeros(14)
    st[1] = np.nan
    st[3] = initial
    st[4] = initial
    st[5] = initial
    st[7] = initial * (1 + 0.0) + initial * 1e-9
    st[13] = rate
    return st


@njit(cache=False)
def sweep_pass(g, scores, comps, weights, lens, thr, close, fbar, initial, rate, ppy, res):
    n = close.shape[0]
    A = thr.shape[0]
    m = lens[g]
    states = np.empty((A, 14))
    for s in range(A):
        states[s] = new_state(initial, rate)
    ruined = np.zeros(A, np.int64)
    trades = np.zeros(A, np.int64)
    target = np.zeros(A)
    for i in range(n):
        c = close[i]
        r = fbar[i]
        cmp = 0.0
        for t in range(m):
            cmp = cmp + weights[g, t] * scores[comps[g, t], i]
        for s in range(A):
            side = 1.0 if (cmp >= thr[s] and cmp > 0) else (-1.0 if (cmp <= -thr[s] and cmp < 0) else 0.0)
            target[s] = (target[s] if i > 0 else 0.0) if c != c else side
            account_bar(s, i, n, c, r, target[s], states[s], ruined, trades)
    for s in range(A):
        account_metrics(states[s], trades[s], n, initial, ppy, res[g * A + s])


@njit(cache=False)
def sweep_serial(close, imb, fund, basis, mom, gas, fbar, comps, weights, lens, thr, initial, rate, ppy):
    scores = score_columns(imb, fund, basis, mom, gas)
    nvec = lens.shape[0]
    res = np.empty((nvec * thr.shape[0], 6))
    for g in range(nvec):
        sweep_pass(g, scores, comps, weights, lens, thr, close, fbar, initial, rate, ppy, res)
    return res


@njit(cache=False, parallel=True)
def sweep_parallel(close, imb, fund, basis, mom, gas, fbar, comps, weights, lens, thr, initial, rate, ppy):
    scores = score_columns(imb, fund, basis, mom, gas)
    nvec = lens.shape[0]
    res = np.empty((nvec * thr.shape[0], 6))
    for g in prange(nvec):
        sweep_pass(g, scores, comps, weights, lens, thr, close, fbar, initial, rate, ppy, res)
    return res


# ---- the SMA-cross grid: the guide's smaCross function (running sums), then the position column's backtest and metrics


@njit(cache=False)
def sma_cross(close, fast, slow):
    n = close.shape[0]
    out = np.empty(n)
    f = 0.0
    s = 0.0
    for i in range(n):
        f += close[i]
        s += close[i]
        if i >= fast:
            f -= close[i - fast]
        if i >= slow:
            s -= close[i - slow]
        out[i] = 0.0 if i + 1 < slow else (1.0 if f / fast > s / slow else -1.0)
    return out


@njit(cache=False)
def position_metrics(close, fbar, position, initial, rate, ppy, out):
    n = close.shape[0]
    st = new_state(initial, rate)
    ruined = np.zeros(1, np.int64)
    trades = np.zeros(1, np.int64)
    target = 0.0
    for i in range(n):
        c = close[i]
        target = (target if i > 0 else 0.0) if c != c else position[i]
        account_bar(0, i, n, c, fbar[i], target, st, ruined, trades)
    account_metrics(st, trades[0], n, initial, ppy, out)


@njit(cache=False)
def sma_grid(close, fbar, fasts, slows, initial, rate, ppy):
    res = np.empty((fasts.shape[0] * slows.shape[0], 6))
    k = 0
    for a in range(fasts.shape[0]):
        for b in range(slows.shape[0]):
            position = sma_cross(close, fasts[a], slows[b])
            position_metrics(close, fbar, position, initial, rate, ppy, res[k])
            k += 1
    return res


# ---- the same grid with each rolling mean computed once per window length for every variant that uses it
# (as vectorbt computes a moving average once per unique window), then a compare per variant: the same
# sharing as ours' documented way (sweepStrategy's `shared`); the same rolling sums, so the same numbers.


@njit(cache=False)
def rolling_mean(close, m):
    n = close.shape[0]
    r = np.empty(n)
    s = 0.0
    for i in range(n):
        s += close[i]
        if i >= m:
            s -= close[i - m]
        r[i] = s / m
    return r


@njit(cache=False)
def sma_grid_shared(close, fbar, fasts, slows, initial, rate, ppy):
    n = close.shape[0]
    fm = np.empty((fasts.shape[0], n))
    for a in range(fasts.shape[0]):
        fm[a] = rolling_mean(close, fasts[a])
    sm = np.empty((slows.shape[0], n))
    for b in range(slows.shape[0]):
        sm[b] = rolling_mean(close, slows[b])
    res = np.empty((fasts.shape[0] * slows.shape[0], 6))
    k = 0
    for a in range(fasts.shape[0]):
        for b in range(slows.shape[0]):
            slow = slows[b]
            position = np.zeros(n)
            f = fm[a]
            s = sm[b]
            for i in range(slow - 1, n):
                position[i] = 1.0 if f[i] > s[i] else -1.0
            position_metrics(close, fbar, position, initial, rate, ppy, res[k])
            k += 1
    return res


def cpu():
    return time.process_time()


def main():
    what, path, n, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    spec = json.load(open(sys.argv[5])) if len(sys.argv) > 5 else {}
    c = np.fromfile(path, dtype="<f8", count=7 * n).reshape(7, n)
    rate = (FEE_BPS + SLIPPAGE_BPS) / 1e4
    clock = (lambda: time.perf_counter()) if what == "sweep2" else cpu
    if what == "equity":
        run = lambda: equity_fused(c[0], c[1], c[2], c[3], c[4], c[5], c[6], rate, THRESHOLD)
    elif what == "summary":
        run = lambda: summary_fused(c[0], c[1], c[2], c[3], c[4], c[5], c[6], rate, THRESHOLD, PPY)
    elif what == "userpath":
        run = lambda: userpath(c, rate)
    elif what in ("sweep", "sweep2"):
        vecs = spec["vectors"]
        comps = np.zeros((len(vecs), 5), np.int64)
        weights = np.zeros((len(vecs), 5))
        lens = np.array([len(v) for v in vecs], np.int64)
        for g, v in enumerate(vecs):
            for t, (k, w) in enumerate(v):
                comps[g, t] = k
                weights[g, t] = w
        thr = np.array(spec["thresholds"], dtype=np.float64)
        fn = sweep_parallel if what == "sweep2" else sweep_serial
        args = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], comps, weights, lens, thr, float(spec["initialCash"]), spec["costBps"] / 1e4, float(spec["periodsPerYear"]))
        run = lambda: fn(*args)
    elif what in ("sma", "sma-shared"):
        fasts = np.array(spec["fast"], dtype=np.int64)
        slows = np.array(spec["slow"], dtype=np.int64)
        args = (c[0], c[6], fasts, slows, float(spec["initialCash"]), spec["costBps"] / 1e4, float(spec["periodsPerYear"]))
        fn = sma_grid_shared if what == "sma-shared" else sma_grid
        run = lambda: fn(*args)
    else:
        raise SystemExit(f"unknown {what}")
    t0 = clock()
    out = run()
    compile_s = clock() - t0
    times = []
    faults = []
    for _ in range(reps):
        f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        t0 = clock()
        out = run()
        times.append(clock() - t0)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
    res = {"impl": f"numba-{what}", "n": n, "compileSeconds": compile_s, "seconds": min(times), "medianSeconds": float(np.median(times)), "times": times, "faults": faults}
    if isinstance(out, np.ndarray) and out.ndim == 1:
        if os.environ.get("BENCH_DUMP"):
            out.astype("<f8").tofile(os.environ["BENCH_DUMP"])
        res.update(final=float(out[-1]), checksum=float(np.sum(out)))
    elif isinstance(out, tuple):
        res.update(totalReturn=out[0], maxDrawdown=out[1], sharpe=out[2], trades=int(out[3]))
    else:
        res["metrics"] = [[repr(float(x)) for x in row] for row in out]
    print(json.dumps(res))


if __name__ == "__main__":
    main()
