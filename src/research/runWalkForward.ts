import type { DataFrame } from "../data/danfo.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { annualisedSharpe } from "./annualisedSharpe.js";
import type { WalkForwardFold, BarRange } from "./walkForward.js";

/** What `fit` learned on a training window. */
export interface WalkForwardFit<M> {
  /** Whatever `evaluate` needs, e.g. the chosen variant's index. */
  readonly model: M;
  /** The score that made the choice, measured in sample (e.g. the training Sharpe). */
  readonly inSample: number;
  /** A number identifying the choice for the table (e.g. the variant index); default NaN. */
  readonly choice?: number;
}

/** How to fit on a training window and evaluate on the test window that follows. */
export interface WalkForwardSpec<M> {
  /** Learn from the bars in `train` only. */
  fit(train: BarRange, fold: WalkForwardFold): WalkForwardFit<M>;
  /** The strategy's per-bar returns over `test` (one per bar of the window) with the fitted model. */
  evaluate(model: M, test: BarRange, fold: WalkForwardFold): ArrayLike<number>;
  /** Bars in the whole series: the stitched returns' length. Default: the end of the last test window. */
  readonly n?: number;
  /**
   * Score of a return series, used out of sample (per fold and stitched); default the
   * annualised Sharpe ratio with `periodsPerYear` (one of the two is needed).
   */
  readonly metric?: (returns: Float64Array) => number;
  /** Bars per year of the default metric, the annualised Sharpe ratio. */
  readonly periodsPerYear?: number;
}

/** The per-fold table of {@link runWalkForward}: one Float64Array per column, one entry per fold. */
export interface WalkForwardColumns {
  readonly fold: Float64Array;
  /** Bar indices of the windows, ends exclusive. */
  readonly trainStart: Float64Array;
  readonly trainEnd: Float64Array;
  readonly testStart: Float64Array;
  readonly testEnd: Float64Array;
  /** What `fit` chose (e.g. the variant index); NaN when it did not say. */
  readonly choice: Float64Array;
  /** The score `fit` reported on the training window. */
  readonly inSample: Float64Array;
  /** The metric of the fold's test returns. */
  readonly outOfSample: Float64Array;
}

/** The result of {@link runWalkForward}. */
export interface WalkForwardResult {
  /** One row per fold (see {@link WalkForwardColumns}); `rows` is the number of folds. */
  readonly folds: { readonly rows: number; readonly columns: WalkForwardColumns };
  /** Out-of-sample returns stitched together, one per bar (length `n`), NaN outside the test windows. */
  readonly returns: Float64Array;
  /** The metric of the stitched out-of-sample returns (NaN bars skipped). */
  readonly outOfSample: number;
  /** The fold table as a danfo DataFrame. */
  toDataFrame(): DataFrame;
}

/**
 * Walk-forward evaluation: for each fold, `fit` on its training window, then
 * `evaluate` the fitted model on its test window, which `fit` never saw.
 * Returns the per-fold table (in-sample score vs out-of-sample score, and
 * what was chosen) and the out-of-sample returns stitched into one series
 * aligned with the input bars — the track record the procedure would have
 * produced. Folds come from {@link walkForward}; their test windows must not
 * overlap (use `step ≥ test`).
 * @throws InvalidArgumentError when the test windows overlap or leave [0, n), `evaluate` returns the wrong number of returns, fit/evaluate are missing, or neither metric nor periodsPerYear is given
 * @example runWalkForward(walkForward({ n: 8760, train: 2160, test: 720 }), selectBestVariant(variantReturns, { periodsPerYear: 8760 })).toDataFrame() // annualised Sharpe in and out of sample
 */
export function runWalkForward<M>(folds: readonly WalkForwardFold[], spec: WalkForwardSpec<M>): WalkForwardResult {
  const where = "runWalkForward";
  if (!Array.isArray(folds)) throw new InvalidArgumentError("folds", `${where}: folds must be an array from walkForward(...), got ${String(folds)}`);
  if (spec === null || typeof spec !== "object" || typeof spec.fit !== "function" || typeof spec.evaluate !== "function") {
    throw new InvalidArgumentError("spec", `${where}: needs { fit(train, fold), evaluate(model, test, fold) }, e.g. selectBestVariant(returnsPerVariant)`);
  }
  if (spec.metric === undefined && spec.periodsPerYear === undefined) {
    throw new InvalidArgumentError(
      "spec",
      `${where}: the out-of-sample score needs spec.metric or spec.periodsPerYear (the default metric is the annualised Sharpe ratio), e.g. selectBestVariant(returns, { periodsPerYear: 8760 })`,
    );
  }
  const metric =
    spec.metric ?? annualisedSharpe(checkNumberOption(spec.periodsPerYear, "periodsPerYear", where, { min: 0, minExclusive: true, hint: "365 for daily bars, 8760 hourly" }));
  const lastEnd = folds.length > 0 ? ((folds[folds.length - 1] as WalkForwardFold).test[1] as number) : 0;
  const n = checkNumberOption(spec.n ?? lastEnd, "n", where, { min: 0, integer: true, hint: "the number of bars" });
  const m = folds.length;
  const cols = {
    fold: new Float64Array(m),
    trainStart: new Float64Array(m),
    trainEnd: new Float64Array(m),
    testStart: new Float64Array(m),
    testEnd: new Float64Array(m),
    choice: new Float64Array(m),
    inSample: new Float64Array(m),
    outOfSample: new Float64Array(m),
  };
  const returns = new Float64Array(n).fill(Number.NaN);
  let covered = 0;
  folds.forEach((fold, f) => {
    const [a, b] = fold.test;
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= covered && b > a && b <= n)) {
      throw new InvalidArgumentError(
        "folds",
        `${where}: fold ${f}'s test window [${a}, ${b}) must lie in [0, ${n}) after the previous one (ending at ${covered}); test windows may not overlap, use step ≥ test`,
      );
    }
    covered = b;
    const fitted = spec.fit(fold.train, fold);
    const out = spec.evaluate(fitted.model, fold.test, fold);
    if (out === null || typeof out !== "object" || out.length !== b - a) {
      throw new InvalidArgumentError(
        "evaluate",
        `${where}: evaluate must return one return per test bar (${b - a} for fold ${f}), got ${out === null || typeof out !== "object" ? String(out) : out.length}`,
      );
    }
    for (let i = 0; i < b - a; i++) returns[a + i] = out[i] as number;
    cols.fold[f] = fold.index;
    cols.trainStart[f] = fold.train[0];
    cols.trainEnd[f] = fold.train[1];
    cols.testStart[f] = a;
    cols.testEnd[f] = b;
    cols.choice[f] = fitted.choice ?? Number.NaN;
    cols.inSample[f] = fitted.inSample;
    cols.outOfSample[f] = metric(returns.subarray(a, b));
  });
  return { folds: { rows: m, columns: cols }, returns, outOfSample: metric(returns), toDataFrame: () => toDataFrame(cols) };
}
