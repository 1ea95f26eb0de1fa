import { checkExecution, checkPrices, resolveExecution } from "../backtest/execution.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkOptions, type OptionsCheck } from "../options/checkOptions.js";
import { SWEEP_COMPOSITE_OPTION_SPECS } from "./sweepOptionSpecs.js";
import { inferPeriodsPerYear } from "../metrics/inferPeriodsPerYear.js";
import { periodsPerYearOf } from "../metrics/ReturnsOptions.js";
import { validateThresholds } from "../signals/classifySignal.js";
import { MISSING_POLICIES, type MissingPolicy } from "../signals/compositeScore.js";
import { readColumns, toFloat64, type ColumnInput } from "../signals/readColumns.js";
import { scoreColumns } from "../signals/fuseComposite.js";
import { replayComposite, replayModel, type ReplayModel } from "../signals/replayComposite.js";
import type { Scorer } from "../signals/scorers.js";
import { validateWeights, type Weights } from "../signals/weights.js";
import { evaluateVariants } from "./evaluateVariants.js";
import { shardRange, type Shard } from "./shardRange.js";
import { sharedCopy, type SweepPlan } from "./SweepPlan.js";
import { SWEEP_METRICS } from "./sweepMetrics.js";
import { compositeParameters, createSweepResult, type SweepResult } from "./SweepResult.js";
import { checkSweepControls, runSweepBlocks, sweepColumns } from "./runSweepBlocks.js";
import { defaultWorkers } from "./sweepPool.js";
import { compositeSource } from "./variantPass.js";

/** Progress of a sweep, in variants of this run (its shard). */
export interface SweepProgress {
  readonly done: number;
  readonly total: number;
}

/** Options of {@link sweepComposite}. */
export interface SweepOptions {
  /** Weight vectors (objects keyed by component name), e.g. simplexGrid(COMPONENT_NAMES, 0.1). Each validated like replayComposite's. */
  readonly weights: readonly Weights[];
  /** Label thresholds, each in [0, 1]: buy when composite >= t, sell when <= -t. Default [0.1]. */
  readonly thresholds?: readonly number[];
  /** Accept weight vectors that do not sum to 1 (still finite, non-negative). Default false. */
  readonly allowAnySum?: boolean;
  /** Policy for a NaN score, as replayComposite's. Default "renormalise". */
  readonly missing?: MissingPolicy;
  /** Scorer overrides, as replayComposite's (scoring happens once, on the calling thread). */
  readonly scorers?: Readonly<Record<string, Scorer>>;
  /** What the component columns hold: raw "values" (default, scored here) or "scores" already in [-1, 1]. */
  readonly from?: "values" | "scores";
  /** Input column of a component, or of `close`, when not named after it, e.g. `{ close: "BTC_close" }`. */
  readonly columns?: Readonly<Partial<Record<string, string>>>;
  /** Exchange fee in bps of traded notional. Default 0. */
  readonly feeBps?: number;
  /** Slippage in bps of traded notional. Default 0. */
  readonly slippageBps?: number;
  /** Starting cash of each variant's backtest. Default 10 000 (the backtest's). */
  readonly initialCash?: number;
  /** Fill rule: sweeps run the backtest's default, "next_close", only. */
  readonly fill?: "next_close";
  /** On a neutral label: "flat" (default) or "hold" the last side, as the backtest's `neutral`. */
  readonly neutral?: "flat" | "hold";
  /** Funding charged per bar on the position (the backtest's `funding`, e.g. `fundingPerBar(time, rate)`). Default none. */
  readonly barFunding?: ArrayLike<number>;
  /** Bars per year for the Sharpe ratio. Default: inferred from `time`, else 365. */
  readonly periodsPerYear?: number;
  /** Bar times (epoch ms, strictly ascending), when the input has no `time` column. */
  readonly time?: ArrayLike<number>;
  /**
   * Worker threads, 0..MAX_WORKERS (256): 0 evaluates on the calling thread; n >= 1 uses the process's
   * persistent pool of n threads (created on first use, inputs in SharedArrayBuffer). Default: 0
   * for small sweeps (under 2e7 bar-evaluations), else the machine's available parallelism.
   * Results are identical for every value.
   */
  readonly workers?: number;
  /** Stops the sweep: no variant starts after it fires; those finished are kept (`aborted: true`). */
  readonly signal?: AbortSignal;
  /** Called after each finished block of variants. */
  readonly onProgress?: (progress: SweepProgress) => void;
  /** Evaluate only this shard's variants (see shardRange); merge the shards with mergeSweeps. */
  readonly shard?: Shard;
}

/** How sweepComposite's options are checked where they enter (checkOptions). */
const SWEEP_COMPOSITE_CHECK: OptionsCheck = { where: "sweepComposite", specs: SWEEP_COMPOSITE_OPTION_SPECS, example: "sweepComposite(columns, { weights: simplexGrid(COMPONENT_NAMES, 0.1) })", required: true };

/**
 * Backtest many variants of the composite strategy on one instrument: every weight
 * vector x every threshold (weights outer, thresholds inner).
 *
 * Semantics are the library's, variant by variant: components are scored once with the
 * library's scorers (replayComposite); a variant's composite is Σ wᵢ·scoreᵢ (its key
 * order, the missing-score policy); its position is +1 when the composite >= threshold,
 * -1 when <= -threshold, else flat (or held, `neutral: "hold"`); the position decided at
 * bar i's close is held over bar i+1, fees and slippage are charged on |Δposition| and
 * funding on the position held (`barFunding`): the backtest's default mode. So each row
 * equals `backtest` + the metrics for the same weights and threshold (SWEEP_METRICS says
 * which metric is which).
 *
 * Reproducible: a variant's numbers depend on its inputs only, never on the worker
 * count or the shard split.
 * @param input the components' raw values (`imbalance`, `funding`, `basis_spread`,
 *   `momentum_5m`, `gas`, any extra weighted component), `close`, and optionally `time`:
 *   columns keyed by name, a Panel or a danfo DataFrame (with `options.columns` to map names)
 * @throws InvalidArgumentError on empty weights, an invalid weight vector or threshold, a
 *   weighted component with no column, bad prices or times, or out-of-range options
 * @example
 * const r = await sweepComposite(columns, { weights: simplexGrid(COMPONENT_NAMES, 0.1), thresholds: [0.05, 0.1, 0.2], feeBps: 5 });
 * r.length             // 3003 variants
 * r.best("sharpeRatio") // { index, variant, weights, threshold, value }
 */
export async function sweepComposite(input: ColumnInput, options: SweepOptions): Promise<SweepResult> {
  const where = "sweepComposite";
  options = checkOptions(options, SWEEP_COMPOSITE_CHECK);
  const { plan, shared } = buildPlan(input, options, where);
  const total = plan.vectors * plan.thresholds.length;
  const { lo, hi } = options.shard !== undefined ? shardRange(total, options.shard) : { lo: 0, hi: total };
  const count = hi - lo;
  const workers = options.workers ?? defaultWorkers(count * plan.n);
  const poolPlan = workers > 0 ? shared() : plan;
  const stride = count;
  const out = new Float64Array(workers > 0 ? new SharedArrayBuffer(8 * SWEEP_METRICS.length * count) : new ArrayBuffer(8 * SWEEP_METRICS.length * count));
  const ran = await runSweepBlocks({
    lo,
    hi,
    bars: plan.n,
    workers,
    evaluate: (blk) => evaluateVariants(plan, blk.lo, blk.hi, out, lo, stride),
    task: (blk) => ({ kind: "composite", plan: poolPlan, lo: blk.lo, hi: blk.hi, out, base: lo, stride }),
    signal: options.signal,
    onProgress: options.onProgress,
    where,
  });
  const aborted = ran.done < count;
  return createSweepResult({
    components: plan.components,
    total,
    aborted,
    periodsPerYear: plan.periodsPerYear,
    columns: sweepColumns(ran, out, lo, stride, compositeParameters(plan.components), compositeParamsInto(plan)),
    source: compositeSource(plan),
    runsOn: workers > 0 ? "workers" : "calling thread",
  });
}

/** Variant v's composite parameters at `row`: its weight per component (0 when unweighted), then its threshold. */
function compositeParamsInto(plan: SweepPlan): (v: number, row: number, columns: readonly Float64Array[]) => void {
  const k = plan.components.length;
  const nt = plan.thresholds.length;
  return (v, row, columns) => {
    const wv = Math.floor(v / nt);
    (columns[k] as Float64Array)[row] = plan.thresholds[v - wv * nt] as number;
    for (let j = 0; j < k; j++) {
      const c = plan.order[wv * k + j] as number;
      if (c < 0) break;
      (columns[c] as Float64Array)[row] = plan.weight[wv * k + j] as number;
    }
  };
}

/**
 * Validate the options, read the columns, score the components once, and lay the plan
 * out; `shared()` gives the same plan in SharedArrayBuffer for worker threads.
 * @internal
 */
export function buildPlan(input: ColumnInput, options: SweepOptions, where: string): { plan: SweepPlan; shared: () => SweepPlan } {
  // `options` is sweepComposite's, checked by checkOptions (an object, known keys, scales)
  const vectors = options.weights;
  if (!Array.isArray(vectors) || vectors.length === 0) {
    throw new InvalidArgumentError("weights", `${where}: weights must be a non-empty array of weight vectors (e.g. simplexGrid(COMPONENT_NAMES, 0.1)), got ${String(vectors)}`);
  }
  const allowAnySum = options.allowAnySum ?? false;
  const index = new Map<string, number>();
  for (const w of vectors) {
    validateWeights(w, where, allowAnySum);
    for (const name of Object.keys(w)) if (!index.has(name)) index.set(name, index.size);
  }
  const components = [...index.keys()];
  const k = components.length;
  const order = new Int32Array(vectors.length * k).fill(-1);
  const weight = new Float64Array(vectors.length * k);
  vectors.forEach((w, v) => {
    Object.keys(w).forEach((name, j) => {
      order[v * k + j] = index.get(name) as number;
      weight[v * k + j] = w[name] as number;
    });
  });
  const thresholdList = options.thresholds ?? [0.1];
  if (!Array.isArray(thresholdList) || thresholdList.length === 0) {
    throw new InvalidArgumentError("thresholds", `${where}: thresholds must be a non-empty array of numbers in [0, 1], got ${String(thresholdList)}`);
  }
  const thresholds = Float64Array.from(thresholdList, (t) => validateThresholds({ threshold: t }, where).threshold);
  const missing = options.missing ?? "renormalise";
  if (!MISSING_POLICIES.includes(missing)) {
    throw new InvalidArgumentError("missing", `${where}: missing must be one of ${MISSING_POLICIES.join(", ")}, got ${String(missing)}`);
  }
  const fill = options.fill ?? "next_close";
  if (fill !== "next_close") {
    throw new InvalidArgumentError("fill", `${where}: sweeps run the backtest's default mode, fill "next_close"; got ${String(fill)} (backtest single variants for other modes)`);
  }
  const neutral = options.neutral ?? "flat";
  if (neutral !== "flat" && neutral !== "hold") {
    throw new InvalidArgumentError("neutral", `${where}: neutral must be "flat" or "hold", got ${String(neutral)}`);
  }
  const exec = resolveExecution(options, where);
  const from = options.from ?? "values";
  if (from !== "values" && from !== "scores") {
    throw new InvalidArgumentError("from", `${where}: from must be "values" or "scores", got ${String(from)}`);
  }
  checkSweepControls(options, where);

  const read = readColumns(input, where);
  const n = read.length;
  const closeName = options.columns?.["close"] ?? "close";
  const close = read.columns.get(closeName);
  if (close === undefined) {
    throw new InvalidArgumentError("input", `${where}: no ${closeName} column of prices; columns are ${[...read.columns.keys()].join(", ") || "(none)"}. Add it, or map it with columns: { close: "<name>" }`);
  }
  checkPrices("close", close, where);
  let time = read.time;
  if (options.time !== undefined) {
    if (time !== undefined) throw new InvalidArgumentError("time", `${where}: time is given twice (a time column and options.time); pass one`);
    time = toFloat64(options.time, true);
  }
  if (time !== undefined) {
    if (time.length !== n) throw new InvalidArgumentError("time", `${where}: time must have one value per bar (${n}), got ${time.length}`);
    checkExecution(time, where);
  }
  const barFunding = options.barFunding === undefined ? undefined : toFloat64(options.barFunding);
  if (barFunding !== undefined && barFunding.length !== n) {
    throw new InvalidArgumentError("barFunding", `${where}: barFunding must have one value per bar (${n}), got ${barFunding.length}`);
  }
  const periodsPerYear =
    options.periodsPerYear !== undefined
      ? periodsPerYearOf(options, where)
      : time !== undefined && time.length >= 2
        ? inferPeriodsPerYear(time)
        : periodsPerYearOf(undefined, where);

  // Score once: replayComposite's column lookup and scorers (its model) on every component weighted
  // anywhere, scored by its rule (scoreColumns) straight into the plan's one shared buffer (SweepPlan's
  // `packed`: the close, the funding, then the scores), which worker threads read without a copy; a
  // column already of scores is copied in.
  const unit: Record<string, number> = {};
  for (const c of components) unit[c] = 1;
  const replay = replayComposite(Object.fromEntries(read.columns), {
    weights: unit,
    allowAnySum: true,
    from,
    ...(options.scorers !== undefined ? { scorers: options.scorers } : {}),
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
  });
  const model = replayModel(replay) as ReplayModel;
  const first = barFunding === undefined ? 1 : 2;
  const packed = new Float64Array(new SharedArrayBuffer(8 * n * (first + k)));
  const view = (c: number): Float64Array => packed.subarray(c * n, (c + 1) * n);
  const packedClose = view(0);
  packedClose.set(close);
  const packedFunding = barFunding === undefined ? undefined : view(1);
  if (barFunding !== undefined) (packedFunding as Float64Array).set(barFunding);
  const scores = model.cols.map((col, j) => {
    const out = view(first + j);
    if (model.fns[j] === null) out.set(col);
    return out;
  });
  const scored = components.flatMap((_, j) => (model.fns[j] === null ? [] : [j]));
  scoreColumns(
    scored.map((j) => model.cols[j] as Float64Array),
    scored.map((j) => model.fns[j] as Scorer),
    scored.map((j) => scores[j] as Float64Array),
  );

  const plan: SweepPlan = {
    n,
    components,
    packed,
    close: packedClose,
    barFunding: packedFunding,
    time,
    scores,
    vectors: vectors.length,
    order,
    weight,
    thresholds,
    missing,
    neutral,
    initialCash: exec.initialCash,
    feeBps: options.feeBps ?? 0,
    slippageBps: options.slippageBps ?? 0,
    periodsPerYear,
  };
  // The plan for worker threads: every array in shared memory (the columns already are), but the bar
  // times, which no variant reads.
  const shared = (): SweepPlan => ({
    ...plan,
    time: undefined,
    order: sharedCopy(order),
    weight: sharedCopy(weight),
    thresholds: sharedCopy(thresholds),
  });
  return { plan, shared };
}
