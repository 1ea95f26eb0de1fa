/**
 * The radix-sorted average ranks behind every Spearman IC, against a naive
 * O(n^2) definition: rank_i = 1 + #{j: x_j < x_i} + (#{j != i: x_j = x_i}) / 2.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { averageRanks, SMALL_SORT, sortOrder } from "../../src/metrics/spearmanCorrelation.js";

function naiveRanks(x: readonly number[]): number[] {
  return x.map((v, i) => 1 + x.filter((w) => w < v).length + x.filter((w, j) => j !== i && w === v).length / 2);
}

describe("averageRanks / sortOrder", () => {
  it("hand case: negatives, ties, -0 and +0 equal, infinities", () => {
    const x = [3, -1, 0, -0, 3, -Infinity, Infinity, -1e-300, 2.5];
    expect(Array.from(averageRanks(Float64Array.from(x)))).toEqual(naiveRanks(x));
    expect(Array.from(averageRanks(Float64Array.from(x)))).toEqual([7.5, 2, 4.5, 4.5, 7.5, 1, 9, 3, 6]);
  });
  it("property: equals the naive definition for any doubles without NaN", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: true }), fc.integer({ min: -3, max: 3 })), { maxLength: 60 }), (xs) => {
        expect(Array.from(averageRanks(Float64Array.from(xs)))).toEqual(naiveRanks(xs));
      }),
      { numRuns: 300 },
    );
  });
  it("sortOrder is stable and sorted; empty and one value", () => {
    const x = Float64Array.from([2, 1, 2, 1, 0]);
    expect(Array.from(sortOrder(x))).toEqual([4, 1, 3, 0, 2]);
    expect(sortOrder(new Float64Array(0))).toHaveLength(0);
    expect(Array.from(sortOrder(Float64Array.of(5)))).toEqual([0]);
    expect(averageRanks(new Float64Array(0))).toHaveLength(0);
  });
  it("sortOrder gives the stable ascending order (-0 before +0) below, at and above SMALL_SORT (8-bit and 16-bit digits)", () => {
    // reference: Array.prototype.sort (stable) on the indices by value, -0 before +0, then by index
    const reference = (x: Float64Array): number[] =>
      Array.from(x.keys()).sort((i, j) => (x[i]! - x[j]! || (Object.is(x[i], -0) ? 0 : 1) - (Object.is(x[j], -0) ? 0 : 1) || i - j));
    let s = 12345;
    const uniform = (): number => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const n of [2, 255, 256, 257, 1440, SMALL_SORT - 1, SMALL_SORT, SMALL_SORT + 1, 3 * SMALL_SORT]) {
      // ties (small integers, +0 and -0), negatives, tiny and huge magnitudes, infinities
      const x = Float64Array.from({ length: n }, () => {
        const u = uniform();
        if (u < 0.05) return 0;
        if (u < 0.1) return -0;
        if (u < 0.3) return Math.round(u * 20) - 4;
        if (u < 0.31) return u < 0.305 ? -Infinity : Infinity;
        return (uniform() - 0.5) * 10 ** Math.round(uniform() * 600 - 300);
      });
      expect(Array.from(sortOrder(x)), `n = ${n}`).toEqual(reference(x));
    }
  });
  it("does not mutate its input", () => {
    const x = Float64Array.from([3, -2, 1]);
    averageRanks(x);
    expect(Array.from(x)).toEqual([3, -2, 1]);
  });
});
