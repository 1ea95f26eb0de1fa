import { checkPair, completePairs } from "./spearmanCorrelation.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";

/**
 * Hit rate per signal label: for each label present (1 buy, -1 sell, 0
 * neutral, or any codes), over the bars where the forward return is known:
 * `count`, `hitRate` (share of forward returns with the label's sign: > 0 for
 * positive labels, < 0 for negative ones; NaN for label 0, which makes no
 * call), `meanForwardReturn`, `meanSignedReturn` (sign(label) x forward, the
 * average gain of following the label) and `share` of bars.
 * A zero forward return is not a hit. Rows sorted by label.
 * @param label signal label per bar (e.g. `replay.label`)
 * @param forward forward return per bar
 * @throws InvalidArgumentError when the lengths differ
 * @example hitRate(replay.label, fwd["1h"]).columns.hitRate
 */
export function hitRate(label: ArrayLike<number>, forward: ArrayLike<number>): MetricsTable {
  checkPair(label, forward, "hitRate", ["label", "forward"]);
  const [l, f] = completePairs(label, forward);
  const groups = new Map<number, { count: number; hits: number; sum: number }>();
  for (let i = 0; i < l.length; i++) {
    const key = l[i] as number;
    const v = f[i] as number;
    let g = groups.get(key);
    if (!g) {
      g = { count: 0, hits: 0, sum: 0 };
      groups.set(key, g);
    }
    g.count++;
    g.sum += v;
    if ((key > 0 && v > 0) || (key < 0 && v < 0)) g.hits++;
  }
  const keys = [...groups.keys()].sort((a, b) => a - b);
  const total = l.length;
  return metricsTable({
    label: Float64Array.from(keys),
    count: Float64Array.from(keys, (k) => groups.get(k)!.count),
    share: Float64Array.from(keys, (k) => groups.get(k)!.count / total),
    hitRate: Float64Array.from(keys, (k) => (k === 0 ? Number.NaN : groups.get(k)!.hits / groups.get(k)!.count)),
    meanForwardReturn: Float64Array.from(keys, (k) => groups.get(k)!.sum / groups.get(k)!.count),
    meanSignedReturn: Float64Array.from(keys, (k) => (Math.sign(k) * groups.get(k)!.sum) / groups.get(k)!.count),
  });
}
