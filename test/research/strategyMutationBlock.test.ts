/**
 * sweepStrategy compares the data columns with their pristine copies once per block of variants
 * (evaluateStrategyVariants), not after every call: a change is still refused, named by variant,
 * and the caller's data put back, also when a later variant of the block fails because of the
 * change, and when the function changed them only once (state kept between calls).
 */
import { describe, expect, it } from "vitest";
import { StrategyFailedError } from "../../src/errors/index.js";
import { sweepStrategy } from "../../src/research/index.js";

const n = 400;
const close = Float64Array.from({ length: n }, (_, i) => 100 + Math.sin(i / 7) * 5 + i * 0.01);
const grid = { k: Array.from({ length: 24 }, (_, i) => i) };
const common = { data: { close }, grid, periodsPerYear: 8760, workers: 0 };
const targets = (c: Float64Array, k: number): Float64Array => Float64Array.from(c, (_, i) => (i % (k + 2) === 0 ? 1 : 0));

async function failure(p: Promise<unknown>): Promise<StrategyFailedError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(StrategyFailedError);
  return e as StrategyFailedError;
}

describe("sweepStrategy: a change to the data columns, checked once per block", () => {
  it("names the variant that changed them when a later variant of its block throws because of it; the data is put back", async () => {
    const before = Float64Array.from(close);
    // variant 12 writes NaN into close[5]; every variant throws when it finds one there
    const fn = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
      const x = c["close"] as Float64Array;
      if (Number.isNaN(x[5])) throw new Error("close[5] is NaN");
      if (p["k"] === 12) x[5] = Number.NaN;
      return targets(x, p["k"] as number);
    };
    const e = await failure(sweepStrategy(fn, common));
    expect(e.reason).toBe("mutated");
    expect(e.variant).toBe(12);
    expect(e.params).toEqual({ k: 12 });
    expect(e.message).toContain('"close"');
    expect(Array.from(close)).toEqual(Array.from(before));
  });

  it("refuses a function that changed them once (state kept between calls), naming the first variant of the block", async () => {
    const before = Float64Array.from(close);
    let calls = 0;
    const fn = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
      const x = c["close"] as Float64Array;
      if (p["k"] === 13 && calls++ === 0) x[7] = (x[7] as number) + 1;
      return targets(x, p["k"] as number);
    };
    const e = await failure(sweepStrategy(fn, common));
    expect(e.reason).toBe("mutated");
    expect(e.variant).toBeLessThanOrEqual(13);
    expect(e.message).toMatch(/none changed them when called again/);
    expect(Array.from(close)).toEqual(Array.from(before));
  });

  it("a well-behaved function's table is that of one variant per block (every call checked)", async () => {
    const fn = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => targets(c["close"] as Float64Array, p["k"] as number);
    const whole = await sweepStrategy(fn, common);
    const one = await Promise.all(grid.k.map((k) => sweepStrategy(fn, { ...common, grid: { k: [k] } })));
    for (const m of ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"] as const) {
      expect(Array.from(whole.columns[m] as Float64Array)).toEqual(one.map((r) => (r.columns[m] as Float64Array)[0]));
    }
  });
});
