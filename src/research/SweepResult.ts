import type { LookaheadReport } from "./checkLookahead.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { withInspect } from "../domain/withInspect.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createManifest, type Manifest } from "../store/createManifest.js";
import { toParquet } from "../store/toParquet.js";
import type { WriteParquetOptions } from "../store/writeParquet.js";
import type { Weights } from "../signals/weights.js";
import { markStrategyParameters } from "../options/strategyParameters.js";
import { BACKTEST_PARAMETERS } from "./strategyVariant.js";
import { sweepFingerprint } from "./sweepFingerprint.js";
import { sweepText } from "./sweepText.js";
import { SWEEP_METRICS, type SweepMetric } from "./sweepMetrics.js";

/** A parameter's value in a sweep's grid: a number, a string, a boolean, or null (the option left unset). */
export type SweepValue = number | string | boolean | null;

/** The variant a sweep ranks first by one metric. */
export interface SweepBest {
  /** Row in the result's columns. */
  readonly index: number;
  /** Variant number in the whole sweep. */
  readonly variant: number;
  /** Its parameters by name (a composite sweep's: `w_<component>` and `threshold`). */
  readonly params: Readonly<Record<string, SweepValue>>;
  /** Its composite weights (a composite sweep's; {} for a sweep of another strategy). */
  readonly weights: Weights;
  /** Its label threshold (a composite sweep's, or a `threshold` parameter's; NaN when there is none). */
  readonly threshold: number;
  /** The metric's value. */
  readonly value: number;
}

/**
 * A sweep's table, one row per variant evaluated, in variant order: sweepComposite's
 * (weight vectors outer, thresholds inner: variant v uses weight vector floor(v / thresholds)
 * and threshold v % thresholds) or sweepStrategy's (the grid's order, first parameter outermost).
 * `console.log(sweep)` prints a short form: variants, parameter columns, the best 5 rows by Sharpe.
 */
export interface SweepResult {
  /** Components weighted, in column order (`w_<component>`); [] for a sweepStrategy result. */
  readonly components: readonly string[];
  /** The parameter columns, between `variant` and the metrics (a composite sweep's: `w_<component>`..., `threshold`). */
  readonly parameters: readonly string[];
  /**
   * The values of each parameter that is not numeric (strings, booleans), in first-seen order:
   * its column holds the value's index in this list. Numeric parameters are not listed (their
   * column holds the value; null, the option left unset, as NaN).
   */
  readonly levels: Readonly<Record<string, readonly SweepValue[]>>;
  /** Where the variants ran: the process's worker pool or the calling thread. */
  readonly runsOn: "workers" | "calling thread";
  /** Why a sweep asked to use workers ran on the calling thread instead (e.g. a strategy function that is not self-contained). */
  readonly runsOnReason?: string;
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
   * the parameters (`parameters`: a composite sweep's `w_<component>` for each component and
   * `threshold`), then the metrics of SWEEP_METRICS (`totalReturn`, `sharpeRatio`,
   * `maxDrawdown`, `trades`, `turnover`, `exposure`).
   */
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** Row i's weight vector ({} for a sweepStrategy result). */
  weightsOf(i: number): Weights;
  /**
   * Row i's parameters by name, decoded (`levels`), as the strategy received them (null: an
   * option the grid left unset). The strategy's own parameters (any name that is not a backtest
   * option) are listed under the STRATEGY_PARAMETERS symbol, so `backtest({ ...data, position,
   * ...params })` accepts the spread: backtest options set, the strategy's names ignored, null unset.
   */
  paramsOf(i: number): Record<string, SweepValue>;
  /**
   * Row i's per-bar returns (NaN at bar 0), exactly `backtest(...).returns` for its parameters:
   * recomputed from the sweep's inputs, so only a result made by sweepComposite or
   * sweepStrategy in this process (or merged from such) has them.
   * @throws InvalidArgumentError for a bad row, or when the result was read back from JSON
   */
  returnsOf(i: number): Float64Array;
  /**
   * The row with the largest value of `metric` (default `sharpeRatio`; NaN rows skipped;
   * the first row wins a tie). Largest is best for every metric but `trades` and `turnover`,
   * where it is only the largest. undefined when no row has a number.
   */
  best(metric?: SweepMetric): SweepBest | undefined;
  /** The table as a danfo DataFrame (columns as `columns`, non-numeric parameters as their values). */
  toDataFrame(): DataFrame;
  /** A plain JSON form (non-finite numbers as the strings "NaN", "Infinity", "-Infinity"), read back by mergeSweeps. */
  toJSON(): SweepJSON;
  /**
   * SHA-256 of everything the variants were computed from (a composite sweep's close, time,
   * funding per bar, component scores, weight grid, thresholds, fees, slippage, periods per year,
   * missing policy, variant count; a strategy sweep's data columns, backtest options, grid and
   * strategy source): the same for every shard of one sweep, another for other data or options.
   * mergeSweeps refuses shards whose fingerprints differ. Carried through JSON.
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
  /** A sweepStrategy result's parameter columns and levels (absent: a composite sweep's, from `components`). */
  readonly parameters?: readonly string[];
  readonly levels?: Readonly<Record<string, readonly SweepValue[]>>;
}

/**
 * What a result made in this process recomputes from: its inputs, for returnsOf, the
 * composite's weight vectors in their own key order, and the manifest. @internal
 */
export interface SweepSource {
  /** Variant v's per-bar returns (`backtest(...).returns`). */
  returns(v: number): Float64Array;
  /** Variant v's weight vector (composite sweeps). */
  weights?(v: number): Weights;
  /** The manifest's options: every input and parameter (arrays are fingerprinted). */
  manifestOptions(): Record<string, unknown>;
  /** The lookahead probe of these rows (a strategy function's sweep; checkLookahead on its data). */
  lookahead?(rows: readonly number[]): LookaheadReport;
}

/** The parts a result is built from. @internal */
export interface SweepParts {
  readonly components: readonly string[];
  /** Parameter columns; default a composite sweep's (`w_<component>`..., `threshold`). */
  readonly parameters?: readonly string[];
  readonly levels?: Readonly<Record<string, readonly SweepValue[]>>;
  readonly total: number;
  readonly aborted: boolean;
  readonly periodsPerYear: number;
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** The inputs; absent when read from JSON. */
  readonly source: SweepSource | undefined;
  /** The fingerprint read from JSON; computed from `source` when absent. */
  readonly fingerprint?: string | undefined;
  readonly runsOn: "workers" | "calling thread";
  readonly runsOnReason?: string;
}

/** A composite sweep's parameter columns. @internal */
export function compositeParameters(components: readonly string[]): string[] {
  return [...components.map((c) => `w_${c}`), "threshold"];
}

/** Field names of a sweep table, in order: `variant`, the parameters, the metrics. @internal */
export function sweepFields(parameters: readonly string[]): string[] {
  return ["variant", ...parameters, ...SWEEP_METRICS];
}

/** The inputs behind each result made in this process (for returnsOf after a merge). */
const SOURCES = new WeakMap<SweepResult, SweepSource>();

/** The inputs a result was computed from, when it was made in this process. @internal */
export function sourceOf(result: SweepResult): SweepSource | undefined {
  return SOURCES.get(result);
}

/** Build a SweepResult from its columns. @internal */
export function createSweepResult(parts: SweepParts): SweepResult {
  const { components, total, aborted, periodsPerYear, columns, source } = parts;
  const parameters = parts.parameters ?? compositeParameters(components);
  const levels = parts.levels ?? {};
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
    // the vector as given (its own key order, which fixes the order of the composite's sum)
    if (source?.weights !== undefined) return source.weights(variant[i] as number);
    const w: Record<string, number> = {};
    for (const c of components) w[c] = (columns[`w_${c}`] as Float64Array)[i] as number;
    return w;
  };
  const strategyOwn = parameters.filter((name) => !(BACKTEST_PARAMETERS as readonly string[]).includes(name));
  const paramsOf = (i: number): Record<string, SweepValue> => {
    row(i, "SweepResult.paramsOf");
    const p: Record<string, SweepValue> = {};
    for (const name of parameters) {
      const x = (columns[name] as Float64Array)[i] as number;
      const lv = levels[name];
      p[name] = lv !== undefined ? (lv[x] as SweepValue) : Number.isNaN(x) ? null : x; // a grid holds no NaN: NaN is null (unset)
    }
    // the strategy's own parameters marked, so a spread of them into backtest's options is accepted (and sets nothing there)
    return markStrategyParameters(p, strategyOwn);
  };
  let manifest: Manifest | undefined;
  let fingerprint = parts.fingerprint;
  const manifestOf = (): Manifest => {
    if (source === undefined) return createManifest({ kind: "sweep", options: { components: [...components], parameters: [...parameters], levels, total, aborted, periodsPerYear }, result: columns });
    return createManifest({ kind: "sweep", options: { ...source.manifestOptions(), total }, result: columns });
  };
  let complete = length === total;
  for (let i = 0; complete && i < length; i++) complete = variant[i] === i;
  const result: SweepResult = {
    components,
    length,
    total,
    complete,
    aborted,
    periodsPerYear,
    parameters,
    levels,
    runsOn: parts.runsOn,
    ...(parts.runsOnReason !== undefined ? { runsOnReason: parts.runsOnReason } : {}),
    columns,
    weightsOf,
    paramsOf,
    returnsOf(i: number): Float64Array {
      row(i, "SweepResult.returnsOf");
      if (source === undefined) {
        throw new InvalidArgumentError(
          "i",
          "SweepResult.returnsOf: this sweep was read back from JSON and has no inputs; run the sweep (sweepComposite or sweepStrategy) on the data (its shard option can restrict it to the variants you need)",
        );
      }
      return source.returns(variant[i] as number);
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
        params: paramsOf(at),
        weights: weightsOf(at),
        threshold: parameters.includes("threshold") && levels["threshold"] === undefined ? ((columns["threshold"] as Float64Array)[at] as number) : Number.NaN,
        value: col[at] as number,
      };
    },
    toDataFrame(): DataFrame {
      const shown: Record<string, Float64Array | string[]> = { ...columns };
      for (const [name, lv] of Object.entries(levels)) shown[name] = Array.from(columns[name] as Float64Array, (x) => String(lv[x]));
      return toDataFrame(shown);
    },
    get manifest(): Manifest {
      return (manifest ??= manifestOf());
    },
    get fingerprint(): string {
      // a result always has a source or a fingerprint read from JSON (createSweepResult's callers)
      return (fingerprint ??= sweepFingerprint({ ...(source as SweepSource).manifestOptions(), total }));
    },
    toParquet(path: string, options?: WriteParquetOptions): Promise<void> {
      return toParquet(result, path, options);
    },
    toJSON(): SweepJSON {
      const out: Record<string, (number | string)[]> = {};
      for (const [name, col] of Object.entries(columns)) out[name] = Array.from(col, (x) => (Number.isFinite(x) ? x : String(x)));
      const strategy = parts.parameters !== undefined ? { parameters: [...parameters], levels } : {};
      return { format: "market-intel-lab/sweep@2", fingerprint: result.fingerprint, components: [...components], total, aborted, periodsPerYear, columns: out, ...strategy };
    },
  };
  if (source !== undefined) SOURCES.set(result, source);
  return withInspect(result, () => sweepText(result));
}
