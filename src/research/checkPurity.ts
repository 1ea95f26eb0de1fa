import { StrategyNotPureError } from "../errors/StrategyNotPureError.js";
import type { SweepValue } from "./SweepResult.js";

/**
 * Is a strategy a pure function of its columns and parameters? Each of `rows` is evaluated a
 * second time (`again(row)`: the metrics it gives now) and compared with the metrics the sweep's
 * table holds for it (`table(row)`), number by number (NaN equal to NaN, 1e-9 relative): a
 * strategy that keeps state between calls, draws random numbers or reads the clock gives other
 * numbers and is refused, naming the variant.
 * @throws StrategyNotPureError naming the first row that gave two answers, its parameters and the metric
 * @internal
 */
export function checkPurity(
  rows: readonly number[],
  again: (row: number) => ArrayLike<number>,
  table: (row: number) => ArrayLike<number>,
  names: readonly string[],
  params: (row: number) => Readonly<Record<string, SweepValue>>,
  where: string,
): void {
  for (const row of rows) {
    const a = again(row);
    const b = table(row);
    for (let m = 0; m < names.length; m++) {
      const x = a[m] as number;
      const y = b[m] as number;
      if (agree(x, y)) continue;
      const p = params(row);
      throw new StrategyNotPureError(
        row,
        p,
        `${where}: the strategy is not a pure function of its columns and parameters: variant ${row} (${JSON.stringify(p)}) gave ${names[m]} ${y} in the sweep and ${x} when run again; ` +
          "a strategy must return the same positions for the same input (no state kept between calls, no random numbers, no clock): move any state into the parameters or compute it from the columns",
      );
    }
  }
}

/** The same number to 1e-9 relative, or both NaN. */
export function agree(x: number, y: number): boolean {
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}
