import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createRng } from "../random/prng.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { optimalBlockLength } from "./optimalBlockLength.js";
import { romanoWolfCounter, type RomanoWolf } from "./romanoWolf.js";
import { stationaryBlocks } from "./stationaryBlocks.js";

/** Options of {@link superiorPredictiveAbility}. */
export interface SuperiorPredictiveAbilityOptions {
  /**
   * Mean block length of the stationary bootstrap, in bars (≥ 1). Default: the median over the
   * variants (at most 64 of them, evenly spaced) of {@link optimalBlockLength}, at least 1
   * (⌈n^(1/3)⌉ where it is undefined).
   */
  readonly meanBlock?: number;
  /** Bootstrap resamples; default 999 (so that 5 % of 1 + draws is a whole number). */
  readonly draws?: number;
  /** 32-bit integer seed of the resampling (the library's mulberry32); default 0. The same seed gives the same p-values. */
  readonly seed?: number;
  /** Level of the Romano–Wolf claims (which variants beat the benchmark), in (0, 1); default 0.05. */
  readonly alpha?: number;
}

/** The result of {@link superiorPredictiveAbility}. */
export interface SuperiorPredictiveAbility {
  /** Hansen's consistent p-value (SPA_c): the probability, if no variant beats the benchmark, of a best studentised mean this large. */
  readonly pValue: number;
  /** The lower (SPA_l, recentred at max(mean, 0)) and upper (White's Reality Check, studentised: recentred at the mean) p-values that bound it. */
  readonly pValueLower: number;
  readonly pValueUpper: number;
  /** T = max(0, max_k t_k): the best studentised mean return. */
  readonly statistic: number;
  /** t_k = √n · mean_k / sd_k of every variant (NaN for a constant variant: it takes no part). */
  readonly t: Float64Array;
  /** Bars used (those where every variant's return is a number), variants with a t, the mean block and the resamples. */
  readonly bars: number;
  readonly variants: number;
  readonly meanBlock: number;
  readonly draws: number;
  /** Romano–Wolf step-down: which variants beat the benchmark (zero) at `alpha`. */
  readonly romanoWolf: RomanoWolf;
}

/**
 * Hansen's test for Superior Predictive Ability (Hansen, P. R. (2005), "A test for superior
 * predictive ability", Journal of Business & Economic Statistics 23(4)) of K variants' returns
 * against a benchmark of zero (flat), with White's Reality Check (2000) as its upper bound and
 * Romano & Wolf's step-down ({@link RomanoWolf}) for which variants beat it. The null: no variant
 * has a positive mean return. With d_k the variant's returns over the n bars where all are
 * numbers, t_k = √n d̄_k / s_k (s_k the sample standard deviation, ddof 1) and T = max(0, max_k t_k).
 * Each of `draws` resamples is one stationary-bootstrap draw of the bars (Politis & Romano 1994,
 * mean block `meanBlock`; the same bars for every variant, so their correlation is kept) and gives
 * T* = max(0, max_k √n (d̄*_k − μ_k) / s*_k), studentised by the resample's own standard deviation
 * s*_k (a bootstrap-t: a fixed s_k over-rejects when bars are few and variants many), with Hansen's
 * recentring μ_k = d̄_k · 1{t_k ≥ −√(2 ln ln n)} (consistent), max(d̄_k, 0) (lower) or d̄_k
 * (upper). The p-value is (1 + the resamples with T* ≥ T) / (1 + draws), the Monte Carlo p-value that counts
 * the observed statistic as one of the draws (Davison & Hinkley 1997, §4.2; exact for a Monte Carlo test, never 0).
 * NaN p-values with fewer than 8 bars or no variant with a t (all constant).
 * Deterministic for a seed. Cost: draws × K × (runs per resample), on prefix sums.
 * @throws InvalidArgumentError on a returns that is not an array of equally long arrays, or a bad option
 * @example superiorPredictiveAbility(sweep.variantsUsed.map((i) => sweep.returnsOf(i)), { seed: 1 }).pValue // below 0.05: some variant beats flat
 */
export function superiorPredictiveAbility(returns: readonly ArrayLike<number>[], options: SuperiorPredictiveAbilityOptions = {}): SuperiorPredictiveAbility {
  const where = "superiorPredictiveAbility";
  if (!Array.isArray(returns)) throw new InvalidArgumentError("returns", `${where}: returns must be an array of the variants' return series, got ${String(returns)}`);
  const len = returns[0]?.length ?? 0;
  returns.forEach((r, k) => {
    if (r === null || typeof r !== "object" || typeof r.length !== "number" || r.length !== len) {
      throw new InvalidArgumentError("returns", `${where}: every variant's returns must be an array of ${len} numbers (one per bar), variant ${k} is ${r === null || typeof r !== "object" ? String(r) : `${r.length} long`}`);
    }
  });
  const draws = checkNumberOption(options.draws ?? 999, "draws", where, { min: 1, integer: true, hint: "e.g. 999" });
  const seed = checkNumberOption(options.seed ?? 0, "seed", where, { integer: true, hint: "a 32-bit integer" });
  const alpha = checkNumberOption(options.alpha ?? 0.05, "alpha", where, { min: 0, minExclusive: true, max: 1, maxExclusive: true, hint: "0.05" });
  if (options.meanBlock !== undefined) checkNumberOption(options.meanBlock, "meanBlock", where, { min: 1, hint: "bars per block on average" });
  const K = returns.length;
  // bars where every variant has a number
  const keep: number[] = [];
  for (let t = 0; t < len; t++) if (returns.every((r) => Number.isFinite(r[t] as number))) keep.push(t);
  const n = keep.length;
  const tStats = new Float64Array(K).fill(Number.NaN);
  const nan = { pValue: Number.NaN, pValueLower: Number.NaN, pValueUpper: Number.NaN, statistic: Number.NaN, t: tStats, bars: n, variants: 0, meanBlock: Number.NaN, draws };
  if (n < 8) return { ...nan, romanoWolf: romanoWolfCounter(tStats).result(alpha) };
  // prefix sums of every variant's returns and squares, interleaved (one cache line serves both): variant k's sums
  // to bar i at ps[2(k·(n+1) + i)] and ps[2(k·(n+1) + i) + 1]
  // Prefix sums bar-major (row t holds every variant's sum of bars 0..t-1): a resample's block
  // then reads two rows of K neighbouring numbers, not 2K scattered ones (at 1,000 variants x 2,880
  // bars with blocks of ~1 bar the variant-major layout spent its time in cache misses: 35 s a test).
  const ps1 = new Float64Array((n + 1) * K);
  const ps2 = new Float64Array((n + 1) * K);
  const mean = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    const r = returns[k] as ArrayLike<number>;
    let m = 0;
    for (let i = 0; i < n; i++) m += r[keep[i] as number] as number;
    m /= n;
    let ss = 0;
    let constant = true;
    const first = r[keep[0] as number] as number;
    for (let i = 0; i < n; i++) {
      const x = r[keep[i] as number] as number;
      if (x !== first) constant = false;
      const at = i * K + k;
      ps1[at + K] = (ps1[at] as number) + x;
      ps2[at + K] = (ps2[at] as number) + x * x;
      ss += (x - m) * (x - m);
    }
    mean[k] = m;
    const sd = Math.sqrt(ss / (n - 1));
    // a constant series has no spread (its rounding residue is not one): it takes no part
    if (!constant && sd > 0) tStats[k] = (Math.sqrt(n) * m) / sd;
  }
  const active = Array.from(tStats.keys()).filter((k) => Number.isFinite(tStats[k] as number));
  if (active.length === 0) return { ...nan, romanoWolf: romanoWolfCounter(tStats).result(alpha) };
  const meanBlock = options.meanBlock ?? defaultMeanBlock(returns, keep, active);
  const threshold = -Math.sqrt(2 * Math.log(Math.log(n)));
  let statistic = 0;
  for (const k of active) statistic = Math.max(statistic, tStats[k] as number);
  const order = Int32Array.from(active);
  const A = order.length;
  // each active variant's resampled sum and sum of squares, accumulated block by block in the blocks' order
  const sums = new Float64Array(A);
  const squares = new Float64Array(A);
  const rootN = Math.sqrt(n);
  const rng = createRng(seed);
  const starts = new Int32Array(n);
  const lengths = new Int32Array(n);
  const centred = new Float64Array(K).fill(Number.NaN);
  const stepDown = romanoWolfCounter(tStats);
  let exceedC = 0;
  let exceedL = 0;
  let exceedU = 0;
  for (let d = 0; d < draws; d++) {
    const runs = stationaryBlocks(n, meanBlock, rng, starts, lengths);
    let tc = 0;
    let tl = 0;
    let tu = 0;
    sums.fill(0);
    squares.fill(0);
    for (let j = 0; j < runs; j++) {
      const lo = (starts[j] as number) * K;
      const hi = lo + (lengths[j] as number) * K;
      for (let a = 0; a < A; a++) {
        const k = order[a] as number;
        sums[a] = (sums[a] as number) + ((ps1[hi + k] as number) - (ps1[lo + k] as number));
        squares[a] = (squares[a] as number) + ((ps2[hi + k] as number) - (ps2[lo + k] as number));
      }
    }
    for (let a = 0; a < A; a++) {
      const k = order[a] as number;
      const s = sums[a] as number;
      const s2 = squares[a] as number;
      const m = s / n;
      const sd = Math.sqrt(Math.max(0, (s2 - s * m) / (n - 1)));
      const mk = mean[k] as number;
      const tk = tStats[k] as number;
      const zU = studentised(m - mk, sd, rootN);
      const zC = tk >= threshold ? zU : studentised(m, sd, rootN);
      const zL = mk > 0 ? zU : studentised(m, sd, rootN);
      centred[k] = zU;
      if (zC > tc) tc = zC;
      if (zL > tl) tl = zL;
      if (zU > tu) tu = zU;
    }
    stepDown.add(centred);
    if (tc >= statistic) exceedC++;
    if (tl >= statistic) exceedL++;
    if (tu >= statistic) exceedU++;
  }
  return {
    pValue: (1 + exceedC) / (1 + draws),
    pValueLower: (1 + exceedL) / (1 + draws),
    pValueUpper: (1 + exceedU) / (1 + draws),
    statistic,
    t: tStats,
    bars: n,
    variants: active.length,
    meanBlock,
    draws,
    romanoWolf: stepDown.result(alpha),
  };
}

/** √n · x / sd, with 0 / 0 read as 0 (a resample of a flat stretch) and x / 0 as ±∞. */
function studentised(x: number, sd: number, rootN: number): number {
  if (sd > 0) return (rootN * x) / sd;
  return x === 0 ? 0 : x > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
}

/** Median of optimalBlockLength over up to 64 evenly spaced variants (at least 1; ⌈n^(1/3)⌉ where undefined). */
function defaultMeanBlock(returns: readonly ArrayLike<number>[], keep: readonly number[], active: readonly number[]): number {
  const n = keep.length;
  const step = Math.max(1, Math.ceil(active.length / 64));
  const blocks: number[] = [];
  for (let j = 0; j < active.length; j += step) {
    const r = returns[active[j] as number] as ArrayLike<number>;
    const b = optimalBlockLength(Float64Array.from(keep, (t) => r[t] as number));
    blocks.push(Number.isNaN(b) ? Math.ceil(Math.cbrt(n)) : b);
  }
  blocks.sort((a, b) => a - b);
  const mid = blocks.length >> 1;
  const median = blocks.length % 2 === 1 ? (blocks[mid] as number) : ((blocks[mid - 1] as number) + (blocks[mid] as number)) / 2;
  return Math.max(1, median);
}
