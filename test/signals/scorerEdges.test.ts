/**
 * Every scorer of scorers.ts at its edges: NaN, ±0 (sign checked with Object.is),
 * ±Infinity, the clamp bounds and beyond, and the gas regime boundary. Expected
 * values are written by hand from each scorer's documented formula (the arithmetic
 * in the comments); the non-round gas values are numpy's, for the documented
 * piecewise rule: `np.where(v <= 1.1, 0.3, np.clip(0.3 - (v - 1.1) / 10, -1, 0.3))`
 * (Debian python3, numpy). Also the rule "a NaN value scores NaN" for any scorer
 * (scoringNaNAsNaN), which lets the composite kernel call the defaults unwrapped.
 */
import { describe, expect, it } from "vitest";
import {
  scoreBasis,
  scoreCorrelation,
  scoreFunding,
  scoreGas,
  scoreImbalance,
  scoreMomentum,
  scoreVolatility,
  scoringNaNAsNaN,
  type Scorer,
} from "../../src/signals/scorers.js";

const NaN_ = Number.NaN;
const INF = Number.POSITIVE_INFINITY;

/** [value, expected] pairs per scorer; expected compared with Object.is (so -0 is not +0, NaN is NaN). */
const CASES: Record<string, [Scorer, [number, number][]]> = {
  // 2 * (clamp(v, 0, 1) - 0.5)
  imbalance: [
    scoreImbalance,
    [
      [NaN_, NaN_],
      [0, -1], // 2 * (0 - 0.5)
      [-0, -1], // -0 stays -0 in the clamp; -0 - 0.5 = -0.5
      [0.5, 0], // 2 * (+0)
      [0.75, 0.5],
      [1, 1],
      [1.5, 1], // clamped to 1
      [-3, -1], // clamped to 0
      [INF, 1],
      [-INF, -1],
      [Number.MIN_VALUE, -1], // 5e-324 - 0.5 rounds to -0.5
    ],
  ],
  // clamp(-v * 1e4, -1, 1)
  funding: [
    scoreFunding,
    [
      [NaN_, NaN_],
      [0, -0], // -(0 * 1e4) = -0
      [-0, 0],
      [1e-4, -1], // 1e-4 * 1e4 = 1 in double
      [5e-5, -0.5], // 5e-5 * 1e4 = 0.5 in double
      [-5e-5, 0.5],
      [2e-4, -1],
      [-2e-4, 1],
      [INF, -1],
      [-INF, 1],
    ],
  ],
  // clamp(-v / 50, -1, 1)
  basis: [
    scoreBasis,
    [
      [NaN_, NaN_],
      [0, -0],
      [-0, 0],
      [25, -0.5],
      [-25, 0.5],
      [50, -1],
      [100, -1],
      [-100, 1],
      [INF, -1],
      [-INF, 1],
    ],
  ],
  // clamp(v / 2, -1, 1)
  momentum: [
    scoreMomentum,
    [
      [NaN_, NaN_],
      [0, 0],
      [-0, -0],
      [1, 0.5],
      [-1, -0.5],
      [2, 1],
      [3, 1],
      [-3, -1],
      [INF, 1],
      [-INF, -1],
    ],
  ],
  // 0.3 at v <= 1.1, else clamp(0.3 - (v - 1.1) / 10, -1, 0.3)
  gas: [
    scoreGas,
    [
      [NaN_, NaN_],
      [-INF, 0.3],
      [-5, 0.3],
      [-0, 0.3],
      [0, 0.3],
      [0.8, 0.3],
      [1.1, 0.3], // the boundary itself is cheap
      [1.1000000000000003, 0.3], // the next double: 0.3 - 2.2e-17 rounds back to 0.3 (numpy: 0.3)
      [2.1, 0.19999999999999998], // numpy
      [2.2, 0.18999999999999997], // numpy
      [4.1, 5.551115123125783e-17], // numpy: "0 at 4.1 gwei" up to rounding
      [11.1, -0.7], // 0.3 - 10 / 10 (numpy: -0.7)
      [14.1, -1], // numpy: -1 (0.3 - 1.3, at the floor)
      [1e6, -1],
      [INF, -1],
    ],
  ],
  // clamp(-(v - 50) / 40, -1, 0)
  volatility: [
    scoreVolatility,
    [
      [NaN_, NaN_],
      [50, -0], // -(+0) / 40 = -0, inside [-1, 0]
      [30, 0], // 0.5 clamped to +0
      [70, -0.5],
      [90, -1],
      [120, -1],
      [INF, -1],
      [-INF, 0],
    ],
  ],
  // clamp(-(rho - 0.5) / 0.5, -1, 0)
  correlation: [
    scoreCorrelation,
    [
      [NaN_, NaN_],
      [0.5, -0], // -(+0) / 0.5
      [0.9, -0.8], // 0.9 - 0.5 = 0.4 exactly in double; / 0.5 = 0.8
      [1, -1],
      [0, 0], // 1 clamped to +0
      [-1, 0],
      [INF, -1],
      [-INF, 0],
    ],
  ],
};

describe("scorers at their edges", () => {
  for (const [name, [f, cases]] of Object.entries(CASES)) {
    it(`${name}: NaN, ±0, ±Infinity, bounds`, () => {
      const bad = cases.filter(([v, want]) => !Object.is(f(v), want)).map(([v, want]) => `${name}(${Object.is(v, -0) ? "-0" : v}) = ${Object.is(f(v), -0) ? "-0" : f(v)}, want ${Object.is(want, -0) ? "-0" : want}`);
      expect(bad).toEqual([]);
    });
  }
});

describe("scoringNaNAsNaN", () => {
  it("returns the scorers of scorers.ts as they are (each maps NaN to NaN, above)", () => {
    for (const [f] of Object.values(CASES)) expect(scoringNaNAsNaN(f)).toBe(f);
  });

  it("wraps any other scorer so that NaN scores NaN and other values go through", () => {
    const calls: number[] = [];
    const f = scoringNaNAsNaN((v) => {
      calls.push(v);
      return 7;
    });
    expect(f(Number.NaN)).toBeNaN();
    expect(calls).toEqual([]); // not called for NaN
    expect(f(2)).toBe(7);
    expect(f(-0)).toBe(7);
    expect(calls).toEqual([2, -0]);
  });
});
