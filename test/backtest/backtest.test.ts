/**
 * The engine against small cases computed by hand (the arithmetic is in the
 * comments), plus the edge cases every kernel covers: empty, one bar, NaN,
 * constant prices, bad arguments, no mutation, option boundaries.
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { backtest, fundingPerBar, type BacktestOptions } from "../../src/backtest/index.js";

/** Relative closeness (absolute near 0). */
function near(actual: number, expected: number, tol = 1e-12): void {
  const scale = Math.max(1, Math.abs(expected));
  if (!(Math.abs(actual - expected) <= tol * scale)) {
    expect.fail(`expected ${actual} to be within ${tol} (relative) of ${expected}`);
  }
}
function nearAll(actual: ArrayLike<number>, expected: readonly number[], tol = 1e-12): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((e, i) => {
    if (Number.isNaN(e)) expect(actual[i]).toBeNaN();
    else near(actual[i] as number, e, tol);
  });
}
const T4 = [0, 60_000, 120_000, 180_000];

describe("backtest: docs/DESIGN.md semantics, fees and slippage", () => {
  it("charges fee on |w_i - w_{i-1}| in the bar after the fill, and nothing to hold", () => {
    // close 100 -> 110 -> 121 -> 121, w = [1, 1, 0, 0], 10 bps, cash 1000.
    // E1 = 1000 (1 + 0.1 - 0.001 x |1 - 0|) = 1099
    // E2 = 1099 (1 + 0.1 - 0)              = 1208.9
    // E3 = 1208.9 (1 + 0 - 0.001 x |0 - 1|) = 1207.6911
    const r = backtest({ time: T4, close: [100, 110, 121, 121], position: [1, 1, 0, 0], feeBps: 10, initialCash: 1000 });
    nearAll(r.equity, [1000, 1099, 1208.9, 1207.6911]);
    nearAll(r.returns, [Number.NaN, 0.099, 0.1, -0.001]);
    nearAll(r.positions, [1, 1, 0, 0]);
    nearAll(r.turnover, [1, 0, 1, 0]);
    nearAll(r.fees, [1, 0, 1.2089, 0]); // cash, paid at the fill: 0.001 x 1000, 0.001 x 1208.9
    expect(r.trades).toHaveLength(1);
    const t = r.trades[0]!;
    expect(t).toMatchObject({ side: "long", entryIndex: 0, exitIndex: 2, entryTime: 0, exitTime: 120_000, entryPrice: 100, exitPrice: 121, barsHeld: 2, open: false });
    near(t.return, 0.21); // 121 / 100 - 1
    near(t.fees, 2.2089); // 1 + 1.2089
    near(t.pnl, 207.6911); // = E3 - 1000: the only trade
    near(t.units, 10); // 1000 / 100 at entry (9.99.. after the every-bar reset at 110)
    near(t.netReturn!, 207.6911 / 1000);
    expect(t.funding).toBe(0);
  });

  it("adds fee and slippage, and a half-spread, as the same cost per unit of turnover", () => {
    const base: BacktestOptions = { time: T4, close: [100, 110, 121, 121], position: [1, 1, 0, 0], initialCash: 1000 };
    const fee = backtest({ ...base, feeBps: 10 });
    const split = backtest({ ...base, feeBps: 6, slippageBps: 4 });
    const spread = backtest({ ...base, spreadBps: [20, 20, 20, 20] });
    nearAll(split.equity, Array.from(fee.equity));
    nearAll(spread.equity, Array.from(fee.equity));
    // A spread series: the fill at bar 0 pays 20/2 bps, the fill at bar 2 pays 40/2 bps; NaN carries the last value.
    // E1 = 1000 (1.1 - 0.001) = 1099; E2 = 1208.9; E3 = 1208.9 (1 - 0.002) = 1206.4822
    const varying = backtest({ ...base, spreadBps: [20, Number.NaN, 40, Number.NaN] });
    nearAll(varying.equity, [1000, 1099, 1208.9, 1206.4822]);
    const carried = backtest({ ...base, spreadBps: [20, 40, Number.NaN, 0] });
    nearAll(carried.equity, [1000, 1099, 1208.9, 1206.4822]); // bar 2 carries 40 bps from bar 1
  });

  it("carries the last quoted spread bar by bar, also between the fills of on-change rebalancing", () => {
    // Flat prices, 10 units bought at bar 0 and sold at bar 3, no fill in between (on_change).
    // Bar 0 pays 10/2 bps of 1000 = 0.5; bar 3 has no quote: the last one is bar 1's 30 bps,
    // 15 bps of 1000 = 1.5 (it was bar 0's 0.5 while the spread was carried only at fills).
    const r = backtest({ close: [100, 100, 100, 100, 100], position: [1, 1, 1, 0, 0], spreadBps: [10, 30, Number.NaN, Number.NaN, Number.NaN], rebalance: "on_change", initialCash: 1000 });
    nearAll(r.fees, [0.5, 0, 0, 1.5, 0]);
    nearAll(r.equity, [1000, 999.5, 999.5, 999.5, 998]);
    near(r.trades[0]!.fees, 2);
  });

  it("splits a flip's cost between the closed and the opened trade", () => {
    // close 100, 110, 99, 99; w = [1, -1, 0, 0]; 10 bps; cash 1000.
    // E1 = 1000 (1 + 0.1 - 0.001)                          = 1099
    // E2 = 1099 (1 + (-1)(99/110 - 1) - 0.001 x 2)          = 1099 x 1.098 = 1206.702
    // E3 = 1206.702 (1 - 0.001)                             = 1205.495298
    const r = backtest({ time: T4, close: [100, 110, 99, 99], position: [1, -1, 0, 0], feeBps: 10, initialCash: 1000 });
    nearAll(r.equity, [1000, 1099, 1206.702, 1205.495298]);
    nearAll(r.turnover, [1, 2, 1, 0]);
    expect(r.trades.map((t) => [t.side, t.entryIndex, t.exitIndex, t.open])).toEqual([
      ["long", 0, 1, false],
      ["short", 1, 2, false],
    ]);
    const [long, short] = r.trades as [NonNullable<(typeof r.trades)[0]>, NonNullable<(typeof r.trades)[0]>];
    // long: 10 units x (110 - 100) = 100, fees 1 + 2.198 / 2 = 2.099
    near(long.fees, 2.099);
    near(long.pnl, 97.901);
    near(long.return, 0.1);
    // short: 1099 / 110 units x (110 - 99) = 109.9, fees 1.099 + 1.206702
    near(short.units, 1099 / 110);
    near(short.fees, 2.305702);
    near(short.pnl, 107.594298);
    near(short.return, 0.1); // -(99 / 110 - 1)
    near(long.pnl + short.pnl, 1205.495298 - 1000);
  });

  it("charges funding on the position held over the bar: longs pay positive, shorts pay negative", () => {
    // Flat price 100; w = [1, 1, -1, -1]; funding per bar [0, .001, .001, -.002]; no fees.
    // E1 = 1000 (1 - 1 x .001) = 999; E2 = 999 (1 - .001) = 998.001; E3 = 998.001 (1 - (-1)(-.002)) = 996.004998
    const r = backtest({ time: T4, close: [100, 100, 100, 100], position: [1, 1, -1, -1], funding: [0, 0.001, 0.001, -0.002], initialCash: 1000 });
    nearAll(r.equity, [1000, 999, 998.001, 996.004998]);
    nearAll(r.fundingPaid, [0, 1, 0.999, 1.996002]);
    const [long, short] = r.trades;
    // long: 10 units x 100 x .001 + 9.99 units x 100 x .001 = 1.999
    near(long!.funding, 1.999);
    near(long!.pnl, -1.999);
    // short (open at the end): -9.98001 units x 100 x -.002 = +1.996002 paid
    expect(short).toMatchObject({ side: "short", entryIndex: 2, exitIndex: 3, open: true, exitPrice: 100 });
    near(short!.funding, 1.996002);
    near(short!.pnl, -1.996002);
  });

  it("receives funding when short and funding is positive; NaN funding counts as none", () => {
    // w = [-1, -1, 0, 0], funding [0, .001, NaN, 0]: E1 = 1000 (1 + .001) = 1001, then flat.
    const r = backtest({ time: T4, close: [100, 100, 100, 100], position: [-1, -1, 0, 0], funding: [0, 0.001, Number.NaN, 0], initialCash: 1000 });
    nearAll(r.equity, [1000, 1001, 1001, 1001]);
    near(r.trades[0]!.funding, -1);
  });
});

describe("backtest: fills, units and trades", () => {
  it("fills at the next open: old units over the gap, new units over the bar body", () => {
    // close [100, 110, 99, 120], open [100, 105, 100, 110], w = [1, -1, 0, 0], 10 bps, cash 1000.
    // bar 1: open 105, fill w0 = 1 on E_o = 1000: fee 1, units 1000/105; E1 = 1000 + (1000/105)(110 - 105) - 1
    // bar 2: gap with 1000/105 units: E_o = E1 + (1000/105)(100 - 110); fill -1: fee .002 E_o; E2 = E_o (1 + (-1)(99/100 - 1) - .002)
    // bar 3: gap with the short: E_o' = E2 - (E_o/100)(110 - 99); fill 0: fee .001 E_o'; E3 = E_o' (1 - .001)
    const E1 = 1000 + (1000 / 105) * 5 - 1;
    const Eo2 = E1 + (1000 / 105) * -10;
    const E2 = Eo2 * (1 + 0.01 - 0.002);
    const Eo3 = E2 - (Eo2 / 100) * 11;
    const E3 = Eo3 * (1 - 0.001);
    const r = backtest({ time: T4, close: [100, 110, 99, 120], open: [100, 105, 100, 110], position: [1, -1, 0, 0], feeBps: 10, initialCash: 1000, fill: "next_open" });
    nearAll(r.equity, [1000, E1, E2, E3]);
    nearAll(r.turnover, [0, 1, 2, 1]); // turnover sits on the bar whose open filled it
    expect(r.trades.map((t) => [t.side, t.entryIndex, t.entryPrice, t.exitIndex, t.exitPrice])).toEqual([
      ["long", 1, 105, 2, 100],
      ["short", 2, 100, 3, 110],
    ]);
    near(r.trades[0]!.pnl, (1000 / 105) * (100 - 105) - (1 + 0.001 * Eo2));
  });

  it("charges funding under next_open fills on the units bought at the open, at the open price", () => {
    // open 105: 1000/105 units; funding .01 on 1000/105 x 105 = 10; E1 = 1000 + (1000/105)(110 - 105) - 10
    const r = backtest({ time: [0, 1, 2], close: [100, 110, 110], open: [100, 105, 110], position: [1, 1, 1], funding: [0, 0.01, 0], fill: "next_open", initialCash: 1000 });
    nearAll(r.fundingPaid, [0, 10, 0]);
    near(r.equity[1]!, 1000 + (1000 / 105) * 5 - 10);
  });

  it("requires open prices for next_open fills", () => {
    expect(() => backtest({ close: [1, 2], position: [1, 1], fill: "next_open" })).toThrow(/fill "next_open" needs open prices/);
  });

  it("buys whole units with the cash, keeping the rest, and rebalances only when the target changes", () => {
    // cash 100, close 30, 33, 36, 30; w = [1, 1, 0, 0]: floor(100/30) = 3 units, cash 10 left.
    // E1 = 10 + 3 x 33 = 109; E2 = 10 + 3 x 36 = 118; sell 3 at 36 -> E3 = 118.
    const r = backtest({ time: T4, close: [30, 33, 36, 30], position: [1, 1, 0, 0], initialCash: 100, units: "whole" });
    nearAll(r.equity, [100, 109, 118, 118]);
    nearAll(r.holdings, [3, 3, 0, 0]);
    nearAll(r.exposure, [0.9, 99 / 109, 0, 0]);
    expect(r.trades[0]).toMatchObject({ units: 3, entryPrice: 30, exitPrice: 36, pnl: 18, open: false });
    // With 10 bps the cash must cover the fee: floor(100 / (30 x 1.001)) = 3; fee .09 then .108.
    const f = backtest({ time: T4, close: [30, 33, 36, 30], position: [1, 1, 0, 0], initialCash: 100, units: "whole", feeBps: 10 });
    nearAll(f.equity, [100, 108.91, 117.91, 117.802]);
    near(f.trades[0]!.fees, 0.198);
    // 90.05 buys 3 units at 30 without fee but not with it (3 x 30 x 1.001 = 90.09): 2 units.
    const tight = backtest({ time: T4, close: [30, 33, 36, 30], position: [1, 1, 0, 0], initialCash: 90.05, units: "whole", feeBps: 10 });
    expect(tight.holdings[0]).toBe(2);
  });

  it("rebalance on_change holds units between target changes and charges what is traded", () => {
    // w = [-1, -1, 0, 0], close 100, 110, 121, 121, 10 bps.
    // on_change: short 1000/100 = 10 units (fee 1); cash 1999. E1 = 1999 - 1100 = 899; no trade at 110;
    // E2 = 1999 - 1210 = 789; buy back 10 at 121: fee 1.21 -> E3 = 787.79
    const oc = backtest({ time: T4, close: [100, 110, 121, 121], position: [-1, -1, 0, 0], feeBps: 10, initialCash: 1000, rebalance: "on_change" });
    nearAll(oc.equity, [1000, 899, 789, 787.79]);
    nearAll(oc.holdings, [-10, -10, 0, 0]);
    nearAll(oc.exposure, [-1, -1100 / 899, 0, 0]); // the weight drifts
    // every_bar (default) resets the short to -1 at 110 without charge: E2 = 899 (1 - 0.1) = 809.1
    const eb = backtest({ time: T4, close: [100, 110, 121, 121], position: [-1, -1, 0, 0], feeBps: 10, initialCash: 1000 });
    nearAll(eb.equity, [1000, 899, 809.1, 809.1 * 0.999]);
  });

  it("reports a trade still open at the end, marked at the last close", () => {
    const r = backtest({ time: T4, close: [100, 100, 110, 121], position: [0, 1, 1, 1], initialCash: 1000 });
    expect(r.trades).toHaveLength(1);
    expect(r.trades[0]).toMatchObject({ entryIndex: 1, exitIndex: 3, exitTime: 180_000, exitPrice: 121, barsHeld: 2, open: true });
    near(r.trades[0]!.return, 0.21);
    near(r.trades[0]!.pnl, 210);
  });

  it("never fills the decision of the last bar (there is no bar to hold it over)", () => {
    const r = backtest({ time: T4, close: [100, 110, 121, 133.1], position: [1, 1, 1, 0], initialCash: 1000 });
    nearAll(r.positions, [1, 1, 1, 0]);
    nearAll(r.exposure, [1, 1, 1, 1]);
    expect(r.trades[0]).toMatchObject({ open: true, exitIndex: 3, exitPrice: 133.1 });
    near(r.equity[3]!, 1331);
  });

  it("skips fills on a NaN price, carrying the position and holding equity flat", () => {
    // close [100, NaN, 121, 121], w = [1, 0, 0, 0]: no fill at bar 1, so the long is carried to bar 2.
    const r = backtest({ time: T4, close: [100, Number.NaN, 121, 121], position: [1, 0, 0, 0], initialCash: 1000 });
    nearAll(r.positions, [1, 1, 0, 0]);
    nearAll(r.equity, [1000, 1000, 1210, 1210]);
    nearAll(r.returns, [Number.NaN, 0, 0.21, 0]);
    expect(r.trades[0]).toMatchObject({ entryIndex: 0, exitIndex: 2, exitPrice: 121, open: false });
    // NaN open under next_open: the fill waits for the next open.
    const o = backtest({ time: T4, close: [100, 100, 100, 100], open: [100, Number.NaN, 100, 100], position: [1, 1, 1, 1], fill: "next_open", initialCash: 1000 });
    expect(o.trades[0]!.entryIndex).toBe(2);
  });
});

describe("backtest: leverage cap, sizing, regime filter", () => {
  const close = [100, 110, 110];
  const time = [0, 1, 2];
  it("caps |position| at maxLeverage (default 1) and counts the capped bars", () => {
    expect(backtest({ time, close, position: [3, 3, 0], maxLeverage: 2, initialCash: 1000 }).equity[1]).toBe(1200);
    const d = backtest({ time, close, position: [3, 3, 0], initialCash: 1000 });
    expect(d.equity[1]).toBe(1100);
    expect(d.capped).toBe(2);
    expect(backtest({ time, close, position: [-3, 0, 0], maxLeverage: Infinity, initialCash: 1000 }).equity[1]).toBe(700);
    expect(backtest({ time, close, position: [1, 0, 0], maxLeverage: 1 }).capped).toBe(0); // the boundary is allowed
  });

  it("sizes by confidence: base x confidence clamped to [0, 1], NaN flat", () => {
    // w = [0.5, 0.8, 0]; 10 bps. E1 = 1000 (1 + .5 x .1 - .001 x .5) = 1049.5; E2 = 1049.5 (1 + .8 x .1 - .001 x .3)
    const r = backtest({ time: [0, 1, 2], close: [100, 110, 121], signal: [1, 1, 0], sizing: { by: "confidence", confidence: [0.5, 0.8, 0.9] }, feeBps: 10, initialCash: 1000 });
    nearAll(r.positions, [0.5, 0.8, 0]);
    nearAll(r.equity, [1000, 1049.5, 1049.5 * 1.0797]);
    const clamp = backtest({ time: [0, 1, 2], close: [100, 110, 121], signal: [1, 1, 1], sizing: { by: "confidence", confidence: [Number.NaN, 2, -1] } });
    nearAll(clamp.positions, [0, 1, 0]);
  });

  it("sizes by volatility target: base x target / vol, NaN or 0 vol flat, then capped", () => {
    // target .5, vol [.5, .25, 1, NaN] -> w = [1, 2, -.5, 0] with maxLeverage 2.
    // E1 = 1000 x 1.1 = 1100; E2 = 1100 (1 + 2 x -.1) = 880; E3 = 880
    const opts: BacktestOptions = { time: T4, close: [100, 110, 99, 99], signal: [1, 1, -1, 1], sizing: { by: "volatility", target: 0.5, volatility: [0.5, 0.25, 1, Number.NaN] }, initialCash: 1000 };
    const r = backtest({ ...opts, maxLeverage: 2 });
    nearAll(r.positions, [1, 2, -0.5, 0]);
    nearAll(r.equity, [1000, 1100, 880, 880]);
    const capped = backtest(opts);
    nearAll(capped.positions, [1, 1, -0.5, 0]);
    expect(capped.equity[2]).toBeCloseTo(990, 9);
    nearAll(backtest({ ...opts, sizing: { by: "volatility", target: 0.5, volatility: [0, -1, Infinity, 1] } }).positions, [0, 0, 0, 0.5]);
  });

  it("maps signals to positions: size, neutral flat or hold, shorts off", () => {
    const sig = [1, 0, -1, Number.NaN];
    const c = [1, 1, 1, 1];
    nearAll(backtest({ close: c, signal: sig }).positions, [1, 0, -1, 0]);
    nearAll(backtest({ close: c, signal: sig, neutral: "hold", size: 0.5 }).positions, [0.5, 0.5, -0.5, -0.5]);
    nearAll(backtest({ close: c, signal: sig, shorts: false }).positions, [1, 0, 0, 0]);
    nearAll(backtest({ close: c, signal: sig, size: 0 }).positions, [0, 0, 0, 0]); // size 0: never in the market
    nearAll(backtest({ close: c, signal: Int8Array.of(1, 1, -1, 0), neutral: "hold", shorts: false }).positions, [1, 1, 0, 0]);
    nearAll(backtest({ close: c, signal: [0.3, -0.01, 0, 2] }).positions, [1, -1, 0, 1]); // any sign counts
    nearAll(backtest({ close: c, signal: ["buy", "neutral", "sell", "buy"] }).positions, [1, 0, -1, 1]); // labels too
    expect(() => backtest({ close: c, signal: ["buy", "long", "sell", "buy"] })).toThrow(/signal must hold numbers or "buy" \/ "sell" \/ "neutral", got "long" at bar 1/);
  });

  it("goes flat where the regime filter is set (booleans or codes)", () => {
    // w = [1, 0, 1, 1] after the filter: E1 = 1100, flat over bar 2, E3 = 1100 (price flat)
    const r = backtest({ time: T4, close: [100, 110, 121, 121], position: [1, 1, 1, 1], flatWhen: [false, true, false, false], initialCash: 1000 });
    nearAll(r.positions, [1, 0, 1, 1]);
    nearAll(r.equity, [1000, 1100, 1100, 1100]);
    expect(r.trades.map((t) => [t.entryIndex, t.exitIndex, t.open])).toEqual([
      [0, 1, false],
      [2, 3, true],
    ]);
    const regime = Int8Array.of(1, 3, 1, 1); // volatility regime codes; flat when extreme (3)
    nearAll(backtest({ time: T4, close: [100, 110, 121, 121], position: [1, 1, 1, 1], flatWhen: Array.from(regime, (c) => c === 3) }).positions, [1, 0, 1, 1]);
  });
});

describe("backtest: edges", () => {
  it("builds the trade list once, on first access", () => {
    const r = backtest({ close: [1, 2, 3, 2], position: [1, -1, 1, 0] });
    expect(r.trades).toBe(r.trades);
    expect(r.trades.map((t) => t.side)).toEqual(["long", "short", "long"]);
    expect(Array.from(r.time)).toEqual([0, 1, 2, 3]); // bar index when no time is given
  });

  it("handles empty input and a single bar", () => {
    const e = backtest({ time: [], close: [], position: [] });
    expect(e.equity).toHaveLength(0);
    expect(e.trades).toEqual([]);
    const one = backtest({ time: [0], close: [100], position: [1], initialCash: 500 });
    nearAll(one.equity, [500]);
    nearAll(one.returns, [Number.NaN]);
    expect(one.trades).toEqual([]); // the only decision is never filled
  });

  it("keeps equity constant on a constant price without costs, and loses only costs with them", () => {
    const n = 50;
    const close = new Float64Array(n).fill(42);
    const position = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : -0.5));
    const r = backtest({ close, position, initialCash: 1000 });
    expect(Array.from(r.equity).every((x) => x === 1000)).toBe(true);
    const c = backtest({ close, position, initialCash: 1000, feeBps: 10 });
    // Each bar's return is -0.001 x |w_i - w_{i-1}| exactly.
    let E = 1000;
    for (let i = 1; i < n; i++) E *= 1 - 0.001 * Math.abs(position[i - 1]! - (i > 1 ? position[i - 2]! : 0));
    near(c.equity[n - 1]!, E);
  });

  it("wipes out at equity <= 0: closes everything, caps the loss at the collateral and stops trading", () => {
    // 3x long, price -40%: E1 = 1000 (1 - 1.2) = -200, capped at 0 (the loss never exceeds the collateral); then flat.
    const r = backtest({ time: [0, 1, 2, 3], close: [100, 60, 120, 130], position: [3, 3, 3, 3], maxLeverage: 3, initialCash: 1000 });
    expect(r.ruinIndex).toBe(1);
    nearAll(r.equity, [1000, 0, 0, 0]);
    expect(r.trades).toHaveLength(1);
    expect(r.trades[0]).toMatchObject({ exitIndex: 1, open: false });
    near(r.trades[0]!.pnl, -1000);
  });

  it("wipes out at the open too under next_open fills", () => {
    // 3x long from open 1 (30 units, cash -2000); open 2 gaps to 60: E_o = -2000 + 30 x 60 = -200 -> ruin at the open, capped at 0.
    const r = backtest({ time: T4, close: [100, 100, 100, 100], open: [100, 100, 60, 100], position: [3, 3, 3, 3], maxLeverage: 3, fill: "next_open", initialCash: 1000 });
    expect(r.ruinIndex).toBe(2);
    nearAll(r.equity, [1000, 1000, 0, 0]);
    expect(r.trades[0]).toMatchObject({ entryIndex: 1, exitIndex: 2, exitPrice: 60, open: false });
  });

  it("reads prices from a Panel or a DataFrame-like table", () => {
    const panel = { time: Float64Array.of(0, 1, 2), columns: { close: Float64Array.of(100, 110, 121) } };
    nearAll(backtest({ data: panel, position: [1, 1, 0], initialCash: 1 }).equity, [1, 1.1, 1.21]);
    const cols: Record<string, unknown[]> = { time: ["2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z", "2024-01-03T00:00:00Z"], close: [100, 110, 121] };
    const df = { columns: Object.keys(cols), column: (name: string) => ({ values: cols[name]! }) };
    const r = backtest({ data: df, position: [1, 1, 0], initialCash: 1 });
    expect(r.time[1]).toBe(Date.UTC(2024, 0, 2));
    nearAll(r.equity, [1, 1.1, 1.21]);
  });

  it("does not mutate its inputs", () => {
    const close = Float64Array.of(100, Number.NaN, 121, 121);
    const position = [3, 0, -1, 0];
    const funding = [0, 0.001, 0.001, 0];
    const copy = [Array.from(close), [...position], [...funding]];
    backtest({ time: T4, close, position, funding, feeBps: 5 });
    expect([Array.from(close), position, funding]).toEqual(copy);
  });

  it("rejects bad arguments with typed errors that say what to do", () => {
    const ok: BacktestOptions = { time: [0, 1], close: [1, 2], position: [1, 1] };
    const cases: Array<[BacktestOptions, RegExp]> = [
      [{ time: [0, 1], close: [1, 2] }, /give exactly one of position .* got neither/],
      [{ ...ok, signal: [1, 1] }, /got both/],
      [{ ...ok, position: [1] }, /position must have one value per bar \(2\), got 1/],
      [{ ...ok, time: [1, 1] }, /time must ascend strictly, got 1 then 1 at bar 1/],
      [{ ...ok, time: [0, Number.NaN] }, /time must be finite/],
      [{ ...ok, close: [1, 0] }, /close prices must be > 0 and finite \(NaN for a missing bar\), got 0 at bar 1/],
      [{ ...ok, close: [1, -Infinity] }, /close prices must be > 0/],
      [{ time: [0, 1, 2, 3], close: Float64Array.of(1, Number.NaN, 2, -1), position: [1, 1, 1, 1] }, /close prices must be > 0 and finite \(NaN for a missing bar\), got -1 at bar 3/],
      [{ time: [0, 1, 2], close: Float64Array.of(1, 2, Infinity), position: [1, 1, 1] }, /got Infinity at bar 2/],
      [{ time: [0, 1], close: [1, "2" as never], position: [1, 1] }, /close prices must be > 0 and finite \(NaN for a missing bar\), got 2 at bar 1/],
      [{ ...ok, feeBps: -1 }, /feeBps must be a finite number >= 0, got -1/],
      [{ ...ok, slippageBps: Number.NaN }, /slippageBps must be a finite number >= 0, got NaN/],
      [{ ...ok, initialCash: 0 }, /initialCash must be a finite amount > 0, got 0/],
      [{ ...ok, maxLeverage: 0 }, /maxLeverage must be a number > 0 \(Infinity for no cap\), got 0/],
      [{ ...ok, fill: "close" as never }, /fill must be "next_close" or "next_open", got close/],
      [{ ...ok, units: "lots" as never }, /units must be "fractional" or "whole", got lots/],
      [{ ...ok, rebalance: "daily" as never }, /rebalance must be "every_bar" or "on_change", got daily/],
      [{ ...ok, size: -1, position: undefined as never, signal: [1, 1] } as BacktestOptions, /size must be a finite fraction of equity >= 0, got -1/],
      [{ ...ok, neutral: "keep" as never }, /neutral must be "flat" or "hold", got keep/],
      [{ ...ok, sizing: { by: "kelly" } as never }, /sizing.by must be "fixed", "confidence" or "volatility", got kelly/],
      [{ ...ok, sizing: { by: "volatility", target: 0, volatility: [1, 1] } }, /sizing.target must be a volatility > 0/],
      [{ ...ok, sizing: { by: "confidence", confidence: [1] } }, /sizing.confidence must have one value per bar \(2\), got 1/],
      [{ ...ok, close: undefined as never }, /close prices are required/],
      [{ ...ok, flatWhen: [true] }, /flatWhen must have one value per bar/],
    ];
    for (const [opts, msg] of cases) {
      let err: unknown;
      try {
        backtest(opts);
      } catch (e) {
        err = e;
      }
      expect(err, String(msg)).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(/^backtest: /);
      expect((err as Error).message).toMatch(msg);
    }
  });

  it("builds its tables as DataFrames", () => {
    const r = backtest({ time: T4, close: [100, 110, 99, 99], position: [1, -1, 0, 0], feeBps: 10 });
    const df = r.toDataFrame();
    expect(df.shape).toEqual([4, 9]);
    expect(df.columns).toEqual(["time", "equity", "returns", "positions", "exposure", "holdings", "turnover", "fees", "funding_paid"]);
    const tdf = r.tradesToDataFrame();
    expect(tdf.shape[0]).toBe(2);
    expect(tdf.column("side").values).toEqual(["long", "short"]);
  });
});

describe("fundingPerBar", () => {
  it("scales an hourly rate to each bar's duration", () => {
    nearAll(fundingPerBar([0, 60_000, 120_000, 300_000], [0.0006, 0.0006, 0.0012, Number.NaN]), [0, 0.00001, 0.00002, Number.NaN]);
    nearAll(fundingPerBar([0, 8 * 3_600_000], [0.0001, 0.0001], { periodMs: 8 * 3_600_000 }), [0, 0.0001]); // an 8-hour rate on 8-hour bars
    expect(fundingPerBar([], [])).toHaveLength(0);
    nearAll(fundingPerBar([5], [0.01]), [0]);
  });
  it("rejects unequal lengths, a bad period and unsorted time", () => {
    expect(() => fundingPerBar([0, 1], [1])).toThrow(/rate must have one value per bar \(2\), got 1/);
    expect(() => fundingPerBar([0, 1], [1, 1], { periodMs: 0 })).toThrow(InvalidArgumentError);
    expect(() => (fundingPerBar as (t: number[], r: number[], p: number) => unknown)([0, 1], [1, 1], 3_600_000)).toThrow(
      "fundingPerBar: options must be an object, e.g. fundingPerBar(time, rate, { periodMs: 8 * 3_600_000 })",
    );
    expect(() => fundingPerBar([1, 0], [1, 1])).toThrow(/time must ascend strictly/);
  });
});

// Here, not in backtestOutputs.test.ts (bar-indexed arrays, UTC only: vitest.config.ts UTC_ONLY): the inference of
// periodsPerYear from the time column is a time rule, so it runs in every zone leg.
describe("backtest: metrics annualised by the time column", () => {
  it("annualises by time when periodsPerYear is not given, and throws on access with neither", () => {
    const time = Float64Array.from({ length: 4 }, (_, i) => i * 3_600_000);
    const close = [100, 101, 99, 102];
    const byTime = backtest({ time, close, position: [1, 1, 1, 1] }).metrics.sharpeRatio;
    expect(byTime).toBe(backtest({ close, position: [1, 1, 1, 1], periodsPerYear: 8760 }).metrics.sharpeRatio);
    const none = backtest({ close, position: [1, 1, 1, 1] });
    expect(() => none.metrics).toThrow(InvalidArgumentError);
    expect(() => none.metrics).toThrow(/periodsPerYear/);
    // not enumerable: a spread or a comparison of the result does not compute it
    expect(() => ({ ...none })).not.toThrow();
  });
});
