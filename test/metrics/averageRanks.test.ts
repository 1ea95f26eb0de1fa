/**
 * The radix-sorted average ranks behind every Spearman IC, against a naive
 * O(n^2) definition: rank_i = 1 + #{j: x_j < x_i} + (#{j != i: x_j = x_i}) / 2.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { averageRanks, sortOrder } from "../../src/metrics/spearmanCorrelation.js";

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
  it("does not mutate its input", () => {
    const x = Float64Array.from([3, -2, 1]);
    averageRanks(x);
    expect(Array.from(x)).toEqual([3, -2, 1]);
  });
});
