import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { barSpec } from "./barChart.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Input of {@link walkForwardChart}: one value per fold (e.g. runWalkForward's `folds` columns). */
export interface WalkForwardChartInput {
  /** Fold numbers (0, 1, ...); shown as "fold 1", "fold 2", ... */
  readonly fold: ArrayLike<number>;
  /** The score of the chosen variant on the fold's training window. */
  readonly inSample: ArrayLike<number>;
  /** Its score on the fold's test window, which the choice never saw. */
  readonly outOfSample: ArrayLike<number>;
}

/** A walk-forward result (runWalkForward's), whose `folds.columns` hold the chart's columns. */
export interface WalkForwardChartResult {
  readonly folds: { readonly columns: WalkForwardChartInput };
}

/** Options of {@link walkForwardChart}. */
export interface WalkForwardChartOptions {
  readonly title?: string;
  /** Value-axis title ["Sharpe ratio"]. */
  readonly valueTitle?: string;
  /** d3-format of the values [".2f"]. */
  readonly format?: string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * vega-lite spec of a walk-forward: per fold, the in-sample score of what was chosen next
 * to its out-of-sample score (grouped bars; a bar chart of {@link barSpec}). An edge shows
 * as out-of-sample bars that keep the in-sample bars' sign; overfitting as in-sample bars
 * far above out-of-sample ones.
 * @throws InvalidArgumentError when the arrays differ in length
 */
export function walkForwardSpec(result: WalkForwardChartInput | WalkForwardChartResult, options: WalkForwardChartOptions = {}): VegaLiteSpec {
  const input = "folds" in result ? result.folds.columns : result;
  const m = input.fold.length;
  if (input.inSample.length !== m || input.outOfSample.length !== m) {
    throw new InvalidArgumentError("input", `walkForwardChart: fold, inSample and outOfSample must have one value per fold, got ${m}, ${input.inSample.length}, ${input.outOfSample.length}`);
  }
  const category: string[] = [];
  const group: string[] = [];
  const value: number[] = [];
  for (let f = 0; f < m; f++) {
    const name = `fold ${(input.fold[f] as number) + 1}`;
    category.push(name, name);
    group.push("in-sample", "out-of-sample");
    value.push(input.inSample[f] as number, input.outOfSample[f] as number);
  }
  return barSpec(
    { category, value, group },
    {
      title: options.title ?? "Walk-forward: the chosen variant in sample and out of sample, per fold",
      valueTitle: options.valueTitle ?? "Sharpe ratio",
      format: options.format ?? ".2f",
      ...(options.width !== undefined ? { width: options.width } : {}),
      ...(options.height !== undefined ? { height: options.height } : {}),
    },
  );
}

/**
 * SVG chart of a walk-forward's folds, in sample vs out of sample: pass the
 * walk-forward result itself, or its per-fold columns.
 * @example const svg = await walkForwardChart(runWalkForward(folds, spec));
 */
export async function walkForwardChart(input: WalkForwardChartInput | WalkForwardChartResult, options: WalkForwardChartOptions = {}): Promise<string> {
  return renderSvg(walkForwardSpec(input, options));
}
