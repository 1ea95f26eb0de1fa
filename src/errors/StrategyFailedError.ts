import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A strategy function failed on one variant of a sweep, so the sweep
 * stopped rather than report numbers for it: it threw (anything, an Error,
 * `null` or `undefined`), changed the data columns it was given (shared by
 * every variant: one variant's change would corrupt the others), or ran
 * longer than the sweep's `variantTimeoutMs` (its worker was terminated).
 * The message names the variant and its parameters.
 * @example
 * catch (e) { if (e instanceof StrategyFailedError) console.log(e.variant, e.params, e.reason); }
 */
export class StrategyFailedError extends MarketIntelError {
  /** The variant's index in the grid (for a time limit: the first of the block that ran out of time). */
  readonly variant: number;
  /** The variant's parameters. */
  readonly params: Readonly<Record<string, unknown>>;
  /** What went wrong. */
  readonly reason: "threw" | "mutated" | "timeout";

  constructor(variant: number, params: Readonly<Record<string, unknown>>, reason: "threw" | "mutated" | "timeout", message: string, options?: { cause?: unknown }) {
    super("STRATEGY_FAILED", message, options);
    this.variant = variant;
    this.params = params;
    this.reason = reason;
  }
}
