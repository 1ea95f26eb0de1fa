import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createRng } from "../random/prng.js";
import { optimalBlockLength } from "../research/optimalBlockLength.js";
import { stationaryBlocks } from "../research/stationaryBlocks.js";
import { stationaryResample } from "../research/stationaryResample.js";

/** Options of {@link performanceBand} (and paperTrade's `band`, with the backtest's `returns`). */
export interface PerformanceBandOptions {
  /** Live bars the band covers (k = 1..horizonBars) [1 440]. */
  readonly horizonBars?: number;
  /** False-alarm rate: the probability that a path of the backtest's own kind leaves the band somewhere in the horizon, in (0, 0.5) [0.01]. */
  readonly level?: number;
  /** Bootstrap paths [1 000]. */
  readonly draws?: number;
  /** Mean block length of the stationary bootstrap, bars ≥ 1 [optimalBlockLength of the returns, at least 1]. */
  readonly meanBlockBars?: number;
  /** 32-bit seed: the same seed gives the same band (a restart recomputes it) [0]. */
  readonly seed?: number;
}

/** The band: for k = 1..horizonBars live bars, the range of the cumulative log return ln(equity_k / equity_0) that raises no alarm. */
export interface PerformanceBand {
  /** `lower[k - 1]`: the smallest cumulative log return after k live bars inside the band. */
  readonly lower: Float64Array;
  /** `upper[k - 1]`: the largest. */
  readonly upper: Float64Array;
  readonly horizonBars: number;
  readonly level: number;
  readonly draws: number;
  readonly meanBlockBars: number;
  /** Share of the bootstrap paths that leave the band somewhere in the horizon (≤ level: the calibrated false-alarm rate). */
  readonly exceedance: number;
  /** The backtest's finite returns the band was drawn from. */
  readonly bars: number;
}

/**
 * The backtest's bootstrap band for a paper trader's realised performance: where the cumulative
 * log return of k live bars, L_k = Σ ln(1 + r_i) over live bars 1..k, may lie if live trading is
 * the backtest again (Politis & Romano 1994 stationary bootstrap; a predictive two-stage draw).
 *
 * Rule. Each of `draws` paths is drawn in two stages: (1) a stationary-bootstrap resample of the
 * backtest's m finite bar returns (length m: the uncertainty of the backtest's own mean and
 * volatility), (2) a stationary-bootstrap path of `horizonBars` bars from that resample; both
 * with mean block `meanBlockBars`. The path's cumulative log return at k is its L_k. At each k
 * the paths are ranked; the band at k runs from the (j+1)-th smallest to the (j+1)-th largest
 * value, with j the largest rank depth such that at most `level` x draws paths ever reach a
 * rank below j or above draws−1−j anywhere in the horizon. So the band is simultaneous: a path
 * of the backtest's kind leaves it at any bar of the horizon with probability ≈ level (the
 * share of bootstrap paths that do is `exceedance` ≤ level), not at each bar; a pointwise 1%/99%
 * band checked every bar would alarm most null runs over 2,000 bars.
 *
 * An alarm (paperTrade's "performance" event) is raised when L_k leaves the band and again only
 * after it came back in; after `horizonBars` live bars the band ends and raises nothing.
 *
 * False-alarm rate, measured (200 runs each; the backtest m = 1,000 i.i.d. normal bar returns,
 * mean 0.05 sd, live returns drawn afresh from the same distribution over a 500-bar horizon,
 * 1,000 draws): level 0.05 alarmed in 17 of 200 null runs (8.5%), and in 195 of 200 when the
 * live mean is shifted by −0.25 sd per bar; level 0.01 alarmed in 11 of 200 null runs (5.5%;
 * with 1,000 draws the 1% band is already the envelope of all paths) and 193 of 200 shifted.
 * The rate on fresh data is above `level` because the band is drawn from one finite backtest
 * (its mean is itself uncertain; the first stage covers part of that): a backtest several times
 * longer than the horizon and more draws bring it closer. test/paper/performanceBand.test.ts
 * checks a 30-run version of this (at most 4 null alarms, at least 26 shifted).
 *
 * Cost: O(draws x (m + horizonBars)) draws and O(horizonBars x draws log draws) for the ranks;
 * memory 8 x draws x horizonBars bytes while computing (16 MB for 1,000 x 2,000).
 * @throws InvalidArgumentError on fewer than 2 finite returns or an option out of range
 * @example
 * const b = performanceBand(bt.returns, { horizonBars: 500, level: 0.01 });
 * b.lower[99] <= Math.log(liveEquity[100] / liveEquity[0]) && Math.log(liveEquity[100] / liveEquity[0]) <= b.upper[99]; // inside: no alarm
 */
export function performanceBand(returns: ArrayLike<number>, options: PerformanceBandOptions = {}): PerformanceBand {
  const where = "performanceBand";
  const g: number[] = [];
  for (let i = 0; i < returns.length; i++) {
    const r = returns[i] as number;
    if (Number.isFinite(r) && r > -1) g.push(Math.log1p(r));
  }
  const m = g.length;
  if (m < 2) throw new InvalidArgumentError("band.returns", `${where}: band.returns must hold at least 2 finite bar returns of the backtest (e.g. backtest(...).returns), got ${m}`);
  const K = options.horizonBars ?? 1440;
  if (!Number.isInteger(K) || K < 1 || K > 1e6) throw new InvalidArgumentError("band.horizonBars", `${where}: band.horizonBars must be an integer 1..1000000, got ${String(K)}`);
  const level = options.level ?? 0.01;
  if (!(level > 0 && level < 0.5)) throw new InvalidArgumentError("band.level", `${where}: band.level must be a false-alarm rate in (0, 0.5), e.g. 0.01, got ${String(level)}`);
  const D = options.draws ?? 1000;
  if (!Number.isInteger(D) || D < 20 || D > 1e5) throw new InvalidArgumentError("band.draws", `${where}: band.draws must be an integer 20..100000, got ${String(D)}`);
  if (D * K > 5e7) throw new InvalidArgumentError("band.draws", `${where}: band.draws x band.horizonBars must be at most 5e7 (memory), got ${D} x ${K}; shorten the horizon or draw fewer paths`);
  const b = options.meanBlockBars ?? Math.max(1, optimalBlockLength(g) || 1);
  if (!(b >= 1) || !Number.isFinite(b)) throw new InvalidArgumentError("band.meanBlockBars", `${where}: band.meanBlockBars must be a number of bars >= 1, got ${String(b)}`);
  const seed = options.seed ?? 0;
  if (!Number.isInteger(seed)) throw new InvalidArgumentError("band.seed", `${where}: band.seed must be an integer, got ${String(seed)}`);

  const rng = createRng(seed);
  const starts = new Int32Array(Math.max(m, K));
  const lengths = new Int32Array(Math.max(m, K));
  const resample = new Float64Array(m);
  // paths[k * D + d]: path d's cumulative log return after k + 1 bars (bar-major: one k is contiguous for ranking)
  const paths = new Float64Array(K * D);
  for (let d = 0; d < D; d++) {
    stationaryResample(g, b, rng, resample, starts, lengths);
    const runs = stationaryBlocks(m, b, rng, starts, lengths, K);
    let sum = 0;
    for (let r = 0, k = 0; r < runs; r++) {
      for (let s = starts[r] as number, e = s + (lengths[r] as number); s < e; s++) {
        sum += resample[s] as number;
        paths[k++ * D + d] = sum;
      }
    }
  }
  // each path's deepest rank from either end over the horizon
  const depth = new Int32Array(D).fill(D);
  const order = new Int32Array(D);
  const keep = Math.floor((level * D) / 2) + 1; // the band's rank j is below level x D / 2: keep the tails that deep
  const lowTail = new Float64Array(K * keep);
  const highTail = new Float64Array(K * keep);
  for (let k = 0; k < K; k++) {
    const row = paths.subarray(k * D, (k + 1) * D);
    for (let d = 0; d < D; d++) order[d] = d;
    order.sort((x, y) => (row[x] as number) - (row[y] as number) || x - y);
    for (let r = 0; r < D; r++) {
      const d = order[r] as number;
      const deep = Math.min(r, D - 1 - r);
      if (deep < (depth[d] as number)) depth[d] = deep;
    }
    for (let r = 0; r < keep; r++) {
      lowTail[k * keep + r] = row[order[r] as number] as number;
      highTail[k * keep + r] = row[order[D - 1 - r] as number] as number;
    }
  }
  // the largest j with #{paths whose depth < j} <= level x D
  const counts = new Int32Array(keep + 1);
  for (let d = 0; d < D; d++) {
    const dd = depth[d] as number;
    if (dd < keep) counts[dd + 1] = (counts[dd + 1] as number) + 1;
  }
  let j = 0;
  let out = 0; // paths whose depth is below j
  for (let c = 1; c < keep; c++) {
    const next = out + (counts[c] as number);
    if (next > level * D) break;
    out = next;
    j = c;
  }
  const lower = new Float64Array(K);
  const upper = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    lower[k] = lowTail[k * keep + j] as number;
    upper[k] = highTail[k * keep + j] as number;
  }
  // the share of paths that leave the band by value (ties inside: a constant series leaves nothing)
  let left = 0;
  for (let d = 0; d < D; d++) {
    for (let k = 0; k < K; k++) {
      const v = paths[k * D + d] as number;
      if (v < (lower[k] as number) || v > (upper[k] as number)) {
        left++;
        break;
      }
    }
  }
  return { lower, upper, horizonBars: K, level, draws: D, meanBlockBars: b, exceedance: left / D, bars: m };
}
