"""Reference Hansen (2005) SPA test in numpy, written independently of src/research for the tests.

Reads a JSON job from stdin: {"matrices": [{"file": path of float64 little-endian K x n row-major, "K": K, "n": n}],
"draws": B, "meanBlock": b or null, "seed": s}. Writes {"p": [consistent p-values], "rw": [[variants with
Romano-Wolf adjusted p <= 0.05], ...]}.
Definition: d_k the variant's returns (benchmark 0), t_k = sqrt(n) mean_k / std_k (ddof 1),
T = max(0, max t_k). Stationary bootstrap (Politis-Romano) index draws with mean block b (the same bars for every
variant); per resample the studentised recentred means sqrt(n) (mean*_k - mu_k) / std*_k (bootstrap-t), with
Hansen's consistent recentring mu_k = mean_k * [t_k >= -sqrt(2 ln ln n)]; p = share of resamples with T* >= T.
"""
import json
import sys

import numpy as np


def stationary_indices(rng, n, block):
    idx = np.empty(n, dtype=np.int64)
    idx[0] = rng.integers(n)
    new = rng.random(n) < 1.0 / block
    fresh = rng.integers(0, n, size=n)
    for t in range(1, n):
        idx[t] = fresh[t] if new[t] else (idx[t - 1] + 1) % n
    return idx


def spa(x, draws, block, rng, alpha=0.05):
    K, n = x.shape
    m = x.mean(axis=1)
    s = x.std(axis=1, ddof=1)
    ok = s > 0
    x, m, s = x[ok], m[ok], s[ok]
    if x.shape[0] == 0:
        return float("nan"), []
    t = np.sqrt(n) * m / s
    T = max(0.0, t.max())
    mu = np.where(t >= -np.sqrt(2 * np.log(np.log(n))), m, 0.0)
    order = np.argsort(-t, kind="stable")
    exceed = 0
    counts = np.zeros(len(order))
    for _ in range(draws):
        idx = stationary_indices(rng, n, block)
        xb = x[:, idx]
        mb = xb.mean(axis=1)
        sb = xb.std(axis=1, ddof=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.sqrt(n) * (mb - mu) / sb
            zc = np.sqrt(n) * (mb - m) / sb
        z = np.where(np.isnan(z), 0.0, z)
        zc = np.where(np.isnan(zc), 0.0, zc)
        if max(0.0, z.max()) >= T:
            exceed += 1
        suffix = np.maximum.accumulate(zc[order][::-1])[::-1]
        counts += suffix >= t[order]
    adj = np.maximum.accumulate(counts / draws)
    kept = np.flatnonzero(ok)
    rejected = sorted(int(kept[order[j]]) for j in range(len(order)) if adj[j] <= alpha)
    return exceed / draws, rejected


def main():
    job = json.load(sys.stdin)
    rng = np.random.default_rng(job["seed"])
    out_p, out_rw = [], []
    for mtx in job["matrices"]:
        x = np.fromfile(mtx["file"], dtype="<f8").reshape(mtx["K"], mtx["n"])
        block = mtx.get("meanBlock") or job.get("meanBlock") or 1.0
        p, rw = spa(x, job["draws"], float(block), rng)
        out_p.append(p)
        out_rw.append(rw)
    json.dump({"p": out_p, "rw": out_rw}, sys.stdout)


if __name__ == "__main__":
    main()
