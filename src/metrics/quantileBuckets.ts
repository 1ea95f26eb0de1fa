import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { averageRanks, completePairs } from "./spearmanCorrelation.js";

/**
 * Equal-count quantile bucket of each value, 1 (lowest) .. `buckets`:
 * `floor((rank - 1) * buckets / n) + 1` with average ranks over the non-NaN
 * values, so tied values always share a bucket (pandas:
 * `np.floor((s.rank() - 1) * q / s.count()) + 1`). NaN where the value is NaN.
 * The one bucketing rule of `decileReturns` and the signal tearsheet.
 * Note: ranks use the whole sample (an evaluation, not a tradeable rule).
 * @param options.buckets number of buckets, integer >= 2 (default 10)
 * @throws InvalidArgumentError on a bad bucket count or a non-array input
 * @example quantileBuckets([3, 1, 2, 4], { buckets: 2 }) // Float64Array [2, 1, 1, 2]
 */
export function quantileBuckets(values: ArrayLike<number>, options: { readonly buckets?: number } = {}): Float64Array {
  if (values === null || typeof values !== "object" || typeof values.length !== "number") {
    throw new InvalidArgumentError("values", `quantileBuckets: values must be an array or Float64Array of numbers, got ${String(values)}`);
  }
  const buckets = options?.buckets ?? 10;
  if (!Number.isInteger(buckets) || buckets < 2) {
    throw new InvalidArgumentError("buckets", `quantileBuckets: buckets must be an integer >= 2 (10 for deciles), got ${String(buckets)}`);
  }
  const [x] = completePairs(values, values);
  const ranks = averageRanks(x);
  const n = x.length;
  const out = new Float64Array(values.length).fill(Number.NaN);
  for (let i = 0, k = 0; i < values.length; i++) {
    if (Number.isNaN(values[i] as number)) continue;
    out[i] = Math.min(buckets - 1, Math.floor((((ranks[k++] as number) - 1) * buckets) / n)) + 1;
  }
  return out;
}
