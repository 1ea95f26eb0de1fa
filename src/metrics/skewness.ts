import { checkReturns } from "./ReturnsOptions.js";

/** Central moments m2, m3, m4 of the non-NaN values (population, divided by n). @internal */
export function centralMoments(x: ArrayLike<number>): { n: number; m2: number; m3: number; m4: number } {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    if (Number.isNaN(v)) continue;
    n++;
    sum += v;
  }
  const mean = sum / n;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    if (Number.isNaN(v)) continue;
    const d = v - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  return { n, m2: m2 / n, m3: m3 / n, m4: m4 / n };
}

/**
 * Skewness of the returns: `m3 / m2^1.5` with population central moments
 * (scipy.stats.skew's default, bias=True, which empyrical reports). NaN
 * returns are skipped (scipy would return NaN). NaN on empty input or zero
 * variance. Negative: a longer left tail (crashes).
 * @example skewness([0, 0, 0, 1]) // ≈ 1.155
 */
export function skewness(returns: ArrayLike<number>): number {
  checkReturns(returns, "skewness");
  const { n, m2, m3 } = centralMoments(returns);
  if (n === 0 || m2 === 0) return Number.NaN;
  return m3 / m2 ** 1.5;
}
