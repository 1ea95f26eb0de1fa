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
