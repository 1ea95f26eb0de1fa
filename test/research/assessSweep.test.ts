/**
 * assessSweep wires a sweep into the statistics: the winner's DSR with trials = every
 * variant and V = the sample variance of the per-period Sharpe ratios (computed by hand
 * here), PSR, MinTRL, the PBO over the variants' returns (thinned beyond maxVariants, the
 * winner always kept), and a walk-forward whose choices are sweep rows.
 */
import { describe, expect, it } from "vitest";
import {
  assessSweep,
  COMPONENT_NAMES,
  deflatedSharpeRatio,
  minTrackRecordLength,
  probabilisticSharpeRatio,
  probabilityOfBacktestOverfitting,
  sharpeRatio,
  sharpeStats,
  simplexGrid,
  sweepComposite,
} from "../../src/index.js";
import { generateBars } from "../bench/backtestData.js";

const N = 1200;
const bars = generateBars(N, 5);
const time = Float64Array.from({ length: N }, (_, i) => i * 3_600_000);
const input = { time, close: bars.close, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };

describe("assessSweep", async () => {
  const sweep = await sweepComposite(input, { weights: simplexGrid(COMPONENT_NAMES, 0.5), thresholds: [0.05, 0.2], feeBps: 2, workers: 0 });
  const a = assessSweep(sweep, { splits: 8, walkForward: { time, trainMs: 20 * 86_400_000, testMs: 10 * 86_400_000 } });

  it("takes the in-sample winner and deflates its Sharpe for every variant tried", () => {
    expect(sweep.periodsPerYear).toBe(8760);
    expect(a.best).toEqual(sweep.best("sharpeRatio"));
    expect(a.trials).toBe(30); // C(6, 4) = 15 vectors x 2 thresholds
    // V by hand: the sample variance (ddof 1) of the finite annualised Sharpe ratios
    const sr = Array.from(sweep.columns["sharpeRatio"] as Float64Array).filter(Number.isFinite);
    const mean = sr.reduce((x, y) => x + y, 0) / sr.length;
    const V = sr.reduce((x, y) => x + (y - mean) ** 2, 0) / (sr.length - 1);
    expect(a.trialSharpeVariance).toBeCloseTo(V, 10);
    const stats = sharpeStats(sweep.returnsOf(a.best.index));
    expect(a.stats).toEqual(stats);
    expect(stats.sharpePerPeriod * Math.sqrt(8760)).toBeCloseTo(a.best.value, 10); // the same Sharpe, per period
    const d = deflatedSharpeRatio(stats, { trials: 30, trialSharpeVariance: a.trialSharpeVariance, periodsPerYear: 8760 });
    // V is the variance of the annualised Sharpe column; the one-line form gives the same DSR
    expect(deflatedSharpeRatio(stats, { trialSharpes: sweep.columns.sharpeRatio!, periodsPerYear: sweep.periodsPerYear }).dsr).toBeCloseTo(d.dsr, 12);
    expect(a.expectedMaxSharpe).toBeGreaterThan(0);
    expect(a.dsr).toBe(d.dsr);
    expect(a.expectedMaxSharpe).toBe(d.expectedMaxSharpe);
    expect(a.psr).toBe(probabilisticSharpeRatio(stats).psr);
    expect(a.minTrackRecordLength).toBe(minTrackRecordLength(stats).n);
    expect(a.bars).toBe(N - 1); // bar 0 has no return
    expect(a.dsr).toBeLessThanOrEqual(a.psr); // a higher bar (SR0 >= 0) can only lower the probability
  });

  it("computes the PBO over every variant's returns, or over every k-th with the winner kept", () => {
    const all = Array.from({ length: sweep.length }, (_, i) => sweep.returnsOf(i));
    const p = probabilityOfBacktestOverfitting(all, { splits: 8 });
    expect(a.pbo).toBe(p.pbo);
    expect(Array.from(a.logits)).toEqual(Array.from(p.logits));
    expect(a.variantsUsed).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const thin = assessSweep(sweep, { splits: 8, maxVariants: 10 });
    const expected = [0, 3, 6, 9, 12, 15, 18, 21, 24, 27];
    if (!expected.includes(a.best.index)) expected.push(a.best.index);
    expect(thin.variantsUsed).toEqual(expected.sort((x, y) => x - y));
    expect(thin.dsr).toBe(a.dsr); // the DSR still counts every variant
  });

  it("walks forward choosing sweep rows by their training-window Sharpe", () => {
    const wf = a.walkForward!;
    const c = wf.folds.columns;
    expect(wf.folds.rows).toBe(3); // test windows at days 20-30, 30-40, 40-50 of 50
    for (let f = 0; f < wf.folds.rows; f++) {
      const row = c.choice[f] as number;
      const r = sweep.returnsOf(row);
      const train = r.subarray(c.trainStart[f], c.trainEnd[f]);
      expect(c.inSample[f]).toBe(sharpeRatio(train, { periodsPerYear: 8760 }));
      for (let v = 0; v < sweep.length; v++) {
        expect(sharpeRatio(sweep.returnsOf(v).subarray(c.trainStart[f], c.trainEnd[f]), { periodsPerYear: 8760 }) <= (c.inSample[f] as number) || Number.isNaN(sharpeRatio(sweep.returnsOf(v).subarray(c.trainStart[f], c.trainEnd[f]), { periodsPerYear: 8760 }))).toBe(true);
      }
      expect(c.outOfSample[f]).toBe(sharpeRatio(r.subarray(c.testStart[f], c.testEnd[f]), { periodsPerYear: 8760 }));
    }
    expect(wf.outOfSampleSharpe).toBe(sharpeRatio(wf.returns, { periodsPerYear: 8760 }));
  });

  it("says when no variant has a Sharpe ratio, and rejects a bad maxVariants", async () => {
    const flat = await sweepComposite({ close: [1, 1, 1], imbalance: [0.5, 0.5, 0.5] }, { weights: [{ imbalance: 1 }], workers: 0, periodsPerYear: 365 });
    expect(() => assessSweep(flat)).toThrow(/assessSweep: no variant of the sweep has a Sharpe ratio/);
    expect(() => assessSweep(sweep, { maxVariants: 1 })).toThrow(/maxVariants must be a whole number >= 2/);
  });
});
