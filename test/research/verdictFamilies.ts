/**
 * Monte Carlo families of return matrices for calibrating the sweep verdict (issue 28), generated
 * directly (no backtest: a variant's return at bar t is its position at t−1 times the market's return
 * at t, plus a planted drift on held bars, minus a fee on each unit of position turned), each turned
 * into a SweepResult so the verdict is read through the real path: assessSweep → sweepVerdict.
 *
 * Null families (no skill: every variant's expected return is 0, fees off so none is pushed below 0):
 * - independent: 100 variants, each its own Gaussian market, 500 daily bars;
 * - clusters: 100 near-duplicates of one variant (its returns plus 30 % own noise) and 10 singletons, 1,000 bars;
 * - mirrored: 16 long/flat rules on one market and their short/flat mirrors, 1,000 bars;
 * - fewBars: 1,000 independent variants on 60 bars;
 * - garch: 28 momentum variants (lookbacks 2..29) on a Student-t(4) GARCH(1,1) market, 1,000 bars;
 * - rare: 80 variants that each hold once or twice on one market (1 or 2 trades), 500 bars.
 * Planted families (a region of variants with a true annualised Sharpe of 2.5 after a 5 bps fee per unit turned):
 * - plantedGrid: 50 independent variants on 365 daily bars, the first 10 skilled;
 * - plantedGarch: the 28 GARCH momentum variants on 365 bars, lookbacks 10..19 skilled.
 *
 * Run directly for the larger runs reported in docs/guide.md:
 *   npx tsx test/research/verdictFamilies.ts [reps] [seed] [size full|test] [draws] [path fast|assess] [families]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assessSweep } from "../../src/research/assessSweep.js";
import { createSweepResult, type SweepResult } from "../../src/research/SweepResult.js";
import { sharpeRatio } from "../../src/metrics/sharpeRatio.js";
import { deflatedSharpeRatio } from "../../src/research/deflatedSharpeRatio.js";
import { sharpeStats } from "../../src/research/sharpeStats.js";
import { superiorPredictiveAbility } from "../../src/research/superiorPredictiveAbility.js";
import { sweepVerdict } from "../../src/research/sweepVerdict.js";
import { winnerEvidence } from "../../src/research/winnerEvidence.js";
import { createRng, mixSeed, type Rng } from "../../src/random/prng.js";

export const PPY = 365;
const SIGMA = 0.01;
const FEE = 5e-4;

export interface Matrix {
  readonly returns: Float64Array[];
  readonly trades: number[];
}

export type FamilyName = "independent" | "clusters" | "mirrored" | "fewBars" | "garch" | "rare" | "plantedGrid" | "plantedGarch";
export const NULL_FAMILIES: readonly FamilyName[] = ["independent", "clusters", "mirrored", "fewBars", "garch", "rare"];
export const PLANTED_FAMILIES: readonly FamilyName[] = ["plantedGrid", "plantedGarch"];

function gaussian(n: number, rng: Rng): Float64Array {
  return Float64Array.from({ length: n }, () => SIGMA * rng.normal());
}

/** Student-t(4) innovations scaled to unit variance through a GARCH(1,1) with unconditional sd SIGMA. */
function garchT(n: number, rng: Rng): Float64Array {
  const a = 0.1;
  const b = 0.85;
  const omega = SIGMA * SIGMA * (1 - a - b);
  const out = new Float64Array(n);
  let h = SIGMA * SIGMA;
  let prev = 0;
  for (let t = 0; t < n; t++) {
    h = omega + a * prev * prev + b * h;
    let chi = 0;
    for (let j = 0; j < 4; j++) chi += rng.normal() ** 2;
    const z = (rng.normal() / Math.sqrt(chi / 4)) * Math.sqrt(0.5);
    prev = Math.sqrt(h) * z;
    out[t] = prev;
  }
  return out;
}

/** A position path that switches with probability q per bar: between −1 and 1 (longShort) or 0 and 1 (longFlat). */
function markov(n: number, q: number, kind: "longShort" | "longFlat", rng: Rng): Int8Array {
  const p = new Int8Array(n);
  let s = kind === "longShort" ? (rng.uniform() < 0.5 ? -1 : 1) : rng.uniform() < 0.5 ? 0 : 1;
  for (let t = 0; t < n; t++) {
    if (rng.uniform() < q) s = kind === "longShort" ? -s : 1 - s;
    p[t] = s;
  }
  return p;
}

/** Returns of positions p on market m (NaN at bar 0), with drift mu on held bars and fee per unit turned; and the round trips. */
function variant(p: ArrayLike<number>, m: Float64Array, mu: number, fee: number): { r: Float64Array; trades: number } {
  const n = m.length;
  const r = new Float64Array(n);
  r[0] = Number.NaN;
  let trades = 0;
  for (let t = 0; t < n; t++) {
    const now = p[t] as number;
    const before = t > 0 ? (p[t - 1] as number) : 0;
    if (now !== 0 && now !== before) trades++;
    if (t > 0) r[t] = before * (m[t] as number) + (before !== 0 ? mu : 0) - fee * Math.abs(now - before);
  }
  return { r, trades };
}

/** Drift per held bar for an annualised Sharpe `sharpe` net of fees, for a long/short path switching with probability q. */
function plantedDrift(sharpe: number, q: number): number {
  return (sharpe * SIGMA) / Math.sqrt(PPY) + FEE * 2 * q;
}

function momentum(m: Float64Array, lookback: number): Int8Array {
  const p = new Int8Array(m.length);
  let sum = 0;
  for (let t = 0; t < m.length; t++) {
    sum += m[t] as number;
    if (t >= lookback) sum -= m[t - lookback] as number;
    p[t] = t + 1 >= lookback ? (sum >= 0 ? 1 : -1) : 0;
  }
  return p;
}

/**
 * One matrix of a family, for a replication seed. `size` "test" is the in-repo test's smaller form of each null
 * family (independent 50 × 300 bars, clusters 50 + 5 × 400, mirrored 16 pairs × 400, fewBars 300 × 60,
 * garch 28 × 400, rare 80 × 500); planted families are the same in both.
 */
export function generate(family: FamilyName, seed: number, size: "full" | "test" = "full"): Matrix {
  const small = size === "test";
  const rng = createRng(mixSeed(seed, NULL_FAMILIES.concat(PLANTED_FAMILIES).indexOf(family)));
  const returns: Float64Array[] = [];
  const trades: number[] = [];
  const add = (v: { r: Float64Array; trades: number }): void => {
    returns.push(v.r);
    trades.push(v.trades);
  };
  switch (family) {
    case "independent":
      for (let k = 0; k < (small ? 50 : 100); k++) add(variant(markov(small ? 300 : 500, 0.05, "longShort", rng), gaussian(small ? 300 : 500, rng), 0, 0));
      break;
    case "clusters": {
      const n = small ? 400 : 1000;
      const base = variant(markov(n, 0.05, "longShort", rng), gaussian(n, rng), 0, 0);
      for (let k = 0; k < (small ? 50 : 100); k++) add({ r: base.r.map((x, t) => (t === 0 ? x : x + 0.3 * SIGMA * rng.normal())), trades: base.trades });
      for (let k = 0; k < (small ? 5 : 10); k++) add(variant(markov(n, 0.05, "longShort", rng), gaussian(n, rng), 0, 0));
      break;
    }
    case "mirrored": {
      const m = gaussian(small ? 400 : 1000, rng);
      for (let k = 0; k < 16; k++) {
        const p = markov(m.length, 0.03 + 0.005 * k, "longFlat", rng);
        add(variant(p, m, 0, 0));
        add(variant(p.map((x) => -x), m, 0, 0));
      }
      break;
    }
    case "fewBars":
      for (let k = 0; k < (small ? 300 : 1000); k++) add(variant(markov(60, 0.3, "longShort", rng), gaussian(60, rng), 0, 0));
      break;
    case "garch": {
      const m = garchT(small ? 400 : 1000, rng);
      for (let L = 2; L < 30; L++) add(variant(momentum(m, L), m, 0, 0));
      break;
    }
    case "rare": {
      const n = 500;
      const m = gaussian(n, rng);
      for (let k = 0; k < 80; k++) {
        const p = new Int8Array(n);
        const holds = 1 + Math.floor(rng.uniform() * 2);
        for (let h = 0; h < holds; h++) {
          const start = Math.floor(rng.uniform() * (n - 60));
          const len = 10 + Math.floor(rng.uniform() * 50);
          p.fill(1, start, start + len);
        }
        add(variant(p, m, 0, 0));
      }
      break;
    }
    case "plantedGrid": {
      const q = 0.05;
      for (let k = 0; k < 50; k++) add(variant(markov(PPY, q, "longShort", rng), gaussian(PPY, rng), k < 10 ? plantedDrift(2.5, q) : 0, FEE));
      break;
    }
    case "plantedGarch": {
      const m = garchT(PPY, rng);
      for (let L = 2; L < 30; L++) {
        const p = momentum(m, L);
        let flips = 0;
        for (let t = 1; t < p.length; t++) if (p[t] !== p[t - 1]) flips++;
        const q = flips / p.length;
        add(variant(p, m, L >= 10 && L < 20 ? plantedDrift(2.5, q) : 0, FEE));
      }
      break;
    }
  }
  return { returns, trades };
}

/** The matrix as a sweep (one row per variant, parameter `k`), so assessSweep reads it as it reads any sweep. */
export function matrixSweep(m: Matrix): SweepResult {
  const K = m.returns.length;
  const index = Float64Array.from({ length: K }, (_, k) => k);
  const nan = new Float64Array(K).fill(Number.NaN);
  return createSweepResult({
    components: [],
    parameters: ["k"],
    levels: {},
    total: K,
    aborted: false,
    periodsPerYear: PPY,
    columns: {
      variant: index,
      k: index,
      totalReturn: nan,
      sharpeRatio: Float64Array.from(m.returns, (r) => sharpeRatio(r, { periodsPerYear: PPY })),
      maxDrawdown: nan,
      trades: Float64Array.from(m.trades),
      turnover: nan,
      exposure: nan,
    },
    source: { returns: (v) => m.returns[v] as Float64Array, manifestOptions: () => ({}) },
    runsOn: "calling thread",
  });
}

/** The verdict of one matrix, its SPA p-value and mean block (assessSweep with 8 CSCV splits; other options at their defaults). */
export function verdictOf(m: Matrix, seed: number): { verdict: string; spa: number; meanBlock: number; dsr: number } {
  const a = assessSweep(matrixSweep(m), { splits: 8, seed });
  return { verdict: a.verdict.verdict, spa: a.spa.pValue, meanBlock: a.spa.meanBlock, dsr: a.dsr };
}

/**
 * The verdict of one matrix by the fast path the in-repo test takes: the same pieces assessSweep puts together
 * for "edge" (the winner by Sharpe, superiorPredictiveAbility of every variant, the DSR at the raw count,
 * winnerEvidence, sweepVerdict), without the PBO and the effective count, which cannot make or unmake an edge.
 */
export function fastVerdictOf(m: Matrix, seed: number, draws: number): { verdict: string; spa: number; meanBlock: number } {
  let best = 0;
  const sharpes = m.returns.map((r) => sharpeRatio(r, { periodsPerYear: PPY }));
  sharpes.forEach((s, k) => {
    if (s > (sharpes[best] as number)) best = k;
  });
  const spa = superiorPredictiveAbility(m.returns, { seed, draws });
  const winner = m.returns[best] as Float64Array;
  const dsr = deflatedSharpeRatio(sharpeStats(winner), { trialSharpes: sharpes, periodsPerYear: PPY }).dsr;
  const v = sweepVerdict({ spa: spa.pValue, dsr, pbo: Number.NaN, evidence: winnerEvidence(winner, m.trades[best] as number, spa.meanBlock) });
  return { verdict: v.verdict, spa: spa.pValue, meanBlock: spa.meanBlock };
}

/** The numpy reference SPA (test/research/reference/spa.py) on matrices, at the block lengths given: consistent p-values. */
export function referenceSpa(matrices: readonly Matrix[], meanBlocks: readonly number[], draws: number, seed: number): number[] {
  const dir = mkdtempSync(join(tmpdir(), "verdict-spa-"));
  try {
    const jobs = matrices.map((m, i) => {
      const K = m.returns.length;
      const n = (m.returns[0]?.length ?? 1) - 1; // bar 0 is NaN in every variant
      const buf = new Float64Array(K * n);
      m.returns.forEach((r, k) => buf.set(r.subarray(1), k * n));
      const file = join(dir, `m${i}.bin`);
      writeFileSync(file, Buffer.from(buf.buffer));
      return { file, K, n, meanBlock: meanBlocks[i] };
    });
    const script = fileURLToPath(new URL("./reference/spa.py", import.meta.url));
    const out = execFileSync("/usr/bin/python3", [script], { input: JSON.stringify({ matrices: jobs, draws, seed }), maxBuffer: 1 << 26 });
    return (JSON.parse(out.toString()) as { p: number[] }).p;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One family's Monte Carlo: the share of "edge" verdicts and of reference SPA rejections (when asked) over `reps` matrices. */
export function runFamily(family: FamilyName, reps: number, seed: number, withReference: boolean, fast?: { draws: number }, size: "full" | "test" = "full"): { edge: number; reference: number; verdicts: Record<string, number> } {
  const matrices: Matrix[] = [];
  const verdicts: Record<string, number> = {};
  const blocks: number[] = [];
  let edge = 0;
  for (let r = 0; r < reps; r++) {
    const m = generate(family, mixSeed(seed, r), size);
    const v = fast !== undefined ? fastVerdictOf(m, r, fast.draws) : verdictOf(m, r);
    verdicts[v.verdict] = (verdicts[v.verdict] ?? 0) + 1;
    if (v.verdict === "edge") edge++;
    matrices.push(m);
    blocks.push(Number.isFinite(v.meanBlock) ? v.meanBlock : 1);
  }
  let reference = Number.NaN;
  if (withReference) {
    const p = referenceSpa(matrices, blocks, fast?.draws ?? 1000, seed);
    reference = p.filter((x) => x < 0.05).length / reps;
  }
  return { edge: edge / reps, reference, verdicts };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  // npx tsx test/research/verdictFamilies.ts [reps] [seed] [size full|test] [draws] [path fast|assess] [families,...]
  const reps = Number(process.argv[2] ?? 400);
  const seed = Number(process.argv[3] ?? 2028);
  const size = (process.argv[4] ?? "test") as "full" | "test";
  const draws = Number(process.argv[5] ?? 199);
  const path = process.argv[6] ?? "fast";
  const families = process.argv[7] !== undefined ? (process.argv[7].split(",") as FamilyName[]) : [...NULL_FAMILIES, ...PLANTED_FAMILIES];
  console.log(`reps ${reps}, seed ${seed}, size ${size}, SPA draws ${path === "fast" ? draws : 999}, path ${path}`);
  console.log(`| family | sweeps | "edge" | reference SPA (numpy) rejects | verdicts |`);
  console.log(`|---|---|---|---|---|`);
  for (const f of families) {
    const t0 = Date.now();
    const r = runFamily(f, reps, seed, true, path === "fast" ? { draws } : undefined, size);
    const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
    console.log(`| ${f} | ${reps} | ${pct(r.edge)} | ${pct(r.reference)} | ${Object.entries(r.verdicts).map(([k, v]) => `${k} ${v}`).join(", ")} | ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
}
