import { toEpochMs } from "../data/toEpochMs.js";
import { API_TIME_RANGE } from "./apiTimeRange.js";

/**
 * A time read from an API response, by the library's one time rule
 * (`toEpochMs`) held to {@link API_TIME_RANGE}: an ISO 8601 string (no offset
 * = UTC), or a number / numeric string taken as unix seconds below 1e11 and
 * ms above (`unit: "auto"`). A missing time (`null`, `undefined`, `""`) is
 * NaN, i.e. missing data; any other value must be a time from 2009 to 2099.
 * @param endpoint endpoint path named by the error, e.g. `"/v1/signals/composite"`
 * @param field field path named by the error, e.g. `"signals.timestamp"`
 * @param row index of the record in its array, when there is one
 * @throws InvalidTimeError naming endpoint, field and row when the value is not a time or out of range (1e20, -1, year 3000)
 * @example responseTimeMs("2026-11-22T12:00:00Z", "/v1/signals/composite", "signals.timestamp", 0) // 1795348800000
 */
export function responseTimeMs(value: unknown, endpoint: string, field: string, row?: number): number {
  if (value === null || value === undefined || value === "") return Number.NaN;
  const ms = toEpochMs(value, QUICK);
  if (!Number.isNaN(ms)) return ms;
  return toEpochMs(value, { source: endpoint, column: field, row, min: API_TIME_RANGE.min, max: API_TIME_RANGE.max, unit: "auto" });
}

/** The same rule without the error (no options object per point on long histories); a NaN is read again above to raise the error. */
const QUICK = { min: API_TIME_RANGE.min, max: API_TIME_RANGE.max, unit: "auto", invalid: "nan" } as const;
