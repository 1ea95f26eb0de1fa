import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { Panel } from "./Panel.js";

/** What {@link sortDedupe} changed. */
export interface SortDedupeReport {
  /** Rows whose time was below an earlier row's (input was out of order). */
  readonly outOfOrder: number;
  /** Rows dropped because a later row had the same time stamp. */
  readonly duplicates: number;
  /** Rows dropped because their time was NaN or infinite. */
  readonly badTimes: number;
}

/**
 * Sort rows by time (stable) and keep, for each time stamp, the LAST row in
 * input order (the latest revision wins, the rule `parseHistory` follows too).
 * Rows with a non-finite time are dropped. Returns a new {@link Panel} and what
 * was changed; the inputs are not modified.
 * @throws InvalidArgumentError when a column's length differs from `time`'s
 * @example sortDedupe([120, 0, 120], { x: [1, 2, 3] }).panel.columns.x // Float64Array [2, 3]
 */
export function sortDedupe(
  time: ArrayLike<number>,
  columns: Readonly<Record<string, ArrayLike<number>>> = {},
): { panel: Panel; report: SortDedupeReport } {
  const n = time.length;
  for (const [name, col] of Object.entries(columns)) {
    if (col.length !== n) {
      throw new InvalidArgumentError("columns", `sortDedupe: column ${JSON.stringify(name)} has ${col.length} values, expected ${n}`);
    }
  }
  const idx: number[] = [];
  let badTimes = 0;
  let outOfOrder = 0;
  let maxSeen = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i] as number;
    if (!Number.isFinite(t)) {
      badTimes++;
      continue;
    }
    if (t < maxSeen) outOfOrder++;
    else maxSeen = t;
    idx.push(i);
  }
  if (outOfOrder > 0) idx.sort((a, b) => (time[a] as number) - (time[b] as number) || a - b);
  const keep: number[] = [];
  for (let k = 0; k < idx.length; k++) {
    const next = idx[k + 1];
    if (next !== undefined && time[next] === time[idx[k] as number]) continue;
    keep.push(idx[k] as number);
  }
  const m = keep.length;
  const t = new Float64Array(m);
  for (let k = 0; k < m; k++) t[k] = time[keep[k] as number] as number;
  const out: Record<string, Float64Array> = {};
  for (const [name, col] of Object.entries(columns)) {
    const c = new Float64Array(m);
    for (let k = 0; k < m; k++) {
      const v = col[keep[k] as number];
      c[k] = typeof v === "number" ? v : Number.NaN;
    }
    out[name] = c;
  }
  return { panel: { time: t, columns: out }, report: { outOfOrder, duplicates: idx.length - m, badTimes } };
}
