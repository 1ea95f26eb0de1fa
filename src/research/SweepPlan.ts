import type { MissingPolicy } from "../signals/compositeScore.js";

/**
 * Everything a sweep's variants are evaluated from, in memory a worker thread can
 * share: the bar columns and the component scores (scored once) in one buffer, the
 * weight vectors and thresholds in another, and the execution settings as numbers.
 * Posting a plan to a worker copies nothing but the settings (typed arrays over a
 * SharedArrayBuffer are shared by structured clone).
 * @internal
 */
export interface SweepPlan {
  /** Bars. */
  readonly n: number;
  /** Components scored, in first-seen order over the weight vectors; `scores` holds them in this order. */
  readonly components: readonly string[];
  /**
   * The bar columns and the scores in one buffer (shared memory), n values each: the close, the
   * funding (when there is a funding column), then the scores in component order. `close`,
   * `barFunding` and `scores` are views of it. (The sweep's generated loop reads every column of a
   * bar from this one array: one array's checks instead of one per column.)
   */
  readonly packed: Float64Array;
  readonly close: Float64Array;
  /** Funding charged per bar (the backtest's `funding`), or undefined. */
  readonly barFunding: Float64Array | undefined;
  /** Bar times, epoch ms, or undefined. */
  readonly time: Float64Array | undefined;
  /** One score column per component, each of length n (views of `packed`). */
  readonly scores: readonly Float64Array[];
  /** Weight vectors: vector v uses components `order[v*k + j]` (j in its own key order; -1 ends it) with weights `weight[v*k + j]`. */
  readonly vectors: number;
  readonly order: Int32Array;
  readonly weight: Float64Array;
  readonly thresholds: Float64Array;
  /** Missing-score policy of the composite (replayComposite's `missing`). */
  readonly missing: MissingPolicy;
  readonly neutral: "flat" | "hold";
  readonly initialCash: number;
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly periodsPerYear: number;
}

/** Number of variants of a plan: vectors x thresholds (weights outer, thresholds inner). @internal */
export function variantCount(plan: Pick<SweepPlan, "vectors" | "thresholds">): number {
  return plan.vectors * plan.thresholds.length;
}

/** A typed array in a SharedArrayBuffer, for worker threads: `src` itself when it is in one, else a copy. @internal */
export function sharedCopy<T extends Float64Array | Int32Array>(src: T): T {
  if (src.buffer instanceof SharedArrayBuffer) return src;
  const Ctor = src.constructor as new (buffer: SharedArrayBuffer) => T;
  const out = new Ctor(new SharedArrayBuffer(src.byteLength));
  out.set(src);
  return out;
}
