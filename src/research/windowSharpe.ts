import { sharpeRatio } from "../metrics/sharpeRatio.js";

/**
 * The annualised Sharpe ratio of a window of a variant's returns as the sweep's overfitting tools
 * score it: `sharpeRatio`, except that a window in which the variant never trades (every return that
 * is a number is 0, at least 2 of them) scores 0, the Sharpe of doing nothing, where sharpeRatio says NaN
 * (0 / 0). The PBO's CSCV halves ({@link probabilityOfBacktestOverfitting}) and assessSweep's walk-forward
 * (choosing on the training window, scoring each test fold) follow this one rule, so a flat fold is
 * scored the same way in both.
 * @example windowSharpe(365)(new Float64Array(30)) // 0, not NaN
 * @internal
 */
export function windowSharpe(periodsPerYear: number): (returns: Float64Array) => number {
  return (r) => {
    const s = sharpeRatio(r, { periodsPerYear });
    if (!Number.isNaN(s)) return s;
    let count = 0;
    for (let t = 0; t < r.length; t++) {
      const x = r[t] as number;
      if (Number.isNaN(x)) continue;
      if (x !== 0) return s;
      count++;
    }
    return count >= 2 ? IDLE_SHARPE : s;
  };
}

/** The Sharpe ratio of a window with no trade: 0 (doing nothing neither earns nor risks). */
export const IDLE_SHARPE = 0;
