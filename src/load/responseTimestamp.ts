import { responseTimeMs } from "../api/responseTimeMs.js";

type Rec = Record<string, unknown>;

function isRecord(x: unknown): x is Rec {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

const TOP_KEYS = ["timestamp", "updated_at", "time", "as_of", "generated_at"] as const;

/**
 * A response's own time stamp (epoch ms): the top-level `timestamp` (or
 * `updated_at`, `time`, `as_of`, `generated_at`); else the latest `timestamp`
 * or `time_chain` of the records in its top-level arrays (the composite's
 * `signals`, the snapshot's `metrics`). NaN when the body carries none.
 * Times are read by the API's time rule (`responseTimeMs`: 2009..2099).
 * @throws InvalidTimeError naming the field and row of a stamp that is not a time or out of range (1e20, -1, year 3000)
 * @example responseTimestamp({ timestamp: "2026-11-22T12:00:00Z", signals: [] }) // 1795348800000
 */
export function responseTimestamp(body: unknown): number {
  if (!isRecord(body)) return Number.NaN;
  for (const k of TOP_KEYS) {
    const t = responseTimeMs(body[k], "responseTimestamp", k);
    if (Number.isFinite(t)) return t;
  }
  let latest = Number.NaN;
  for (const [name, list] of Object.entries(body)) {
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const m: unknown = list[i];
      if (!isRecord(m)) continue;
      const t = responseTimeMs(m["timestamp"] ?? m["time_chain"], "responseTimestamp", `${name}.${m["timestamp"] === undefined ? "time_chain" : "timestamp"}`, i);
      if (Number.isFinite(t) && !(t <= latest)) latest = t;
    }
  }
  return latest;
}
