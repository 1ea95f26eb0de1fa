import { sharpeRatio } from "../metrics/sharpeRatio.js";

/**
 * The research tools' default score of a window of returns: the annualised Sharpe ratio
 * (`sharpeRatio` with the given periodsPerYear), used by selectBestVariant, runWalkForward
 * and stationaryBootstrap when no metric is given.
 * @internal
 */
export function annualisedSharpe(periodsPerYear: number): (returns: Float64Array) => number {
  return (r) => sharpeRatio(r, { periodsPerYear });
}
