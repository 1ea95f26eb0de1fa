/**
 * Stationary bootstrap (Politis & Romano 1994). A resampling procedure has no
 * single reference value to match, so the tests check what the method
 * guarantees and what can be worked out by hand:
 * - with blocks that never end (meanBlock huge) every resample is a rotation
 *   of the series, so the mean of every resample equals the series' mean;
 * - with meanBlock = 1 it is the i.i.d. bootstrap: the spread of the resampled
 *   means is the population standard deviation / sqrt(n) (Efron), checked
 *   within 5 % on 4,000 draws;
 * - on a positively autocorrelated series, blocks widen the interval of the
 *   mean compared with i.i.d. resampling (the reason to use blocks);
 * - the interval is numpy's linear percentile of the draws
 *   (np.percentile(samples, [2.5, 97.5]) for 95 %).
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { sharpeRatio } from "../../src/metrics/sharpeRatio.js";
import { stationaryBootstrap } from "../../src/research/index.js";

const n = 400;
// Deterministic, serially dependent returns: a slow sine (persistent) plus a fast wiggle.
const R = Float64Array.from({ length: n }, (_, t) => 0.0005 + 0.01 * Math.sin(t / 15) + 0.004 * Math.sin(2.3 * t));
const mean = (r: Float64Array) => r.reduce((s, x) => s + x, 0) / r.length;
const popStd = (r: Float64Array) => {
  const m = mean(r);
  return Math.sqrt(r.reduce((s, x) => s + (x - m) ** 2, 0) / r.length);
};
const sdOf = (xs: Float64Array) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
};

describe("stationaryBootstrap", () => {
  it("blocks that never end resample rotations: every resampled mean is the series mean", () => {
    const out = stationaryBootstrap(R, { meanBlock: 1e12, draws: 50, seed: 3, statistic: mean });
    expect(out.estimate).toBeCloseTo(mean(R), 15);
    for (const s of out.samples) expect(s).toBeCloseTo(mean(R), 14);
    expect(out.lower).toBeCloseTo(mean(R), 14);
    expect(out.upper).toBeCloseTo(mean(R), 14);
  });

  it("meanBlock 1 is the i.i.d. bootstrap: sd of resampled means ≈ population sd / sqrt(n) (within 5 %)", () => {
    const out = stationaryBootstrap(R, { meanBlock: 1, draws: 4000, seed: 11, statistic: mean });
    expect(sdOf(out.samples) / (popStd(R) / Math.sqrt(n))).toBeGreaterThan(0.95);
    expect(sdOf(out.samples) / (popStd(R) / Math.sqrt(n))).toBeLessThan(1.05);
  });

  it("blocks widen the interval of a persistent series' mean (meanBlock 40 vs 1)", () => {
    const iid = stationaryBootstrap(R, { meanBlock: 1, draws: 2000, seed: 5, statistic: mean });
    const blocks = stationaryBootstrap(R, { meanBlock: 40, draws: 2000, seed: 5, statistic: mean });
    expect(blocks.upper - blocks.lower).toBeGreaterThan(1.5 * (iid.upper - iid.lower));
  });

  it("the interval is numpy's linear percentile of the draws", () => {
    const out = stationaryBootstrap(R, { meanBlock: 10, draws: 101, seed: 2, confidence: 0.9, periodsPerYear: 1 });
    const sorted = Float64Array.from(out.samples).sort();
    // 101 draws: the 5th and 95th percentiles fall on ranks 5 and 95 exactly (h = 100·q)
    expect(out.lower).toBe(sorted[5]);
    expect(out.upper).toBe(sorted[95]);
    expect(out.confidence).toBe(0.9);
  });

  it("defaults to the annualised Sharpe ratio (periodsPerYear or time needed)", () => {
    const out = stationaryBootstrap(R, { draws: 20, periodsPerYear: 8760 });
    expect(out.estimate).toBe(sharpeRatio(R, { periodsPerYear: 8760 }));
    expect(() => stationaryBootstrap(R, { draws: 20 })).toThrow(/stationaryBootstrap: annualising needs the bar length: pass periodsPerYear/);
    expect(out.lower).toBeLessThan(out.estimate);
    expect(out.upper).toBeGreaterThan(out.estimate);
  });

  it("is deterministic for a seed and changes with it", () => {
    const a = stationaryBootstrap(R, { meanBlock: 8, draws: 30, seed: 42, periodsPerYear: 1 });
    const b = stationaryBootstrap(R, { meanBlock: 8, draws: 30, seed: 42, periodsPerYear: 1 });
    const c = stationaryBootstrap(R, { meanBlock: 8, draws: 30, seed: 43, periodsPerYear: 1 });
    expect(a.samples).toEqual(b.samples);
    expect(a.samples).not.toEqual(c.samples);
  });

  it("drops NaN returns first: same result as the series without them", () => {
    const withNaN = Float64Array.from([...R.slice(0, 50), Number.NaN, ...R.slice(50), Number.NaN]);
    expect(stationaryBootstrap(withNaN, { meanBlock: 5, draws: 40, seed: 1, periodsPerYear: 1 })).toEqual(stationaryBootstrap(R, { meanBlock: 5, draws: 40, seed: 1, periodsPerYear: 1 }));
  });

  it("empty, one point, all NaN: NaN interval", () => {
    for (const r of [[], [0.01], [Number.NaN, Number.NaN]]) {
      const out = stationaryBootstrap(r, { draws: 5, periodsPerYear: 1 });
      expect(out.estimate).toBeNaN();
      expect(out.lower).toBeNaN();
      expect(out.upper).toBeNaN();
      expect(out.samples.length).toBe(5);
    }
  });

  it("a constant series: every resample is the same series, so the interval is the statistic itself", () => {
    const out = stationaryBootstrap([0.01, 0.01, 0.01, 0.01], { draws: 10, statistic: mean });
    expect(out.lower).toBeCloseTo(0.01, 15);
    expect(out.upper).toBeCloseTo(0.01, 15);
    // the default Sharpe of a constant positive series is +Infinity (sharpeRatio's rule) in every draw
    expect(Array.from(stationaryBootstrap([0.01, 0.01, 0.01], { draws: 10, periodsPerYear: 1 }).samples)).toEqual(new Array(10).fill(Infinity));
  });

  it("leaves NaN statistics out of the percentiles", () => {
    let k = 0;
    const out = stationaryBootstrap(R, { draws: 10, statistic: () => (k++ % 2 === 0 ? Number.NaN : k) });
    // estimate call k=0 → NaN; draws k=1..10 → values 2, NaN, 4, NaN, ... → 2, 4, 6, 8, 10 remain
    expect(out.lower).toBeCloseTo(2 + 0.025 * 8, 12);
    expect(out.upper).toBeCloseTo(10 - 0.025 * 8, 12);
  });

  it("does not mutate its input", () => {
    const input = Float64Array.from(R);
    stationaryBootstrap(input, { draws: 10, periodsPerYear: 1 });
    expect(input).toEqual(R);
  });

  it("bad arguments throw InvalidArgumentError", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => stationaryBootstrap(R, { meanBlock: 0.5, periodsPerYear: 1 }), /stationaryBootstrap: meanBlock must be a finite number ≥ 1/],
      [() => stationaryBootstrap(R, { draws: 0, periodsPerYear: 1 }), /draws must be an integer ≥ 1/],
      [() => stationaryBootstrap(R, { draws: 2.5, periodsPerYear: 1 }), /draws/],
      [() => stationaryBootstrap(R, { seed: 1.5, periodsPerYear: 1 }), /seed must be an integer/],
      [() => stationaryBootstrap(R, { confidence: 1, periodsPerYear: 1 }), /confidence must be .*< 1/],
      [() => stationaryBootstrap(R, { statistic: 3 as never }), /statistic must be a function/],
      [() => stationaryBootstrap(null as never), /stationaryBootstrap: returns must be an array/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    }
  });
});
