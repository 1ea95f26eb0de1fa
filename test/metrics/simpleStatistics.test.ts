import fc from "fast-check";
import * as ss from "simple-statistics";
import { describe, it } from "vitest";
import { annualVolatility, sharpeRatio, skewness, spearmanCorrelation } from "../../src/metrics/index.js";

// A second, independent implementation of the textbook statistics behind our
// metrics: simple-statistics (its own code, not empyrical's or numpy's), on
// random returns. Catches a ddof, mean or ranking mistake that a single
// reference could share.
const returns = fc.array(fc.double({ min: -0.2, max: 0.2, noNaN: true }), { minLength: 3, maxLength: 200 });

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

describe("metrics agree with simple-statistics", () => {
  it("annualVolatility = sampleStandardDeviation x sqrt(periodsPerYear)", () => {
    fc.assert(
      fc.property(returns, (r) => {
        fc.pre(ss.sampleStandardDeviation(r) > 0);
        return close(annualVolatility(r, { periodsPerYear: 365 }), ss.sampleStandardDeviation(r) * Math.sqrt(365));
      }),
    );
  });

  it("sharpeRatio = mean / sampleStandardDeviation x sqrt(periodsPerYear) with no risk-free rate", () => {
    fc.assert(
      fc.property(returns, (r) => {
        const sd = ss.sampleStandardDeviation(r);
        fc.pre(sd > 1e-6);
        return close(sharpeRatio(r, { periodsPerYear: 252 }), (ss.mean(r) / sd) * Math.sqrt(252));
      }),
    );
  });

  it("skewness is the population (biased) skewness: simple-statistics' sample skewness rescaled", () => {
    fc.assert(
      fc.property(returns, (r) => {
        const n = r.length;
        fc.pre(ss.sampleStandardDeviation(r) > 1e-6);
        // sampleSkewness = sqrt(n(n-1)) / (n-2) * g1  (adjusted Fisher-Pearson), so g1 = sampleSkewness * (n-2) / sqrt(n(n-1))
        const g1 = (ss.sampleSkewness(r) * (n - 2)) / Math.sqrt(n * (n - 1));
        return Math.abs(skewness(r) - g1) <= 1e-7 * Math.max(1, Math.abs(g1));
      }),
    );
  });

  it("spearmanCorrelation = Pearson correlation of the ranks (no ties)", () => {
    const distinct = fc.uniqueArray(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 3, maxLength: 100 });
    fc.assert(
      fc.property(distinct, fc.integer({ min: 1, max: 1e9 }), (a, seed) => {
        // a second distinct series: a seeded shuffle of a
        const b = [...a];
        let s = seed;
        for (let i = b.length - 1; i > 0; i--) {
          s = (s * 1103515245 + 12345) % 2147483648;
          const j = s % (i + 1);
          [b[i], b[j]] = [b[j] as number, b[i] as number];
        }
        const rank = (x: number[]): number[] => {
          const sorted = [...x].sort((p, q) => p - q);
          return x.map((v) => sorted.indexOf(v) + 1);
        };
        fc.pre(new Set(a).size === a.length);
        return close(spearmanCorrelation(a, b), ss.sampleCorrelation(rank(a), rank(b)));
      }),
    );
  });
});
