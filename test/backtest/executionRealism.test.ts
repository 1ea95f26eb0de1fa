/**
 * Execution realism in the engine (stops, take-profit, liquidation, settlement funding,
 * latency, market impact, the cost breakdown) against small cases computed by hand; the
 * arithmetic is in the comments. Cash 10 000 and no fees unless a case says otherwise.
 */
import { describe, expect, it } from "vitest";
import { backtest, type BacktestOptions } from "../../src/backtest/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";

const H = 3_600_000;

function nearAll(actual: ArrayLike<number>, expected: readonly number[], digits = 9): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((e, i) => expect(actual[i]).toBeCloseTo(e, digits));
}

function argumentOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    return (e as InvalidArgumentError).argument;
  }
  return expect.fail("expected an InvalidArgumentError");
}

describe("execution options: validation", () => {
  const base: BacktestOptions = { close: [100, 100], open: [100, 100], high: [100, 100], low: [100, 100], position: [1, 1] };
  it("names each bad option in a typed error", () => {
    expect(argumentOf(() => backtest({ ...base, stopLoss: 0 }))).toBe("stopLoss");
    expect(argumentOf(() => backtest({ ...base, stopLoss: -0.1 }))).toBe("stopLoss");
    expect(argumentOf(() => backtest({ ...base, stopLoss: Number.NaN }))).toBe("stopLoss");
    expect(argumentOf(() => backtest({ ...base, takeProfit: Number.POSITIVE_INFINITY }))).toBe("takeProfit");
    expect(argumentOf(() => backtest({ ...base, delayBars: 1.5 }))).toBe("delayBars");
    expect(argumentOf(() => backtest({ ...base, delayBars: -1 }))).toBe("delayBars");
    expect(argumentOf(() => backtest({ ...base, maintenanceMargin: 1 }))).toBe("maintenanceMargin");
    expect(argumentOf(() => backtest({ ...base, maintenanceMargin: -0.01 }))).toBe("maintenanceMargin");
    expect(argumentOf(() => backtest({ ...base, liquidationFeeBps: 10 }))).toBe("liquidationFeeBps");
    expect(argumentOf(() => backtest({ ...base, maintenanceMargin: 0.01, liquidationFeeBps: -1 }))).toBe("liquidationFeeBps");
    expect(argumentOf(() => backtest({ ...base, impact: { volume: [1] } }))).toBe("impact.volume");
    expect(argumentOf(() => backtest({ ...base, impact: { volume: [1, 1], coefficient: -1 } }))).toBe("impact.coefficient");
    expect(argumentOf(() => backtest({ ...base, time: [0, H], funding: { rate: 1e-4, intervalMs: 0 } }))).toBe("funding.intervalMs");
  });
  it("needs open, high and low for the intrabar rules, and time for funding settlements", () => {
    expect(argumentOf(() => backtest({ close: [100, 100], high: [100, 100], low: [100, 100], position: [1, 1], stopLoss: 0.1 }))).toBe("open");
    expect(argumentOf(() => backtest({ close: [100, 100], open: [100, 100], low: [100, 100], position: [1, 1], takeProfit: 0.1 }))).toBe("high");
    expect(argumentOf(() => backtest({ close: [100, 100], open: [100, 100], high: [100, 100], position: [1, 1], maintenanceMargin: 0.1 }))).toBe("low");
    expect(argumentOf(() => backtest({ ...base, stopLoss: 0.1, low: [100, -1] }))).toBe("low");
    expect(argumentOf(() => backtest({ ...base, funding: { rate: 1e-4, intervalMs: H } }))).toBe("time");
  });
});

describe("funding settlements", () => {
  // Hourly bars at 00:00 .. 03:00, flat price 100, settlements every 2 hours (00:00, 02:00).
  const time = [0, H, 2 * H, 3 * H];
  const close = [100, 100, 100, 100];
  const funding = { rate: 1e-4, intervalMs: 2 * H };
  it("charges a position held at the settlement instant, once", () => {
    // position decided at close 1 (01:00), held over bar 2 (01:00, 02:00]: the 02:00 settlement
    // charges 100 units x 100 x 1e-4 = 1 -> equity 9999 from bar 2 on
    const r = backtest({ time, close, position: [0, 1, 0, 0], funding });
    nearAll(r.equity, [10_000, 10_000, 9_999, 9_999]);
    nearAll(r.fundingPaid, [0, 0, 1, 0]);
    expect(r.trades[0]!.funding).toBeCloseTo(1, 12);
    expect(r.costs.funding).toBeCloseTo(1, 12);
  });
  it("charges nothing to a position held only between settlements", () => {
    // held over bar 1 (00:00, 01:00] and bar 3 (02:00, 03:00]: no settlement inside either
    const r = backtest({ time, close, position: [1, 0, 1, 0], funding });
    nearAll(r.equity, [10_000, 10_000, 10_000, 10_000]);
    expect(r.costs.funding).toBe(0);
  });
  it("lets shorts receive a positive rate, and takes explicit settlement times", () => {
    // short 100 units held over bar 2; settlement at 01:30 -> receives 100 x 100 x 2e-4 = 2
    const r = backtest({ time, close, position: [0, -1, 0, 0], funding: { rate: 2e-4, times: [1.5 * H] } });
    nearAll(r.equity, [10_000, 10_000, 10_002, 10_002]);
  });
  it("keeps the per-bar funding column working", () => {
    const r = backtest({ time, close, position: [0, 1, 0, 0], funding: [0, 0, 1e-4, 0] });
    nearAll(r.equity, [10_000, 10_000, 9_999, 9_999]);
  });
});

describe("delayBars", () => {
  // close 100 -> 110 -> 121 -> 121; the strategy wants to be long over bar 1 only
  const close = [100, 110, 121, 121];
  it("fills each decision delayBars later", () => {
    // no delay: buy 100 units at 100, sell at 110 -> 11 000
    nearAll(backtest({ close, position: [1, 0, 0, 0] }).equity, [10_000, 11_000, 11_000, 11_000]);
    // one bar: the decision of close 0 fills at close 1 (110), the exit at close 2 (121):
    // 10 000 / 110 units x 121 = 11 000, reached a bar later
    nearAll(backtest({ close, position: [1, 0, 0, 0], delayBars: 1 }).equity, [10_000, 10_000, 11_000, 11_000]);
    // three bars: the decision of close 0 would fill at close 3, the last bar: never filled
    nearAll(backtest({ close, position: [1, 0, 0, 0], delayBars: 3 }).equity, [10_000, 10_000, 10_000, 10_000]);
  });
  it("delays next_open fills too, and leaves positions as decided", () => {
    // decision of close 0 -> as if decided at close 1 -> fills at open 2 (115), sold at open 3 (120)
    const r = backtest({ close, open: [100, 105, 115, 120], fill: "next_open", position: [1, 0, 0, 0], delayBars: 1 });
    // E2 = 10 000 / 115 x 121 = 10 521.739..., E3 = 10 000 / 115 x 120 = 10 434.782...
    nearAll(r.equity, [10_000, 10_000, (10_000 / 115) * 121, (10_000 / 115) * 120]);
    expect(Array.from(r.positions)).toEqual([1, 0, 0, 0]);
    expect(r.trades[0]!.entryIndex).toBe(2);
  });
});
