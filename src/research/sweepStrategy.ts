import { resolveExecution } from "../backtest/execution.js";
import type { BacktestOptions } from "../backtest/backtest.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { BACKTEST_OPTION_SPECS } from "../backtest/backtestOptionSpecs.js";
import { checkOptions, scaleMistake, type OptionsCheck } from "../options/checkOptions.js";
import type { OptionSpec } from "../options/OptionSpec.js";
import { nearestName } from "../options/nearestName.js";
import { SWEEP_STRATEGY_OPTION_SPECS } from "./sweepOptionSpecs.js";
import { periodsPerYearOf } from "../metrics/ReturnsOptions.js";
import { MISSING_POLICIES, type MissingPolicy } from "../signals/compositeScore.js";
import { readColumns, toFloat64, type ColumnInput } from "../signals/readColumns.js";
import { replayComposite } from "../signals/replayComposite.js";
import type { Scorer } from "../signals/scorers.js";
import { DEFAULT_WEIGHTS, validateWeights, type Weights } from "../signals/weights.js";
import { validateThresholds } from "../signals/classifySignal.js";
import { StrategyFailedError } from "../errors/StrategyFailedError.js";
import { variantText } from "./callStrategy.js";
import { BlockTimedOut, checkSweepControls, runSweepBlocks, sweepColumns, type BlockFailure } from "./runSweepBlocks.js";
import { shardRange, type Shard } from "./shardRange.js";
import { strategyChecks } from "./strategyChecks.js";
import { sharedCopy } from "./SweepPlan.js";
import type { SweepProgress } from "./sweepComposite.js";
import { gridParams, gridPlan, gridValues, gridValuesOf, type GridPlan, type SweepGrid } from "./sweepGrid.js";
import { SWEEP_METRICS } from "./sweepMetrics.js";
import { defaultWorkers, sweepPool } from "./sweepPool.js";
import { createSweepResult, type SweepResult, type SweepValue } from "./SweepResult.js";
import {
  BACKTEST_PARAMETERS,
  compileStrategy,
  evaluateStrategyVariants,
  firstFailure,
  releaseSharedValues,
  strategyVariantReturns,
  type CompositeRule,
  type StrategyFunction,
  type StrategyPlan,
} from "./strategyVariant.js";

/**
 * A declarative strategy: the composite signal (components scored once, Σ weight × score,
 * buy at ≥ threshold, sell at ≤ −threshold) with optional named regime filters. Grid
 * parameters it reads: `threshold`, `w_<component>` (one weight), `regime` (a name of
 * `regimes`, or "none"), and any backtest option (stopLoss, neutral, size, feeBps, ...).
 */
export interface CompositeStrategy {
  readonly kind: "composite";
  /** Weights (any non-negative sum: the composite is Σ weight × score as given). Default DEFAULT_WEIGHTS. */
  readonly weights?: Weights;
  /** Label threshold in [0, 1]. Default 0.1. */
  readonly threshold?: number;
  /** Policy for a NaN score, as replayComposite's. Default "renormalise". */
  readonly missing?: MissingPolicy;
  /** What the component columns hold: raw "values" (default, scored once here) or "scores" in [-1, 1]. */
  readonly from?: "values" | "scores";
  /** Scorer overrides, as replayComposite's (run once, on the calling thread). */
  readonly scorers?: Readonly<Record<string, Scorer>>;
  /** Input column of a component when not named after it, e.g. `{ imbalance: "ob" }`. */
  readonly columns?: Readonly<Partial<Record<string, string>>>;
  /** Regime filters by name: where truthy the target is flat (backtest's flatWhen), e.g. `{ calm: volRegime.map((r) => r >= 2) }`. */
  readonly regimes?: Readonly<Record<string, ArrayLike<number | boolean>>>;
}

/** What sweepStrategy sweeps: a target-position function, or a declarative composite strategy. */
export type SweepableStrategy = StrategyFunction | CompositeStrategy;

/** Options of {@link sweepStrategy}: the data, the grid, the backtest options every variant shares, and the run's controls. */
export interface SweepStrategyOptions extends Omit<BacktestOptions, "data" | "position" | "signal" | "outputs" | "into"> {
  /** The bars: columns keyed by name (`close`, and `time`, `open`, `high`, `low`, `funding`, any the strategy reads), a Panel or a DataFrame. */
  readonly data: ColumnInput;
  /**
   * Parameter -> values (every combination, the first parameter outermost) or a list of
   * parameter objects. A parameter named as a backtest option (feeBps, stopLoss, neutral, ...)
   * sets it; every parameter is passed to a strategy function.
   */
  readonly grid: SweepGrid;
  /** Bars per year of the Sharpe ratio. Default: inferred from the data's `time`. */
  readonly periodsPerYear?: number;
  /**
   * Worker threads, 0..MAX_WORKERS (256): 0 runs on the calling thread; n uses the process's persistent pool
   * of n threads. Default: 0 under 2e7 bar-evaluations, else the machine's cores. A strategy
   * function runs in workers only when self-contained (see sweepStrategy). Results are
   * identical for every value.
   */
  readonly workers?: number;
  /** Evaluate only this shard's variants (see shardRange); merge the shards with mergeSweeps. */
  readonly shard?: Shard;
  /** Stops the sweep: no variant starts after it fires; those finished are kept (`aborted: true`). */
  readonly signal?: AbortSignal;
  /** Called after each finished block of variants. */
  readonly onProgress?: (progress: SweepProgress) => void;
  /**
   * Time limit of one variant of a strategy function, ms: a variant still running past it (a
   * block of k variants: k times it) has its worker thread terminated and the sweep rejects with
   * StrategyFailedError (reason "timeout") naming it. Needs worker threads (`workers` >= 1 and
   * a self-contained function): the calling thread cannot be interrupted [none].
   */
  readonly variantTimeoutMs?: number;
}

/** How sweepStrategy's options are checked where they enter (checkOptions). */
const SWEEP_STRATEGY_CHECK: OptionsCheck = { where: "sweepStrategy", specs: SWEEP_STRATEGY_OPTION_SPECS, example: "sweepStrategy(fn, { data, grid: { fast: [5, 10] } })", required: true };

/** Options of sweepStrategy that are not backtest options. */
const RUN_OPTIONS = new Set(["data", "grid", "periodsPerYear", "workers", "shard", "signal", "onProgress", "variantTimeoutMs"]);

/**
 * The sweep's failures in the caller's terms: a strategy failure reported by a worker thread
 * (which arrives as a plain Error carrying StrategyFailedError's message) or a block that ran
 * out of time becomes StrategyFailedError naming the variant and its parameters.
 */
function strategyFailure(e: unknown, plan: StrategyPlan, where: string): unknown {
  if (e instanceof StrategyFailedError) return e;
  if (e instanceof BlockTimedOut) {
    const v = e.block.lo;
    const params = gridParams(plan.grid, v);
    const span = e.block.hi - e.block.lo > 1 ? ` (the block of variants ${e.block.lo}..${e.block.hi - 1}, allowed ${e.timeoutMs} ms together)` : "";
    return new StrategyFailedError(v, params, "timeout", `${where}: ${variantText(v, params)}${span} ran past variantTimeoutMs; its worker thread was terminated and the sweep stopped: look for a loop that never ends in the strategy, or raise variantTimeoutMs`);
  }
  if (e instanceof Error) {
    // a variant's failure, or a change to the columns that none of a block's variants made again (unreproduced)
    const m = /the strategy (threw|changed)[\s\S]* on variant (\d+)|the strategy changed the data columns on one of variants (\d+)\.\./.exec(e.message);
    if (m !== null) {
      const v = Number(m[2] ?? m[3]);
      return new StrategyFailedError(v, gridParams(plan.grid, v), m[1] === "threw" ? "threw" : "mutated", e.message, { cause: e });
    }
    // a variant's targets the backtest refused (strategyVariant's targetsError), from a worker: the typed error again
    if (!(e instanceof InvalidArgumentError) && /: position [\s\S]*, returned by the strategy on variant \d+/.test(e.message)) return new InvalidArgumentError("position", e.message);
  }
  return e;
}

/**
 * What a sweep on workers rejects with when blocks failed (runSweepBlocks' settleFailures, once the blocks in flight
 * have settled). The blocks share the data's memory, so a block can see (and put back) a change that a variant of
 * another thread's block made, and fail for it, while the block that made it finishes seeing nothing; a variant can
 * also fail on the changed data. So when any block saw a change, the variants of every block that was in flight
 * alongside a failed one are called again here, alone, one by one in variant order, each checked (firstFailure:
 * the same rule as a block on one thread), and the first that fails is the sweep's failure: the variant that changed
 * the columns, whichever thread saw it. Otherwise (and when none fails again: a change made only once) the failure
 * of the lowest variant, as on the calling thread, which stops at its first failing variant (the blocks below a failed
 * one were all sent before it, so they have all run). A block terminated mid-way (variantTimeoutMs, the signal) is
 * not called again. Every strategy failure is a StrategyFailedError (refused targets: InvalidArgumentError naming the variant).
 */
function settleFailures(failures: readonly BlockFailure[], plan: StrategyPlan, fn: StrategyFunction | undefined, where: string): unknown {
  const mapped = failures.map((f) => strategyFailure(f.error, plan, where));
  if (fn !== undefined && mapped.some((e) => e instanceof StrategyFailedError && e.reason === "mutated")) {
    const alongside = new Map<number, { lo: number; hi: number }>();
    for (const f of failures) for (const a of f.alongside) if (!a.terminated) alongside.set(a.block.lo, a.block);
    const again = firstFailure(plan, fn, [...alongside.values()].sort((a, b) => a.lo - b.lo), where);
    if (again !== undefined) return again;
  }
  let lowest: unknown = mapped[0];
  for (const e of mapped) if (failedVariant(e) < failedVariant(lowest)) lowest = e;
  return lowest;
}

/** The variant a sweep's failure names (a StrategyFailedError's, or the one whose targets were refused), else Infinity. */
function failedVariant(e: unknown): number {
  if (e instanceof StrategyFailedError) return e.variant;
  const m = e instanceof InvalidArgumentError ? / returned by the strategy on variant (\d+)/.exec(e.message) : null;
  return m !== null ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/**
 * Backtest every variant of a strategy over a grid of parameters: one `backtest` per
 * variant, in one table (the same SweepResult as sweepComposite: `toDataFrame`, `returnsOf`,
 * `best`, `manifest`, `toParquet`; assessSweep, walk-forward and mergeSweeps accept it).
 *
 * Columns: `variant`, one per parameter (named as the parameter; a non-numeric parameter holds
 * the index of its value in `levels`), then SWEEP_METRICS (totalReturn, sharpeRatio,
 * maxDrawdown, trades, turnover, exposure). Variant order is the grid's: for an object grid,
 * every combination with the first parameter outermost (the last varies fastest).
 *
 * The strategy is either
 * - a function `(columns, params) => target positions` (backtest's `position`: fraction of
 *   equity decided at each bar's close), given the data's columns (Float64Array, shared: do not
 *   modify them) and the variant's parameters; or
 * - a {@link CompositeStrategy}: the composite signal scored once, its weights, threshold and
 *   regime filter as parameters, run through replayComposite and backtest's signal path.
 * A strategy function must be a pure function of its columns and parameters: three variants are evaluated a
 * second time after the sweep and a function that answers differently is refused (StrategyNotPureError, naming
 * the variant); assessSweep probes it for lookahead (checkLookahead).
 * Each variant is then exactly `backtest({ ...options, data, position | signal, ...its backtest
 * parameters })` (the same checks and engine pass), so its row equals that backtest's metrics.
 *
 * Threads: a composite strategy runs in the worker pool as data. A function runs there from
 * its source (Function.prototype.toString, rebuilt in each thread) when it is self-contained:
 * the first variant is run here and in a worker, and the sweep uses the workers only when both
 * give the same numbers; a function that reads anything from outside its text (a variable of
 * the enclosing scope, an import) fails there or differs, and the sweep runs on the calling
 * thread. `runsOn` says where it ran and `runsOnReason` why not in workers.
 * @throws InvalidArgumentError on a bad strategy, grid (naming the parameter), data, backtest
 *   option or control option, before any variant runs
 * @throws StrategyNotPureError when a strategy function gives a variant other numbers the second time
 * @example
 * const sma = (c, p, out) => { ...; return out; }; // targets written into the sweep's column; self-contained: runs in workers
 * const r = await sweepStrategy(sma, { data: candles, grid: { fast: [5, 10, 20], slow: [50, 100] }, feeBps: 5 });
 * r.length;                 // 6 variants: fast 5 with slow 50, 100; fast 10 with ...
 * r.best("sharpeRatio");    // { index, variant, params: { fast, slow }, value, ... }
 */
export async function sweepStrategy(strategy: SweepableStrategy, options: SweepStrategyOptions): Promise<SweepResult> {
  const where = "sweepStrategy";
  // checked once, here (not an object, unknown keys, scales); from here on the options are trusted
  options = checkOptions(options, SWEEP_STRATEGY_CHECK);
  const grid = gridPlan(options.grid, where);
  checkSweepControls(options, where);
  const read = readColumns(options.data, where);
  const n = read.length;
  const columns: Record<string, Float64Array> = {};
  if (read.time !== undefined) columns["time"] = read.time;
  for (const [name, col] of read.columns) columns[name] = col;
  if (columns["close"] === undefined && options.close === undefined) {
    throw new InvalidArgumentError("data", `${where}: data has no close column; columns are ${Object.keys(columns).join(", ") || "(none)"}`);
  }
  const base: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) if (!RUN_OPTIONS.has(name) && value !== undefined) base[name] = value;
  const time = options.time ?? read.time;
  const periodsPerYear = periodsPerYearOf({ ...(options.periodsPerYear !== undefined ? { periodsPerYear: options.periodsPerYear } : {}), ...(time !== undefined ? { time } : {}) }, where);

  let fn: StrategyFunction | undefined;
  let rule: StrategyPlan["strategy"];
  if (typeof strategy === "function") {
    fn = strategy;
    rule = { kind: "function", source: Function.prototype.toString.call(strategy) };
  } else if (typeof strategy === "object" && strategy !== null && strategy.kind === "composite") {
    rule = compositeRule(strategy, read.columns, n, grid.parameters, where);
  } else {
    throw new InvalidArgumentError(
      "strategy",
      `${where}: strategy must be a function (columns, params) => target positions, or { kind: "composite", weights?, threshold?, regimes? }, got ${strategy === null ? "null" : typeof strategy}`,
    );
  }
  checkBacktestParameters(grid, base, where);
  const levels: Record<string, SweepValue[]> = {};
  grid.parameters.forEach((p, j) => {
    const values = gridValuesOf(grid, j);
    if (!values.every((x) => x === null || typeof x === "number")) levels[p] = [...new Set(values)];
  });
  const plan: StrategyPlan = { n, columns, base, grid, strategy: rule, periodsPerYear };

  const total = grid.count;
  const { lo, hi } = options.shard !== undefined ? shardRange(total, options.shard) : { lo: 0, hi: total };
  const count = hi - lo;
  const stride = count;
  const variantTimeoutMs = options.variantTimeoutMs;
  if (variantTimeoutMs !== undefined && (typeof variantTimeoutMs !== "number" || !(variantTimeoutMs > 0) || variantTimeoutMs > 2_147_483_647)) {
    throw new InvalidArgumentError("variantTimeoutMs", `${where}: variantTimeoutMs must be a number of ms > 0, got ${String(variantTimeoutMs)}`);
  }
  const asked = options.workers ?? defaultWorkers(count * n);
  if (variantTimeoutMs !== undefined && asked === 0) {
    throw new InvalidArgumentError("variantTimeoutMs", `${where}: variantTimeoutMs needs worker threads (the calling thread cannot be interrupted); pass workers: 1 or more`);
  }
  // a function runs in workers only once a trial shows it is self-contained
  let workers = asked;
  let runsOnReason: string | undefined;
  if (asked > 0 && fn !== undefined && count > 0) {
    try {
      runsOnReason = await trialInWorker(plan, fn, lo, asked, where, options.signal, variantTimeoutMs);
    } catch (e) {
      throw strategyFailure(e, plan, where);
    }
    if (runsOnReason !== undefined && variantTimeoutMs !== undefined) {
      throw new InvalidArgumentError("variantTimeoutMs", `${where}: variantTimeoutMs needs the strategy to run in worker threads, and it cannot: ${runsOnReason}`);
    }
    if (runsOnReason !== undefined) workers = 0;
  }
  const poolPlan = workers > 0 ? sharedPlan(plan) : plan;
  const out = new Float64Array(workers > 0 ? new SharedArrayBuffer(8 * SWEEP_METRICS.length * count) : new ArrayBuffer(8 * SWEEP_METRICS.length * count));
  const ran = await runSweepBlocks({
    lo,
    hi,
    bars: n,
    workers,
    evaluate: (blk) => evaluateStrategyVariants(plan, fn, blk.lo, blk.hi, out, lo, stride, where),
    task: (blk) => ({ kind: "strategy", plan: poolPlan, lo: blk.lo, hi: blk.hi, out, base: lo, stride }),
    signal: options.signal,
    onProgress: options.onProgress,
    where,
    settleFailures: (failures) => settleFailures(failures, plan, fn, where),
    ...(variantTimeoutMs === undefined ? {} : { blockTimeoutMs: (blk: { lo: number; hi: number }) => variantTimeoutMs * (blk.hi - blk.lo) }),
  }).catch((e: unknown) => Promise.reject(strategyFailure(e, plan, where)));
  const table = sweepColumns(ran, out, lo, stride, grid.parameters, gridParamsInto(grid, levels));
  // a second evaluation of a few variants refuses a stateful or random function; the lookahead probe is for assessSweep
  let checks: ReturnType<typeof strategyChecks> | undefined;
  try {
    checks = fn !== undefined ? strategyChecks(plan, fn, table, where) : undefined;
  } finally {
    // the function's shared values are the sweep's: not kept alive by the result (returnsOf computes its own again)
    releaseSharedValues(plan);
  }
  return createSweepResult({
    components: [],
    parameters: grid.parameters,
    levels,
    total,
    aborted: ran.done < count,
    periodsPerYear,
    columns: table,
    source: {
      returns: (v) => strategyVariantReturns(plan, v, fn, where),
      ...(checks !== undefined ? { lookahead: checks.lookahead } : {}),
      manifestOptions: () => ({ ...columns, ...base, grid: { parameters: grid.parameters, lists: grid.lists ?? null, rows: grid.rows ?? null }, strategy: manifestStrategy(rule), periodsPerYear }),
    },
    runsOn: workers > 0 ? "workers" : "calling thread",
    ...(runsOnReason !== undefined ? { runsOnReason } : {}),
  });
}

/**
 * Run variant `lo` on the calling thread and in a worker: undefined when the worker rebuilt
 * the function from its source and gave the same numbers bit for bit, else why not.
 * An error of the function on the calling thread is the caller's and is thrown.
 */
async function trialInWorker(plan: StrategyPlan, fn: StrategyFunction, lo: number, workers: number, where: string, signal?: AbortSignal, timeoutMs?: number): Promise<string | undefined> {
  const here = new Float64Array(SWEEP_METRICS.length);
  // With a time limit the worker runs first (it can be stopped; the calling thread cannot).
  if (timeoutMs === undefined) evaluateStrategyVariants(plan, fn, lo, lo + 1, here, lo, 1, where);
  const source = (plan.strategy as { source: string }).source;
  try {
    compileStrategy(source);
  } catch (e) {
    return `its source does not rebuild as a function on its own (${e instanceof Error ? e.message : String(e)}); write it as a function expression or arrow function`;
  }
  const there = new Float64Array(new SharedArrayBuffer(8 * SWEEP_METRICS.length));
  const timer = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const taskSignal = timer === undefined ? signal : signal === undefined ? timer : AbortSignal.any([signal, timer]);
  // the pool outside the try: a pool that cannot start (no built worker file) is its own error, not the function's
  const pool = sweepPool(workers, where);
  try {
    await pool.run({ kind: "strategy", plan: sharedPlan(plan), lo, hi: lo + 1, out: there, base: lo, stride: 1 }, taskSignal === undefined ? {} : { signal: taskSignal });
  } catch (e) {
    if (timer?.aborted === true) throw new BlockTimedOut({ lo, hi: lo + 1 }, timeoutMs as number);
    if (signal?.aborted === true) return undefined; // aborted: the run starts no block
    if (timeoutMs !== undefined) evaluateStrategyVariants(plan, fn, lo, lo + 1, here, lo, 1, where);
    return `it is not self-contained: rebuilt from its source in a worker it failed (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}); it reads something from outside its own text`;
  }
  if (timeoutMs !== undefined) evaluateStrategyVariants(plan, fn, lo, lo + 1, here, lo, 1, where);
  for (let m = 0; m < here.length; m++) {
    if (!Object.is(here[m], there[m])) return `it is not self-contained: rebuilt from its source in a worker it gave other numbers (${SWEEP_METRICS[m]} ${there[m]} vs ${here[m]}); it reads state from outside its own text`;
  }
  return undefined;
}

/** The declarative composite: its components scored once on the calling thread, its filters as 0/1 columns. @internal */
export function compositeRule(s: CompositeStrategy, data: ReadonlyMap<string, Float64Array>, n: number, parameters: readonly string[], where: string): CompositeRule {
  const weights = s.weights ?? DEFAULT_WEIGHTS;
  validateWeights(weights, where, true);
  const threshold = validateThresholds({ threshold: s.threshold ?? 0.1 }, where).threshold;
  const missing = s.missing ?? "renormalise";
  if (!MISSING_POLICIES.includes(missing)) throw new InvalidArgumentError("missing", `${where}: missing must be one of ${MISSING_POLICIES.join(", ")}, got ${String(missing)}`);
  const allowed = new Set<string>([...BACKTEST_PARAMETERS, "threshold", "regime"]);
  const components = Object.keys(weights);
  for (const p of parameters) {
    if (p.startsWith("w_") && p.length > 2) {
      if (!components.includes(p.slice(2))) components.push(p.slice(2));
      continue;
    }
    if (!allowed.has(p)) {
      const near = nearestName(p, allowed);
      throw new InvalidArgumentError(
        "grid",
        `${where}: grid parameter ${p} means nothing to a composite strategy${near !== undefined ? `; did you mean ${near}?` : ""}; its parameters are threshold, regime, w_<component> and the backtest options ${BACKTEST_PARAMETERS.join(", ")}`,
      );
    }
  }
  const unit: Record<string, number> = {};
  for (const c of components) unit[c] = 1;
  const replay = replayComposite(Object.fromEntries(data), {
    weights: unit,
    allowAnySum: true,
    from: s.from ?? "values",
    ...(s.scorers !== undefined ? { scorers: s.scorers } : {}),
    ...(s.columns !== undefined ? { columns: s.columns } : {}),
  });
  const regimes: Record<string, Float64Array> = {};
  for (const [name, mask] of Object.entries(s.regimes ?? {})) {
    if (mask === null || typeof mask !== "object" || mask.length !== n) {
      throw new InvalidArgumentError("regimes", `${where}: regime filter ${name} must have one value per bar (${n}), got ${mask === null || typeof mask !== "object" ? String(mask) : mask.length}`);
    }
    regimes[name] = Float64Array.from(mask as ArrayLike<number | boolean>, (x) => (x ? 1 : 0));
  }
  return { kind: "composite", components, scores: components.map((c) => replay.scores[c] as Float64Array), weights: { ...weights }, threshold, missing, regimes };
}

/**
 * The grid's backtest parameters checked value by value with the shared options (the
 * execution rules: fees, fill, units, stops, delay, margin), so a bad value fails here,
 * naming the parameter, before any variant runs.
 */
function checkBacktestParameters(grid: GridPlan, base: Readonly<Record<string, unknown>>, where: string): void {
  grid.parameters.forEach((p, j) => {
    if (!(BACKTEST_PARAMETERS as readonly string[]).includes(p)) return;
    const spec: OptionSpec = BACKTEST_OPTION_SPECS[p as keyof typeof BACKTEST_OPTION_SPECS];
    for (const value of new Set(gridValuesOf(grid, j))) {
      const mistake = scaleMistake(p, value, spec);
      if (mistake !== undefined) throw new InvalidArgumentError("grid", `${where}: ${mistake} (grid parameter ${p})`);
      const options: Record<string, unknown> = { ...base, [p]: value === null ? undefined : value };
      try {
        resolveExecution(options, where);
      } catch (e) {
        if (e instanceof InvalidArgumentError) throw new InvalidArgumentError("grid", `${e.message} (grid parameter ${p})`);
        throw e;
      }
    }
  });
}

/** The plan with its arrays in SharedArrayBuffer, for worker threads (posting copies nothing else of size). */
function sharedPlan(plan: StrategyPlan): StrategyPlan {
  const columns: Record<string, Float64Array> = {};
  for (const [name, col] of Object.entries(plan.columns)) columns[name] = sharedCopy(col);
  const base: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plan.base)) {
    base[name] = typeof value === "object" && value !== null && (Array.isArray(value) || ArrayBuffer.isView(value)) ? sharedCopy(toFloat64(value as ArrayLike<unknown>)) : value;
  }
  const s = plan.strategy;
  const strategy: StrategyPlan["strategy"] =
    s.kind === "function"
      ? s
      : { ...s, scores: s.scores.map((x) => sharedCopy(x)), regimes: Object.fromEntries(Object.entries(s.regimes).map(([k, x]) => [k, sharedCopy(x)])) };
  return { ...plan, columns, base, strategy };
}

/** The strategy as the manifest records it: a function's source, or the composite's settings and scores. */
function manifestStrategy(rule: StrategyPlan["strategy"]): Record<string, unknown> {
  if (rule.kind === "function") return { kind: "function", source: rule.source };
  const scores: Record<string, Float64Array> = {};
  rule.components.forEach((c, j) => (scores[c] = rule.scores[j] as Float64Array));
  return { kind: "composite", weights: rule.weights, threshold: rule.threshold, missing: rule.missing, scores, regimes: rule.regimes };
}

/** Variant v's grid values at `row`: a number as is, null as NaN, any other value as its index in `levels`. */
function gridParamsInto(grid: GridPlan, levels: Readonly<Record<string, readonly SweepValue[]>>): (v: number, row: number, columns: readonly Float64Array[]) => void {
  const lv = grid.parameters.map((p) => levels[p]);
  return (v, row, columns) => {
    gridValues(grid, v).forEach((x, j) => {
      const l = lv[j];
      (columns[j] as Float64Array)[row] = l !== undefined ? l.indexOf(x) : x === null ? Number.NaN : (x as number);
    });
  };
}
