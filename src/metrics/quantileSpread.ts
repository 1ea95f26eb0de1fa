import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { quantileBuckets } from "./quantileBuckets.js";
import { checkPair, completePairs } from "./spearmanCorrelation.js";

/** Top-minus-bottom spread of mean forward returns, with its t-statistic. */
export interface QuantileSpread {
  /** Mean forward return of the top bucket minus that of the bottom bucket (decimal per horizon). */
  readonly spread: number;
  /** spread / standard error; |t| > 2 is about "significant at 5 %". */
  readonly tStat: number;
  /** Standard error of the spread (Welch, overlap-corrected). */
  readonly standardError: number;
  readonly topMean: number;
  readonly bottomMean: number;
  /** Bars in the top and bottom buckets. */
  readonly nTop: number;
  readonly nBottom: number;
}

/**
 * Spread between the mean forward return of the highest and the lowest signal
 * bucket (buckets of `quantileBuckets` over the bars where both are known, as
 * in `decileReturns`), with Welch's t-statistic
 * `t = spread / sqrt(h · (s²_top / n_top + s²_bottom / n_bottom))` (sample
 * variances, ddof 1). Forward returns over h bars overlap, so each bucket's
 * n carries about n / h independent observations: the variance is scaled by
 * `horizon` (as the IC's effective n). NaN where a bucket has fewer than 2 bars.
 * Reference: alphalens `mean_return_spread_by_quantile` (its std error uses
 * the same sum of squared errors); Welch (1947).
 * @param options.buckets number of buckets (default 10)
 * @param options.horizon bars spanned by each forward return (default 1)
 * @throws InvalidArgumentError on different lengths, a bad bucket count or horizon
 * @example quantileSpread(replay.composite, fwd["1 bar"], { buckets: 5 }).tStat
 */
export function quantileSpread(
  signal: ArrayLike<number>,
  forward: ArrayLike<number>,
  options: { readonly buckets?: number; readonly horizon?: number } = {},
): QuantileSpread {
  checkPair(signal, forward, "quantileSpread", ["signal", "forward"]);
  const buckets = options?.buckets ?? 10;
  const horizon = options?.horizon ?? 1;
  if (!Number.isInteger(horizon) || horizon < 1) {
    throw new InvalidArgumentError("horizon", `quantileSpread: horizon must be a positive integer (bars per forward return), got ${String(horizon)}`);
  }
  const [s, f] = completePairs(signal, forward);
  const b = quantileBuckets(s, { buckets });
  let top = 0;
  for (let i = 0; i < b.length; i++) if ((b[i] as number) > top) top = b[i] as number;
  const moments = (bucket: number): [number, number, number] => {
    let n = 0;
    let sum = 0;
    for (let i = 0; i < b.length; i++) if (b[i] === bucket) (n++, (sum += f[i] as number));
    const mean = n > 0 ? sum / n : Number.NaN;
    let ss = 0;
    for (let i = 0; i < b.length; i++) if (b[i] === bucket) ss += ((f[i] as number) - mean) ** 2;
    return [n, mean, n > 1 ? ss / (n - 1) : Number.NaN];
  };
  const [nTop, topMean, varTop] = moments(top);
  const [nBottom, bottomMean, varBottom] = moments(1);
  const spread = topMean - bottomMean;
  const standardError = Math.sqrt(horizon * (varTop / nTop + varBottom / nBottom));
  const tStat = standardError > 0 ? spread / standardError : Number.NaN;
  return { spread, tStat, standardError, topMean, bottomMean, nTop, nBottom };
}
