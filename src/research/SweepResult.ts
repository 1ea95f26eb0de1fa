import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createManifest, type Manifest } from "../store/createManifest.js";
import { toParquet } from "../store/toParquet.js";
import type { WriteParquetOptions } from "../store/writeParquet.js";
import type { Weights } from "../signals/weights.js";
import { variantReturns } from "./variantPass.js";
import type { SweepPlan } from "./SweepPlan.js";
import { sweepFingerprint } from "./sweepFingerprint.js";
import { SWEEP_METRICS, type SweepMetric } from "./sweepMetrics.js";

/** The variant a sweep ranks first by one metric. */
export interface SweepBest {
  /** Row in the result's columns. */
  readonly index: number;
  /** Variant number in the whole sweep (weights outer x thresholds inner). */
  readonly variant: number;
  readonly weights: Weights;
  readonly threshold: number;
  /** The metric's value. */
  readonly value: number;
}

/**
 * A sweep's table, one row per variant evaluated, in variant order (weight vectors
 * outer, thresholds inner). Variant v uses weight vector floor(v / thresholds) and
 * threshold v % thresholds.
 */
export interface SweepResult {
  /** Components weighted, in column order (`w_<component>`). */
  readonly components: readonly string[];
  /** Rows (variants evaluated): all of them, or a shard's, or those finished before a stop. */
  readonly length: number;
  /** Variants in the whole sweep, every shard included. */
  readonly total: number;
  /** True when every variant 0..total-1 is here. */
  readonly complete: boolean;
  /** True when the sweep's `signal` stopped it before every variant of its share finished. */
  readonly aborted: boolean;
  /** Bars per year the Sharpe ratios are annualised with (per-period Sharpe = sharpeRatio / sqrt(periodsPerYear)). */
  readonly periodsPerYear: number;
  /**
   * One Float64Array per field, one entry per row: `variant` (number in the whole sweep),
   * `w_<component>` for each component, `threshold`, then the metrics of SWEEP_METRICS
   * (`totalReturn`, `sharpeRatio`, `maxDrawdown`, `trades`, `turnover`, `exposure`).
   */
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** Row i's weight vector. */
  weightsOf(i: number): Weights;
  /**
   * Row i's per-bar returns (NaN at bar 0), exactly `backtest(...).returns` for its weights
   * and threshold: recomputed from the sweep's inputs, so only a result made by
   * sweepComposite in this process (or merged from such) has them.
   * @throws InvalidArgumentError for a bad row, or when the result was read back from JSON
   */
  returnsOf(i: number): Float64Array;
  /**
   * The row with the largest value of `metric` (default `sharpeRatio`; NaN rows skipped;
   * the first row wins a tie). Largest is best for every metric but `trades` and `turnover`,
   * where it is only the largest. undefined when no row has a number.
   */
  best(metric?: SweepMetric): SweepBest | undefined;
  /** The table as a danfo DataFrame (columns as `columns`). */
  toDataFrame(): DataFrame;
  /** A plain JSON form (non-finite numbers as the strings "NaN", "Infinity", "-Infinity"), read back by mergeSweeps. */
  toJSON(): SweepJSON;
  /**
   * SHA-256 of everything the variants were computed from (close, time, funding per bar, the
   * component scores, the weight grid, the thresholds, fees, slippage, periods per year, missing
   * policy, variant count): the same for every shard of one sweep, another for other data or
   * options. mergeSweeps refuses shards whose fingerprints differ. Carried through JSON.
   */
  readonly fingerprint: string;
  /** Write the table (`columns`) to a Parquet file, atomically (see writeParquet). */
  toParquet(path: string, options?: WriteParquetOptions): Promise<void>;
  /**
   * What produced this table (package version, git commit, every parameter, SHA-256 of the
   * inputs — time, close, funding per bar and each scored component — and of every result
   * column, time range, created-at). A result read back from JSON or merged from such has no
   * inputs to hash: its manifest fingerprints the table only. Built on first access.
   */
  readonly manifest: Manifest;
}

/** The JSON form of a {@link SweepResult}: what a shard writes for mergeSweeps. */
export interface SweepJSON {
  readonly format: "market-intel-lab/sweep@2";
  /** {@link SweepResult.fingerprint}. */
  readonly fingerprint: string;
  readonly components: readonly string[];
  readonly total: number;
  readonly aborted: boolean;
  readonly periodsPerYear: number;
  readonly columns: Readonly<Record<string, readonly (number | string)[]>>;
}

/** The parts a result is built from. @internal */
export interface SweepParts {
  readonly components: readonly string[];
  readonly total: number;
  readonly aborted: boolean;
  readonly periodsPerYear: number;
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** The inputs, for returnsOf and the vectors' own key order; absent when read from JSON. */
  readonly plan: SweepPlan | undefined;
  /** The fingerprint read from JSON; computed from `plan` when absent. */
  readonly fingerprint?: string | undefined;
}

/** Field names of a sweep table, in order. @internal */
export function sweepFields(components: readonly string[]): string[] {
  return ["variant", ...components.map((c) => `w_${c}`), "threshold", ...SWEEP_METRICS];
}

/** The inputs behind each result made in this process (for returnsOf after a merge). */
const PLANS = new WeakMap<SweepResult, SweepPlan>();

/** The inputs a result was computed from, when it was made in this process. @internal */
export function planOf(result: SweepResult): SweepPlan | undefined {
  return PLANS.get(result);
}

/** Build a SweepResult from its columns. @internal */
export function createSweepResult(parts: SweepParts): SweepResult {
  const { components, total, aborted, periodsPerYear, columns, plan } = parts;
  const variant = columns["variant"] as Float64Array;
  const length = variant.length;
  const row = (i: number, where: string): number => {
    if (!Number.isInteger(i) || i < 0 || i >= length) {
      throw new InvalidArgumentError("i", `${where}: i must be a row 0..${length - 1} of the sweep, got ${String(i)}`);
    }
    return i;
  };
  const weightsOf = (i: number): Weights => {
    row(i, "SweepResult.weightsOf");
    const w: Record<string, number> = {};
    if (plan !== undefined) {
      // the vector as given (its own key order, which fixes the order of the composite's sum)
      const k = plan.components.length;
      const wv = Math.floor((variant[i] as number) / plan.thresholds.length);
      for (let j = 0; j < k; j++) {
        const c = plan.order[wv * k + j] as number;
        if (c < 0) break;
        w[plan.components[c] as string] = plan.weight[wv * k + j] as number;
      }
      return w;
    }
    for (const c of components) w[c] = (columns[`w_${c}`] as Float64Array)[i] as number;
    return w;
  };
  let manifest: Manifest | undefined;
  let fingerprint = parts.fingerprint;
  /** What the variants are computed from, as the manifest records it and the fingerprint hashes it. */
  const inputsOf = (plan: SweepPlan): Record<string, unknown> => {
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
      total,
    };
  };
  const manifestOf = (): Manifest =>
    createManifest({ kind: "sweep", options: plan === undefined ? { components: [...components], total, aborted, periodsPerYear } : inputsOf(plan), result: columns });
  let complete = length === total;
  for (let i = 0; complete && i < length; i++) complete = variant[i] === i;
  const result: SweepResult = {
    components,
    length,
    total,
    complete,
    aborted,
    periodsPerYear,
    columns,
    weightsOf,
    returnsOf(i: number): Float64Array {
      row(i, "SweepResult.returnsOf");
      if (plan === undefined) {
        throw new InvalidArgumentError(
          "i",
          "SweepResult.returnsOf: this sweep was read back from JSON and has no inputs; run sweepComposite on the data (its shard option can restrict it to the variants you need)",
        );
      }
      return variantReturns(plan, variant[i] as number);
    },
    best(metric: SweepMetric = "sharpeRatio"): SweepBest | undefined {
      if (!SWEEP_METRICS.includes(metric)) {
        throw new InvalidArgumentError("metric", `SweepResult.best: metric must be one of ${SWEEP_METRICS.join(", ")}, got ${String(metric)}`);
      }
      const col = columns[metric] as Float64Array;
      let at = -1;
      for (let i = 0; i < length; i++) {
        const x = col[i] as number;
        if (x === x && (at < 0 || x > (col[at] as number))) at = i;
      }
      if (at < 0) return undefined;
      return {
        index: at,
        variant: variant[at] as number,
        weights: weightsOf(at),
        threshold: (columns["threshold"] as Float64Array)[at] as number,
        value: col[at] as number,
      };
    },
    toDataFrame(): DataFrame {
      return toDataFrame(columns);
    },
    get manifest(): Manifest {
      return (manifest ??= manifestOf());
    },
    get fingerprint(): string {
      // a result always has a plan or a fingerprint read from JSON (createSweepResult's callers)
      return (fingerprint ??= sweepFingerprint(inputsOf(plan as SweepPlan)));
    },
    toParquet(path: string, options?: WriteParquetOptions): Promise<void> {
      return toParquet(result, path, options);
    },
    toJSON(): SweepJSON {
      const out: Record<string, (number | string)[]> = {};
      for (const [name, col] of Object.entries(columns)) out[name] = Array.from(col, (x) => (Number.isFinite(x) ? x : String(x)));
      return { format: "market-intel-lab/sweep@2", fingerprint: result.fingerprint, components: [...components], total, aborted, periodsPerYear, columns: out };
    },
  };
  if (plan !== undefined) PLANS.set(result, plan);
  return result;
}
