import { runPass } from "../backtest/backtest.js";
import { inlineExpression, kernelCoin, KernelState, NO_SERIES, runVariants, type KernelSeries, type KernelSettings, type VariantSignalSource } from "../backtest/kernel/index.js";
import { cappedTarget, carriedTarget, resolveTargets, signalSide, type TargetRule } from "../backtest/targetPositions.js";
import { labelCode } from "../signals/classifySignal.js";
import { policyCode } from "../signals/compositeScore.js";
import { compositeRowAt, fusedModel, weightedSumSource } from "../signals/fuseComposite.js";
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
 * One pass of the backtest engine for variant v in the default mode (fills at the close,
 * fractional units, fees and slippage on |Δposition|, funding on the position): the
 * backtest's `runPass`, block by block, with the variant's replay as its signal (buy +1,
 * sell -1, neutral per `plan.neutral`), writing only the series in `series` (NO_SERIES:
 * none). Returns the kernel's final state, whose accumulators give the sweep's metrics.
 * @internal
 */
export function variantPass(plan: SweepPlan, v: number, scores: Record<string, Float64Array>, series: KernelSeries): KernelState {
  const rule = resolveTargets({ signal: variantReplay(plan, v, scores), neutral: plan.neutral }, plan.n, "sweepComposite");
  return runPass(rule, kernelCoin({ close: plan.close, funding: plan.barFunding }), variantSettings(plan), 0, series, undefined, undefined).state;
}

/** The kernel settings of every variant of a plan: the backtest's default mode. */
function variantSettings(plan: SweepPlan): KernelSettings {
  return { n: plan.n, initialCash: plan.initialCash, costBps: plan.feeBps + plan.slippageBps, nextOpen: false, whole: false, everyBar: true };
}

/** Most variants one pass runs (their accounts in local variables: a larger generated function falls out of V8's optimisation). */
export const VARIANTS_PER_PASS = 4;

/**
 * Variants lo..hi-1 (at most VARIANTS_PER_PASS) in one pass over the bars, their states in
 * variant order: the numbers variantPass gives each alone, bit for bit. The loop is generated
 * (the kernel's runVariants) for the pass's shape: per bar, each score column is read once,
 * each weight vector's composite summed once (weightedSumSource, its key order; a row with a
 * score missing by the row rule, compositeRowAt, under the plan's policy), then for each
 * variant its label at its threshold (labelCode), the target rule's steps (signalSide,
 * cappedTarget, carriedTarget, resolved once by resolveTargets as variantPass does) and the
 * kernel's one-coin bar, every account in local variables.
 * @internal
 */
export function variantsPass(plan: SweepPlan, lo: number, hi: number): KernelState[] {
  const n = plan.n;
  const k = plan.components.length;
  const nt = plan.thresholds.length;
  const settings = variantSettings(plan);
  const sts = Array.from({ length: hi - lo }, () => new KernelState(1, settings, undefined));
  if (n === 0) return sts;
  const rule = resolveTargets({ signal: { length: n, signalInto: () => undefined }, neutral: plan.neutral }, n, "sweepComposite");
  // The weight vectors of the pass, each once; the vector of each variant.
  const vectors: number[] = [];
  const vectorOf = (v: number): number => {
    const wv = Math.floor(v / nt);
    const g = vectors.indexOf(wv);
    return g >= 0 ? g : vectors.push(wv) - 1;
  };
  const of = Array.from({ length: hi - lo }, (_, s) => vectorOf(lo + s));
  const orders = vectors.map((wv) => {
    const order: number[] = [];
    for (let j = 0; j < k && (plan.order[wv * k + j] as number) >= 0; j++) order.push(plan.order[wv * k + j] as number);
    return order;
  });
  const W = new Float64Array(vectors.length * k);
  const rows = vectors.map((wv, g) => {
    const order = orders[g] as number[];
    const ws = new Float64Array(order.length);
    let total = 0;
    order.forEach((_, j) => {
      ws[j] = W[g * k + j] = plan.weight[wv * k + j] as number;
      total += ws[j] as number;
    });
    const m = fusedModel(order.map((c) => plan.scores[c] as Float64Array), order.map(() => null), ws, total, policyCode(plan.missing), 1);
    return (i: number): number => compositeRowAt(m, i);
  });
  const params = {
    scores: plan.scores,
    W,
    rows,
    thresholds: Float64Array.from(of, (_, s) => plan.thresholds[(lo + s) % nt] as number),
    sig: new Float64Array(2 * (hi - lo)),
  };
  const signal = variantSignal(k, orders, of, rule);
  runVariants(sts, kernelCoin({ close: plan.close, funding: plan.barFunding }), signal, params, 0, n);
  return sts;
}

/**
 * The source of a pass's signal (VariantSignalSource): the composite of each weight vector g
 * (`orders[g]`: its components' score columns in its key order) and, for each variant s of
 * vector `of[s]`, its held side and its target (carried over a bar without a price).
 */
function variantSignal(k: number, orders: readonly (readonly number[])[], of: readonly number[], rule: TargetRule): VariantSignalSource & { key: string } {
  const accounts = of.length;
  const range = (m: number): number[] => Array.from({ length: m }, (_, x) => x);
  const prologue = `
    ${range(k).map((c) => `const sc${c} = P.scores[${c}];`).join(" ")}
    ${orders.map((o, g) => `const row${g} = P.rows[${g}]; ${o.map((_, j) => `const W${g}_${j} = P.W[${g * k + j}];`).join(" ")}`).join("\n")}
    ${range(accounts).map((s) => `const thr${s} = P.thresholds[${s}]; let side${s} = P.sig[${2 * s}], target${s} = P.sig[${2 * s + 1}];`).join("\n")}`;
  const bar = `
    ${range(k).map((c) => `const x${c} = sc${c}[i];`).join(" ")}
    ${orders.map((o, g) => `let cmp${g} = ${weightedSumSource("0", o.map((c, j) => [`W${g}_${j}`, `x${c}`] as const))}; if (cmp${g} !== cmp${g}) cmp${g} = row${g}(i);`).join("\n")}
    const price = close0[i];
    ${range(accounts)
      .map(
        (s) =>
          `{ const label = ${inlineExpression(labelCode, [`cmp${of[s]}`, `thr${s}`])}; ` +
          `side${s} = ${inlineExpression(signalSide, ["label", `side${s}`, `${rule.shorts}`, `${rule.holdOnNeutral}`])}; ` +
          `const w = side${s} * ${rule.size}; const capped = ${inlineExpression(cappedTarget, ["w", `${rule.maxLeverage}`])}; ` +
          `target${s} = ${inlineExpression(carriedTarget, ["capped", "price", "i", `target${s}`])}; }`,
      )
      .join("\n")}`;
  const epilogue = range(accounts).map((s) => `P.sig[${2 * s}] = side${s}; P.sig[${2 * s + 1}] = target${s};`).join(" ");
  const key = `${k}|${orders.map((o) => o.join(",")).join(";")}|${of.join(",")}|${rule.shorts}|${rule.holdOnNeutral}|${rule.size}|${rule.maxLeverage}`;
  return { key, prologue, bar, epilogue, target: (s) => `target${s}` };
}

/**
 * Variant v's per-bar returns (NaN at bar 0), what `backtest(...).returns` gives for its
 * weights and threshold: one engine pass writing the returns only.
 * @internal
 */
export function variantReturns(plan: SweepPlan, v: number): Float64Array {
  const returns = new Float64Array(plan.n);
  variantPass(plan, v, scoreColumns(plan), { ...NO_SERIES, returns });
  return returns;
}
