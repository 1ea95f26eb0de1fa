import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** A stretch of time, epoch ms, both ends included, and how many rows or missing steps it spans. */
export interface Stretch {
  readonly from: number;
  readonly to: number;
  readonly length: number;
}

/** Quality of one column. */
export interface ColumnQuality {
  /** Finite values. */
  readonly count: number;
  /** NaN (or infinite) values. */
  readonly missing: number;
  /** Longest run of consecutive missing values. */
  readonly longestMissingRun: number;
  /** Runs of at least `staleAfter` identical consecutive finite values (a feed that stopped updating). */
  readonly stale: readonly Stretch[];
  /** Longest run of identical consecutive finite values (1 when every value differs from the previous). */
  readonly longestStaleRun: number;
  /**
   * Suspect prints: rows whose positive value is more than `jumpRatio` times, or less than 1 / `jumpRatio` of, the
   * previous positive value in the column (e.g. a 0.06 open among 1,180 prices). A place to look, not a verdict.
   */
  readonly jumps: readonly Jump[];
}

/** A row whose value jumped against the previous positive value of its column. */
export interface Jump {
  readonly index: number;
  readonly time: number;
  readonly previous: number;
  readonly value: number;
}

/** What {@link qualityReport} found. */
export interface QualityReport {
  readonly rows: number;
  /** First and last time (NaN when empty). */
  readonly start: number;
  readonly end: number;
  /** Expected spacing of rows, ms: given, or the most common positive step (NaN with fewer than 2 distinct times). */
  readonly stepMs: number;
  /** Non-finite time stamps. */
  readonly badTimes: number;
  /** Rows whose time equals the previous row's. */
  readonly duplicates: number;
  /** Rows whose time is below the previous row's. */
  readonly outOfOrder: number;
  /** Steps longer than `stepMs`: from = last time before, to = first time after, length = missing rows (rounded). */
  readonly gaps: readonly Stretch[];
  /** Missing rows over all gaps. */
  readonly missingRows: number;
  readonly columns: Readonly<Record<string, ColumnQuality>>;
  /** One row per column: column, count, missing, missing_pct, longest_missing_run, stale_runs, longest_stale_run, jumps (ready for `toDataFrame` / `htmlTable`). */
  readonly summary: { column: string[]; count: number[]; missing: number[]; missing_pct: number[]; longest_missing_run: number[]; stale_runs: number[]; longest_stale_run: number[]; jumps: number[] };
}

/** Options of {@link qualityReport}. */
export interface QualityOptions {
  /** Expected row spacing in ms [the most common step]. */
  readonly stepMs?: number;
  /** A run of this many identical consecutive values counts as stale [10]. */
  readonly staleAfter?: number;
  /** A positive value more than this many times (or less than 1 / this) the previous positive one is a suspect print [2]; Infinity turns the check off. */
  readonly jumpRatio?: number;
}

function modeStep(time: ArrayLike<number>): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < time.length; i++) {
    const d = (time[i] as number) - (time[i - 1] as number);
    if (d > 0 && Number.isFinite(d)) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = Number.NaN;
  let most = 0;
  for (const [d, c] of counts) if (c > most || (c === most && d < best)) ((best = d), (most = c));
  return best;
}

/**
 * Data-quality report of a time-indexed table (it need not be clean: this is
 * the check to run before `createPanel` / `alignAsOf`). Reports, in rows
 * and time stretches: non-finite, repeated and out-of-order time stamps;
 * gaps (steps longer than the expected spacing); per column, missing values
 * and stale stretches (the same value repeated `staleAfter` times or more,
 * a feed that stopped updating) and suspect prints (a positive value more
 * than `jumpRatio` times, or under 1 / `jumpRatio` of, the previous positive
 * value: a halving or doubling from one row to the next is almost always a bad
 * tick at crypto bar sizes). Inputs are not modified.
 * @throws InvalidArgumentError when a column's length differs from time's, or an option is out of range
 * @example
 * qualityReport({ time: [0, 60_000, 240_000], columns: { x: [1, NaN, 2] } }).gaps
 * // [{ from: 60000, to: 240000, length: 2 }]
 */
export function qualityReport(
  table: { readonly time: ArrayLike<number>; readonly columns: Readonly<Record<string, ArrayLike<number>>> },
  options: QualityOptions = {},
): QualityReport {
  const where = "qualityReport";
  if (typeof table !== "object" || table === null || typeof table.time?.length !== "number" || typeof table.columns !== "object") {
    throw new InvalidArgumentError("table", `${where}: table must be { time, columns } (a Panel qualifies)`);
  }
  const { time, columns } = table;
  const n = time.length;
  const staleAfter = options.staleAfter ?? 10;
  if (!Number.isInteger(staleAfter) || staleAfter < 2) {
    throw new InvalidArgumentError("staleAfter", `${where}: staleAfter must be an integer >= 2, got ${String(staleAfter)}`);
  }
  const jumpRatio = options.jumpRatio ?? 2;
  if (!(jumpRatio > 1)) {
    throw new InvalidArgumentError("jumpRatio", `${where}: jumpRatio must be a number above 1 (Infinity = off), got ${String(jumpRatio)}`);
  }
  if (options.stepMs !== undefined && !(options.stepMs > 0 && Number.isFinite(options.stepMs))) {
    throw new InvalidArgumentError("stepMs", `${where}: stepMs must be a positive number of ms, got ${String(options.stepMs)}`);
  }
  const stepMs = options.stepMs ?? modeStep(time);
  let badTimes = 0;
  let duplicates = 0;
  let outOfOrder = 0;
  const gaps: Stretch[] = [];
  let missingRows = 0;
  let prev = Number.NaN;
  for (let i = 0; i < n; i++) {
    const t = time[i] as number;
    if (typeof t !== "number" || !Number.isFinite(t)) {
      badTimes++;
      continue;
    }
    if (!Number.isNaN(prev)) {
      const d = t - prev;
      if (d === 0) duplicates++;
      else if (d < 0) outOfOrder++;
      else if (d > stepMs) {
        const missing = Math.max(1, Math.round(d / stepMs) - 1);
        gaps.push({ from: prev, to: t, length: missing });
        missingRows += missing;
      }
    }
    prev = t;
  }
  const quality: Record<string, ColumnQuality> = {};
  const summary: QualityReport["summary"] = { column: [], count: [], missing: [], missing_pct: [], longest_missing_run: [], stale_runs: [], longest_stale_run: [], jumps: [] };
  for (const [name, col] of Object.entries(columns)) {
    if (col.length !== n) throw new InvalidArgumentError("columns", `${where}: column ${JSON.stringify(name)} has ${col.length} values, expected ${n}`);
    let count = 0;
    let missing = 0;
    let run = 0;
    let longestMissingRun = 0;
    let same = 0;
    let longestStaleRun = 0;
    const stale: Stretch[] = [];
    const jumps: Jump[] = [];
    let lastPositive = Number.NaN;
    const closeRun = (endIdx: number): void => {
      if (same >= staleAfter) stale.push({ from: time[endIdx - same + 1] as number, to: time[endIdx] as number, length: same });
    };
    for (let i = 0; i < n; i++) {
      const v = col[i] as number;
      if (!Number.isFinite(v)) {
        missing++;
        run++;
        if (run > longestMissingRun) longestMissingRun = run;
        closeRun(i - 1);
        same = 0;
        continue;
      }
      run = 0;
      count++;
      if (v > 0) {
        const ratio = v / lastPositive;
        if (ratio > jumpRatio || ratio * jumpRatio < 1) jumps.push({ index: i, time: time[i] as number, previous: lastPositive, value: v });
        lastPositive = v;
      }
      if (same > 0 && v === col[i - 1]) same++;
      else {
        closeRun(i - 1);
        same = 1;
      }
      if (same > longestStaleRun) longestStaleRun = same;
    }
    closeRun(n - 1);
    quality[name] = { count, missing, longestMissingRun, stale, longestStaleRun, jumps };
    summary.column.push(name);
    summary.count.push(count);
    summary.missing.push(missing);
    summary.missing_pct.push(n === 0 ? Number.NaN : (100 * missing) / n);
    summary.longest_missing_run.push(longestMissingRun);
    summary.stale_runs.push(stale.length);
    summary.longest_stale_run.push(longestStaleRun);
    summary.jumps.push(jumps.length);
  }
  let start = Number.NaN;
  let end = Number.NaN;
  for (let i = 0; i < n; i++) {
    const t = time[i] as number;
    if (Number.isFinite(t)) {
      if (Number.isNaN(start)) start = t;
      end = t;
    }
  }
  return { rows: n, start, end, stepMs, badTimes, duplicates, outOfOrder, gaps, missingRows, columns: quality, summary };
}
