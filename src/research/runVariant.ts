import { backtest } from "../backtest/backtest.js";
import type { BacktestResult } from "../backtest/BacktestResult.js";
import { fuseComposite } from "../signals/fuseComposite.js";
import type { SweepPlan } from "./SweepPlan.js";

/** Reusable per-thread buffers of a variant's composite and label (n each). @internal */
export interface VariantScratch {
  readonly composite: Float64Array;
  readonly label: Int8Array;
}

/** Buffers for {@link variantLabels}. @internal */
export function variantScratch(n: number): VariantScratch {
  return { composite: new Float64Array(n), label: new Int8Array(n) };
}

/**
 * Variant v's composite and label at every bar, written into `scratch`: the weight
 * vector v / thresholds.length applied to the scores by the library's composite rule
 * (fuseComposite over score columns, sums in the vector's key order, the missing-score
 * policy) and labelled with threshold v % thresholds.length. The same numbers as
 * `replayComposite(scores, { weights, threshold, from: "scores" })`.
 * @internal
 */
export function variantLabels(plan: SweepPlan, v: number, scratch: VariantScratch): VariantScratch {
  const k = plan.components.length;
  const nt = plan.thresholds.length;
  const wv = Math.floor(v / nt);
  const threshold = plan.thresholds[v - wv * nt] as number;
  const cols: Float64Array[] = [];
  const ws: number[] = [];
  let total = 0;
  for (let j = 0; j < k; j++) {
    const c = plan.order[wv * k + j] as number;
    if (c < 0) break;
    const w = plan.weight[wv * k + j] as number;
    cols.push(plan.scores[c] as Float64Array);
    ws.push(w);
    total += w;
  }
  const kinds = new Int32Array(cols.length).fill(6);
  scratch.composite.fill(0);
  fuseComposite(
    { n: plan.n, kinds, cols, fns: [], outs: cols, weights: Float64Array.from(ws), policy: plan.policy, total, threshold },
    scratch.composite,
    scratch.label,
  );
  return scratch;
}

/**
 * Variant v backtested by the library's `backtest` (default mode: fills at the close,
 * fractional units, fees and slippage on |Δposition|): its positions are the label by
 * the signal rule (buy +1, sell -1, neutral per `plan.neutral`).
 * @internal
 */
export function runVariant(plan: SweepPlan, v: number, scratch: VariantScratch = variantScratch(plan.n)): BacktestResult {
  const { label } = variantLabels(plan, v, scratch);
  return backtest({
    close: plan.close,
    ...(plan.time !== undefined ? { time: plan.time } : {}),
    ...(plan.barFunding !== undefined ? { funding: plan.barFunding } : {}),
    signal: label,
    neutral: plan.neutral,
    initialCash: plan.initialCash,
    feeBps: plan.feeBps,
    slippageBps: plan.slippageBps,
  });
}
