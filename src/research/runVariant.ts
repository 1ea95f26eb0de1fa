import { backtest } from "../backtest/backtest.js";
import type { BacktestResult } from "../backtest/BacktestResult.js";
import { replayComposite, type CompositeReplay } from "../signals/replayComposite.js";
import type { SweepPlan } from "./SweepPlan.js";

/** The plan's score columns keyed by component name (the arrays themselves, not copies). @internal */
export function scoreColumns(plan: SweepPlan): Record<string, Float64Array> {
  const out: Record<string, Float64Array> = {};
  plan.components.forEach((c, j) => (out[c] = plan.scores[j] as Float64Array));
  return out;
}

/**
 * Variant v's composite replay: weight vector floor(v / thresholds) (its own key order,
 * which fixes the order of the composite's sum) over the scored components, labelled at
 * threshold v % thresholds, by the library's rule (`replayComposite` with `from: "scores"`,
 * the plan's missing-score policy). Nothing is computed until asked: as a backtest's
 * `signal`, its labels stream block by block.
 * @internal
 */
export function variantReplay(plan: SweepPlan, v: number, scores: Record<string, Float64Array> = scoreColumns(plan)): CompositeReplay {
  const k = plan.components.length;
  const nt = plan.thresholds.length;
  const wv = Math.floor(v / nt);
  const weights: Record<string, number> = {};
  for (let j = 0; j < k; j++) {
    const c = plan.order[wv * k + j] as number;
    if (c < 0) break;
    weights[plan.components[c] as string] = plan.weight[wv * k + j] as number;
  }
  return replayComposite(scores, { weights, allowAnySum: true, from: "scores", threshold: plan.thresholds[v - wv * nt] as number, missing: plan.missing });
}

/**
 * Variant v backtested by the library's `backtest` in the default mode (fills at the close,
 * fractional units, fees and slippage on |Δposition|, funding on the position): its signal
 * is the variant's replay (buy +1, sell -1, neutral per `plan.neutral`). What `returnsOf`
 * gives; the sweep's own pass (evaluateVariants) runs the same engine keeping only its
 * accumulators.
 * @internal
 */
export function runVariant(plan: SweepPlan, v: number): BacktestResult {
  return backtest({
    close: plan.close,
    ...(plan.time !== undefined ? { time: plan.time } : {}),
    ...(plan.barFunding !== undefined ? { funding: plan.barFunding } : {}),
    signal: variantReplay(plan, v),
    neutral: plan.neutral,
    initialCash: plan.initialCash,
    feeBps: plan.feeBps,
    slippageBps: plan.slippageBps,
  });
}
