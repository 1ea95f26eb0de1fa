import { checkReturns } from "./ReturnsOptions.js";

/**
 * Share of bars at whose close a position is held: the count of non-zero
 * weights held at the close (a backtest's `exposure` series, units × close /
 * equity after that close's fill) over the count of non-NaN ones, 0..1.
 * NaN weights are skipped; NaN on empty input (or all NaN).
 *
 * This is time in the market as the engine held it, not as the strategy
 * wished it: a target of 1 on every bar with a stop-loss that exits on bar 89
 * (and stays flat, see `stopLoss`) is held at 89 of 350 closes, 25.4 %, not
 * 100 % (the share of non-zero *targets*). At a position size of 1 it equals
 * the engine's `metrics.exposure` (the mean gross weight held at each close);
 * with a smaller size that mean is smaller, this share is not.
 *
 * backtesting.py's "Exposure Time [%]" marks bars `EntryBar..ExitBar`
 * inclusive of both ends, i.e. every bar the position touched at all,
 * including the one in which a stop closed it: for the case above 90 of 350,
 * 25.7 %. Here a bar counts when the position is still held at its close (a
 * bar whose close holds a position is held through the next bar), so a
 * trade of k bars counts k, never k + 1.
 * @param held weight held at each close (BacktestResult.exposure), signed; only its zero / non-zero matters
 * @throws InvalidArgumentError when held is not an array of numbers
 * @example exposureTime([1, 1, 0, 0.5, Number.NaN]) // 0.75
 */
export function exposureTime(held: ArrayLike<number>): number {
  checkReturns(held, "exposureTime", "held");
  let valid = 0;
  let inMarket = 0;
  for (let i = 0; i < held.length; i++) {
    const w = held[i] as number;
    if (Number.isNaN(w)) continue;
    valid++;
    if (w !== 0) inMarket++;
  }
  return valid > 0 ? inMarket / valid : Number.NaN;
}
