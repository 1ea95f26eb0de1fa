/**
 * buyAndHold: a true buy & hold benchmark (bought once, never rebalanced).
 * Expected values are worked out by hand in the comments.
 */
import { describe, expect, it } from "vitest";
import { backtestPortfolio, buyAndHold } from "../../src/backtest/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";

describe("buyAndHold", () => {
  it("one series: cash x p_i / p_0", () => {
    // 1000 x [100, 110, 99] / 100
    expect(Array.from(buyAndHold([100, 110, 99], { initialCash: 1000 }))).toEqual([1000, 1100, 990]);
  });

  it("several coins: equal shares bought once, each drifting with its own price", () => {
    // A doubles, B halves: 500 x 2 + 500 x 0.5 = 1250; then A back to 100, B to 100: 500 + 1000 = 1500.
    const eq = buyAndHold({ A: [100, 200, 100], B: [50, 25, 100] }, { initialCash: 1000 });
    expect(Array.from(eq)).toEqual([1000, 1250, 1500]);
  });

  it("differs from the constant mix that backtestPortfolio rebalances every bar", () => {
    // Constant 50/50 mix (position 1 in each coin's equal sleeve), reset every bar: bar 1 returns (100% + -50%)/2 = +25% -> 1250;
    // bar 2 returns (-50% + 300%)/2 = +125% -> 2812.5. Buy & hold ends at 1500 (above).
    const time = [0, 86_400_000, 2 * 86_400_000];
    const mix = backtestPortfolio({
      time,
      initialCash: 1000,
      coins: { A: { close: [100, 200, 100], position: [1, 1, 1] }, B: { close: [50, 25, 100], position: [1, 1, 1] } },
    });
    expect(mix.equity[2]).toBeCloseTo(2812.5, 9);
    expect(buyAndHold({ A: [100, 200, 100], B: [50, 25, 100] }, { initialCash: 1000 })[2]).toBe(1500);
  });

  it("weights: shares of the cash, the rest kept as cash", () => {
    // 600 in A (x2 -> 1200) + 400 cash = 1600.
    expect(Array.from(buyAndHold({ A: [100, 200], B: [50, 25] }, { initialCash: 1000, weights: { A: 0.6 } }))).toEqual([1000, 1600]);
  });

  it("NaN: cash until the first valid close, then the last valid close carries", () => {
    // A: NaN, 100, NaN, 150 -> 1000, 1000, 1000, 1500
    expect(Array.from(buyAndHold([Number.NaN, 100, Number.NaN, 150], { initialCash: 1000 }))).toEqual([1000, 1000, 1000, 1500]);
    expect(Array.from(buyAndHold([Number.NaN, Number.NaN], { initialCash: 1000 }))).toEqual([1000, 1000]);
  });

  it("empty, one point and constant prices; default cash 10 000; input not mutated", () => {
    expect(buyAndHold([]).length).toBe(0);
    expect(Array.from(buyAndHold([42]))).toEqual([10_000]);
    const p = [5, 5, 5];
    expect(Array.from(buyAndHold(p))).toEqual([10_000, 10_000, 10_000]);
    expect(p).toEqual([5, 5, 5]);
  });

  it("rejects unequal lengths, no series, bad cash and bad weights", () => {
    expect(() => buyAndHold({ A: [1, 2], B: [1] })).toThrow("buyAndHold: every series must have 2 prices like A, B has 1");
    expect(() => buyAndHold({})).toThrow(InvalidArgumentError);
    expect(() => buyAndHold([1, 2], { initialCash: 0 })).toThrow("buyAndHold: initialCash must be a finite amount > 0, got 0");
    expect(() => buyAndHold({ A: [1] }, { weights: { B: 1 } })).toThrow("buyAndHold: weights.B names no series");
    expect(() => buyAndHold({ A: [1], B: [1] }, { weights: { A: 0.7, B: 0.7 } })).toThrow("buyAndHold: weights must sum to at most 1");
    expect(() => buyAndHold({ A: [1] }, { weights: { A: -0.1 } })).toThrow(InvalidArgumentError);
  });
});
