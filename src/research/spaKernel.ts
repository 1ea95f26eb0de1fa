import { createRng } from "../random/prng.js";
import { optimalBlockLength } from "./optimalBlockLength.js";
import { romanoWolfCounter } from "./romanoWolf.js";
import type { SpaPlan } from "./spaPlan.js";
import { stationaryBlocks } from "./stationaryBlocks.js";
import { resampleSumsMemory } from "./resampleSumsWasm.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { SuperiorPredictiveAbility } from "./superiorPredictiveAbility.js";

/**
 * Bytes of prefix sums one tile of variants holds (rows 0..n of `width` (sum, sum of squares) pairs): a tile is
 * resampled by every draw of a batch while it stays in the core's cache. At 1,000 variants x 2,880 bars (46 MB of
 * prefix sums) a draw's ~1,300 runs read rows far apart: with the SIMD loop, whole rows took 3.4 s CPU for 499
 * draws, 1 MiB tiles 2.0 s (256 KiB 2.1 s, 4 MiB 2.1 s; the loop in JavaScript over whole rows 6.9 s), at load 10-13.
 */
const TILE_BYTES = 1 << 20;
/** Runs (start, length) of the draws resampled together: at most this many bars' worth (8 MB of Int32). */
const BATCH_BARS = 1 << 20;
/** WebAssembly's 32-bit memory: 65,536 pages of 64 KiB. */
const WASM_MAX_BYTES = 65536 * 65536;

/**
 * Hansen's SPA and the Romano–Wolf step-down of a return matrix for a resolved plan: the computation
 * {@link superiorPredictiveAbility} documents, after its checks (the returns are an array of equally long
 * arrays, the plan's options are in range). Arithmetic per variant is that of the definition, in its order:
 * a resample's sums are its runs' prefix-sum differences added run by run, so the p-values depend only on the
 * data and the seed, not on how variants are tiled or draws batched.
 * @internal
 */
export function spaKernel(returns: readonly ArrayLike<number>[], plan: SpaPlan): SuperiorPredictiveAbility {
  const { draws, seed, alpha } = plan;
  const len = returns[0]?.length ?? 0;
  const K = returns.length;
  // bars where every variant has a number
  const missing = new Uint8Array(len);
  for (const r of returns) for (let t = 0; t < len; t++) if (!Number.isFinite(r[t] as number)) missing[t] = 1;
  const keep: number[] = [];
  for (let t = 0; t < len; t++) if (missing[t] === 0) keep.push(t);
  const n = keep.length;
  const tStats = new Float64Array(K).fill(Number.NaN);
  const nan = { pValue: Number.NaN, pValueLower: Number.NaN, pValueUpper: Number.NaN, statistic: Number.NaN, t: tStats, bars: n, variants: 0, meanBlock: Number.NaN, draws };
  if (n < 8) return { ...nan, romanoWolf: romanoWolfCounter(tStats).result(alpha) };
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
      ss += (x - m) * (x - m);
    }
    mean[k] = m;
    const sd = Math.sqrt(ss / (n - 1));
    // a constant series has no spread (its rounding residue is not one): it takes no part
    if (!constant && sd > 0) tStats[k] = (Math.sqrt(n) * m) / sd;
  }
  const active = Array.from(tStats.keys()).filter((k) => Number.isFinite(tStats[k] as number));
  if (active.length === 0) return { ...nan, romanoWolf: romanoWolfCounter(tStats).result(alpha) };
  const meanBlock = plan.meanBlock ?? defaultMeanBlock(returns, keep, active);
  const threshold = -Math.sqrt(2 * Math.log(Math.log(n)));
  let statistic = 0;
  for (const k of active) statistic = Math.max(statistic, tStats[k] as number);
  const A = active.length;
  // Prefix sums of the active variants in tiles of `width` variants: tile τ is one block of n + 1 rows, row i
  // holding, for each of its variants, the sum of bars 0..i-1 and of their squares (one cache line serves both).
  const width = Math.max(1, Math.min(A, Math.floor(TILE_BYTES / (16 * (n + 1)))));
  const tiles = Math.ceil(A / width);
  const batch = Math.max(1, Math.min(draws, Math.floor(BATCH_BARS / n)));
  // WebAssembly memory: the prefix sums, one draw's sums of a tile, the batch's run starts and lengths
  const psBytes = 16 * A * (n + 1);
  const sumsAt = psBytes;
  const startsAt = sumsAt + 16 * width;
  const lengthsAt = startsAt + 4 * batch * n;
  const bytes = lengthsAt + 4 * batch * n;
  if (bytes > WASM_MAX_BYTES) {
    throw new InvalidArgumentError(
      "returns",
      `superiorPredictiveAbility: ${A} variants x ${n} bars need ${(psBytes / 2 ** 30).toFixed(1)} GB of prefix sums, more than WebAssembly's 4 GB; test fewer variants (assessSweep's spa.maxVariants) or fewer bars`,
    );
  }
  const { buffer, sums: resampleSums } = resampleSumsMemory(bytes);
  const ps = new Float64Array(buffer, 0, 2 * A * (n + 1));
  const sums = new Float64Array(buffer, sumsAt, 2 * width);
  const starts = new Int32Array(buffer, startsAt, batch * n);
  const lengths = new Int32Array(buffer, lengthsAt, batch * n);
  for (let a = 0; a < A; a++) {
    const r = returns[active[a] as number] as ArrayLike<number>;
    const tile = Math.floor(a / width);
    const stride = 2 * Math.min(width, A - tile * width);
    prefixSums(r, keep, ps, 2 * tile * width * (n + 1) + 2 * (a - tile * width), stride);
  }
  const rootN = Math.sqrt(n);
  const rng = createRng(seed);
  const runsTo = new Int32Array(batch + 1); // draw b's runs are runsTo[b] .. runsTo[b + 1] - 1
  const centred = new Float64Array(batch * K).fill(Number.NaN); // draw b's centred studentised means at b·K + k
  const maxC = new Float64Array(batch);
  const maxL = new Float64Array(batch);
  const maxU = new Float64Array(batch);
  const context: Studentise = { active, mean, tStats, threshold, n, rootN, centred, K, maxC, maxL, maxU };
  const stepDown = romanoWolfCounter(tStats);
  let exceedC = 0;
  let exceedL = 0;
  let exceedU = 0;
  for (let d0 = 0; d0 < draws; d0 += batch) {
    const b1 = Math.min(batch, draws - d0);
    for (let b = 0; b < b1; b++) {
      const at = runsTo[b] as number;
      runsTo[b + 1] = at + stationaryBlocks(n, meanBlock, rng, starts.subarray(at), lengths.subarray(at));
    }
    maxC.fill(0);
    maxL.fill(0);
    maxU.fill(0);
    for (let tile = 0; tile < tiles; tile++) {
      const a0 = tile * width;
      const w = Math.min(width, A - a0);
      const stride = 2 * w;
      const base = 2 * a0 * (n + 1);
      for (let b = 0; b < b1; b++) {
        resampleSums(8 * base, 8 * stride, startsAt, lengthsAt, runsTo[b] as number, runsTo[b + 1] as number, sumsAt);
        studentiseTile(sums, w, a0, b, context);
      }
    }
    for (let b = 0; b < b1; b++) {
      stepDown.add(centred.subarray(b * K, (b + 1) * K));
      if ((maxC[b] as number) >= statistic) exceedC++;
      if ((maxL[b] as number) >= statistic) exceedL++;
      if ((maxU[b] as number) >= statistic) exceedU++;
    }
  }
  return {
    pValue: (1 + exceedC) / (1 + draws),
    pValueLower: (1 + exceedL) / (1 + draws),
    pValueUpper: (1 + exceedU) / (1 + draws),
    statistic,
    t: tStats,
    bars: n,
    variants: A,
    meanBlock,
    draws,
    romanoWolf: stepDown.result(alpha),
  };
}

/** One variant's prefix sums of its kept bars and of their squares into lane `at` of rows `stride` apart (row 0 set to zero). */
function prefixSums(r: ArrayLike<number>, keep: readonly number[], ps: Float64Array, at: number, stride: number): void {
  ps[at] = 0;
  ps[at + 1] = 0;
  for (let i = 0; i < keep.length; i++) {
    const x = r[keep[i] as number] as number;
    ps[at + stride] = (ps[at] as number) + x;
    ps[at + stride + 1] = (ps[at + 1] as number) + x * x;
    at += stride;
  }
}

/** What {@link studentiseTile} reads and writes besides one draw's sums of a tile. */
interface Studentise {
  readonly active: readonly number[];
  readonly mean: Float64Array;
  readonly tStats: Float64Array;
  readonly threshold: number;
  readonly n: number;
  readonly rootN: number;
  readonly centred: Float64Array;
  readonly K: number;
  readonly maxC: Float64Array;
  readonly maxL: Float64Array;
  readonly maxU: Float64Array;
}

/**
 * One draw's studentised resample means of a tile's `w` variants (from the sums and sums of squares in `sums`):
 * the centred one into `centred[b·K + k]` (the step-down's), and the running maxima of the consistent, lower and
 * upper statistics (from 0) into maxC/maxL/maxU[b], taken over the variants in their order. A function of its
 * own so that V8 optimises it after a few calls.
 */
function studentiseTile(sums: Float64Array, w: number, a0: number, b: number, s: Studentise): void {
  const { active, mean, tStats, threshold, n, rootN, centred, K } = s;
  let tc = s.maxC[b] as number;
  let tl = s.maxL[b] as number;
  let tu = s.maxU[b] as number;
  for (let l = 0; l < w; l++) {
    const k = active[a0 + l] as number;
    const sum = sums[2 * l] as number;
    const s2 = sums[2 * l + 1] as number;
    const m = sum / n;
    const sd = Math.sqrt(Math.max(0, (s2 - sum * m) / (n - 1)));
    const mk = mean[k] as number;
    const tk = tStats[k] as number;
    const zU = studentised(m - mk, sd, rootN);
    const zC = tk >= threshold ? zU : studentised(m, sd, rootN);
    const zL = mk > 0 ? zU : studentised(m, sd, rootN);
    centred[b * K + k] = zU;
    if (zC > tc) tc = zC;
    if (zL > tl) tl = zL;
    if (zU > tu) tu = zU;
  }
  s.maxC[b] = tc;
  s.maxL[b] = tl;
  s.maxU[b] = tu;
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
  const x = new Float64Array(n); // the kept bars of one variant (a plain loop: Float64Array.from's callback per bar cost more than the block length)
  for (let j = 0; j < active.length; j += step) {
    const r = returns[active[j] as number] as ArrayLike<number>;
    for (let i = 0; i < n; i++) x[i] = r[keep[i] as number] as number;
    const b = optimalBlockLength(x);
    blocks.push(Number.isNaN(b) ? Math.ceil(Math.cbrt(n)) : b);
  }
  blocks.sort((a, b) => a - b);
  const mid = blocks.length >> 1;
  const median = blocks.length % 2 === 1 ? (blocks[mid] as number) : ((blocks[mid - 1] as number) + (blocks[mid] as number)) / 2;
  return Math.max(1, median);
}
