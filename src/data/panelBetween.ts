import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { Panel } from "./Panel.js";
import { lowerBound } from "./lowerBound.js";
import { toEpochMs } from "./toEpochMs.js";

/** A time bound of {@link panelBetween}: epoch ms UTC, an ISO 8601 string (no offset = UTC) or a Date. */
export type TimeBound = number | string | Date;


/**
 * The rows of a Panel whose time lies in [start, end): start included, end
 * excluded (so consecutive slices never share a bar, as pandas' half-open
 * `df[(t >= a) & (t < b)]`). Bounds are epoch ms, `Date`s or ISO 8601 strings,
 * and a string without an offset is UTC (`toEpochMs`'s rule), never the
 * machine's zone; `undefined` leaves that side open. Returns a new Panel with
 * copies of the rows (the input is not modified or shared).
 * @throws InvalidTimeError when a bound is not a time; InvalidArgumentError when end is before start
 * @example panelBetween(panel, "2026-10-30", "2026-10-31").time.length // the bars of 30 October (UTC)
 */
export function panelBetween(panel: Panel, start: TimeBound | undefined, end?: TimeBound): Panel {
  const a = start === undefined ? Number.NEGATIVE_INFINITY : toEpochMs(start, { source: "panelBetween", column: "start" });
  const b = end === undefined ? Number.POSITIVE_INFINITY : toEpochMs(end, { source: "panelBetween", column: "end" });
  if (b < a) {
    throw new InvalidArgumentError("end", `panelBetween: end (${new Date(b).toISOString()}) is before start (${new Date(a).toISOString()}); swap them`);
  }
  const i = lowerBound(panel.time, a);
  const j = lowerBound(panel.time, b);
  const columns: Record<string, Float64Array> = {};
  for (const [name, col] of Object.entries(panel.columns)) columns[name] = col.slice(i, j);
  return { time: panel.time.slice(i, j), columns };
}
