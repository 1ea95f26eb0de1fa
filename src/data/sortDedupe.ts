import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { Panel } from "./Panel.js";

/** What {@link sortDedupe} changed. */
export interface SortDedupeReport {
  /** Rows whose time was below an earlier row's (input was out of order). */
  readonly outOfOrder: number;
  /** Rows dropped because a later row had the same time stamp AND the same values in every column. */
  readonly duplicates: number;
  /** Rows dropped because a later row had the same time stamp but another value in some column. */
  readonly conflicts: number;
  /** Rows dropped because their time was NaN or infinite. */
  readonly badTimes: number;
}

/** Same value, NaN equal to NaN (a repeated missing value is a duplicate, not a conflict). */
function same(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

function toFloat(col: ArrayLike<number>, rows: ArrayLike<number> | undefined, m: number): Float64Array {
  if (rows === undefined && col instanceof Float64Array) return col.slice(0, m);
  const c = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const v = col[rows === undefined ? k : (rows[k] as number)];
    c[k] = typeof v === "number" ? v : Number.NaN;
  }
  return c;
}

/**
 * The library's one sort-and-deduplicate rule for time series (tables,
 * recordings, `/v1/history` bodies): sort rows by time (stable) and keep, for
 * each time stamp, the LAST row in input order (the latest revision wins).
 * Every other row with that stamp is counted as a `duplicate` when all its
 * values equal the kept row's, else as a `conflict`. Rows with a non-finite
 * time are dropped (`badTimes`). Already sorted, unique input is only copied.
 * Returns a new {@link Panel} and what was changed; the inputs are not modified.
 * @throws InvalidArgumentError when a column's length differs from `time`'s
 * @example sortDedupe([120, 0, 120], { x: [1, 2, 3] }).panel.columns.x // Float64Array [2, 3]
 */
export function sortDedupe(
  time: ArrayLike<number>,
  columns: Readonly<Record<string, ArrayLike<number>>> = {},
): { panel: Panel; report: SortDedupeReport } {
  const n = time.length;
  const entries = Object.entries(columns);
  for (const [name, col] of entries) {
    if (col.length !== n) {
      throw new InvalidArgumentError("columns", `sortDedupe: column ${JSON.stringify(name)} has ${col.length} values, expected ${n}`);
    }
  }
  let badTimes = 0;
  let outOfOrder = 0;
  let unique = true;
  let maxSeen = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i] as number;
    if (!Number.isFinite(t)) badTimes++;
    else if (t < maxSeen) outOfOrder++;
    else {
      if (t === maxSeen) unique = false;
      maxSeen = t;
    }
  }
  if (badTimes === 0 && outOfOrder === 0 && unique) {
    const out: Record<string, Float64Array> = {};
    for (const [name, col] of entries) out[name] = toFloat(col, undefined, n);
    return { panel: { time: toFloat(time, undefined, n), columns: out }, report: { outOfOrder: 0, duplicates: 0, conflicts: 0, badTimes: 0 } };
  }
  const idx: number[] = [];
  for (let i = 0; i < n; i++) if (Number.isFinite(time[i] as number)) idx.push(i);
  if (outOfOrder > 0) idx.sort((a, b) => (time[a] as number) - (time[b] as number) || a - b);
  const keep: number[] = [];
  let duplicates = 0;
  let conflicts = 0;
  let start = 0;
  while (start < idx.length) {
    const t = time[idx[start] as number];
    let end = start;
    while (end + 1 < idx.length && time[idx[end + 1] as number] === t) end++;
    const kept = idx[end] as number;
    for (let k = start; k < end; k++) {
      const row = idx[k] as number;
      if (entries.every(([, col]) => same(col[row] as number, col[kept] as number))) duplicates++;
      else conflicts++;
    }
    keep.push(kept);
    start = end + 1;
  }
  const m = keep.length;
  const out: Record<string, Float64Array> = {};
  for (const [name, col] of entries) out[name] = toFloat(col, keep, m);
  return { panel: { time: toFloat(time, keep, m), columns: out }, report: { outOfOrder, duplicates, conflicts, badTimes } };
}
