import { callStrategy, changedColumn, variantText } from "./callStrategy.js";
import { prepareBacktest, runPass, type BacktestOptions, type PreparedBacktest } from "../backtest/backtest.js";
import { NO_SERIES, type KernelSeries, type KernelSettings, type KernelState } from "../backtest/kernel/index.js";
import { rerunTargets } from "../backtest/targetPositions.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { StrategyFailedError } from "../errors/StrategyFailedError.js";
import type { MissingPolicy } from "../signals/compositeScore.js";
import { replayComposite } from "../signals/replayComposite.js";
import type { Weights } from "../signals/weights.js";
import { variantMetricsInto } from "./evaluateVariants.js";
import { gridParams, type GridPlan } from "./sweepGrid.js";
import type { SweepValue } from "./SweepResult.js";

/**
 * A strategy function: the data's columns and one variant's parameters -> target positions
 * (backtest's `position`, one per bar). It must be pure: the same positions for the same columns and
 * parameters on every call (no state kept between calls, no random numbers, no clock), and causal: the
 * position at bar i from bars 0..i only (checkLookahead tests it). `out` is a column of zeros, one per bar, that the function
 * may write its targets into and return (the sweep reuses it from variant to variant: no fresh
 * memory per variant); it is the sweep's, valid only until the function's variant is evaluated, so
 * return it, do not keep it. A function may ignore it and return an array of its own.
 * `shared(key, compute)` gives what `compute()` returns, computed once per sweep (and thread) for
 * each key: an indicator that several variants use (`shared(`sma${p.fast}`, () => sma(c.close, p.fast))`)
 * is computed once for all of them. The key must name everything the value depends on; the value
 * is shared, so do not modify it. The values are the sweep's: dropped when it ends (a later
 * `returnsOf` computes what its variant needs again and drops it after), so a sweep's result does
 * not hold its indicators' memory.
 */
export type StrategyFunction = (
  columns: Readonly<Record<string, Float64Array>>,
  params: Readonly<Record<string, SweepValue>>,
  out: Float64Array,
  shared: SharedValues,
) => ArrayLike<number>;

/** StrategyFunction's `shared`: the value of `compute()` for `key`, computed on first use in a sweep (per thread). */
export type SharedValues = <T>(key: string, compute: () => T) => T;

/** Per plan (a sweep, in this thread), its shared values (StrategyFunction's `shared`), until releaseSharedValues. */
const SHARED = new WeakMap<StrategyPlan, SharedValues>();

/**
 * Drop a plan's shared values in this thread (StrategyFunction's `shared`): sweepStrategy calls it when its
 * variants and checks are done, strategyVariantReturns after its pass, so the result (which keeps the plan
 * for `returnsOf`) does not keep every indicator of the sweep alive. @internal
 */
export function releaseSharedValues(plan: StrategyPlan): void {
  SHARED.delete(plan);
}

function sharedValuesOf(plan: StrategyPlan): SharedValues {
  let f = SHARED.get(plan);
  if (f === undefined) {
    const values = new Map<string, unknown>();
    f = <T>(key: string, compute: () => T): T => {
      if (values.has(key)) return values.get(key) as T;
      const v = compute();
      values.set(key, v);
      return v;
    };
    SHARED.set(plan, f);
  }
  return f;
}

/**
 * The backtest options a grid parameter may set, by name (any other parameter goes to the
 * strategy only). Checked against BacktestOptions by the compiler.
 * @internal
 */
export const BACKTEST_PARAMETERS = [
  "size",
  "neutral",
  "shorts",
  "maxLeverage",
  "initialCash",
  "feeBps",
  "slippageBps",
  "fill",
  "units",
  "rebalance",
  "stopLoss",
  "takeProfit",
  "delayBars",
  "maintenanceMargin",
  "liquidationFeeBps",
] as const satisfies readonly (keyof BacktestOptions)[];

const IS_BACKTEST_PARAMETER = new Set<string>(BACKTEST_PARAMETERS);

/** What a declarative composite strategy runs on: its components scored once. @internal */
export interface CompositeRule {
  readonly kind: "composite";
  /** Components scored, in `scores` order. */
  readonly components: readonly string[];
  readonly scores: readonly Float64Array[];
  /** The weights before the `w_<component>` parameters override them. */
  readonly weights: Weights;
  readonly threshold: number;
  readonly missing: MissingPolicy;
  /** Named regime filters (1 = flat), picked by the `regime` parameter. */
  readonly regimes: Readonly<Record<string, Float64Array>>;
}

/**
 * Everything a strategy sweep's variants are evaluated from, plain data (arrays in
 * SharedArrayBuffer when it goes to worker threads): the data's columns, the backtest options
 * every variant shares, the grid, and the strategy (a function's source, or a composite rule).
 * @internal
 */
export interface StrategyPlan {
  readonly n: number;
  /** The data's columns by name (`close`, and `time`, `open`, `high`, `low`, `funding` when present, and any other). */
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** Backtest options shared by every variant (the grid's backtest parameters override them). */
  readonly base: Readonly<Record<string, unknown>>;
  readonly grid: GridPlan;
  readonly strategy: { readonly kind: "function"; readonly source: string } | CompositeRule;
  readonly periodsPerYear: number;
}

/** Variant params -> the composite's weights: the rule's, with each `w_<component>` parameter set. */
function compositeWeights(rule: CompositeRule, params: Readonly<Record<string, SweepValue>>): Weights {
  const weights: Record<string, number> = { ...rule.weights };
  for (const [name, value] of Object.entries(params)) if (name.startsWith("w_")) weights[name.slice(2)] = value as number;
  return weights;
}

/** The data columns the backtest reads prices from (a `funding` column is not charged: in composite data it is the funding component; per-bar funding is the `funding` option). */
const PRICE_COLUMNS = ["time", "close", "open", "high", "low"] as const;

/**
 * Variant `params`' backtest options: the shared ones, the grid's backtest parameters (null
 * unsets), the data's price columns as `data`, and the strategy's target: `position` = fn(columns, params) for a
 * function; for a composite, `signal` = its replay (weights with the `w_<component>` parameters,
 * `threshold`) and `flatWhen` = the regime filter the `regime` parameter names.
 * @internal
 */
export function variantOptions(plan: StrategyPlan, params: Readonly<Record<string, SweepValue>>, fn: StrategyFunction | undefined, where: string, out: Float64Array = new Float64Array(plan.n), v = -1, check = true): BacktestOptions {
  const data: Record<string, Float64Array> = {};
  for (const name of PRICE_COLUMNS) {
    const col = plan.columns[name];
    if (col !== undefined) data[name] = col;
  }
  const options: Record<string, unknown> = { ...plan.base, data };
  for (const [name, value] of Object.entries(params)) {
    if (!IS_BACKTEST_PARAMETER.has(name)) continue;
    if (value === null) delete options[name];
    else options[name] = value;
  }
  const s = plan.strategy;
  if (s.kind === "function") {
    options["position"] = callStrategy(fn as StrategyFunction, plan.columns, { ...params }, v, where, out, sharedValuesOf(plan), check);
  } else {
    const scores: Record<string, Float64Array> = {};
    s.components.forEach((c, j) => (scores[c] = s.scores[j] as Float64Array));
    const threshold = params["threshold"] ?? s.threshold;
    options["signal"] = replayComposite(scores, { weights: compositeWeights(s, params), allowAnySum: true, from: "scores", threshold: threshold as number, missing: s.missing });
    const regime = params["regime"];
    if (regime !== undefined && regime !== null && regime !== "none") {
      const mask = s.regimes[String(regime)];
      if (mask === undefined) {
        throw new InvalidArgumentError("grid", `${where}: grid parameter regime is ${String(regime)}, not one of the strategy's regimes (${Object.keys(s.regimes).join(", ") || "none given"}) or "none"`);
      }
      options["flatWhen"] = mask;
    }
  }
  return options as BacktestOptions;
}

/**
 * One engine pass of variant v, exactly as `backtest(variantOptions(...))` runs it (the same
 * checks, the same pass), writing only the series in `series` (NO_SERIES: none). Returns the
 * kernel's final state and the variant's starting cash. `check` false: the data columns are not
 * compared after the strategy's call (the caller compares them once for a block: evaluateStrategyVariants).
 * @internal
 */
export function strategyVariantPass(plan: StrategyPlan, v: number, fn: StrategyFunction | undefined, series: KernelSeries, where: string, check = true): { state: KernelState; initialCash: number } {
  const params = gridParams(plan.grid, v);
  // The strategy's column of targets: one per thread and length, zeroed for each variant.
  const out = fn === undefined ? undefined : targetsBuffer(plan.n);
  const options = variantOptions(plan, params, fn, where, out, v, check);
  // Everything of the backtest but its targets is checked and prepared once per combination of the
  // grid's backtest parameters (prices, times, funding, execution options); a variant then resolves
  // only its target rule (its position's length, its options), and its pass checks no prices again.
  const prepared = preparedFor(plan);
  const key = backtestKey(params);
  let once = prepared.get(key);
  const first = once === undefined;
  if (once === undefined) {
    const p = prepareBacktest(options, where);
    // backtest's own settings, with the run's accumulators on (the sweep's metrics come from them)
    once = { prepared: p, settings: { ...p.settings, accumulate: true } };
    prepared.set(key, once);
  }
  const { prepared: p, settings } = once;
  // the combination's options were checked by its first variant's prepareBacktest: a variant brings only its targets
  const rule = first ? p.rule : rerunTargets(p.rule, options, plan.n, where);
  const { state } = runPass(rule, p.coin, settings, p.exec.delayBars, series, undefined, first ? where : undefined);
  return { state, initialCash: p.exec.initialCash };
}

/** Per plan, the backtest prepared once for each combination of backtest parameters (backtestKey). */
const PREPARED = new WeakMap<StrategyPlan, Map<string, { readonly prepared: PreparedBacktest; readonly settings: KernelSettings }>>();

function preparedFor(plan: StrategyPlan): Map<string, { readonly prepared: PreparedBacktest; readonly settings: KernelSettings }> {
  let m = PREPARED.get(plan);
  if (m === undefined) PREPARED.set(plan, (m = new Map()));
  return m;
}

/** The variant's backtest parameters (the grid's parameters that are backtest options), as a key. */
function backtestKey(params: Readonly<Record<string, SweepValue>>): string {
  const key: [string, SweepValue][] = [];
  for (const [name, value] of Object.entries(params)) if (IS_BACKTEST_PARAMETER.has(name)) key.push([name, value]);
  return JSON.stringify(key);
}

/** This thread's column for a strategy function's targets (StrategyFunction's `out`), of length n, zeroed. */
function targetsBuffer(n: number): Float64Array {
  let b = TARGETS.buffer;
  if (b === undefined || b.length !== n) TARGETS.buffer = b = new Float64Array(n);
  else b.fill(0);
  return b;
}

const TARGETS: { buffer: Float64Array | undefined } = { buffer: undefined };

/**
 * Evaluate variants lo..hi-1 of a strategy plan into `out` (metric m of variant v at
 * `out[m * stride + (v - base)]`, SWEEP_METRICS order), each from its own engine pass. The data
 * columns are compared with their pristine copies once for the block, after its variants (or when
 * one throws), not after each call (callStrategy's check, ~0.8 ms a variant per 500k-row column):
 * when a call changed them they are put back and the block's variants run again one by one, each
 * checked, so the error names the variant that changed them (or, if none does the second time, the block).
 * No numbers of a block whose columns changed are kept: the sweep stops.
 * @throws StrategyFailedError (reason "threw" or "mutated")
 * @internal
 */
export function evaluateStrategyVariants(plan: StrategyPlan, fn: StrategyFunction | undefined, lo: number, hi: number, out: Float64Array, base: number, stride: number, where: string): void {
  let v = lo;
  try {
    for (; v < hi; v++) {
      const { state, initialCash } = strategyVariantPass(plan, v, fn, NO_SERIES, where, fn === undefined || hi - lo === 1);
      variantMetricsInto(state, plan.n, initialCash, plan.periodsPerYear, out, v - base, stride);
    }
  } catch (e) {
    // a call that failed after another changed the columns: the change is the cause
    if (fn === undefined || hi - lo === 1 || changedColumn(plan.columns) === undefined) throw targetsError(e, plan, fn, v);
    blameChange(plan, fn, lo, hi, where);
  }
  if (fn !== undefined && hi - lo > 1 && changedColumn(plan.columns) !== undefined) blameChange(plan, fn, lo, hi, where);
}

/** Variants lo..hi-1 changed the data columns (now put back): each called again, checked, to name the one that does. */
function blameChange(plan: StrategyPlan, fn: StrategyFunction, lo: number, hi: number, where: string): never {
  throw firstFailure(plan, fn, [{ lo, hi }], where) ?? unreproduced(plan, lo, hi, where);
}

/**
 * Who changed the shared data columns: the variants of `blocks`, in variant order, each called again alone
 * and checked after its call (from the columns put back as they were), until one fails; its failure (a
 * variant that changes them, or one that throws: StrategyFailedError naming it), or undefined when none
 * fails. The one rule for blaming a change, wherever it was seen: a block on its own thread (the variants
 * of that block), and a sweep on workers, whose blocks share the columns (sweepStrategy: on the calling
 * thread, the blocks that ran alongside the one that saw the change, which may be another's doing).
 * @throws what a variant's pass throws other than StrategyFailedError (an engine error)
 * @internal
 */
export function firstFailure(plan: StrategyPlan, fn: StrategyFunction, blocks: readonly { readonly lo: number; readonly hi: number }[], where: string): StrategyFailedError | undefined {
  changedColumn(plan.columns); // what another thread left changed in shared columns, put back
  for (const { lo, hi } of blocks) {
    for (let v = lo; v < hi; v++) {
      try {
        strategyVariantPass(plan, v, fn, NO_SERIES, where, true);
      } catch (e) {
        if (e instanceof StrategyFailedError) return e;
        throw targetsError(e, plan, fn, v);
      }
    }
  }
  return undefined;
}

/**
 * A strategy function's targets refused by the backtest (InvalidArgumentError for `position`: not numbers, not one
 * per bar), naming the variant that returned them; any other error as it is. The variant's name ends the message
 * (", returned by the strategy on variant 13 (k 13)") so a worker's copy of it, a plain Error, is read back
 * (sweepStrategy's strategyFailure). @internal
 */
export function targetsError(e: unknown, plan: StrategyPlan, fn: StrategyFunction | undefined, v: number): unknown {
  if (fn === undefined || !(e instanceof InvalidArgumentError) || e.argument !== "position" || / returned by the strategy on variant \d+/.test(e.message)) return e;
  return new InvalidArgumentError("position", `${e.message}, returned by the strategy on ${variantText(v, gridParams(plan.grid, v))}`);
}

/** The failure of a change to the columns that none of variants lo..hi-1 makes when called again. */
function unreproduced(plan: StrategyPlan, lo: number, hi: number, where: string): StrategyFailedError {
  const params = gridParams(plan.grid, lo);
  return new StrategyFailedError(lo, params, "mutated", `${where}: the strategy changed the data columns on one of variants ${lo}..${hi - 1} (from ${variantText(lo, params)}), and none changed them when called again: a function that changes its columns and keeps state; the columns are shared by every variant, so the sweep stops: copy a column before changing it`);
}

/** Variant v's per-bar returns (NaN at bar 0), `backtest(...).returns` of its options. @internal */
export function strategyVariantReturns(plan: StrategyPlan, v: number, fn: StrategyFunction | undefined, where: string): Float64Array {
  const returns = new Float64Array(plan.n);
  try {
    strategyVariantPass(plan, v, fn, { ...NO_SERIES, returns }, where);
  } finally {
    releaseSharedValues(plan);
  }
  return returns;
}

/**
 * A strategy function rebuilt from its source text (Function.prototype.toString), as a worker
 * thread runs it: only a self-contained function (one that reads nothing from outside its own
 * text but globals such as Math) behaves as the original.
 * @throws Error when the text is not a function expression (a method shorthand, a native or bound function)
 * @internal
 */
export function compileStrategy(source: string): StrategyFunction {
  const fn: unknown = new Function(`return (${source});`)();
  if (typeof fn !== "function") throw new Error(`the source is not a function expression: ${source.slice(0, 60)}`);
  return fn as StrategyFunction;
}
