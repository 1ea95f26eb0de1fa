import { IDLE_SHARPE } from "./windowSharpe.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkNumberOption } from "./checkNumberOption.js";

/** Options of {@link probabilityOfBacktestOverfitting}. */
export interface BacktestOverfittingOptions {
  /**
   * S, the number of contiguous blocks the bars are cut into; even, 2..24,
   * default 16 (the paper's choice). Every one of the C(S, S/2) ways to pick
   * half of the blocks as in-sample is tried (12,870 for S = 16).
   */
  readonly splits?: number;
}

/** The result of {@link probabilityOfBacktestOverfitting}; arrays have one entry per combination. */
export interface BacktestOverfitting {
  /** Share of combinations whose in-sample best variant ranks at or below the out-of-sample median (logit ≤ 0). */
  readonly pbo: number;
  /** λ = ln(ω / (1 − ω)), ω the out-of-sample relative rank of the in-sample best, in combination order. */
  readonly logits: Float64Array;
  /** Index of the variant with the best in-sample Sharpe, per combination. */
  readonly chosen: Int32Array;
  /** The chosen variant's per-period (not annualised) Sharpe ratio in sample (0 for a half of zero returns). */
  readonly inSampleSharpePerPeriod: Float64Array;
  /** The chosen variant's per-period (not annualised) Sharpe ratio out of sample. */
  readonly outOfSampleSharpePerPeriod: Float64Array;
  /** Number of combinations, C(S, S/2). */
  readonly combinations: number;
}

/**
 * Probability of backtest overfitting by combinatorially symmetric
 * cross-validation, CSCV (Bailey, Borwein, López de Prado & Zhu 2015, "The
 * probability of backtest overfitting", Journal of Computational Finance
 * 20(4)).
 *
 * The T bars (rows) of the N variants' per-period returns are cut into S
 * contiguous blocks (block b = bars [⌊b·T/S⌋, ⌊(b+1)·T/S⌋)). For each of the
 * C(S, S/2) ways to choose S/2 blocks as the in-sample half (the other half is
 * out of sample), in `itertools.combinations` order:
 * 1. n* = the variant with the highest in-sample Sharpe ratio (the first on ties);
 * 2. ω = r / (N + 1), r the rank (1 = worst, ties averaged) of n*'s
 *    out-of-sample Sharpe among all N out-of-sample Sharpe ratios;
 * 3. λ = ln(ω / (1 − ω)).
 * PBO = the share of combinations with λ ≤ 0: how often the in-sample winner
 * does no better than the median variant out of sample. Near 0: the
 * selection carries over; 0.5 or more: picking the in-sample best is no
 * better than picking at random.
 *
 * The performance measure is the per-period Sharpe ratio, mean / standard
 * deviation (ddof = 1) of the non-NaN returns of the half, computed from
 * per-block sums about each variant's mean (so the cost is
 * O(N·T + C(S,S/2)·N·S), not O(C(S,S/2)·N·T)); a half whose returns are all
 * equal has exactly zero spread, as in `sharpeRatio`: a constant positive
 * half has Sharpe +Infinity (a negative one −Infinity). A half whose returns
 * are all zero — a variant that never traded there — scores 0, the Sharpe of
 * doing nothing (`sharpeRatio` says NaN, 0/0; ranking it below every losing
 * variant would make a sweep with idle variants look free of overfitting).
 * Only a half with fewer than 2 returns has no Sharpe (NaN) and ranks below
 * every other.
 * @param returnsPerVariant one per-period return series per variant, all the same length
 * @throws InvalidArgumentError with fewer than 2 variants, series of different lengths, a bad `splits`, or fewer bars than splits
 * @example probabilityOfBacktestOverfitting(sweep.variants.map((_, i) => sweep.returnsOf(i)), { splits: 16 }).pbo
 */
export function probabilityOfBacktestOverfitting(
  returnsPerVariant: readonly ArrayLike<number>[],
  options: BacktestOverfittingOptions = {},
): BacktestOverfitting {
  const where = "probabilityOfBacktestOverfitting";
  if (!Array.isArray(returnsPerVariant) || returnsPerVariant.length < 2) {
    throw new InvalidArgumentError(
      "returnsPerVariant",
      `${where}: needs an array of at least 2 return series (one per variant), got ${Array.isArray(returnsPerVariant) ? `${returnsPerVariant.length}` : String(returnsPerVariant)}`,
    );
  }
  const N = returnsPerVariant.length;
  const first = returnsPerVariant[0] as ArrayLike<number>;
  const T = first?.length;
  for (let v = 0; v < N; v++) {
    const r = returnsPerVariant[v];
    if (r === null || typeof r !== "object" || typeof r.length !== "number" || r.length !== T) {
      throw new InvalidArgumentError(
        "returnsPerVariant",
        `${where}: every variant needs one return per bar (${T}, like variant 0), got ${r === null || typeof r !== "object" ? String(r) : r.length} in variant ${v}`,
      );
    }
  }
  const S = checkNumberOption(options.splits ?? 16, "splits", where, { min: 2, max: 24, integer: true, hint: "an even number such as 8 or 16" });
  if (S % 2 !== 0) throw new InvalidArgumentError("splits", `${where}: splits must be even (half the blocks go in sample), got ${S}`);
  if (T < S) throw new InvalidArgumentError("splits", `${where}: ${T} bars cannot be cut into ${S} blocks; use fewer splits or more bars`);

  const blocks = blockSums(returnsPerVariant, T, S);
  return combinationsOf(blocks, S);
}

/**
 * Per variant and block (block b is bars floor(b·T/S)..floor((b+1)·T/S) − 1), over the non-NaN returns. Kept apart from
 * the loop over combinations so V8 compiles each loop from its own feedback.
 */
function blockSums(returnsPerVariant: readonly ArrayLike<number>[], T: number, S: number): BlockSums {
  const N = returnsPerVariant.length;
  // Per variant and block, over the non-NaN returns: count, Σ(x − c), Σ(x − c)² about the
  // variant's overall mean c (shifted sums: no cancellation), and the block's value when all of
  // its returns are equal (NaN otherwise), so that a flat half has exactly zero spread.
  const count = new Float64Array(N * S);
  const sum1 = new Float64Array(N * S);
  const sum2 = new Float64Array(N * S);
  const constantValue = new Float64Array(N * S);
  const shift = new Float64Array(N);
  for (let v = 0; v < N; v++) {
    const r = returnsPerVariant[v] as ArrayLike<number>;
    let total = 0;
    let seen = 0;
    for (let i = 0; i < T; i++) {
      const x = r[i] as number;
      if (Number.isNaN(x)) continue;
      total += x;
      seen++;
    }
    const c = seen > 0 ? total / seen : 0;
    shift[v] = c;
    for (let b = 0; b < S; b++) {
      const lo = Math.floor((b * T) / S);
      const hi = Math.floor(((b + 1) * T) / S);
      let k = 0;
      let a1 = 0;
      let a2 = 0;
      let firstValue = Number.NaN;
      let constant = true;
      for (let i = lo; i < hi; i++) {
        const x = r[i] as number;
        if (Number.isNaN(x)) continue;
        if (k === 0) firstValue = x;
        else if (x !== firstValue) constant = false;
        k++;
        const d = x - c;
        a1 += d;
        a2 += d * d;
      }
      count[b * N + v] = k;
      sum1[b * N + v] = a1;
      sum2[b * N + v] = a2;
      constantValue[b * N + v] = constant ? firstValue : Number.NaN;
    }
  }

  return { N, count, sum1, sum2, constantValue, shift };
}

/** Every combination of S/2 in-sample blocks (lexicographic order): the chosen variant, its Sharpes, the logit; and the PBO. */
function combinationsOf(blocks: BlockSums, S: number): BacktestOverfitting {
  const { N } = blocks;
  const half = S / 2;
  const combos = binomial(S, half);
  const logits = new Float64Array(combos);
  const chosen = new Int32Array(combos);
  const inSample = new Float64Array(combos);
  const outOfSample = new Float64Array(combos);
  // Consecutive combinations share their first blocks (lexicographic order), so each half's running sums are kept per
  // block taken (level j: after its first j + 1 blocks) and only the levels from the first block that changed are
  // added again: the same additions in the same order as summing the half afresh, so the same bits.
  const inSums = halfSums(N, half);
  const outSums = halfSums(N, half);
  const isSharpe = new Float64Array(N);
  const oosSharpe = new Float64Array(N);
  const pick = Array.from({ length: half }, (_, i) => i);
  const rest = new Array<number>(half);
  const lastPick = new Array<number>(half).fill(-1);
  const lastRest = new Array<number>(half).fill(-1);
  let below = 0;
  for (let c = 0; c < combos; c++) {
    for (let b = 0, p = 0, q = 0; b < S; b++) {
      if (pick[p] === b) p++;
      else rest[q++] = b;
    }
    halfSharpes(blocks, pick, lastPick, inSums, isSharpe);
    halfSharpes(blocks, rest, lastRest, outSums, oosSharpe);
    let best = 0;
    for (let v = 1; v < N; v++) if (rankValue(isSharpe[v] as number) > rankValue(isSharpe[best] as number)) best = v;
    const x = rankValue(oosSharpe[best] as number);
    let less = 0;
    let ties = 0;
    for (let v = 0; v < N; v++) {
      const y = rankValue(oosSharpe[v] as number);
      if (y < x) less++;
      else if (y === x) ties++;
    }
    const omega = (less + (ties + 1) / 2) / (N + 1);
    const lambda = Math.log(omega / (1 - omega));
    logits[c] = lambda;
    chosen[c] = best;
    inSample[c] = isSharpe[best] as number;
    outOfSample[c] = oosSharpe[best] as number;
    if (lambda <= 0) below++;
    nextCombination(pick, S);
  }
  return { pbo: below / combos, logits, chosen, inSampleSharpePerPeriod: inSample, outOfSampleSharpePerPeriod: outOfSample, combinations: combos };
}

/** NaN (fewer than 2 returns in the half) ranks below everything. */
function rankValue(x: number): number {
  return Number.isNaN(x) ? -Infinity : x;
}

/** Per-block sums of every variant, block-major (index b·N + v). */
interface BlockSums {
  readonly N: number;
  readonly count: Float64Array;
  readonly sum1: Float64Array;
  readonly sum2: Float64Array;
  readonly constantValue: Float64Array;
  readonly shift: Float64Array;
}

/**
 * Running sums of one half, one level per block taken: level j holds, per variant, the count, Σ(x − c), Σ(x − c)² and
 * the common value (NaN once two differ) over the half's first j + 1 blocks, each level N long.
 */
interface HalfSums {
  /** N zeros: the sums before the first block. */
  readonly zero: Float64Array;
  readonly n: Float64Array[];
  readonly s1: Float64Array[];
  readonly s2: Float64Array[];
  readonly flat: Float64Array[];
}

function halfSums(N: number, levels: number): HalfSums {
  const make = (): Float64Array[] => Array.from({ length: levels }, () => new Float64Array(N));
  return { zero: new Float64Array(N), n: make(), s1: make(), s2: make(), flat: make() };
}

/**
 * Every variant's Sharpe (mean / std, ddof 1) over the union of `which`
 * blocks, from the shifted sums; a half whose returns are all equal has
 * exactly zero spread (value / 0, as `sharpeRatio`), all zero scores 0. The
 * blocks are added in the order of `which`, each to the running sums of the
 * blocks before it; the levels of `sums` whose blocks are those of `last` (the
 * previous call's `which`, updated here) are kept, not added again. Loops run
 * over the variants innermost (contiguous memory).
 */
function halfSharpes(blocks: BlockSums, which: readonly number[], last: number[], sums: HalfSums, out: Float64Array): void {
  const { N, count, sum1, sum2, constantValue, shift } = blocks;
  let from = 0;
  while (from < which.length && which[from] === last[from]) from++;
  for (let j = from; j < which.length; j++) {
    const b = which[j] as number;
    last[j] = b;
    const o = b * N;
    // level j = level j − 1 (zeros before the first block) plus block b
    const pn = j === 0 ? sums.zero : (sums.n[j - 1] as Float64Array);
    const ps1 = j === 0 ? sums.zero : (sums.s1[j - 1] as Float64Array);
    const ps2 = j === 0 ? sums.zero : (sums.s2[j - 1] as Float64Array);
    const pflat = j === 0 ? sums.zero : (sums.flat[j - 1] as Float64Array);
    const n = sums.n[j] as Float64Array;
    const s1 = sums.s1[j] as Float64Array;
    const s2 = sums.s2[j] as Float64Array;
    const flat = sums.flat[j] as Float64Array;
    for (let v = 0; v < N; v++) {
      let m = pn[v] as number;
      let a1 = ps1[v] as number;
      let a2 = ps2[v] as number;
      // the common value of the half's returns so far, NaN once two differ (read only once m > 0)
      let f = pflat[v] as number;
      const k = count[o + v] as number;
      if (k !== 0) {
        const cv = constantValue[o + v] as number;
        if (m === 0) f = cv;
        else if (cv !== f) f = Number.NaN;
        m += k;
        a1 += sum1[o + v] as number;
        a2 += sum2[o + v] as number;
      }
      n[v] = m;
      s1[v] = a1;
      s2[v] = a2;
      flat[v] = f;
    }
  }
  const top = which.length - 1;
  const n = sums.n[top] as Float64Array;
  const s1 = sums.s1[top] as Float64Array;
  const s2 = sums.s2[top] as Float64Array;
  const flat = sums.flat[top] as Float64Array;
  for (let v = 0; v < N; v++) {
    const m = n[v] as number;
    if (m < 2) {
      out[v] = Number.NaN;
      continue;
    }
    const f = flat[v] as number;
    if (!Number.isNaN(f)) {
      out[v] = f === 0 ? IDLE_SHARPE : f / 0; // idle: Sharpe 0 (windowSharpe's rule); constant non-zero: ±Infinity
      continue;
    }
    const a = s1[v] as number;
    const variance = ((s2[v] as number) - (a * a) / m) / (m - 1);
    out[v] = ((shift[v] as number) + a / m) / Math.sqrt(Math.max(0, variance));
  }
}

/** C(n, k) for the small n allowed here. */
function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

/** Advance a sorted k-subset of 0..n-1 to the next one in lexicographic order (itertools.combinations). */
function nextCombination(pick: number[], n: number): void {
  const k = pick.length;
  let i = k - 1;
  while (i >= 0 && pick[i] === n - k + i) i--;
  if (i < 0) return;
  pick[i] = (pick[i] as number) + 1;
  for (let j = i + 1; j < k; j++) pick[j] = (pick[j - 1] as number) + 1;
}
