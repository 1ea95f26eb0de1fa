import { checkReturns } from "../metrics/ReturnsOptions.js";
import { nanMoments } from "../metrics/nanMoments.js";
import { finiteCopy } from "../metrics/valueAtRisk.js";

/**
 * The automatic mean block length of the stationary bootstrap (Politis & White 2004, with
 * the correction of Patton, Politis & White 2009), in bars: the block length minimising the
 * mean squared error of the bootstrap's variance estimate of the mean, as the arch package's
 * `optimal_block_length(x)["stationary"]` computes it (arch/bootstrap/base.py), on x with NaN
 * dropped, n values, e = x − mean(x):
 * 1. autocovariances γ̂(k) = Σ_{t=k}^{n-1} e_t e_{t-k} / n, and arch's absolute autocorrelations
 *    |ρ̂(k)| = |n γ̂(k)| / sqrt(Σ_{t=k+1}^{n-1} e_t² · Σ_{t=0}^{n-k-2} e_t²), for k = 0..m_max,
 *    K = max(5, ⌊log10 n⌋), m_max = ⌈√n⌉ + K;
 * 2. m̂ = the first k at which |ρ̂| is below 2 sqrt(log10 n / n) at every lag k..k+K−1; the
 *    bandwidth M = min(2 max(m̂, 1), m_max), or m_max when there is no such k;
 * 3. with the flat-top kernel λ(s) = 1 for s ≤ 1/2, 2(1 − s) above:
 *    G = Σ_{k=1}^{M} 2 λ(k/M) k γ̂(k), σ̂² = γ̂(0) + Σ_{k=1}^{M} 2 λ(k/M) γ̂(k) (the long-run variance);
 * 4. b = (2 G² / (2 σ̂⁴))^(1/3) n^(1/3), capped at ⌈min(3 √n, n / 3)⌉.
 * A persistent series gets long blocks, a series without serial dependence short ones (below 1
 * means the i.i.d. bootstrap; stationaryBootstrap uses at least 1). NaN when n < m_max (under
 * about 8 values: arch fails there) or for a constant series (0 / 0).
 * Units: bars (a real number, the mean of the geometric block lengths).
 * References: Politis, D. N. & White, H. (2004), "Automatic Block-Length Selection for the
 * Dependent Bootstrap", Econometric Reviews 23(1); Patton, A., Politis, D. N. & White, H. (2009),
 * "Correction to ...", Econometric Reviews 28(4); K. Sheppard's arch, `optimal_block_length`.
 * @throws InvalidArgumentError on a non-array input
 * @example optimalBlockLength(result.returns) // e.g. 3.2 bars; pass it as stationaryBootstrap's meanBlock (its default)
 */
export function optimalBlockLength(returns: ArrayLike<number>): number {
  checkReturns(returns, "optimalBlockLength");
  const x = finiteCopy(returns);
  const n = x.length;
  const kn = Math.max(5, Math.floor(Math.log10(n)));
  const mMax = Math.ceil(Math.sqrt(n)) + kn;
  if (n < 2 || mMax > n) return Number.NaN;
  // nanMoments' mean is exact on a constant series, whose e is then exactly 0 (the 0 / 0 below: NaN).
  const mean = nanMoments(x, 0).mean;
  const e = new Float64Array(n);
  // v2 of lag k, Σ_{t=0}^{n-k-2} e_t² summed from t = 0 up: the running sum of the squares (the same additions in the same order)
  const squares = new Float64Array(n + 1);
  for (let t = 0; t < n; t++) {
    const d = (x[t] as number) - mean;
    e[t] = d;
    squares[t + 1] = (squares[t] as number) + d * d;
  }
  const cv = 2 * Math.sqrt(Math.log10(n) / n);
  const acv = new Float64Array(mMax + 1);
  const absCorr = new Float64Array(mMax + 1);
  let optM = -1;
  // the lags that are read: the autocorrelations until m̂ is found, the autocovariances up to the bandwidth
  let last = mMax;
  for (let k = 0; k <= last; k++) {
    // cross = Σ_{t=k}^{n-1} e_t e_{t-k} and v1 = Σ_{t=k+1}^{n-1} e_t², each added from t = k up, in one pass
    let cross = 0;
    if (k < n) cross += (e[k] as number) * (e[0] as number);
    if (optM >= 0) {
      for (let t = k + 1; t < n; t++) cross += (e[t] as number) * (e[t - k] as number);
      acv[k] = cross / n;
      continue;
    }
    let v1 = 0;
    for (let t = k + 1; t < n; t++) {
      const et = e[t] as number;
      cross += et * (e[t - k] as number);
      v1 += et * et;
    }
    acv[k] = cross / n;
    const v2 = squares[Math.max(0, n - k - 1)] as number;
    absCorr[k] = Math.abs(cross) / Math.sqrt(v1 * v2);
    if (k >= kn) {
      let quiet = true;
      for (let j = k - kn; j < k; j++) if (!((absCorr[j] as number) < cv)) quiet = false;
      if (quiet) {
        optM = k - kn;
        last = Math.min(2 * Math.max(optM, 1), mMax);
      }
    }
  }
  const m = Math.min(optM >= 0 ? 2 * Math.max(optM, 1) : mMax, mMax);
  let g = 0;
  let longRun = acv[0] as number;
  for (let k = 1; k <= m; k++) {
    const lambda = k / m <= 0.5 ? 1 : 2 * (1 - k / m);
    g += 2 * lambda * k * (acv[k] as number);
    longRun += 2 * lambda * (acv[k] as number);
  }
  const b = Math.cbrt((2 * g * g) / (2 * longRun * longRun)) * Math.cbrt(n);
  return Math.min(b, Math.ceil(Math.min(3 * Math.sqrt(n), n / 3)));
}
