import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { annualisedSharpe } from "./annualisedSharpe.js";
import { periodsPerYearOf, type AnnualisationFields } from "../metrics/ReturnsOptions.js";
import type { WalkForwardSpec } from "./runWalkForward.js";

/** Options of {@link selectBestVariant}. */
export interface SelectBestVariantOptions extends AnnualisationFields {
  /**
   * Score of a variant's returns over a window, higher is better; default the annualised
   * Sharpe ratio (`sharpeRatio` with `periodsPerYear`, or inferred from `time`, one of which
   * it needs).
   */
  readonly metric?: (returns: Float64Array) => number;
}

/**
 * The walk-forward rule "trade the variant that scored best in the training
 * window": `fit` scores every variant's returns over the training bars and
 * keeps the best (the first on ties; NaN scores never win), `evaluate`
 * returns that variant's returns over the test bars. Works with any per-variant
 * return series (a sweep's `returnsOf(i)`, backtests run by hand), so it
 * does not depend on how they were made. The variant's returns must already
 * be causal (a position decided at bar i earns bar i + 1's return); choosing
 * on the training window is the only thing fitted. If no variant scores (all
 * NaN), the choice is −1 and the test returns are NaN.
 * @param returnsPerVariant one per-bar return series per variant, all the same length
 * @throws InvalidArgumentError with no variants, series of different lengths, or neither metric nor periodsPerYear/time
 * @example runWalkForward(walkForward({ n: returns[0].length, train: 2000, test: 500 }), selectBestVariant(returns, { periodsPerYear: 8760 })) // annualised Sharpe in and out of sample
 */
export function selectBestVariant(
  returnsPerVariant: readonly ArrayLike<number>[],
  options: SelectBestVariantOptions = {},
): WalkForwardSpec<number> & { readonly n: number; readonly metric: (returns: Float64Array) => number } {
  const where = "selectBestVariant";
  if (!Array.isArray(returnsPerVariant) || returnsPerVariant.length === 0) {
    throw new InvalidArgumentError("returnsPerVariant", `${where}: needs an array of per-variant return series, got ${String(returnsPerVariant)}`);
  }
  const n = (returnsPerVariant[0] as ArrayLike<number>)?.length;
  const series = returnsPerVariant.map((r, v) => {
    if (r === null || typeof r !== "object" || r.length !== n) {
      throw new InvalidArgumentError(
        "returnsPerVariant",
        `${where}: every variant needs one return per bar (${n}, like variant 0), got ${r === null || typeof r !== "object" ? String(r) : r.length} in variant ${v}`,
      );
    }
    return r instanceof Float64Array ? r : Float64Array.from(r);
  });
  const metric = options.metric ?? annualisedSharpe(periodsPerYearOf(options, where));
  if (typeof metric !== "function") throw new InvalidArgumentError("metric", `${where}: metric must be a function of a Float64Array, got ${String(metric)}`);
  return {
    n,
    metric,
    fit([a, b]) {
      let best = -1;
      let bestScore = Number.NaN;
      series.forEach((r, v) => {
        const score = metric(r.subarray(a, b));
        if (!Number.isNaN(score) && (best < 0 || score > bestScore)) {
          best = v;
          bestScore = score;
        }
      });
      return { model: best, inSample: bestScore, choice: best };
    },
    evaluate(model, [a, b]) {
      return model < 0 ? new Float64Array(b - a).fill(Number.NaN) : (series[model] as Float64Array).slice(a, b);
    },
  };
}

