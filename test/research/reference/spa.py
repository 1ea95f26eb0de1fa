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
    """Bar t is a fresh uniform bar where a block starts (t = 0, or with probability 1/block), else the bar after
    bar t-1 (wrapping): idx[t] = (start of t's block + bars since it) mod n, with the block starts found by a
    running maximum. Draws rng exactly as the loop `idx[t] = fresh[t] if new[t] else (idx[t-1] + 1) % n` did."""
    first = rng.integers(n)
    new = rng.random(n) < 1.0 / block
    fresh = rng.integers(0, n, size=n)
    new[0] = True
    fresh[0] = first
    t = np.arange(n)
    start = np.maximum.accumulate(np.where(new, t, 0))
    return (fresh[start] + (t - start)) % n


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
    # the resamples' bar indices, drawn one resample after the other; their statistics computed a chunk at once.
    # A resample's mean and variance need only how often it took each bar: taken[b, t] (chunk x n), so the sums
    # are two matrix products instead of a K x chunk x n copy of the data. The sums are of y = x - m (each
    # variant centred on its own mean, exact zeros for a constant variant), for a variance free of cancellation.
    y = x - m[:, None]
    y2 = y * y
    for first in range(0, draws, 256):
        idx = np.stack([stationary_indices(rng, n, block) for _ in range(min(256, draws - first))])  # chunk x n
        chunk = idx.shape[0]
        taken = np.bincount((idx + n * np.arange(chunk)[:, None]).ravel(), minlength=chunk * n).reshape(chunk, n)
        cy = (y @ taken.T) / n  # K x chunk: resample mean of y
        mb = m[:, None] + cy
        sb = np.sqrt(np.maximum(0.0, (y2 @ taken.T) - n * cy * cy) / (n - 1))
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.sqrt(n) * (mb - mu[:, None]) / sb
            zc = np.sqrt(n) * (mb - m[:, None]) / sb
        z = np.where(np.isnan(z), 0.0, z)
        zc = np.where(np.isnan(zc), 0.0, zc)
        exceed += int(np.count_nonzero(np.maximum(0.0, z.max(axis=0)) >= T))
        suffix = np.maximum.accumulate(zc[order][::-1], axis=0)[::-1]  # max over the variants ranked j and below
        counts += (suffix >= t[order][:, None]).sum(axis=1)
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
