/**
 * PBO by CSCV against hand-computed cases and an independent numpy/scipy
 * implementation (Debian /usr/bin/python3), written from the paper
 * (Bailey, Borwein, López de Prado & Zhu 2015, section 2):
 *
 *   def pbo(M, S):                      # M: T x N returns
 *       T, N = M.shape
 *       bounds = [(b*T)//S for b in range(S+1)]
 *       blocks = [np.arange(bounds[b], bounds[b+1]) for b in range(S)]
 *       sr = lambda X: np.nanmean(X, 0)/np.nanstd(X, 0, ddof=1)
 *       logits = []
 *       for comb in itertools.combinations(range(S), S//2):
 *           isx = np.concatenate([blocks[b] for b in comb])
 *           oos = np.concatenate([blocks[b] for b in range(S) if b not in comb])
 *           n = np.argmax(sr(M[isx]))
 *           w = scipy.stats.rankdata(sr(M[oos]))[n]/(N+1)
 *           logits.append(np.log(w/(1-w)))
 *       return np.mean(np.array(logits) <= 0), logits
 *
 *   T, N = 64, 7; t = np.arange(T)[:,None]; v = np.arange(N)[None,:]
 *   M = 0.01*np.sin(0.37*t*(v+1) + 0.5*v) + 0.005*np.cos(1.3*t*(v+2)/3) + 0.001
 */
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { sharpeRatio } from "../../src/metrics/sharpeRatio.js";
import { probabilityOfBacktestOverfitting } from "../../src/research/index.js";
import { createRng } from "../../src/random/prng.js";

const T = 64;
const N = 7;
const variants = Array.from({ length: N }, (_, v) =>
  Float64Array.from({ length: T }, (_, t) => 0.01 * Math.sin(0.37 * t * (v + 1) + 0.5 * v) + 0.005 * Math.cos((1.3 * t * (v + 2)) / 3) + 0.001),
);
const sum = (a: Float64Array) => a.reduce((s, x) => s + x, 0);

describe("probabilityOfBacktestOverfitting against numpy", () => {
  it("S = 8: 70 combinations, PBO 0.7714285714285715, logits in itertools order", () => {
    const r = probabilityOfBacktestOverfitting(variants, { splits: 8 });
    expect(r.combinations).toBe(70);
    expect(r.logits.length).toBe(70);
    expect(r.pbo).toBeCloseTo(0.7714285714285715, 14);
    expect(sum(r.logits)).toBeCloseTo(-64.69723247051463, 10);
    // first four logits: ln(5/3), ln(1/7) x3 ; chosen variants of the first eight combinations
    expect(Array.from(r.logits.slice(0, 4))).toEqual([0.5108256237659907, -1.9459101490553135, -1.9459101490553135, -1.9459101490553135].map((x) => expect.closeTo(x, 12)));
    expect(Array.from(r.chosen.slice(0, 8))).toEqual([0, 0, 2, 0, 0, 1, 2, 1]);
  });

  it("S = 4 (PBO 1/3, logit sum -0.4134332777573413) and S = 2 (PBO 0, logits ln(5/3), ln 3)", () => {
    const four = probabilityOfBacktestOverfitting(variants, { splits: 4 });
    expect(four.combinations).toBe(6);
    expect(four.pbo).toBeCloseTo(1 / 3, 14);
    expect(sum(four.logits)).toBeCloseTo(-0.4134332777573413, 12);
    expect(Array.from(four.chosen)).toEqual([0, 2, 1, 2, 6, 1]);
    const two = probabilityOfBacktestOverfitting(variants, { splits: 2 });
    expect(two.pbo).toBe(0);
    expect(Array.from(two.logits)).toEqual([expect.closeTo(Math.log(5 / 3), 14), expect.closeTo(Math.log(3), 14)]);
  });

  it("skips NaN returns like np.nanmean/np.nanstd (numpy: PBO 0.8, logit sum -69.86201844443814)", () => {
    const withNaN = variants.map((r) => Float64Array.from(r));
    (withNaN[2] as Float64Array)[3] = Number.NaN;
    (withNaN[0] as Float64Array)[17] = Number.NaN;
    (withNaN[6] as Float64Array)[40] = Number.NaN;
    const r = probabilityOfBacktestOverfitting(withNaN, { splits: 8 });
    expect(r.pbo).toBeCloseTo(0.8, 14);
    expect(sum(r.logits)).toBeCloseTo(-69.86201844443814, 10);
  });

  it("reports the chosen variant's in-sample and out-of-sample Sharpe, equal to sharpeRatio on the halves", () => {
    const r = probabilityOfBacktestOverfitting(variants, { splits: 2 });
    // combination 0: block 0 = bars [0, 32) in sample
    const chosen = variants[r.chosen[0] as number] as Float64Array;
    expect(r.inSampleSharpePerPeriod[0]).toBeCloseTo(sharpeRatio(chosen.subarray(0, 32), { periodsPerYear: 1 }), 12);
    expect(r.outOfSampleSharpePerPeriod[0]).toBeCloseTo(sharpeRatio(chosen.subarray(32), { periodsPerYear: 1 }), 12);
  });
});

describe("idle variants against an independent numpy/pandas CSCV (a flat half scores Sharpe 0)", () => {
  // 10 noise variants and 10 that never trade (all zero), 240 bars, S = 8. Before the fix the idle
  // variants had Sharpe NaN, ranked below every loser, so the in-sample winner always beat half the
  // field out of sample and PBO fell to ~0 (issue 21: 0.81 -> 0.00 on its example).
  const PY = [
    "import sys, json, itertools, numpy as np, pandas as pd",
    "M = np.array(json.load(sys.stdin)).T; T, N = M.shape; S = 8",
    "bounds = [(b*T)//S for b in range(S+1)]",
    "blocks = [np.arange(bounds[b], bounds[b+1]) for b in range(S)]",
    "def sr(X):",
    "    m = X.mean(0); s = X.std(0, ddof=1)",
    "    with np.errstate(divide='ignore', invalid='ignore'): out = m/s",
    "    out[(m == 0) & (s == 0)] = 0.0",
    "    return out",
    "logits = []",
    "for comb in itertools.combinations(range(S), S//2):",
    "    isx = np.concatenate([blocks[b] for b in comb]); oos = np.concatenate([blocks[b] for b in range(S) if b not in comb])",
    "    n = np.argmax(sr(M[isx])); w = pd.Series(sr(M[oos])).rank(method='average').iloc[n]/(N+1)",
    "    logits.append(np.log(w/(1-w)))",
    "print(json.dumps([float(np.mean(np.array(logits) <= 0)), float(np.sum(logits))]))",
  ].join("\n");
  const rng = createRng(21);
  const noise = Array.from({ length: 10 }, () => Array.from({ length: 240 }, () => 0.01 * rng.normal()));
  const idle = Array.from({ length: 10 }, () => new Array<number>(240).fill(0));
  const variantsWithIdle = [...noise, ...idle];

  it("PBO and the logits' sum equal numpy's", () => {
    const out = spawnSync("/usr/bin/python3", ["-c", PY], { input: JSON.stringify(variantsWithIdle), encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const [pbo, logitSum] = JSON.parse(out.stdout) as [number, number];
    const r = probabilityOfBacktestOverfitting(variantsWithIdle, { splits: 8 });
    expect(r.pbo).toBeCloseTo(pbo, 14);
    expect(sum(r.logits)).toBeCloseTo(logitSum, 9);
    expect(pbo).toBeGreaterThan(0.2); // the idle half of the field no longer props the winner up
  });
});

describe("hand-computed cases (2 variants, S = 2: two combinations)", () => {
  // A earns in the first half only, B in the second: the in-sample winner is always the
  // out-of-sample loser, rank 1 of 2, ω = 1/3, λ = ln(1/2) < 0, PBO = 1.
  const up = [0.01, 0.02, 0.01, 0.03];
  const flat = [-0.01, 0.0, -0.02, 0.01];
  it("a winner that reverses: PBO 1, logits ln(1/2)", () => {
    const r = probabilityOfBacktestOverfitting([[...up, ...flat], [...flat, ...up]], { splits: 2 });
    expect(r.pbo).toBe(1);
    expect(Array.from(r.logits)).toEqual([expect.closeTo(Math.log(0.5), 15), expect.closeTo(Math.log(0.5), 15)]);
    expect(Array.from(r.chosen)).toEqual([0, 1]);
  });
  it("a variant better in both halves: rank 2 of 2, ω = 2/3, λ = ln 2, PBO 0", () => {
    const r = probabilityOfBacktestOverfitting([[...up, ...up], [...flat, ...flat]], { splits: 2 });
    expect(r.pbo).toBe(0);
    expect(Array.from(r.logits)).toEqual([expect.closeTo(Math.log(2), 15), expect.closeTo(Math.log(2), 15)]);
  });
  it("identical variants tie: average rank 1.5, ω = 1/2, λ = 0, which counts as overfit (λ ≤ 0)", () => {
    const r = probabilityOfBacktestOverfitting([[...up, ...flat], [...up, ...flat]], { splits: 2 });
    expect(Array.from(r.logits)).toEqual([0, 0]);
    expect(r.pbo).toBe(1);
    expect(Array.from(r.chosen)).toEqual([0, 0]);
  });
  it("a variant that never trades (all zero) scores Sharpe 0: below a winner, above a loser; a constant positive one first (+Infinity)", () => {
    const zero = [0, 0, 0, 0, 0, 0, 0, 0];
    const idleVsWinner = probabilityOfBacktestOverfitting([zero, [...up, ...up]], { splits: 2 });
    expect(Array.from(idleVsWinner.chosen)).toEqual([1, 1]);
    // against a variant that loses in both halves, doing nothing wins in sample and out of sample: ω = 2/3, λ = ln 2
    const loser = [...up, ...up].map((x) => -x);
    const idleVsLoser = probabilityOfBacktestOverfitting([zero, loser], { splits: 2 });
    expect(Array.from(idleVsLoser.chosen)).toEqual([0, 0]);
    expect(Array.from(idleVsLoser.inSampleSharpePerPeriod)).toEqual([0, 0]);
    expect(Array.from(idleVsLoser.logits)).toEqual([expect.closeTo(Math.log(2), 15), expect.closeTo(Math.log(2), 15)]);
    const constant = new Array(8).fill(0.001);
    const r = probabilityOfBacktestOverfitting([[...up, ...up], constant], { splits: 2 });
    expect(Array.from(r.chosen)).toEqual([1, 1]);
    expect(r.inSampleSharpePerPeriod[0]).toBe(Infinity);
    expect(r.pbo).toBe(0);
  });
  it("a half where a variant never trades (all zero) scores exactly 0, not a huge Sharpe from rounding", () => {
    // variant 0: idle in block 0, trading in block 1 (its shifted sums are not zero in block 0); variant 1 loses in both
    const r = probabilityOfBacktestOverfitting([[0, 0, 0, 0, ...up], [...flat, ...flat]], { splits: 2 });
    // block 0 in sample: variant 0 scores 0 > variant 1's negative Sharpe; out of sample (block 1) it ranks 2 of 2
    expect(r.chosen[0]).toBe(0);
    expect(r.inSampleSharpePerPeriod[0]).toBe(0);
    expect(r.outOfSampleSharpePerPeriod[1]).toBe(0); // combination 1: variant 0 wins block 1, its block 0 scores 0
    expect(r.pbo).toBe(0);
    const constantHalf = probabilityOfBacktestOverfitting([[0.002, 0.002, 0.002, 0.002, ...flat], [...up, ...up]], { splits: 2 });
    expect(constantHalf.inSampleSharpePerPeriod[0]).toBe(Infinity);
  });
  it("one bar per block: every Sharpe is NaN, every variant ties last", () => {
    const r = probabilityOfBacktestOverfitting([[0.01, 0.02], [0.03, -0.01]], { splits: 2 });
    expect(Array.from(r.inSampleSharpePerPeriod)).toEqual([Number.NaN, Number.NaN]);
    expect(r.pbo).toBe(1);
  });
});

describe("what PBO means (the paper's two regimes, seeded normal returns)", () => {
  const make = (seed: number, skill: (v: number) => number) => {
    const rng = createRng(seed);
    return Array.from({ length: 20 }, (_, v) => Float64Array.from({ length: 400 }, () => skill(v) + 0.01 * rng.normal()));
  };
  // Measured: mean 0.484, single samples from 0.24 to 0.91 (one sample can land anywhere: its best variant may be lucky in both halves).
  it("pure noise: averaged over 40 samples, PBO is near 1/2", () => {
    let total = 0;
    for (let seed = 1; seed <= 40; seed++) total += probabilityOfBacktestOverfitting(make(seed, () => 0), { splits: 8 }).pbo;
    expect(total / 40).toBeGreaterThan(0.35);
    expect(total / 40).toBeLessThan(0.65);
  });
  it("real, persistent differences in skill: PBO near 0", () => {
    expect(probabilityOfBacktestOverfitting(make(7, (v) => 0.0004 * v), { splits: 8 }).pbo).toBeLessThan(0.05);
  });
});

describe("properties", () => {
  it("PBO lies in [0, 1] and every logit maps back to a rank in [1, N] (random series, S = 2, 4, 6)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.constantFrom(2, 4, 6),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (nv, S, seed) => {
          let state = seed;
          const rand = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32) - 0.5;
          const series = Array.from({ length: nv }, () => Array.from({ length: 4 * S }, () => 0.01 * rand()));
          const r = probabilityOfBacktestOverfitting(series, { splits: S });
          const ranks = Array.from(r.logits, (l) => (nv + 1) / (1 + Math.exp(-l)));
          expect(r.pbo).toBeGreaterThanOrEqual(0);
          expect(r.pbo).toBeLessThanOrEqual(1);
          for (const rank of ranks) {
            expect(rank).toBeGreaterThanOrEqual(1 - 1e-9);
            expect(rank).toBeLessThanOrEqual(nv + 1e-9);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it("does not mutate the input", () => {
    const copy = variants.map((r) => Float64Array.from(r));
    probabilityOfBacktestOverfitting(variants, { splits: 4 });
    expect(variants).toEqual(copy);
  });
});

describe("bad arguments", () => {
  it("throw InvalidArgumentError with the function, the argument and the fix", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => probabilityOfBacktestOverfitting([], {}), /at least 2 return series/],
      [() => probabilityOfBacktestOverfitting([[0.1, 0.2]], {}), /at least 2 return series .*got 1/],
      [() => probabilityOfBacktestOverfitting([[0.1, 0.2], [0.1]], { splits: 2 }), /one return per bar \(2, like variant 0\), got 1 in variant 1/],
      [() => probabilityOfBacktestOverfitting(variants, { splits: 3 }), /splits must be even/],
      [() => probabilityOfBacktestOverfitting(variants, { splits: 0 }), /splits must be an integer ≥ 2/],
      [() => probabilityOfBacktestOverfitting(variants, { splits: 26 }), /≤ 24/],
      [() => probabilityOfBacktestOverfitting([[0.1], [0.2]], { splits: 2 }), /1 bars cannot be cut into 2 blocks/],
      [() => probabilityOfBacktestOverfitting("x" as never), /probabilityOfBacktestOverfitting: needs an array/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    }
  });
  it("empty series (T = 0) cannot be split", () => {
    expect(() => probabilityOfBacktestOverfitting([[], []], { splits: 2 })).toThrow(/0 bars cannot be cut/);
  });
});
