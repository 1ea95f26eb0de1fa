import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A paper ledger's booked bars do not replay to its own numbers: at restart the engine, run
 * over the recorded bars with the recorded targets, gives another value (the engine or the
 * options changed, or the file was edited). The ledger is left as it is.
 * @example
 * catch (e) { if (e instanceof LedgerMismatchError) console.log(e.dir, e.bar, e.field); }
 */
export class LedgerMismatchError extends MarketIntelError {
  constructor(
    /** The ledger folder. */
    readonly dir: string,
    /** The first bar that differs. */
    readonly bar: number,
    /** The field that differs there. */
    readonly field: string,
    message: string,
  ) {
    super("LEDGER_MISMATCH", message);
  }
}
