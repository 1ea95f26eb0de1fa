import { responseTimeMs } from "./responseTimeMs.js";

/** Field names that hold a time in the service's resources (spec section 2). */
const TIME_FIELDS = ["timestamp", "time_chain", "time_local", "updated_at"] as const;

/**
 * How many objects and arrays deep the walk goes (the response itself is depth 0).
 * The deepest time the spec shows is whale flow's `whale_flow[i].whale_orders[j].timestamp`,
 * depth 4; fields deeper than this bound are not checked, so a pathological body
 * costs no more than a bounded walk.
 */
const MAX_DEPTH = 16;

/**
 * Check every time of a normalised response by the API's time rule
 * ({@link responseTimeMs}: ISO 8601 or epoch, 2009..2099; an empty or missing
 * time is allowed) and return the response unchanged. Every `timestamp`,
 * `time_chain`, `time_local` and `updated_at` is checked, at the top level and
 * in every object and array below it (to depth 16), e.g. whale flow's
 * `whale_flow[i].whale_orders[j].timestamp`. Called by the normalisers, so a
 * body stamped 1e20, -1 or in the year 3000 is refused where it is parsed.
 * @throws InvalidTimeError naming the endpoint, the field's full path and the row: the index in the
 *   innermost array, the outer indices written into the path (`signals.timestamp` row 1;
 *   `whale_flow[0].whale_orders.timestamp` row 2)
 * @example checkResponseTimes({ timestamp: "2026-11-22T12:00:00Z", signals: [] }, "/v1/signals/composite") // the same object
 */
export function checkResponseTimes<T>(response: T, endpoint: string): T {
  walk(response, "", undefined, 0, endpoint);
  return response;
}

/** Check the time fields of `node` (an object or array reached by `path`, at index `row` of its array) and walk its children. */
function walk(node: unknown, path: string, row: number | undefined, depth: number, endpoint: string): void {
  if (typeof node !== "object" || node === null || depth > MAX_DEPTH) return;
  const here = row === undefined ? path : `${path}[${row}]`;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) walk(node[i], here, i, depth + 1, endpoint);
    return;
  }
  const record = node as Record<string, unknown>;
  for (const k of TIME_FIELDS) responseTimeMs(record[k], endpoint, join(path, k), row);
  for (const [k, v] of Object.entries(record)) walk(v, join(here, k), undefined, depth + 1, endpoint);
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
