import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A time value could not be turned into epoch ms, or lies outside the range
 * allowed where it was read (see `toEpochMs`). Raised at the boundary where
 * times enter the library: user tables, loaders, API responses. The message
 * names the function or endpoint, the column or field, the row, the value and
 * the allowed range, e.g.
 * `/v1/history: data.3.time_chain at row 3 must be a time from 2009-01-01T00:00:00.000Z to 2099-12-31T23:59:59.999Z, got 1e+20 (out of range)`.
 * @example
 * catch (e) { if (e instanceof InvalidTimeError) console.log(e.source, e.column, e.row); }
 */
export class InvalidTimeError extends MarketIntelError {
  /** Function or endpoint that read the value, e.g. `"fromDataFrame"` or `"/v1/history"`. */
  readonly source: string;
  /** Column or field holding the value, e.g. `"time"` or `"signals.timestamp"`. */
  readonly column: string;
  /** Row (0-based) of the value, when it came from a table or an array. */
  readonly row: number | undefined;
  /** The rejected value, as text (strings quoted, at most 60 characters). */
  readonly value: string;

  constructor(source: string, column: string, row: number | undefined, value: string, message: string) {
    super("INVALID_TIME", message);
    this.source = source;
    this.column = column;
    this.row = row;
    this.value = value;
  }
}
