import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Persistence and transition statistics of a label series, as of its last bar. */
export interface RegimeStatistics {
  /** transition[a][b] = share of bars in state a followed by state b (rows sum to 1, NaN rows never visited). */
  readonly transition: number[][];
  /** Probability the current state persists one more bar: transition[current][current]. */
  readonly persistence: number;
  /** The current state (last non-negative label), or -1. */
  readonly current: number;
  /** Bars the current state has lasted up to and including the last bar. */
  readonly duration: number;
}

/**
 * Estimate a Markov transition matrix, the persistence probability and the
 * current run length from past integer labels 0..states-1 only (negative labels,
 * e.g. warm-up, are skipped and break no run). Pass a prefix to get the
 * statistics as they were known then.
 * @example regimeStatistics([0, 0, 1, 1, 1], { states: 2 }).duration // 3
 */
export function regimeStatistics(labels: ArrayLike<number>, options: { states: number }): RegimeStatistics {
  const { states } = options;
  if (!Number.isInteger(states) || states < 1) {
    throw new InvalidArgumentError("states", `regimeStatistics: states must be a positive integer, got ${states}`);
  }
  const counts = Array.from({ length: states }, () => new Array<number>(states).fill(0));
  let prev = -1;
  let current = -1;
  let duration = 0;
  for (let i = 0; i < labels.length; i++) {
    const s = labels[i] as number;
    if (!(s >= 0)) continue;
    if (!Number.isInteger(s) || s >= states) {
      throw new InvalidArgumentError("labels", `regimeStatistics: labels must be integers below ${states}, got ${s} at ${i}`);
    }
    if (prev >= 0) (counts[prev] as number[])[s] = ((counts[prev] as number[])[s] as number) + 1;
    duration = s === current ? duration + 1 : 1;
    current = s;
    prev = s;
  }
  const transition = counts.map((row) => {
    const total = row.reduce((a, b) => a + b, 0);
    return row.map((c) => (total > 0 ? c / total : Number.NaN));
  });
  const persistence = current >= 0 ? ((transition[current] as number[])[current] as number) : Number.NaN;
  return { transition, persistence, current, duration };
}

/** {@link regimeStatistics} as known at every bar. */
export interface RegimeStatisticsSeries {
  /** The current state at each bar (last non-negative label up to it), or -1. */
  readonly current: Int8Array;
  /** Bars the current state has lasted up to and including each bar (0 before any state). */
  readonly duration: Float64Array;
  /** P(current state persists one more bar), from the transitions seen up to each bar; NaN before one was seen. */
  readonly persistence: Float64Array;
}

/**
 * The current state, its duration and its persistence probability at every bar,
 * each estimated from the labels up to that bar only (equal, bar by bar, to
 * `regimeStatistics(labels.slice(0, t + 1))`), in one O(n) pass. Labels as for
 * {@link regimeStatistics}: integers 0..states-1; negative labels are skipped.
 * @throws InvalidArgumentError on a bad `states` or a label >= states
 * @example regimeStatisticsSeries([0, 0, 1, 1], { states: 2 }).persistence // Float64Array [NaN, 1, NaN, 1]
 */
export function regimeStatisticsSeries(labels: ArrayLike<number>, options: { states: number }): RegimeStatisticsSeries {
  const { states } = options;
  if (!Number.isInteger(states) || states < 1 || states > 127) {
    throw new InvalidArgumentError("states", `regimeStatisticsSeries: states must be an integer in [1, 127], got ${states}`);
  }
  const n = labels.length;
  const current = new Int8Array(n).fill(-1);
  const duration = new Float64Array(n);
  const persistence = new Float64Array(n).fill(Number.NaN);
  const stay = new Float64Array(states);
  const leave = new Float64Array(states);
  let cur = -1;
  let dur = 0;
  for (let i = 0; i < n; i++) {
    const s = labels[i] as number;
    if (s >= 0) {
      if (!Number.isInteger(s) || s >= states) {
        throw new InvalidArgumentError("labels", `regimeStatisticsSeries: labels must be integers below ${states}, got ${s} at ${i}`);
      }
      if (cur >= 0) {
        if (s === cur) stay[cur] = (stay[cur] as number) + 1;
        else leave[cur] = (leave[cur] as number) + 1;
      }
      dur = s === cur ? dur + 1 : 1;
      cur = s;
    }
    current[i] = cur;
    duration[i] = dur;
    if (cur >= 0) {
      const total = (stay[cur] as number) + (leave[cur] as number);
      persistence[i] = total > 0 ? (stay[cur] as number) / total : Number.NaN;
    }
  }
  return { current, duration, persistence };
}
