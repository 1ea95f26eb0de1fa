import { runPass } from "../backtest/backtest.js";
import { compositeTargets } from "../backtest/compositeTargets.js";
import { kernelCoin, KernelState, NO_SERIES, runVariants, type KernelSeries, type KernelSettings } from "../backtest/kernel/index.js";
import { PRIMING, PRIMING_RUNS } from "../backtest/kernel/primingBars.js";
import { resolveTargets } from "../backtest/targetPositions.js";
import { policyCode } from "../signals/compositeScore.js";
import { replayComposite, type CompositeReplay } from "../signals/replayComposite.js";
import type { Weights } from "../signals/weights.js";
import type { SweepPlan } from "./SweepPlan.js";
import type { SweepSource } from "./SweepResult.js";

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
  const nt = plan.thresholds.length;
  const wv = Math.floor(v / nt);
  return replayComposite(scores, { weights: variantWeights(plan, v), allowAnySum: true, from: "scores", threshold: plan.thresholds[v - wv * nt] as number, missing: plan.missing });
}

/** Variant v's weight vector, in its own key order (which fixes the order of the composite's sum). @internal */
export function variantWeights(plan: SweepPlan, v: number): Weights {
  const k = plan.components.length;
  const wv = Math.floor(v / plan.thresholds.length);
  const weights: Record<string, number> = {};
  for (let j = 0; j < k; j++) {
    const c = plan.order[wv * k + j] as number;
    if (c < 0) break;
    weights[plan.components[c] as string] = plan.weight[wv * k + j] as number;
  }
  return weights;
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
 * each weight vector's composite summed once, then each variant's label and target rule
 * (compositeTargets; the rule resolved once by resolveTargets, as variantPass does) and the
 * kernel's one-coin bar, every account in local variables.
 * @internal
 */
export function variantsPass(plan: SweepPlan, lo: number, hi: number, prime = true): KernelState[] {
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
  // Where each column (a view of the plan's packed buffer) starts in it.
  const packedAt = (col: Float64Array): number => (col.byteOffset - plan.packed.byteOffset) / 8;
  const { signal, params } = compositeTargets({
    cols: plan.scores,
    fns: plan.scores.map(() => null),
    vectors: vectors.map((wv, g) => ({ order: orders[g] as number[], weights: (orders[g] as number[]).map((_, j) => plan.weight[wv * k + j] as number) })),
    policy: policyCode(plan.missing),
    of,
    thresholds: of.map((_, s) => plan.thresholds[(lo + s) % nt] as number),
    rule,
    packed: { values: plan.packed, offsets: plan.scores.map(packedAt), close: packedAt(plan.close), funding: plan.barFunding === undefined ? undefined : packedAt(plan.barFunding) },
  });
  // A loop met for the first time in this thread first runs over PRIMING's few synthetic bars
  // (kernel/primingBars.ts; primingPlan: scratch states, results thrown away), so that V8 has seen
  // every common branch of every account before it optimises the loop.
  const primed = `${hi - lo}|${signal.key}`;
  if (prime && !PRIMED.has(primed)) {
    PRIMED.add(primed);
    const priming = primingPlan(plan);
    for (let r = 0; r < PRIMING_RUNS; r++) variantsPass(priming, lo, hi, false);
  }
  runVariants(sts, kernelCoin({ close: plan.close, funding: plan.barFunding }), signal, params, 0, n);
  return sts;
}

/** The generated loops this thread has primed, by variant count and signal key (with the shape, the loop's key in runVariants). */
const PRIMED = new Set<string>();

/**
 * A plan of the same structure as `plan` (components, weight vectors, thresholds count, costs,
 * funding column or not: the same generated loop) over the PRIMING bars (every score the bar's
 * value), with thresholds 0. Primed, the pass's loop is compiled once from complete feedback and not
 * deoptimised (issue 20's slow mode, see kernel/primingBars.ts): the first sweep also costs ~0.25 s
 * less CPU (no recompiles).
 */
function primingPlan(plan: SweepPlan): SweepPlan {
  const m = PRIMING.length;
  const k = plan.scores.length;
  const first = plan.barFunding === undefined ? 1 : 2;
  const packed = new Float64Array(new SharedArrayBuffer(8 * m * (first + k)));
  const view = (c: number): Float64Array => packed.subarray(c * m, (c + 1) * m);
  const close = view(0);
  const barFunding = plan.barFunding === undefined ? undefined : view(1);
  const scores = Array.from({ length: k }, (_, j) => view(first + j));
  PRIMING.forEach(([x, c], i) => {
    close[i] = c;
    if (barFunding !== undefined) barFunding[i] = 1e-5;
    for (const col of scores) col[i] = x;
  });
  return { ...plan, n: m, packed, close, barFunding, scores, time: undefined, thresholds: new Float64Array(plan.thresholds.length) };
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

/**
 * What a composite sweep's result recomputes from: its plan (returns, weight vectors in their
 * own key order, the manifest's inputs).
 * @internal
 */
export function compositeSource(plan: SweepPlan): SweepSource {
  return {
    returns: (v) => variantReturns(plan, v),
    weights: (v) => variantWeights(plan, v),
    manifestOptions: () => {
      const scores: Record<string, Float64Array> = {};
      plan.components.forEach((c, j) => (scores[c] = plan.scores[j] as Float64Array));
      return {
        ...(plan.time !== undefined ? { time: plan.time } : {}),
        close: plan.close,
        ...(plan.barFunding !== undefined ? { fundingPerBar: plan.barFunding } : {}),
        scores,
        weightVectors: { order: plan.order, weight: plan.weight },
        thresholds: plan.thresholds,
        missing: plan.missing,
        neutral: plan.neutral,
        initialCash: plan.initialCash,
        feeBps: plan.feeBps,
        slippageBps: plan.slippageBps,
        periodsPerYear: plan.periodsPerYear,
      };
    },
  };
}
