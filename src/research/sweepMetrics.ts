/**
 * The metrics a sweep reports for every variant, in column order:
 * - `totalReturn`: final equity / initial equity - 1 (decimal);
 * - `sharpeRatio`: annualised Sharpe ratio of the per-bar returns (`sharpeRatio`, periodsPerYear of the sweep);
 * - `maxDrawdown`: worst peak-to-trough fall, a negative decimal (`maxDrawdown`);
 * - `trades`: round trips, the one still open at the end included (the backtest's `trades.length`);
 * - `turnover`: sum over bars of the notional traded / equity (multiples of equity; the sum of the backtest's `turnover`);
 * - `exposure`: mean over bars of the gross weight held at each close (mean |backtest exposure|; 0..1 at size 1).
 */
export const SWEEP_METRICS = ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"] as const;

/** One of {@link SWEEP_METRICS}. */
export type SweepMetric = (typeof SWEEP_METRICS)[number];

/** The Sharpe ratio of a run from its sums: moved to the engine (src/backtest/sharpeFromSums.ts), where a backtest's own metrics use it too. @internal */
export { sharpeFromSums } from "../backtest/sharpeFromSums.js";
