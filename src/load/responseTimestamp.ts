import { toEpochMillis } from "../data/toEpochMillis.js";

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
 * @example responseTimestamp({ timestamp: "2026-11-22T12:00:00Z", signals: [] }) // 1795348800000
 */
export function responseTimestamp(body: unknown): number {
  if (!isRecord(body)) return Number.NaN;
  for (const k of TOP_KEYS) {
    const t = toEpochMillis(body[k]);
    if (Number.isFinite(t)) return t;
  }
  let latest = Number.NaN;
  for (const list of Object.values(body)) {
    if (!Array.isArray(list)) continue;
    for (const m of list) {
      if (!isRecord(m)) continue;
      const t = toEpochMillis(m["timestamp"] ?? m["time_chain"]);
      if (Number.isFinite(t) && !(t <= latest)) latest = t;
    }
  }
  return latest;
}
