import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { lowerBound } from "../data/lowerBound.js";
import { medianSpacing } from "../data/medianSpacing.js";
import { checkNumberOption } from "./checkNumberOption.js";

/** A half-open range of bar indices `[start, end)`. */
export type BarRange = readonly [start: number, end: number];

/** One walk-forward fold: fit on `train`, then evaluate on `test`, which follows it. */
export interface WalkForwardFold {
  /** 0, 1, 2, … in time order. */
  readonly index: number;
  readonly train: BarRange;
  readonly test: BarRange;
}

/** Walk-forward windows counted in bars. */
export interface WalkForwardBarOptions {
  /** Number of bars. */
  readonly n: number;
  /** Bars in each training window (before purging); with `anchored`, the first window's length. */
  readonly train: number;
  /** Bars in each test window. */
  readonly test: number;
  /**
   * Fewest bars a test window may have: the last one, cut by the end of the data, is left out when
   * shorter (a one-bar fold has no Sharpe). 1..test, default `test` (every fold is whole).
   */
  readonly minTest?: number;
  /** Bars between consecutive test starts; default `test` (test windows tile the data). */
  readonly step?: number;
  /** Training always starts at bar 0 (an expanding window) instead of rolling; default false. */
  readonly anchored?: boolean;
  /**
   * Bars dropped from the end of each training window: a training bar's
   * label (e.g. a forward return) looks this many bars ahead, so the last
   * `purge` training bars would see into the test window. Default 0.
   */
  readonly purge?: number;
  /**
   * Bars after each test window that its training window may not use. A
   * walk-forward training window always ends before its test window, so this
   * never removes a bar here; it is accepted (and checked) so the same leak
   * settings can be passed to `walkForward` and `purgedKFold`. Default 0.
   */
  readonly embargo?: number;
}

/** Walk-forward windows as durations over bar times. */
export interface WalkForwardTimeOptions {
  /** Bar times, epoch ms, non-decreasing. */
  readonly time: ArrayLike<number>;
  readonly trainMs: number;
  readonly testMs: number;
  /**
   * Shortest span of data a test window may cover, ms: the last window, cut by the end of the data,
   * is left out when it covers less (its span runs from its start to the last bar's time plus the
   * bars' median spacing). (0, testMs], default `testMs` (every fold is whole).
   */
  readonly minTestMs?: number;
  /** Default `testMs`. */
  readonly stepMs?: number;
  readonly anchored?: boolean;
  /** Default 0. */
  readonly purgeMs?: number;
  /** Default 0 (see {@link WalkForwardBarOptions.embargo}). */
  readonly embargoMs?: number;
}

/**
 * Walk-forward folds: a training window, then the test window right after
 * it, stepped forward through the data. Rolling by default (each training
 * window has the same length), expanding with `anchored`.
 *
 * In bars (`n` given), fold k tests bars [s, min(s + test, n)) with
 * s = train + k·step, and trains on [anchored ? 0 : s − train, s − purge);
 * folds continue while s < n and the test window has at least `minTest`
 * bars (default `test`: a window cut short by the end of the data is left
 * out, never a fold of one bar). With `time`, every length is a duration in ms
 * (`trainMs`, `testMs`, `stepMs`, `purgeMs`, `embargoMs`): fold k tests the
 * bars with time in [t₀ + trainMs + k·stepMs, … + testMs) and trains on the
 * bars with time in [anchored ? t₀ : that start − trainMs, that start −
 * purgeMs), t₀ = time[0]; folds continue while the test window covers at
 * least `minTestMs` of data (default `testMs`), and folds with no train or
 * no test bar (a gap in the data) are left out. Either way, folds are returned as bar-index windows, and no
 * training bar lies in [test start − purge, test end + embargo).
 * Too few bars for one fold: an empty array.
 * @throws InvalidArgumentError on non-integer or non-positive lengths, purge ≥ train, minTest outside 1..test (minTestMs outside (0, testMs]), both or neither of `n` and `time`, or unsorted times
 * @example walkForward({ n: 1000, train: 500, test: 100, purge: 12 }) // 5 folds; folds[0] = { index: 0, train: [0, 488], test: [500, 600] }
 */
export function walkForward(options: WalkForwardBarOptions | WalkForwardTimeOptions): WalkForwardFold[] {
  const where = "walkForward";
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError("options", `${where}: needs { n, train, test } in bars or { time, trainMs, testMs } in ms, got ${String(options)}`);
  }
  const hasN = "n" in options && options.n !== undefined;
  const hasTime = "time" in options && options.time !== undefined;
  if (hasN === hasTime) {
    throw new InvalidArgumentError(
      "options",
      `${where}: give either n (windows in bars) or time (windows in ms), ${hasN ? "got both" : "got neither"}`,
    );
  }
  const anchored = options.anchored ?? false;
  if (typeof anchored !== "boolean") throw new InvalidArgumentError("anchored", `${where}: anchored must be true or false, got ${String(anchored)}`);
  return hasN ? barFolds(options as WalkForwardBarOptions, anchored) : timeFolds(options as WalkForwardTimeOptions, anchored);
}

function barFolds(o: WalkForwardBarOptions, anchored: boolean): WalkForwardFold[] {
  const where = "walkForward";
  const bars = { min: 0, integer: true } as const;
  const n = checkNumberOption(o.n, "n", where, { ...bars, hint: "the number of bars" });
  const train = checkNumberOption(o.train, "train", where, { min: 1, integer: true, hint: "bars per training window" });
  const test = checkNumberOption(o.test, "test", where, { min: 1, integer: true, hint: "bars per test window" });
  const step = checkNumberOption(o.step ?? test, "step", where, { min: 1, integer: true, hint: "bars between test starts" });
  const minTest = checkNumberOption(o.minTest ?? test, "minTest", where, { min: 1, max: test, integer: true, hint: "at most the test window" });
  const purge = checkNumberOption(o.purge ?? 0, "purge", where, { ...bars, max: train - 1, hint: "fewer bars than a training window" });
  checkNumberOption(o.embargo ?? 0, "embargo", where, bars);
  const folds: WalkForwardFold[] = [];
  for (let s = train; s < n && Math.min(s + test, n) - s >= minTest; s += step) {
    folds.push({ index: folds.length, train: [anchored ? 0 : s - train, s - purge], test: [s, Math.min(s + test, n)] });
  }
  return folds;
}

function timeFolds(o: WalkForwardTimeOptions, anchored: boolean): WalkForwardFold[] {
  const where = "walkForward";
  const time = o.time;
  if (time === null || typeof time !== "object" || typeof time.length !== "number") {
    throw new InvalidArgumentError("time", `${where}: time must be an array of epoch ms, got ${String(time)}`);
  }
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number;
    if (!Number.isFinite(t) || (i > 0 && t < (time[i - 1] as number))) {
      throw new InvalidArgumentError("time", `${where}: time must be finite epoch ms in non-decreasing order, got ${String(t)} at index ${i}`);
    }
  }
  const ms = { min: 0, minExclusive: true } as const;
  const trainMs = checkNumberOption(o.trainMs, "trainMs", where, { ...ms, hint: "e.g. 14 * 86_400_000 for 14 days" });
  const testMs = checkNumberOption(o.testMs, "testMs", where, { ...ms, hint: "e.g. 7 * 86_400_000 for 7 days" });
  const stepMs = checkNumberOption(o.stepMs ?? testMs, "stepMs", where, ms);
  const minTestMs = checkNumberOption(o.minTestMs ?? testMs, "minTestMs", where, { ...ms, max: testMs, hint: "at most testMs" });
  const purgeMs = checkNumberOption(o.purgeMs ?? 0, "purgeMs", where, { min: 0, max: trainMs, maxExclusive: true, hint: "shorter than trainMs" });
  checkNumberOption(o.embargoMs ?? 0, "embargoMs", where, { min: 0 });
  const n = time.length;
  const folds: WalkForwardFold[] = [];
  if (n === 0) return folds;
  const t0 = time[0] as number;
  const last = time[n - 1] as number;
  const spacing = medianSpacing(time);
  // where the data ends: the last bar covers [last, last + spacing)
  const dataEnd = last + (Number.isFinite(spacing) ? spacing : 0);
  for (let k = 0; ; k++) {
    const start = t0 + trainMs + k * stepMs;
    if (start > last || Math.min(start + testMs, dataEnd) - start < minTestMs) break;
    const test: BarRange = [lowerBound(time, start), lowerBound(time, start + testMs)];
    const train: BarRange = [lowerBound(time, anchored ? t0 : start - trainMs), lowerBound(time, start - purgeMs)];
    if (test[1] > test[0] && train[1] > train[0]) folds.push({ index: folds.length, train, test });
  }
  return folds;
}
