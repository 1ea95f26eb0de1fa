import { sortDedupe } from "../data/sortDedupe.js";

/** Shape a `/v1/history` body came in (names match the replay server's `_variant`s). */
export type HistoryVariant = "wrapped" | "array" | "pairs" | "columnar" | "rows" | "empty";

/** A metric's time series, columnar. */
export interface HistorySeries {
  /** Epoch ms, UTC, strictly ascending. */
  readonly time: Float64Array;
  /** Values, same length as `time`, all finite. */
  readonly value: Float64Array;
  /** Metric id from the envelope or the points, when the body names it. */
  readonly metricId?: string;
  readonly variant: HistoryVariant;
  /** Points removed: missing time or missing/unreadable value; exact repeats; same time with another value. */
  readonly dropped: { readonly nulls: number; readonly duplicates: number; readonly conflicts: number };
}

/** Points read so far (unsorted, not deduplicated) and the count of null ones. @internal */
export interface HistoryPoints {
  t: Float64Array;
  v: Float64Array;
  n: number;
  nulls: number;
}

/** An empty accumulator for up to `capacity` points. @internal */
export function historyPoints(capacity: number): HistoryPoints {
  return { t: new Float64Array(capacity), v: new Float64Array(capacity), n: 0, nulls: 0 };
}

/**
 * Add one point, by the rule both history readers follow: a point whose time
 * is NaN (missing) or whose value is not finite (null, unreadable, overflow)
 * is dropped and counted in `nulls`. Writing in place over the accumulator's
 * own arrays is safe (a point never moves forward).
 * @internal
 */
export function pushPoint(p: HistoryPoints, time: number, value: number): void {
  if (Number.isNaN(time) || !Number.isFinite(value)) {
    p.nulls++;
    return;
  }
  p.t[p.n] = time;
  p.v[p.n] = value;
  p.n++;
}

/**
 * The series from the points read: sorted and deduplicated by the library's
 * one rule (`sortDedupe`: the last point per time stamp wins), with what was
 * dropped. The result never aliases the accumulator's arrays.
 * @internal
 */
export function finishHistory(p: HistoryPoints, variant: HistoryVariant, metricId: string | undefined): HistorySeries {
  const { panel, report } = sortDedupe(p.t.subarray(0, p.n), { value: p.v.subarray(0, p.n) });
  return {
    time: panel.time,
    value: panel.columns["value"] as Float64Array,
    ...(metricId === undefined ? {} : { metricId }),
    variant,
    dropped: { nulls: p.nulls, duplicates: report.duplicates, conflicts: report.conflicts },
  };
}
