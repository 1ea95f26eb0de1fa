import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";
import { quantileBuckets } from "./quantileBuckets.js";
import { checkPair, completePairs } from "./spearmanCorrelation.js";

/** The columns of {@link decileReturns}. */
export type DecileColumns = { bucket: Float64Array; count: Float64Array; minSignal: Float64Array; maxSignal: Float64Array; meanForwardReturn: Float64Array; hitRate: Float64Array };

/**
 * Mean forward return by signal quantile bucket (deciles by default): the
 * bars where both are known are bucketed by the rank of the signal into
 * `buckets` equal-count groups, bucket = floor((rank - 1) * buckets / n) with
 * average ranks, so tied signal values always share a bucket (pandas:
 * `np.floor((s.rank() - 1) * q / len(s))`). Columns: `bucket` (1 = lowest
 * signal), `count`, `minSignal`, `maxSignal`, `meanForwardReturn`,
 * `hitRate` (share of forward returns > 0). Buckets left empty by ties are
 * dropped. A monotone column of means is what a useful signal looks like.
 * @param options.buckets number of buckets, integer >= 2 (default 10)
 * @throws InvalidArgumentError on different lengths, a bad bucket count, or options that are not an object
 * @example decileReturns(replay.composite, fwd["1h"]).columns.meanForwardReturn
 */
export function decileReturns(signal: ArrayLike<number>, forward: ArrayLike<number>, options?: { readonly buckets?: number }): MetricsTable<DecileColumns> {
  checkPair(signal, forward, "decileReturns", ["signal", "forward"]);
  checkOptionsObject(options, "decileReturns", "decileReturns(signal, forward, { buckets: 5 })");
  const buckets = options?.buckets ?? 10;
  if (!Number.isInteger(buckets) || buckets < 2) {
    throw new InvalidArgumentError("buckets", `decileReturns: buckets must be an integer >= 2 (10 for deciles), got ${String(buckets)}`);
  }
  const [s, f] = completePairs(signal, forward);
  const n = s.length;
  const bucketOf = quantileBuckets(s, { buckets });
  const count = new Float64Array(buckets);
  const sum = new Float64Array(buckets);
  const hits = new Float64Array(buckets);
  const lo = new Float64Array(buckets).fill(Infinity);
  const hi = new Float64Array(buckets).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    const b = (bucketOf[i] as number) - 1;
    const v = f[i] as number;
    const x = s[i] as number;
    count[b]! += 1;
    sum[b]! += v;
    if (v > 0) hits[b]! += 1;
    if (x < (lo[b] as number)) lo[b] = x;
    if (x > (hi[b] as number)) hi[b] = x;
  }
  const used: number[] = [];
  for (let b = 0; b < buckets; b++) if ((count[b] as number) > 0) used.push(b);
  return metricsTable({
    bucket: Float64Array.from(used, (b) => b + 1),
    count: Float64Array.from(used, (b) => count[b] as number),
    minSignal: Float64Array.from(used, (b) => lo[b] as number),
    maxSignal: Float64Array.from(used, (b) => hi[b] as number),
    meanForwardReturn: Float64Array.from(used, (b) => (sum[b] as number) / (count[b] as number)),
    hitRate: Float64Array.from(used, (b) => (hits[b] as number) / (count[b] as number)),
  });
}
