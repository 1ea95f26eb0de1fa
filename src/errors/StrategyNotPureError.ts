import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A strategy function gave different results for the same input: it keeps state between calls,
 * draws random numbers or reads the clock. A sweep's statistics re-run variants (returnsOf, the
 * walk-forward, the lookahead probe), so they need a strategy that is a pure function of its
 * columns and parameters. The message names the function that noticed, the variant (row and
 * parameters), the numbers that differed and the fix.
 */
export class StrategyNotPureError extends MarketIntelError {
  /** The sweep row of the variant that gave two answers. */
  readonly row: number;
  /** Its parameters. */
  readonly params: Readonly<Record<string, unknown>>;

  constructor(row: number, params: Readonly<Record<string, unknown>>, message: string) {
    super("STRATEGY_NOT_PURE", message);
    this.row = row;
    this.params = params;
  }
}
