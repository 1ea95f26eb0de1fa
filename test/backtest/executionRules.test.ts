/**
 * The execution-realism rules as pure functions, each against values computed by hand
 * (arithmetic in the comments): the intrabar exit rule, the liquidation price, funding
 * settlements, the square-root impact, the decision-to-fill delay and the cost totals.
 */
import { describe, expect, it } from "vitest";
import { costBreakdown } from "../../src/backtest/CostBreakdown.js";
import { EXIT_AT_OPEN, EXIT_LIQUIDATION, EXIT_NONE, EXIT_STOP, EXIT_TAKE_PROFIT, exitLevel, intrabarExit } from "../../src/backtest/intrabarExit.js";
import { liquidationPrice } from "../../src/backtest/liquidationPrice.js";
import { impactCost, impactScale } from "../../src/backtest/marketImpact.js";
import { settlementFunding } from "../../src/backtest/settlementFunding.js";
import { TargetDelay } from "../../src/backtest/TargetDelay.js";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";

const NaN_ = Number.NaN;

describe("exitLevel", () => {
  it("puts a long's stop below and take-profit above the entry, a short's mirrored", () => {
    expect(exitLevel(1, 100, 0.05, "stop")).toBeCloseTo(95, 12); // 100 x (1 - 0.05)
    expect(exitLevel(1, 100, 0.1, "take_profit")).toBeCloseTo(110, 12); // 100 x 1.1
    expect(exitLevel(-1, 100, 0.05, "stop")).toBeCloseTo(105, 12); // 100 x (1 + 0.05)
    expect(exitLevel(-1, 100, 0.1, "take_profit")).toBeCloseTo(90, 12); // 100 x 0.9
    expect(exitLevel(1, 100, NaN_, "stop")).toBeNaN(); // rule off
  });
});

describe("intrabarExit (long: stop 95, take 110; short: stop 105, take 90)", () => {
  it("exits at the open when the bar gaps through the stop or the take-profit", () => {
    expect(intrabarExit(1, 95, 110, NaN_, 90, 92, 88, true)).toBe(EXIT_STOP + EXIT_AT_OPEN);
    expect(intrabarExit(1, 95, 110, NaN_, 112, 115, 111, true)).toBe(EXIT_TAKE_PROFIT + EXIT_AT_OPEN);
    expect(intrabarExit(-1, 105, 90, NaN_, 107, 108, 100, true)).toBe(EXIT_STOP + EXIT_AT_OPEN);
    expect(intrabarExit(-1, 105, 90, NaN_, 89, 95, 85, true)).toBe(EXIT_TAKE_PROFIT + EXIT_AT_OPEN);
  });
  it("exits at the level when only the range reaches it", () => {
    expect(intrabarExit(1, 95, 110, NaN_, 100, 101, 94, true)).toBe(EXIT_STOP);
    expect(intrabarExit(1, 95, 110, NaN_, 100, 110, 99, true)).toBe(EXIT_TAKE_PROFIT); // touching counts
    expect(intrabarExit(-1, 105, 90, NaN_, 100, 106, 99, true)).toBe(EXIT_STOP);
    expect(intrabarExit(-1, 105, 90, NaN_, 100, 101, 89, true)).toBe(EXIT_TAKE_PROFIT);
    expect(intrabarExit(1, 95, 110, NaN_, 100, 109, 96, true)).toBe(EXIT_NONE);
  });
  it("counts a bar whose range reaches both levels as the stop (conservative)", () => {
    expect(intrabarExit(1, 95, 110, NaN_, 100, 111, 94, true)).toBe(EXIT_STOP);
    expect(intrabarExit(-1, 105, 90, NaN_, 100, 106, 89, true)).toBe(EXIT_STOP);
  });
  it("ignores the open when it was the entry (next_open entry bar) but not the range", () => {
    // open 90 is beyond the stop 95, but it was the entry fill: only the range counts, low 88 <= 95
    expect(intrabarExit(1, 95, 110, NaN_, 90, 92, 88, false)).toBe(EXIT_STOP);
    expect(intrabarExit(1, 95, 110, NaN_, 100, 101, 99, false)).toBe(EXIT_NONE);
  });
  it("takes the adverse level met first: the higher for a long, the lower for a short; liquidation on a tie or a gap through both", () => {
    // long, stop 95, liquidation 90: falling from 100 the stop comes first
    expect(intrabarExit(1, 95, NaN_, 90, 100, 100, 85, true)).toBe(EXIT_STOP);
    // long, stop 85, liquidation 90: the liquidation comes first
    expect(intrabarExit(1, 85, NaN_, 90, 100, 100, 80, true)).toBe(EXIT_LIQUIDATION);
    expect(intrabarExit(1, 90, NaN_, 90, 100, 100, 80, true)).toBe(EXIT_LIQUIDATION);
    // gap below both: liquidation at the open
    expect(intrabarExit(1, 95, NaN_, 90, 88, 89, 80, true)).toBe(EXIT_LIQUIDATION + EXIT_AT_OPEN);
    // gap below the stop only: the stop at the open
    expect(intrabarExit(1, 95, NaN_, 90, 93, 94, 80, true)).toBe(EXIT_STOP + EXIT_AT_OPEN);
    // short, liquidation 110, stop 105: the stop first; stop 115: the liquidation first
    expect(intrabarExit(-1, 105, NaN_, 110, 100, 120, 99, true)).toBe(EXIT_STOP);
    expect(intrabarExit(-1, 115, NaN_, 110, 100, 120, 99, true)).toBe(EXIT_LIQUIDATION);
    expect(intrabarExit(-1, NaN_, NaN_, 110, 112, 120, 111, true)).toBe(EXIT_LIQUIDATION + EXIT_AT_OPEN);
  });
  it("never exits a flat position, with every level off, or on a bar without prices", () => {
    expect(intrabarExit(0, 95, 110, 90, 50, 200, 10, true)).toBe(EXIT_NONE);
    expect(intrabarExit(1, NaN_, NaN_, NaN_, 50, 200, 10, true)).toBe(EXIT_NONE);
    expect(intrabarExit(1, 95, 110, NaN_, NaN_, NaN_, NaN_, true)).toBe(EXIT_NONE);
    // a liquidation price <= 0 (unlevered long) is never reached
    expect(intrabarExit(1, NaN_, NaN_, -50, 1, 1, 0.5, true)).toBe(EXIT_NONE);
  });
});

describe("liquidationPrice", () => {
  it("solves other + q p = m |q| p", () => {
    // 2 coins long at 100 with 100 of own cash: cash -100; p = 100 / (2 x 0.95) = 52.6316
    // check: equity -100 + 2 x 52.6316 = 5.263 = 0.05 x 2 x 52.6316
    expect(liquidationPrice(2, -100, 0.05)).toBeCloseTo(100 / 1.9, 10);
    // 1 coin short at 100 over 100 of cash: cash 200; p = 200 / 1.05 = 190.476 (equity 9.524 = 0.05 x 190.476)
    expect(liquidationPrice(-1, 200, 0.05)).toBeCloseTo(200 / 1.05, 10);
    // maintenance 0: liquidated where equity is 0: 2 coins, cash -100 -> p = 50
    expect(liquidationPrice(2, -100, 0)).toBeCloseTo(50, 12);
  });
  it("is <= 0 (never) for an unlevered long and NaN when flat", () => {
    expect(liquidationPrice(1, 0, 0.05)).toBeLessThanOrEqual(0);
    expect(liquidationPrice(0, 100, 0.05)).toBeNaN();
  });
});

describe("settlementFunding", () => {
  const H = 3_600_000;
  it("charges a settlement to the open-stamped bar t with t < s <= t + interval, once", () => {
    // half-hour bars stamped 00:00 .. 02:00 (closing 00:30 .. 02:30); hourly settlements at 01:00 and 02:00
    // fall in the bars stamped 00:30 and 01:30 (held into them); the bar stamped 01:00 opened at one: 0
    const t = [0, 0.5 * H, H, 1.5 * H, 2 * H];
    expect(Array.from(settlementFunding(t, { rate: 1e-4, intervalMs: H }))).toEqual([0, 1e-4, 0, 1e-4, 0]);
    // bars straddling several settlements add them: the 3-hour bar stamped 03:00 (-> 06:00) holds 04:00, 05:00, 06:00
    const three = settlementFunding([0, 3 * H], { rate: 1e-4, intervalMs: H });
    expect(three[0]).toBe(0);
    expect(three[1]).toBeCloseTo(3e-4, 18);
  });
  it("pays the 00/08/16 UTC settlements over the four 4h bars that close on them (hand-computed)", () => {
    // 4h bars stamped 16:00 (day 0) .. 00:00 (day 2); those stamped 20:00, 04:00, 12:00, 20:00 close on a settlement
    const d = Date.UTC(2024, 0, 1);
    const t = Array.from({ length: 9 }, (_, i) => d - 8 * H + 4 * H * i);
    expect(Array.from(settlementFunding(t, { rate: 1e-4, intervalMs: 8 * H }))).toEqual([0, 1e-4, 0, 1e-4, 0, 1e-4, 0, 1e-4, 0]);
  });
  it("charges a settlement inside a gap of missing bars to the bar after the gap, whose position is held through it", () => {
    // hourly bars stamped 00:00, 01:00, 04:00, 05:00: the bar stamped 01:00 closes at 02:00; 03:00 lies in the gap and
    // is paid over (02:00, 05:00] by the position decided at close 02:00 (filled then, held to 05:00)
    expect(Array.from(settlementFunding([0, H, 4 * H, 5 * H], { rate: 1, times: [1.5 * H, 3 * H] }))).toEqual([0, 1, 1, 0]);
  });
  it("reads a per-bar rate at the bar holding the settlement", () => {
    expect(Array.from(settlementFunding([0, 0.5 * H, H], { rate: [9, 2e-4, 9], intervalMs: H }))).toEqual([0, 2e-4, 0]);
  });
  it("places explicit settlement times, skipping those at or before the first bar's close and after the last's", () => {
    // half-hour bars stamped 00:00, 00:30, 01:00 (closing 00:30, 01:00, 01:30): settlements at 0.5 H (= close 0,
    // not charged), 0.7 H and 0.9 H (bar 1), 1.4 H (bar 2), 5 H (after the last close)
    const f = settlementFunding([0, 0.5 * H, H], { rate: [1, 2, 3, 4, 5], times: [0.5 * H, 0.7 * H, 0.9 * H, 1.4 * H, 5 * H] });
    expect(Array.from(f)).toEqual([0, 2 + 3, 4]);
    expect(Array.from(settlementFunding([], { rate: 1, times: [1] }))).toEqual([]);
    expect(Array.from(settlementFunding([0], { rate: 1, intervalMs: 1 }))).toEqual([0]);
  });
  it("throws typed errors naming the bad part of the schedule", () => {
    const bad = (s: unknown, arg: string) => {
      try {
        settlementFunding([0, H], s as never);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidArgumentError);
        expect((e as InvalidArgumentError).argument).toBe(arg);
      }
    };
    bad({ rate: 1e-4, intervalMs: 0 }, "funding.intervalMs");
    bad({ rate: 1e-4, intervalMs: Number.NaN }, "funding.intervalMs");
    bad({ rate: [1], intervalMs: H }, "funding.rate");
    bad({ rate: 1e-4, times: [2, 1] }, "funding.times");
    bad({ rate: [1, 2], times: [1] }, "funding.rate");
    bad({ rate: 1e-4 }, "funding");
    bad(null, "funding");
  });
});

describe("impactScale / impactCost", () => {
  it("costs coefficient x sigma x sqrt(Q / V) x N", () => {
    // sigma 0.02, close 100, volume 1000 coins; N = 10 000 -> Q = 100 coins, Q/V = 0.1
    // cost = 0.02 x sqrt(0.1) x 10 000 = 63.2456
    const s = impactScale([100, 100], { volume: [1000, 1000], volatility: [0.02, 0.02] });
    expect(s[0]).toBeCloseTo(0.02 / Math.sqrt(100_000), 15);
    expect(impactCost(s[0]!, 10_000)).toBeCloseTo(0.02 * Math.sqrt(0.1) * 10_000, 9);
    // coefficient 0.5 halves it; no trade costs nothing
    const h = impactScale([100], { volume: [1000], volatility: [0.02], coefficient: 0.5 });
    expect(impactCost(h[0]!, 10_000)).toBeCloseTo(31.6228, 4);
    expect(impactCost(h[0]!, 0)).toBe(0);
  });
  it("estimates sigma by default from the last volatilityBars log returns (ddof 1) and carries the last valid scale", () => {
    // closes 100, 110, 100: log returns ln 1.1 = 0.0953102, ln(1/1.1) = -0.0953102;
    // sample sd of the two = 0.0953102 x sqrt(2) = 0.1347874 at bar 2 (NaN before: scale 0)
    const s = impactScale([100, 110, 100, Number.NaN], { volume: [5, 5, 5, 5], volatilityBars: 2 });
    expect(s[0]).toBe(0);
    expect(s[1]).toBe(0);
    expect(s[2]).toBeCloseTo((Math.log(1.1) * Math.SQRT2) / Math.sqrt(100 * 5), 12);
    expect(s[3]).toBe(s[2]); // NaN close: carried
  });
  it("rejects bad volume, coefficient and window with typed errors", () => {
    expect(() => impactScale([1, 2], { volume: [1] })).toThrow(InvalidArgumentError);
    expect(() => impactScale([1], { volume: [1], coefficient: 0 })).toThrow(/impact.coefficient/);
    expect(() => impactScale([1], { volume: [1], volatilityBars: 1 })).toThrow(/impact.volatilityBars/);
    expect(() => impactScale([1], { volume: [1], volatility: [1, 2] })).toThrow(/impact.volatility/);
  });
});

describe("TargetDelay", () => {
  it("fills each decision delayBars later, 0 before, across blocks as in one call", () => {
    const one = Float64Array.of(1, 1, 0, -1, 0.5);
    new TargetDelay(2).delayInto(one, 0, 5);
    expect(Array.from(one)).toEqual([0, 0, 1, 1, 0]);
    const d = new TargetDelay(2);
    const a = Float64Array.of(1, 1, 0);
    const b = Float64Array.of(-1, 0.5);
    d.delayInto(a, 0, 3);
    d.delayInto(b, 0, 2);
    expect([...a, ...b]).toEqual([0, 0, 1, 1, 0]);
  });
});

describe("costBreakdown", () => {
  it("sums each kind over trades; a trade without costs counts fees and funding", () => {
    const c = costBreakdown([
      { fees: 3, funding: 1, costs: { fees: 1, slippage: 0.5, spread: 1, impact: 0.5, funding: 1 } },
      { fees: 2, funding: -0.5 },
    ]);
    expect(c).toEqual({ fees: 3, slippage: 0.5, spread: 1, impact: 0.5, funding: 0.5 });
    expect(costBreakdown([])).toEqual({ fees: 0, slippage: 0, spread: 0, impact: 0, funding: 0 });
  });
});
