/**
 * Execution realism in the engine (stops, take-profit, liquidation, settlement funding,
 * latency, market impact, the cost breakdown) against small cases computed by hand; the
 * arithmetic is in the comments. Cash 10 000 and no fees unless a case says otherwise.
 */
import { describe, expect, it } from "vitest";
import { backtest, backtestPortfolio, type BacktestOptions } from "../../src/backtest/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { annualReturn, calmarRatio, maxDrawdown } from "../../src/metrics/index.js";

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
  // Hourly bars stamped 00:00 .. 03:00 (bar i covers [i h, (i + 1) h)), flat price 100, settlements every 2 hours.
  const time = [0, H, 2 * H, 3 * H];
  const close = [100, 100, 100, 100];
  const funding = { rate: 1e-4, intervalMs: 2 * H };
  it("charges a position held into the settlement instant, once", () => {
    // position decided at close 0 (01:00), held over bar 1 [01:00, 02:00): the 02:00 settlement
    // charges 100 units x 100 x 1e-4 = 1 -> equity 9999 from bar 1 on
    const r = backtest({ time, close, position: [1, 0, 0, 0], funding });
    nearAll(r.equity, [10_000, 9_999, 9_999, 9_999]);
    nearAll(r.fundingPaid, [0, 1, 0, 0]);
    expect(r.trades[0]!.funding).toBeCloseTo(1, 12);
    expect(r.costs.funding).toBeCloseTo(1, 12);
  });
  it("charges nothing to a position opened at a settlement and closed before the next", () => {
    // held over bar 2 [02:00, 03:00): opened at the 02:00 settlement, closed before 04:00
    const r = backtest({ time, close, position: [0, 1, 0, 0], funding });
    nearAll(r.equity, [10_000, 10_000, 10_000, 10_000]);
    expect(r.costs.funding).toBe(0);
  });
  it("pays the 00/08/16 UTC settlements over exactly the four 4h bars that close on them, and none over the four opened at them", () => {
    // 4h bars stamped 16:00 (day 0), 20:00, 00:00, ..., 00:00 (day 2). Long 1 held over bars 1, 3, 5, 7 (stamped 20:00,
    // 04:00, 12:00, 20:00: closing at 00:00, 08:00, 16:00, 00:00), rebalanced to 100% at each fill at price 100:
    // each pays units x 100 x 1e-4 = 1e-4 of equity: 10 000 x 0.9999 = 9999, then 9998.0001, 9997.00029999, 9996.000599960001.
    const d = Date.UTC(2024, 0, 1);
    const t4 = Array.from({ length: 9 }, (_, i) => d - 8 * H + 4 * H * i);
    const flat = new Array(9).fill(100);
    const held = backtest({ time: t4, close: flat, position: [1, 0, 1, 0, 1, 0, 1, 0, 0], funding: { rate: 1e-4, intervalMs: 8 * H } });
    nearAll(held.equity, [10_000, 9_999, 9_999, 9_998.0001, 9_998.0001, 9_997.00029999, 9_997.00029999, 9_996.000599960001, 9_996.000599960001], 8);
    nearAll(held.fundingPaid, [0, 1, 0, 0.9999, 0, 0.99980001, 0, 0.999700029999, 0], 10);
    // held over bars 2, 4, 6, 8 (opened at 00:00, 08:00, 16:00, 00:00, closed before the next settlement): nothing
    const opened = backtest({ time: t4, close: flat, position: [0, 1, 0, 1, 0, 1, 0, 1, 0], funding: { rate: 1e-4, intervalMs: 8 * H } });
    nearAll(opened.equity, new Array(9).fill(10_000));
    expect(opened.costs.funding).toBe(0);
  });
  it("lets shorts receive a positive rate, and takes explicit settlement times", () => {
    // short 100 units held over bar 1 [01:00, 02:00); settlement at 01:30 -> receives 100 x 100 x 2e-4 = 2
    const r = backtest({ time, close, position: [-1, 0, 0, 0], funding: { rate: 2e-4, times: [1.5 * H] } });
    nearAll(r.equity, [10_000, 10_002, 10_002, 10_002]);
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

describe("stopLoss / takeProfit (next_close: long bought at close 1 = 100, 100 units)", () => {
  // bars 0, 1 at 100; bar 2 is the test bar; bar 3 at 90
  const bars = (o2: number, h2: number, l2: number, c2: number) => ({
    open: [100, 100, o2, 90],
    high: [100, 100, h2, 90],
    low: [100, 100, l2, 90],
    close: [100, 100, c2, 90],
  });
  it("exits at the open when the bar gaps through the stop, paying fees like any fill", () => {
    // stop 100 x 0.95 = 95; bar 2 opens at 92: exit at 92. Fees 10 bps:
    // entry: 100 units, cash -10 (fee 0.001 x 10 000); exit: cash -10 + 9200 - 9.2 = 9180.8
    const r = backtest({ ...bars(92, 93, 88, 90), position: [0, 1, 1, 1], stopLoss: 0.05, feeBps: 10 });
    nearAll(r.equity, [10_000, 10_000, 9_180.8, 9_180.8]);
    const t = r.trades[0]!;
    expect(t.reason).toBe("stop");
    expect(t.exitPrice).toBe(92);
    expect(t.exitIndex).toBe(2);
    expect(t.fees).toBeCloseTo(19.2, 9);
    expect(t.pnl).toBeCloseTo(-800 - 19.2, 9);
    expect(r.trades).toHaveLength(1); // flat after: the target 1 is the one in force at the exit
  });
  it("exits at the stop price when only the range reaches it", () => {
    // open 99, low 94 <= 95: exit at 95 -> 9500
    const r = backtest({ ...bars(99, 99.5, 94, 96), position: [0, 1, 1, 1], stopLoss: 0.05 });
    nearAll(r.equity, [10_000, 10_000, 9_500, 9_500]);
    expect(r.trades[0]!.exitPrice).toBeCloseTo(95, 12);
  });
  it("exits at the take-profit price when the range reaches it", () => {
    // take 110: open 101, high 111 -> exit at 110 -> 11 000
    const r = backtest({ ...bars(101, 111, 99, 105), position: [0, 1, 1, 1], stopLoss: 0.05, takeProfit: 0.1 });
    nearAll(r.equity, [10_000, 10_000, 11_000, 11_000]);
    expect(r.trades[0]!.reason).toBe("take_profit");
  });
  it("counts a bar reaching both levels as the stop, and a gap above the take-profit as a fill at the open", () => {
    const both = backtest({ ...bars(100, 111, 94, 105), position: [0, 1, 1, 1], stopLoss: 0.05, takeProfit: 0.1 });
    nearAll(both.equity, [10_000, 10_000, 9_500, 9_500]);
    expect(both.trades[0]!.reason).toBe("stop");
    const gap = backtest({ ...bars(112, 115, 111, 113), position: [0, 1, 1, 1], takeProfit: 0.1 });
    nearAll(gap.equity, [10_000, 10_000, 11_200, 11_200]); // 100 x 112
    expect(gap.trades[0]!.reason).toBe("take_profit");
  });
  it("mirrors the rules for a short", () => {
    // short 100 units at 100 (cash 20 000); stop 105: bar 2 opens at 106 -> buy back at 106 -> 9400
    const r = backtest({ ...bars(106, 107, 104, 106), position: [0, -1, -1, -1], stopLoss: 0.05 });
    nearAll(r.equity, [10_000, 10_000, 9_400, 9_400]);
    expect(r.trades[0]!.side).toBe("short");
    expect(r.trades[0]!.reason).toBe("stop");
    // take-profit 90 in the range (low 89): 20 000 - 9000 = 11 000
    const tp = backtest({ ...bars(99, 100, 89, 95), position: [0, -1, -1, -1], takeProfit: 0.1 });
    nearAll(tp.equity, [10_000, 10_000, 11_000, 11_000]);
  });
  it("stays flat until the target differs from the one in force at the exit", () => {
    // stopped at 95 on bar 2 (target 1 in force); bar 2's target is still 1: flat; bar 3's 0.5 differs:
    // buys 0.5 x 9500 / 90 units at close 3 = 52.777..., held over bar 4 (90 -> 99): 9500 + 52.777 x 9 = 9975
    const r = backtest({
      open: [100, 100, 99, 90, 99, 99],
      high: [100, 100, 99.5, 90, 99, 99],
      low: [100, 100, 94, 90, 99, 99],
      close: [100, 100, 96, 90, 99, 99],
      position: [0, 1, 1, 0.5, 0.5, 0.5],
      stopLoss: 0.05,
    });
    nearAll(r.equity, [10_000, 10_000, 9_500, 9_500, 9_975, 9_975]);
    expect(r.trades.map((t) => t.reason)).toEqual(["stop", "end"]);
    expect(r.trades[1]!.entryIndex).toBe(3);
  });
  it("fills a level inside the bar's range when the open is missing (NaN: no gap information)", () => {
    // long 100 units at 100, stop 95; bar 2: open NaN, high 90, low 85: the range lies wholly below the stop,
    // so the exit is at the nearest price the bar traded, its high 90 (not 95, outside the bar): 10 000 - 100 x 10 = 9000
    const s = backtest({ open: [100, 100, Number.NaN, 88], high: [100, 100, 90, 88], low: [100, 100, 85, 88], close: [100, 100, 88, 88], position: [0, 1, 1, 1], stopLoss: 0.05 });
    expect(s.trades[0]!.reason).toBe("stop");
    expect(s.trades[0]!.exitPrice).toBe(90);
    nearAll(s.equity, [10_000, 10_000, 9_000, 9_000]);
    // take-profit 110, bar 2 open NaN, range 112..115: filled at its low 112 -> 11 200
    const t = backtest({ open: [100, 100, Number.NaN, 113], high: [100, 100, 115, 113], low: [100, 100, 112, 113], close: [100, 100, 113, 113], position: [0, 1, 1, 1], takeProfit: 0.1 });
    expect(t.trades[0]!.exitPrice).toBe(112);
    nearAll(t.equity, [10_000, 10_000, 11_200, 11_200]);
    // a short's stop 105 with the range 107..109 and no open: bought back at its low 107 -> 20 000 - 10 700 = 9300
    const sh = backtest({ open: [100, 100, Number.NaN, 108], high: [100, 100, 109, 108], low: [100, 100, 107, 108], close: [100, 100, 108, 108], position: [0, -1, -1, -1], stopLoss: 0.05 });
    expect(sh.trades[0]!.exitPrice).toBe(107);
    nearAll(sh.equity, [10_000, 10_000, 9_300, 9_300]);
  });
  it("lets the entry bar's range trigger under next_open, not its open", () => {
    // decision of close 0 fills at open 1 = 100 (100 units); bar 1's low 94 reaches the stop 95: exit at 95.
    // (An open of 90 on bar 1 would be the entry itself, not a gap.)
    const r = backtest({
      open: [100, 100, 100],
      high: [100, 101, 100],
      low: [100, 94, 100],
      close: [100, 98, 100],
      position: [1, 1, 1],
      fill: "next_open",
      stopLoss: 0.05,
    });
    nearAll(r.equity, [10_000, 9_500, 9_500]);
    expect(r.trades[0]!.entryIndex).toBe(1);
    expect(r.trades[0]!.exitIndex).toBe(1);
    // held from bar 1, bar 2 opens at 90 (below the stop 95): exits at that open
    const g = backtest({
      open: [100, 100, 90],
      high: [100, 101, 91],
      low: [100, 99, 85],
      close: [100, 100, 88],
      position: [1, 1, 1],
      fill: "next_open",
      stopLoss: 0.05,
    });
    nearAll(g.equity, [10_000, 10_000, 9_000]);
    expect(g.trades[0]!.exitPrice).toBe(90);
  });
});

describe("the loss is capped at the collateral (README settings: maintenance 0.005, liquidation fee 50 bps, 5x, fee 5 bps)", () => {
  // Fill at close 1: 5 x 10 000 / 100 = 500 units, fee 0.0005 x 50 000 = 25 -> value 9975, cash -40 025.
  // Liquidation price L = 40 025 / (500 x 0.995) = 80.4523; bar 2's low 79 reaches it: the account is worth
  // -40 025 + 500 L = 0.005 x 500 L = 201.13 there, and the exit pays 0.0005 x 500 L = 20.11 plus the
  // liquidation fee 0.005 x 500 L = 201.13: uncapped, -20.11 (the defect); capped, 0 and ruined.
  const L = 40_025 / (500 * 0.995);
  const run = (extra: Partial<BacktestOptions> = {}) =>
    backtest({
      time: [0, H, 2 * H, 3 * H],
      open: [100, 100, 99, 90],
      high: [100, 100, 99, 90],
      low: [100, 100, 79, 90],
      close: [100, 100, 85, 90],
      position: [0, 5, 5, 5],
      maxLeverage: 5,
      feeBps: 5,
      maintenanceMargin: 0.005,
      liquidationFeeBps: 50,
      ...extra,
    });
  it("leaves equity at 0, not -20.11, flags ruin, and keeps the drawdown, CAGR and Calmar sane", () => {
    const r = run();
    expect(-40_025 + 500 * L - 0.0055 * 500 * L).toBeCloseTo(-20.113, 3); // the uncapped value, by hand
    nearAll(r.equity, [10_000, 10_000, 0, 0]);
    expect(r.ruinIndex).toBe(2);
    const t = r.trades[0]!;
    expect(t.reason).toBe("liquidation");
    expect(t.exitPrice).toBeCloseTo(L, 9);
    expect(t.pnl).toBeCloseTo(-10_000, 6); // the trade loses the collateral, no more
    expect(maxDrawdown(r.returns)).toBe(-1);
    expect(annualReturn(r.returns, { periodsPerYear: 8760 })).toBe(-1);
    expect(calmarRatio(r.returns, { periodsPerYear: 8760 })).toBe(-1);
  });
  it("caps a gap through the liquidation price the same way (opens at 70: uncapped -5 217.5)", () => {
    // exit at the open 70: -40 025 + 35 000 - 0.0055 x 35 000 = -5 217.5 -> 0
    const r = run({ open: [100, 100, 70, 90], low: [100, 100, 69, 90] });
    expect(r.trades[0]!.exitPrice).toBe(70);
    nearAll(r.equity, [10_000, 10_000, 0, 0]);
    expect(r.ruinIndex).toBe(2);
    expect(r.trades[0]!.pnl).toBeCloseTo(-10_000, 6);
  });
});

describe("the loss cap when the closing fill's fee takes the account below 0 under next_close (ruin found at the next bar)", () => {
  // Whole units, fee 25 bps: at close 0 = 100 the short is floor(10 000 / (100 x 1.0025)) = 99 units, fee
  // 0.0025 x 9 900 = 24.75 -> value 9 975.25. Close 1 = 200.75 marks it at 9 975.25 - 99 x 100.75 = 1 (equity 1),
  // and the target 0 buys the 99 back there for 0.0025 x 99 x 200.75 = 49.685625: the value is 1 - 49.685625 =
  // -48.685625 after the fill, found at bar 2 (ruin) and capped at 0. The short's pnl is -99 x 100.75 - 24.75 -
  // 49.685625 = -10 048.69 uncapped; the 48.69 shortfall is the exchange's, so the trade loses the collateral, -10 000.
  it("books the shortfall to the trade that fill closed: equity 10 000, 1, 0 and the short's pnl -10 000", () => {
    const r = backtest({ close: [100, 200.75, 200.75], position: [-1, 0, 0], units: "whole", feeBps: 25 });
    nearAll(r.equity, [10_000, 1, 0]);
    expect(r.ruinIndex).toBe(2);
    expect(r.trades).toHaveLength(1);
    const t = r.trades[0]!;
    expect([t.side, t.units, t.entryIndex, t.exitIndex, t.exitPrice, t.reason]).toEqual(["short", 99, 0, 1, 200.75, "signal"]);
    expect(t.fees).toBeCloseTo(24.75 + 49.685625, 9); // the fees paid stay what they were
    expect(t.pnl).toBeCloseTo(-10_000, 9); // not -10 048.685625
    nearAll(r.fees, [24.75, 49.685625, 0]);
  });
});

describe("liquidation (long 5x: 500 units bought at close 1 = 100, cash -40 000; maintenance 5%)", () => {
  // liquidation price: -(-40 000) / (500 x 0.95) = 84.2105...; check: -40 000 + 500 x 84.2105 = 2105.26 = 0.05 x 42 105.26
  const L = 40_000 / (500 * 0.95);
  const run = (o2: number, h2: number, l2: number, c2: number, extra: Partial<BacktestOptions> = {}) =>
    backtest({
      open: [100, 100, o2, 90],
      high: [100, 100, h2, 90],
      low: [100, 100, l2, 90],
      close: [100, 100, c2, 90],
      position: [0, 5, 5, 5],
      maxLeverage: 5,
      maintenanceMargin: 0.05,
      liquidationFeeBps: 50,
      ...extra,
    });
  it("liquidates at the price where equity meets the maintenance margin, with the liquidation fee", () => {
    // low 80 <= 84.21: sell 500 at L: cash -40 000 + 500 L = 2105.263; fee 0.005 x 500 L = 210.526 -> 1894.737
    const r = run(99, 99, 80, 85);
    const E2 = 0.05 * 500 * L - 0.005 * 500 * L; // 2105.263 - 210.526 = 1894.737
    nearAll(r.equity, [10_000, 10_000, E2, E2], 6);
    const t = r.trades[0]!;
    expect(t.reason).toBe("liquidation");
    expect(t.exitPrice).toBeCloseTo(L, 9);
    expect(t.costs!.fees).toBeCloseTo(0.005 * 500 * L, 9); // the liquidation fee counts as a fee
    expect(r.ruinIndex).toBe(-1);
  });
  it("fills at the open when the bar gaps through the liquidation price (the loss capped at the collateral: ruin)", () => {
    // opens at 80: cash -40 000 + 40 000 - 0.005 x 40 000 = -200, capped at 0 -> ruined at bar 2
    const r = run(80, 81, 78, 79);
    expect(r.trades[0]!.exitPrice).toBe(80);
    expect(r.trades[0]!.reason).toBe("liquidation");
    expect(r.equity[2]).toBe(0);
    expect(r.trades[0]!.pnl).toBeCloseTo(-10_000, 9);
    expect(r.ruinIndex).toBe(2);
  });
  it("does nothing while the low stays above it, and lets a nearer stop exit first", () => {
    nearAll(run(99, 99, 85, 90).equity, [10_000, 10_000, 5_000, 5_000]); // 10 000 + 500 x (90 - 100)
    // stop 0.1 -> 90, above L: falling from the open, the stop comes first: -40 000 + 500 x 90 = 5000
    const s = run(99, 99, 80, 85, { stopLoss: 0.1 });
    expect(s.trades[0]!.reason).toBe("stop");
    nearAll(s.equity, [10_000, 10_000, 5_000, 5_000]);
  });
  it("liquidates a levered short at the high", () => {
    // short 500 at 100: cash 60 000; L = 60 000 / (500 x 1.05) = 114.2857; high 120 -> buy back at L:
    // 60 000 - 500 x 114.2857 = 2857.14 (= 0.05 x 57 142.9), no liquidation fee here
    const r = backtest({
      open: [100, 100, 101, 100],
      high: [100, 100, 120, 100],
      low: [100, 100, 100, 100],
      close: [100, 100, 110, 100],
      position: [0, -5, -5, -5],
      maxLeverage: 5,
      maintenanceMargin: 0.05,
    });
    const Ls = 60_000 / (500 * 1.05);
    expect(r.trades[0]!.exitPrice).toBeCloseTo(Ls, 9);
    nearAll(r.equity, [10_000, 10_000, 60_000 - 500 * Ls, 60_000 - 500 * Ls], 6);
  });
});

describe("market impact and the cost breakdown", () => {
  // flat price 100, volume 1000 coins a bar, sigma 0.02 a bar: scale = 0.02 / sqrt(100 x 1000)
  const close = [100, 100, 100, 100];
  const impact = { volume: [1000, 1000, 1000, 1000], volatility: [0.02, 0.02, 0.02, 0.02] };
  const scale = 0.02 / Math.sqrt(100_000);
  it("charges coefficient x sigma x sqrt(Q / V) x N on each fill, reported as impact", () => {
    // buy 10 000 at close 1: impact 0.02 x sqrt(100 / 1000) x 10 000 = 63.2456
    // E2 = 10 000 - 63.2456 = 9936.754; sell |0 - 1| x E2 at close 2: impact scale x E2^1.5
    const i1 = scale * 10_000 ** 1.5;
    const E2 = 10_000 - i1;
    const i2 = scale * E2 ** 1.5;
    const r = backtest({ close, position: [0, 1, 0, 0], impact });
    nearAll(r.equity, [10_000, 10_000, E2, E2 - i2]);
    expect(r.trades[0]!.costs!.impact).toBeCloseTo(i1 + i2, 9);
    expect(r.trades[0]!.costs!.fees).toBeCloseTo(0, 9);
    expect(r.costs.impact).toBeCloseTo(i1 + i2, 9);
    expect(r.fees[1]).toBeCloseTo(i1, 9);
  });
  it("splits fee, slippage and half-spread by their bps", () => {
    // feeBps 4, slippageBps 1, spread 10 bps (half paid): 10 bps in all on the 10 000 bought at close 1:
    // fees 4, slippage 1, spread 5; then sold |0 - 1| x 9990 at close 2: 3.996, 0.999, 4.995
    const r = backtest({ close, position: [0, 1, 0, 0], feeBps: 4, slippageBps: 1, spreadBps: [10, 10, 10, 10] });
    const c = r.trades[0]!.costs!;
    expect(c.fees).toBeCloseTo(4 + 3.996, 9);
    expect(c.slippage).toBeCloseTo(1 + 0.999, 9);
    expect(c.spread).toBeCloseTo(5 + 4.995, 9);
    expect(c.impact).toBe(0);
    expect(r.trades[0]!.fees).toBeCloseTo(20 - 0.01, 9); // 10 + 9.99
    expect(r.costs).toEqual(c);
  });
});

describe("every option off, or never reached: the default results", () => {
  it("gives the same equity and trades with stops that are never reached and no leverage", () => {
    const close = [100, 103, 99, 104, 101, 102];
    const position = [1, 1, -1, 0, 1, 1];
    const base = { close, position, feeBps: 5, rebalance: "on_change" as const };
    const plain = backtest(base);
    const ohlc = { open: close, high: close, low: close };
    // +-99% levels on bars moving a few %: never reached; unlevered: no liquidation price > 0
    const off = backtest({ ...base, ...ohlc, stopLoss: 0.99, takeProfit: 0.99, maintenanceMargin: 0.01 });
    expect(Array.from(off.equity)).toEqual(Array.from(plain.equity));
    expect(off.trades).toEqual(plain.trades);
    expect(plain.trades.every((t) => t.reason === "signal" || t.reason === "end")).toBe(true);
  });
});

describe("backtestPortfolio: the same rules per coin on one account", () => {
  it("stops one coin out at its gap while the other is held", () => {
    // weights .5/.5, cash 10 000: BTC 50 units at 100, ETH 500 units at 10 (cash 0) at close 1.
    // Bar 2: BTC opens at 92 <= 95: sold at 92 -> cash 4600; ETH at 11: E2 = 4600 + 5500 = 10 100.
    // BTC stays flat (target .5 unchanged); ETH rebalanced to .5 of 10 100; bar 3 flat prices: 10 100.
    const ETH = { close: [10, 10, 11, 11], open: [10, 10, 11, 11], high: [10, 10, 11, 11], low: [10, 10, 11, 11], position: [0, 1, 1, 1] };
    const BTC = { close: [100, 100, 90, 90], open: [100, 100, 92, 90], high: [100, 100, 93, 90], low: [100, 100, 88, 90], position: [0, 1, 1, 1] };
    const r = backtestPortfolio({ time: [0, H, 2 * H, 3 * H], coins: { BTC, ETH }, stopLoss: 0.05 });
    nearAll(r.equity, [10_000, 10_000, 10_100, 10_100]);
    expect(r.trades.map((t) => [t.coin, t.reason, t.exitPrice])).toEqual([
      ["BTC", "stop", 92],
      ["ETH", "end", 11],
    ]);
    expect(r.costs.fees).toBe(0);
  });
  it("delays fills by delayBars and keeps positions as decided; needs open, high, low for the intrabar rules", () => {
    const r = backtestPortfolio({ time: [0, 1, 2, 3], coins: { BTC: { close: [100, 110, 121, 121], position: [1, 0, 0, 0] } }, delayBars: 1 });
    nearAll(r.equity, [10_000, 10_000, 11_000, 11_000]);
    expect(Array.from(r.positions)).toEqual([1, 0, 0, 0]);
    expect(argumentOf(() => backtestPortfolio({ time: [0, 1], coins: { BTC: { close: [1, 1], position: [1, 1] } }, takeProfit: 0.1 }))).toBe("open");
  });
  it("charges funding settlements per coin", () => {
    // BTC long 100 units at 100 over bar 1 [01:00, 02:00), settlement at 02:00 -> 100 x 100 x 1e-4 = 1
    const r = backtestPortfolio({ time: [0, H, 2 * H, 3 * H], coins: { BTC: { close: [100, 100, 100, 100], position: [1, 0, 0, 0], funding: { rate: 1e-4, intervalMs: 2 * H } } } });
    nearAll(r.equity, [10_000, 9_999, 9_999, 9_999]);
  });
});

describe("execution options on edge inputs", () => {
  const all: Partial<BacktestOptions> = {
    stopLoss: 0.05,
    takeProfit: 0.1,
    maintenanceMargin: 0.05,
    liquidationFeeBps: 10,
    delayBars: 2,
  };
  it("handles empty input and one bar", () => {
    const empty = backtest({ time: [], close: [], open: [], high: [], low: [], position: [], funding: { rate: 1e-4, intervalMs: H }, impact: { volume: [] }, ...all });
    expect(empty.equity.length).toBe(0);
    expect(empty.costs).toEqual({ fees: 0, slippage: 0, spread: 0, impact: 0, funding: 0 });
    const one = backtest({ time: [0], close: [100], open: [100], high: [100], low: [100], position: [1], funding: { rate: 1e-4, intervalMs: H }, impact: { volume: [1] }, ...all });
    expect(Array.from(one.equity)).toEqual([10_000]);
    expect(one.trades).toEqual([]);
  });
  it("skips the intrabar test on a bar without high and low (NaN), and checks the next", () => {
    // long 100 units at 100; bar 2 has no range (NaN): no exit; bar 3 low 94 -> stop at 95
    const r = backtest({
      open: [100, 100, Number.NaN, 96],
      high: [100, 100, Number.NaN, 97],
      low: [100, 100, Number.NaN, 94],
      close: [100, 100, 97, 96],
      position: [0, 1, 1, 1],
      stopLoss: 0.05,
    });
    nearAll(r.equity, [10_000, 10_000, 9_700, 9_500]);
    expect(r.trades[0]!.exitIndex).toBe(3);
  });
  it("does not mutate its inputs", () => {
    const close = [100, 100, 90, 90];
    const open = [100, 100, 92, 90];
    const volume = [10, 10, 10, 10];
    const rate = [1e-4, 1e-4, 1e-4, 1e-4];
    const position = [0, 1, 1, 1];
    const copies = [close, open, volume, rate, position].map((a) => a.slice());
    backtest({ time: [0, H, 2 * H, 3 * H], close, open, high: open, low: close, position, funding: { rate, intervalMs: H }, impact: { volume }, ...all });
    expect([close, open, volume, rate, position]).toEqual(copies);
  });
});
