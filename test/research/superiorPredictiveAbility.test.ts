/**
 * Hansen's SPA with the Romano–Wolf step-down against an independent numpy implementation
 * (test/research/reference/spa.py, run by /usr/bin/python3; its own resampling, so p-values agree to Monte Carlo
 * error: 2,000 draws give a standard error under 0.011 at p = 0.5), and the missing-data rules.
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError, superiorPredictiveAbility } from "../../src/index.js";
import { createRng } from "../../src/random/prng.js";
import { referenceSpa } from "./verdictFamilies.js";
import { scaledMs } from "../support/timeScale.js";

function matrix(seed: number, K: number, n: number, drift: number): Float64Array[] {
  const rng = createRng(seed);
  return Array.from({ length: K }, (_, k) => Float64Array.from({ length: n }, (_, t) => (t === 0 ? Number.NaN : 0.01 * rng.normal() + (k < 2 ? drift : 0))));
}

describe("superiorPredictiveAbility", () => {
  it("gives the numpy reference's p-value (within Monte Carlo error) and the same Romano–Wolf claims", () => {
    const cases = [matrix(1, 20, 250, 0), matrix(2, 20, 250, 0.0012), matrix(3, 30, 150, 0.003)];
    const ours = cases.map((m) => superiorPredictiveAbility(m, { draws: 2000, meanBlock: 1.5, seed: 4 }));
    const ref = referenceSpa(cases.map((m) => ({ returns: m, trades: [] })), [1.5, 1.5, 1.5], 2000, 9);
    ours.forEach((o, i) => expect(Math.abs(o.pValue - (ref[i] as number))).toBeLessThan(0.035));
    expect(ours[0]!.pValue).toBeGreaterThan(0.05); // no skill: not rejected
    expect(ours[2]!.pValue).toBeLessThan(0.01); // a strong drift in variants 0 and 1
    // the step-down claims only skilled variants (0 and 1), and at least one of them
    expect(ours[2]!.romanoWolf.rejected.length).toBeGreaterThan(0);
    expect(ours[2]!.romanoWolf.rejected.every((k) => k < 2)).toBe(true);
    // the bounds: lower <= consistent <= upper (Reality Check)
    for (const o of ours) expect(o.pValueLower <= o.pValue && o.pValue <= o.pValueUpper).toBe(true);
    // t by hand for variant 0 of case 0
    const x = Array.from(cases[0]![0]!).slice(1);
    const mean = x.reduce((a, b) => a + b, 0) / x.length;
    const sd = Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / (x.length - 1));
    expect(ours[0]!.t[0]).toBeCloseTo((Math.sqrt(x.length) * mean) / sd, 12);
    expect(ours[0]!.bars).toBe(249); // bar 0 is NaN in every variant
  }, scaledMs(120_000));

  it("is reproducible for a seed, and never mutates its input", () => {
    const m = matrix(5, 10, 120, 0.001);
    const copy = m.map((r) => Float64Array.from(r));
    const a = superiorPredictiveAbility(m, { seed: 3, draws: 300 });
    const b = superiorPredictiveAbility(m, { seed: 3, draws: 300 });
    expect(a.pValue).toBe(b.pValue);
    expect(a.meanBlock).toBeGreaterThanOrEqual(1);
    expect(m).toEqual(copy);
  });

  it("is NaN with no variant, under 8 bars, or when every variant is constant; a constant variant takes no part", () => {
    expect(superiorPredictiveAbility([]).pValue).toBeNaN();
    expect(superiorPredictiveAbility([Float64Array.from([0.01])]).pValue).toBeNaN();
    expect(superiorPredictiveAbility(matrix(1, 3, 7, 0)).pValue).toBeNaN();
    const flat = [new Float64Array(100), new Float64Array(100).fill(0.001)];
    expect(superiorPredictiveAbility(flat).pValue).toBeNaN();
    const mixed = [new Float64Array(100), ...matrix(6, 3, 100, 0)];
    const r = superiorPredictiveAbility(mixed, { draws: 200 });
    expect(r.variants).toBe(3);
    expect(r.t[0]).toBeNaN();
    expect(Number.isNaN(r.romanoWolf.adjustedPValues[0]!)).toBe(true);
    // a bar where any variant is NaN is left out for all
    const holes = matrix(7, 2, 100, 0);
    holes[1]![50] = Number.NaN;
    expect(superiorPredictiveAbility(holes, { draws: 50 }).bars).toBe(98);
  });

  it("refuses bad arguments, naming them", () => {
    expect(() => superiorPredictiveAbility(null as never)).toThrow(InvalidArgumentError);
    expect(() => superiorPredictiveAbility([new Float64Array(10), new Float64Array(9)])).toThrow(/variant 1 is 9 long/);
    expect(() => superiorPredictiveAbility(matrix(1, 2, 20, 0), { draws: 0 })).toThrow(/draws/);
    expect(() => superiorPredictiveAbility(matrix(1, 2, 20, 0), { alpha: 1 })).toThrow(/alpha/);
    expect(() => superiorPredictiveAbility(matrix(1, 2, 20, 0), { meanBlock: 0.5 })).toThrow(/meanBlock/);
    // checked once, where they enter: an unknown key is refused with the nearest valid name, null means unset
    expect(() => superiorPredictiveAbility(matrix(1, 2, 20, 0), { draw: 10 } as never)).toThrow(/superiorPredictiveAbility: unknown option draw; did you mean draws\?/);
    expect(() => superiorPredictiveAbility(matrix(1, 2, 20, 0), 5 as never)).toThrow(/options must be an object/);
    expect(superiorPredictiveAbility(matrix(1, 2, 20, 0), { draws: null, seed: 1 } as never).draws).toBe(999);
  });
});
