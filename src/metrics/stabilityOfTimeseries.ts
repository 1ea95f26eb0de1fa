import { checkReturns } from "./ReturnsOptions.js";

/**
 * Stability: R² of an ordinary least-squares line through the cumulative log
 * returns `cumsum(log1p(r))` against their position (NaN returns removed
 * first). 1 for a perfectly steady equity curve, near 0 for a random one.
 * NaN with fewer than 2 returns (NaN included in that count) or when the
 * cumulative log return is constant.
 * Reference: quantopian/empyrical stats.py `stability_of_timeseries`.
 * @example stabilityOfTimeseries([0.01, 0.01, 0.01]) // 1
 */
export function stabilityOfTimeseries(returns: ArrayLike<number>): number {
  checkReturns(returns, "stabilityOfTimeseries");
  if (returns.length < 2) return Number.NaN;
  const y = new Float64Array(returns.length);
  let n = 0;
  let c = 0;
  for (let i = 0; i < returns.length; i++) {
    const r = returns[i] as number;
    if (Number.isNaN(r)) continue;
    c += Math.log1p(r);
    y[n++] = c;
  }
  if (n < 2) return Number.NaN;
  const mx = (n - 1) / 2;
  let my = 0;
  for (let i = 0; i < n; i++) my += y[i] as number;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = i - mx;
    const dy = (y[i] as number) - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (syy === 0) return Number.NaN;
  const r = sxy / Math.sqrt(sxx * syy);
  return Math.min(1, r * r);
}
