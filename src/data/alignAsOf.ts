import { withInspect } from "../domain/withInspect.js";
import { panelText } from "./panelText.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { Panel } from "./Panel.js";

/**
 * One feed to align: its own time stamps and value columns (a {@link Panel}
 * qualifies as is) plus the rule for using its values on another time grid.
 */
export interface AsOfFeed {
  /** When each value was stamped, epoch ms; ascending (a repeated stamp: the last row wins). */
  readonly time: ArrayLike<number>;
  /** Value columns, each `time.length` long. */
  readonly columns: Readonly<Record<string, ArrayLike<number>>>;
  /** Publication delay: a value stamped t is known from `t + knownAfterMs` on (e.g. a bar labelled by its open is known one interval later) [0]. */
  readonly knownAfterMs?: number;
  /** Oldest a value may be (grid time minus the time it became known) and still be used; older gives `fillValue` [Infinity]. */
  readonly maxStalenessMs?: number;
  /** `"last"`: the last value known at or before each grid time (as-of); `"exact"`: only a value known exactly at the grid time ["last"]. */
  readonly fill?: "last" | "exact";
  /** Written where no usable value is known (before the first one, stale, or no exact match) [NaN]. */
  readonly fillValue?: number;
  /** `true`: a NaN observation is no news and the previous value stays in force (with its own age); `false`: it is the latest value [true]. */
  readonly skipNaN?: boolean;
  /** Prefix of this feed's output column names, e.g. `"btc_"` [""]. */
  readonly prefix?: string;
}

function checkAscending(time: ArrayLike<number>, what: string, strict: boolean): void {
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number;
    if (typeof t !== "number" || !Number.isFinite(t)) {
      throw new InvalidArgumentError("time", `alignAsOf: ${what} times must be finite epoch ms, got ${String(t)} at index ${i}`);
    }
    if (i > 0 && (strict ? !(t > (time[i - 1] as number)) : t < (time[i - 1] as number))) {
      throw new InvalidArgumentError(
        "time",
        `alignAsOf: ${what} times must be ${strict ? "strictly ascending" : "ascending"}, got ${t} after ${time[i - 1] as number} at index ${i}; sort it first (sortDedupe)`,
      );
    }
  }
}

function nonNegative(value: number | undefined, name: string, fallback: number, feed: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
    throw new InvalidArgumentError(name, `alignAsOf: feeds[${feed}].${name} must be a number >= 0, got ${String(value)}`);
  }
  return value;
}

/**
 * As-of join: put feeds of different cadences on one time grid so that each
 * grid time t gets, per column, the last value KNOWN at or before t (known
 * = stamped time + `knownAfterMs`), and never a value known after t. A value
 * older than `maxStalenessMs` at t, or none at all, gives `fillValue` (NaN).
 * This is pandas' `merge_asof(direction="backward", tolerance=...)`, with the
 * publication delay and the NaN rule made explicit.
 * Output: a {@link Panel} on `grid` (copied) with every feed's columns,
 * named `prefix + column`. Runs in O(grid + feed) per column (merge walk).
 * @param grid target times, epoch ms, strictly ascending
 * @param feeds the feeds (panels qualify), in output column order
 * @throws InvalidArgumentError for unsorted or non-finite times, a column of the wrong length, a bad option, or two output columns with the same name
 * @example
 * alignAsOf([0, 60_000, 120_000], [{ time: [30_000], columns: { funding: [0.01] }, maxStalenessMs: 60_000 }]).columns.funding
 * // Float64Array [NaN, 0.01, NaN]
 */
export function alignAsOf(grid: ArrayLike<number>, feeds: readonly (AsOfFeed | Panel)[]): Panel {
  if (!Array.isArray(feeds)) {
    throw new InvalidArgumentError("feeds", "alignAsOf: feeds must be an array of { time, columns } (panels qualify)");
  }
  checkAscending(grid, "grid", true);
  const g = Float64Array.from(grid);
  const n = g.length;
  const out: Record<string, Float64Array> = {};
  feeds.forEach((feed: AsOfFeed, f) => {
    if (typeof feed !== "object" || feed === null || typeof feed.columns !== "object" || feed.columns === null) {
      throw new InvalidArgumentError("feeds", `alignAsOf: feeds[${f}] must be { time, columns }, got ${JSON.stringify(feed)}`);
    }
    const time = feed.time;
    checkAscending(time, `feeds[${f}]`, false);
    const delay = nonNegative(feed.knownAfterMs, "knownAfterMs", 0, f);
    const maxAge = nonNegative(feed.maxStalenessMs, "maxStalenessMs", Infinity, f);
    const fill = feed.fill ?? "last";
    if (fill !== "last" && fill !== "exact") {
      throw new InvalidArgumentError("fill", `alignAsOf: feeds[${f}].fill must be "last" or "exact", got ${JSON.stringify(fill)}`);
    }
    const fillValue = feed.fillValue ?? Number.NaN;
    if (typeof fillValue !== "number") {
      throw new InvalidArgumentError("fillValue", `alignAsOf: feeds[${f}].fillValue must be a number, got ${JSON.stringify(fillValue)}`);
    }
    const skipNaN = feed.skipNaN ?? true;
    const prefix = feed.prefix ?? "";
    const m = time.length;
    for (const [name, col] of Object.entries(feed.columns)) {
      const key = prefix + name;
      if (key in out || key === "time") {
        throw new InvalidArgumentError(
          "feeds",
          `alignAsOf: output column ${JSON.stringify(key)} (feeds[${f}]) ${key === "time" ? "is reserved" : "appears twice"}; give the feed a prefix, e.g. { prefix: "eth_" }`,
        );
      }
      if (col.length !== m) {
        throw new InvalidArgumentError("feeds", `alignAsOf: feeds[${f}].columns.${name} has ${col.length} values, expected ${m} (one per time)`);
      }
      const res = new Float64Array(n);
      let j = 0;
      let last = -1; // index of the value in force
      for (let i = 0; i < n; i++) {
        const t = g[i] as number;
        while (j < m && (time[j] as number) + delay <= t) {
          if (!skipNaN || !Number.isNaN(col[j] as number)) last = j;
          j++;
        }
        if (last < 0) {
          res[i] = fillValue;
          continue;
        }
        const known = (time[last] as number) + delay;
        res[i] = (fill === "exact" ? known === t : t - known <= maxAge) ? (col[last] as number) : fillValue;
      }
      out[key] = res;
    }
  });
  const panel: Panel = { time: g, columns: out };
  return withInspect(panel, () => panelText(panel));
}
