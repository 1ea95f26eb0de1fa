/**
 * The quickselect behind valueAtRisk, conditionalValueAtRisk and tailRatio,
 * against a full sort: numpy's linear percentile of the sorted values,
 * sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) with h = (n - 1) q.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conditionalValueAtRisk, tailRatio, valueAtRisk } from "../../src/metrics/index.js";
import { selectKth } from "../../src/metrics/valueAtRisk.js";

function sortedPercentile(x: number[], q: number): number {
  const s = x.slice().sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

const values = fc.array(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: -2, max: 2 })), { minLength: 1, maxLength: 80 });

describe("selectKth and the quantile metrics", () => {
  it("property: a[k] is the k-th smallest, with nothing larger before it nor smaller after it", () => {
    fc.assert(
      fc.property(values, fc.nat(), (xs, seed) => {
        const a = Float64Array.from(xs);
        const k = seed % a.length;
        selectKth(a, k);
        const sorted = xs.slice().sort((p, q) => p - q);
        // Numeric equality: -0 and 0 are the same value to a quantile (toBe's Object.is
        // would fail on [0, -0], whose order neither sort nor quickselect defines).
        expect(a[k] === sorted[k]).toBe(true);
        for (let i = 0; i < k; i++) expect(a[i]! <= a[k]!).toBe(true);
        for (let i = k + 1; i < a.length; i++) expect(a[i]! >= a[k]!).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
  it("property: VaR, CVaR and tail ratio equal their sorted-array definitions", () => {
    fc.assert(
      fc.property(values, fc.double({ min: 0, max: 1, noNaN: true }), (xs, q) => {
        expect(valueAtRisk(xs, { cutoff: q })).toBeCloseTo(sortedPercentile(xs, q), 12);
        const s = xs.slice().sort((a, b) => a - b);
        const k = Math.floor((s.length - 1) * q);
        expect(conditionalValueAtRisk(xs, { cutoff: q })).toBeCloseTo(s.slice(0, k + 1).reduce((a, b) => a + b, 0) / (k + 1), 12);
        const tr = tailRatio(xs);
        const expected = Math.abs(sortedPercentile(xs, 0.95)) / Math.abs(sortedPercentile(xs, 0.05));
        if (Number.isFinite(expected)) expect(tr).toBeCloseTo(expected, 9);
        else expect(tr).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
  it("sorted, reverse-sorted and constant inputs", () => {
    for (const xs of [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [2, 2, 2, 2]]) {
      expect(valueAtRisk(xs, { cutoff: 0.5 })).toBe(sortedPercentile(xs, 0.5));
      expect(valueAtRisk(xs, { cutoff: 0 })).toBe(Math.min(...xs));
      expect(valueAtRisk(xs, { cutoff: 1 })).toBe(Math.max(...xs));
    }
  });
});
