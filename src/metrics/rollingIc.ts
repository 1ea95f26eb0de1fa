import { informationCoefficient } from "./informationCoefficient.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";
import { checkPair } from "./spearmanCorrelation.js";
import { checkTimes } from "./checkTimes.js";
import { checkWindowMs } from "./windowBars.js";

/** Options of {@link rollingIc}. */
export interface RollingIcOptions {
  /** Bar times, epoch ms UTC, ascending, one per bar. */
  readonly time: ArrayLike<number>;
  /** Window length in ms (e.g. 30 days): windows are consecutive blocks [time[0] + k·windowMs, time[0] + (k+1)·windowMs). */
  readonly windowMs: number;
  /** Bars spanned by each forward return (default 1), for the overlap-corrected interval (see `informationCoefficient`). */
  readonly horizon?: number;
  /** Two-sided confidence level of the interval, default 0.95. */
  readonly confidence?: number;
}

/**
 * The rank IC of a signal with forward returns window by window: the bars are
 * cut into consecutive, non-overlapping windows of `windowMs` (from the first
 * bar's time) and each window's IC is `informationCoefficient` of its bars,
 * with its Fisher-z interval. Non-overlapping windows keep the ICs close to
 * independent, so their histogram and QQ plot read as a sample (alphalens
 * plots the same for daily cross-sectional ICs). One row per window with
 * bars: `start` (window start, epoch ms), `time` (last bar of the window),
 * `ic`, `ciLow`, `ciHigh`, `n` (complete pairs); NaN IC where the window has
 * fewer than 2 pairs or a constant side.
 * @throws InvalidArgumentError on different lengths, unsorted times, a bad windowMs, horizon or confidence
 * @example rollingIc(replay.composite, fwd["1 bar"], { time, windowMs: 30 * 86_400_000 }).columns.ic
 */
export function rollingIc(signal: ArrayLike<number>, forward: ArrayLike<number>, options: RollingIcOptions): MetricsTable<{ start: Float64Array; time: Float64Array; ic: Float64Array; ciLow: Float64Array; ciHigh: Float64Array; n: Float64Array }> {
  checkPair(signal, forward, "rollingIc", ["signal", "forward"]);
  const time = checkTimes(signal, options?.time, "rollingIc");
  const windowMs = options.windowMs;
  checkWindowMs(windowMs, "rollingIc");
  const icOptions = { ...(options.horizon !== undefined ? { horizon: options.horizon } : {}), ...(options.confidence !== undefined ? { confidence: options.confidence } : {}) };
  const rows: { start: number; time: number; ic: number; ciLow: number; ciHigh: number; n: number }[] = [];
  const n = signal.length;
  const t0 = time[0] as number;
  let from = 0;
  while (from < n) {
    const block = Math.floor(((time[from] as number) - t0) / windowMs);
    let to = from + 1;
    while (to < n && Math.floor(((time[to] as number) - t0) / windowMs) === block) {
      to++;
    }
    const ic = informationCoefficient(Array.prototype.slice.call(signal, from, to), Array.prototype.slice.call(forward, from, to), icOptions);
    rows.push({ start: t0 + block * windowMs, time: time[to - 1] as number, ic: ic.ic, ciLow: ic.ciLow, ciHigh: ic.ciHigh, n: ic.n });
    from = to;
  }
  return metricsTable({
    start: Float64Array.from(rows, (r) => r.start),
    time: Float64Array.from(rows, (r) => r.time),
    ic: Float64Array.from(rows, (r) => r.ic),
    ciLow: Float64Array.from(rows, (r) => r.ciLow),
    ciHigh: Float64Array.from(rows, (r) => r.ciHigh),
    n: Float64Array.from(rows, (r) => r.n),
  });
}
