const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;
const NO_ZONE = /T\d\d:\d\d(:\d\d(\.\d+)?)?$/;

/**
 * A time stamp as epoch milliseconds (UTC), or NaN when unreadable.
 * Numbers (and numeric strings) above 1e11 in magnitude are milliseconds,
 * otherwise unix seconds (1e11 s is the year 5138; 1e11 ms is March 1973, so
 * the two ranges cannot be confused for market data). Other strings are read
 * as ISO 8601; an ISO date-time without an offset is taken as UTC (not local
 * time, unlike `Date.parse`).
 * @example toEpochMs(1_700_000_000) // 1700000000000
 * @example toEpochMs("2026-11-22T12:00:00Z") // 1795348800000
 */
export function toEpochMs(x: unknown): number {
  if (typeof x === "number") return Number.isFinite(x) ? (Math.abs(x) > 1e11 ? x : x * 1000) : Number.NaN;
  if (typeof x !== "string" || x.length === 0) return Number.NaN;
  const last = x.charCodeAt(x.length - 1);
  if (last === 90 /* Z */) return Date.parse(x);
  if (NUMERIC.test(x)) return toEpochMs(Number(x));
  return Date.parse(NO_ZONE.test(x) ? `${x}Z` : x);
}
