import { DATE_LIMIT_MS, toEpochMs } from "../data/toEpochMs.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** A point in time as the store's options accept it: epoch ms, an ISO 8601 string (no offset = UTC) or a Date. */
export type TimeInput = number | string | Date;

/**
 * One time value (epoch ms, Date, ISO 8601 with no offset = UTC) as epoch ms,
 * NaN when unreadable: the store's single call into the library's time rule,
 * so it can be repointed in one place.
 * @example toTime("2026-11-01T00:00:00") // 1793491200000
 * @internal
 */
export function toTime(value: unknown): number {
  return toEpochMs(value, { invalid: "nan" });
}

/**
 * One option bound (`start`, `end`) as epoch ms UTC, or `fallback` when not
 * given. The store's only time conversion: it goes through the library's one
 * boundary rule (`toEpochMs`).
 * @throws InvalidArgumentError when the value is given but is not a readable time
 * @example timeBound("2026-11-01", "start", "readParquet", -Infinity) // 1793491200000
 * @internal
 */
export function timeBound(value: TimeInput | undefined, name: string, where: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity || value === -Infinity) return value;
  const ms = toTime(value);
  if (Number.isNaN(ms)) {
    throw new InvalidArgumentError(name, `${where}: ${name} must be epoch ms, an ISO 8601 time (no offset = UTC) or a Date, got ${JSON.stringify(value)}`);
  }
  return ms;
}

/**
 * A time the store writes (a saved point, a CSV row, a manifest's range) as
 * epoch ms, checked by the library's one time rule (`toEpochMs`) against
 * what a Date can hold (±8.64e15 ms), so an ISO 8601 string and a UTC day
 * can be made of it.
 * @throws InvalidTimeError naming the function, the column, the row and the value, for a non-finite time or one outside a Date's range
 * @example writtenTime(1e300, "writeCsv", "time", 3) // throws InvalidTimeError: writeCsv: time at row 3 must be a time from ...
 * @internal
 */
export function writtenTime(ms: number, source: string, column: string, row?: number): number {
  return toEpochMs(ms, { source, column, row, min: -DATE_LIMIT_MS, max: DATE_LIMIT_MS });
}
