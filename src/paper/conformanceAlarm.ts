import { inferWeights } from "../signals/inferWeights.js";
import { replayComposite } from "../signals/replayComposite.js";
import { componentMetricIds } from "../signals/componentMetricIds.js";
import type { Weights } from "../signals/weights.js";

/** Options of the conformance alarm (paperTrade's `conformance`). */
export interface PaperConformanceOptions {
  /** Feed column (metric id) holding the composite the service publishes for the coin, one value per bar. */
  readonly compositeMetric: string;
  /** The weights the live composite is replayed with [the strategy's composite weights, or DEFAULT_WEIGHTS]. */
  readonly weights?: Weights;
  /** Bars in a row that must differ before the alarm fires; the new weights are fitted on them [30]. */
  readonly windowBars?: number;
  /** Largest |published - replayed| still conformant (composite units) [1e-9]. */
  readonly tolerance?: number;
}

/** What the alarm found: the bars that stopped conforming, and the weights fitted on them. */
export interface ConformanceLoss {
  /** First bar of the run of differing bars. */
  readonly from: number;
  /** Largest |published - replayed| over the run. */
  readonly residual: number;
  /** The service's new weights, fitted on the run (inferWeights). */
  readonly weights: Readonly<Record<string, number>>;
  /** The fit's largest residual: ~1e-15 when the service's composite is exactly a weighting of the components. */
  readonly fitResidual: number;
}

/**
 * Conformance of the live composite at the last bar of `columns`: the composite replayed from
 * the feed's component values (replayComposite with `weights`) against the one the service
 * publishes (`compositeMetric`). Lost when the last `windowBars` bars all differ by more than
 * `tolerance` (bars without a published value break the run): then the new weights are fitted on
 * those bars (inferWeights, the fit inferWeightsRolling runs per window), so the alarm fires
 * `windowBars` bars after the service changes its weights, and names them. A composite that keeps
 * its weights replays to within rounding (about 1e-16), far under the default tolerance.
 * Cost: O(windowBars) (the composite of a bar reads that bar's components only).
 * @internal
 */
export function conformanceLoss(columns: Readonly<Record<string, Float64Array>>, published: Float64Array, coin: string, weights: Weights, windowBars: number, tolerance: number): ConformanceLoss | undefined {
  const n = published.length;
  if (n < windowBars) return undefined;
  const ids = componentMetricIds(coin);
  // the composite is a function of each bar's components alone: replay the window only
  const recent: Record<string, Float64Array> = {};
  for (const id of Object.values(ids)) {
    const v = columns[id];
    if (v !== undefined) recent[id] = v.subarray(n - windowBars);
  }
  const replay = replayComposite(recent, { weights, columns: ids, allowAnySum: true });
  let residual = 0;
  for (let i = n - windowBars; i < n; i++) {
    const d = Math.abs((published[i] as number) - (replay.composite[i - (n - windowBars)] as number));
    if (!(d > tolerance)) return undefined;
    residual = Math.max(residual, d);
  }
  const recording: Record<string, Float64Array> = { composite_score: published.subarray(n - windowBars) };
  for (const [component, id] of Object.entries(ids)) {
    const v = columns[id];
    if (v !== undefined) recording[component] = v.subarray(n - windowBars);
  }
  const fit = inferWeights(recording, { components: Object.keys(weights) });
  return { from: n - windowBars, residual, weights: fit.weights, fitResidual: fit.maxAbsResidual };
}
