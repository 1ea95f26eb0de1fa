import { responseTimeMs } from "./responseTimeMs.js";

/** Field names that hold a time in the service's resources (spec section 2). */
const TIME_FIELDS = ["timestamp", "time_chain", "time_local", "updated_at"] as const;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * Check every time of a normalised response (its top-level `timestamp`,
 * `time_chain`, `time_local`, `updated_at`, and those fields of the records
 * in its top-level arrays) by the API's time rule ({@link responseTimeMs}:
 * ISO 8601 or epoch, 2009..2099; an empty or missing time is allowed) and
 * return the response unchanged. Called by the normalisers, so a body stamped
 * 1e20, -1 or in the year 3000 is refused where it is parsed.
 * @throws InvalidTimeError naming the endpoint, the field (e.g. `signals.timestamp`) and the row
 * @example checkResponseTimes({ timestamp: "2026-11-22T12:00:00Z", signals: [] }, "/v1/signals/composite") // the same object
 */
export function checkResponseTimes<T>(response: T, endpoint: string): T {
  if (!isRecord(response)) return response;
  for (const k of TIME_FIELDS) responseTimeMs(response[k], endpoint, k);
  for (const [name, list] of Object.entries(response)) {
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const r: unknown = list[i];
      if (isRecord(r)) for (const k of TIME_FIELDS) responseTimeMs(r[k], endpoint, `${name}.${k}`, i);
    }
  }
  return response;
}
