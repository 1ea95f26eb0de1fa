import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A `store.query` ended before its result: it ran longer than its
 * `timeoutMs`, its `signal` was aborted, or the store was closed while it ran
 * or waited. DuckDB was interrupted, so nothing keeps running.
 * @example
 * catch (e) { if (e instanceof QueryCancelledError && e.reason === "timeout") console.log("narrow the query"); }
 */
export class QueryCancelledError extends MarketIntelError {
  /** Why it ended. */
  readonly reason: "timeout" | "aborted" | "closed";

  constructor(reason: "timeout" | "aborted" | "closed", message: string) {
    super("QUERY_CANCELLED", message);
    this.reason = reason;
  }
}
