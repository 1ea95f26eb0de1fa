/**
 * Trade statistics on a hand-built trade list (values worked out by hand;
 * SQN and Kelly also with numpy: np.sqrt(n) * R.mean() / R.std(ddof=1)),
 * inferPeriodsPerYear, performanceSummary and metricsByRegime.
 */
import { describe, expect, it } from "vitest";
import type { Trade } from "../../src/backtest/Trade.js";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import {
  annualReturn,
  drawdownDetails,
  inferPeriodsPerYear,
  maxDrawdown,
  metricsByRegime,
  netTradeReturn,
  performanceSummary,
  sharpeRatio,
  tradeStatistics,
  tradeStatisticsBy,
} from "../../src/metrics/index.js";

const H = 3_600_000;
function trade(p: Partial<Trade>): Trade {
  return {
    side: "long",
    entryIndex: 0,
    exitIndex: 1,
    entryTime: 0,
    exitTime: H,
    entryPrice: 100,
    exitPrice: 100,
    units: 1,
    return: 0,
    pnl: 0,
    barsHeld: 1,
    fees: 0,
    funding: 0,
    open: false,
    ...p,
  };
}
// net returns (pnl / (units * entryPrice)): 0.09, -0.06, 0.095; open one -0.10
const trades: Trade[] = [
  trade({ entryIndex: 1, exitIndex: 4, entryTime: 0, exitTime: 3 * H, entryPrice: 100, exitPrice: 110, units: 1, return: 0.1, pnl: 9, barsHeld: 3, fees: 1 }),
  trade({ side: "short", entryIndex: 5, exitIndex: 7, entryTime: 4 * H, exitTime: 6 * H, entryPrice: 200, exitPrice: 210, units: 0.5, return: -0.05, pnl: -6, barsHeld: 2, fees: 0.5, funding: 0.5 }),
  trade({ entryIndex: 8, exitIndex: 13, entryTime: 7 * H, exitTime: 12 * H, entryPrice: 50, exitPrice: 55, units: 2, return: 0.1, pnl: 9.5, barsHeld: 5, fees: 0.5 }),
  trade({ entryIndex: 15, exitIndex: 16, entryTime: 14 * H, exitTime: 15 * H, entryPrice: 100, exitPrice: 90, units: 1, return: -0.1, pnl: -10, barsHeld: 1, open: true }),
];

describe("tradeStatistics", () => {
  it("closed trades only by default (hand-computed)", () => {
    const s = tradeStatistics(trades);
    expect(s.trades).toBe(3);
    expect(s.openTrades).toBe(1);
    expect([s.winners, s.losers]).toEqual([2, 1]);
    expect(s.winRate).toBeCloseTo(2 / 3, 15);
    expect(s.profitFactor).toBeCloseTo(18.5 / 6, 14);
    expect(s.expectancy).toBeCloseTo(12.5 / 3, 14);
    expect(s.avgTrade).toBeCloseTo(0.125 / 3, 15);
    expect(s.avgWin).toBeCloseTo(0.0925, 15);
    expect(s.avgLoss).toBeCloseTo(-0.06, 15);
    expect([s.bestTrade, s.worstTrade]).toEqual([0.095, -0.06]);
    expect(s.avgBarsHeld).toBeCloseTo(10 / 3, 15);
    expect(s.maxBarsHeld).toBe(5);
    expect(s.avgDurationMs).toBeCloseTo((10 * H) / 3, 6);
    expect(s.maxDurationMs).toBe(5 * H);
    expect(s.sqn).toBeCloseTo(0.8193419066805777, 12); // numpy
    expect(s.kelly).toBeCloseTo(0.4504504504504504, 12); // 2/3 - (1/3) / (0.0925 / 0.06)
    expect([s.fees, s.funding]).toEqual([2, 0.5]);
    expect(s.exposure).toBeNaN();
    expect(s.turnover).toBeNaN();
  });
  it("includeOpen counts the open trade as closed at the last close", () => {
    const s = tradeStatistics(trades, { includeOpen: true });
    expect(s.trades).toBe(4);
    expect(s.winRate).toBe(0.5);
    expect(s.profitFactor).toBeCloseTo(18.5 / 16, 14);
    expect(s.sqn).toBeCloseTo(0.12383169007477732, 12); // numpy
    expect(s.kelly).toBeCloseTo(0.06756756756756754, 12); // 0.5 - 0.5 / (0.0925 / 0.08)
  });
  it("exposure and turnover from positions, or exposure from bars", () => {
    const positions = [0, 1, 1, 0, -0.5, -0.5, 0, 0];
    const s = tradeStatistics(trades, { positions });
    expect(s.exposure).toBe(0.5);
    expect(s.turnover).toBe(3); // |1-0| + |0-1| + |-0.5-0| + |0-(-0.5)|
    expect(tradeStatistics(trades, { bars: 22 }).exposure).toBe(0.5); // (3 + 2 + 5 + 1) bars held / 22
    expect(tradeStatistics(trades, { turnover: [0, 1, N, 0.25] }).turnover).toBe(1.25);
  });
  it("no trades: counts 0, ratios NaN; only winners: profit factor Infinity, Kelly 1", () => {
    const e = tradeStatistics([]);
    expect([e.trades, e.winners, e.openTrades]).toEqual([0, 0, 0]);
    for (const k of ["winRate", "profitFactor", "expectancy", "avgTrade", "sqn", "kelly", "bestTrade", "avgBarsHeld"] as const) expect([k, e[k]]).toEqual([k, N]);
    const w = tradeStatistics([trades[0] as Trade, trades[2] as Trade]);
    expect(w.profitFactor).toBe(Infinity);
    expect(w.kelly).toBe(1);
    const one = tradeStatistics([trades[0] as Trade]);
    expect(one.sqn).toBeNaN();
    const l = tradeStatistics([trades[1] as Trade]);
    expect([l.kelly, l.profitFactor, l.winRate]).toEqual([N, 0, 0]);
  });
  it("netTradeReturn falls back to the gross return without a notional", () => {
    expect(netTradeReturn(trades[1] as Trade)).toBeCloseTo(-0.06, 15);
    expect(netTradeReturn(trade({ units: 0, return: 0.03, pnl: 5 }))).toBe(0.03);
  });
  it("bad arguments throw; inputs are not mutated", () => {
    expect(() => tradeStatistics(null as unknown as Trade[])).toThrow("tradeStatistics: trades must be an array of Trade (BacktestResult.trades), got null");
    expect(() => tradeStatistics(trades, { bars: -1 })).toThrow("tradeStatistics: bars must be a non-negative integer, got -1");
    const copy = JSON.stringify(trades);
    tradeStatistics(trades, { includeOpen: true, positions: [0, 1] });
    expect(JSON.stringify(trades)).toBe(copy);
  });
});
const N = Number.NaN;

describe("tradeStatisticsBy", () => {
  const coins = trades.map((t, i) => ({ ...t, coin: i % 2 === 0 ? "BTC" : "ETH" }));
  it("an all row, then one row per coin, each equal to tradeStatistics of that group", () => {
    const t = tradeStatisticsBy(coins, { by: "coin" });
    expect(t.columns.coin).toEqual(["all", "BTC", "ETH"]);
    expect(Array.from(t.columns.trades as Float64Array)).toEqual([3, 2, 1]);
    expect((t.columns.winRate as Float64Array)[1]).toBe(1); // trades 0 and 2 both won
    expect((t.columns.profitFactor as Float64Array)[0]).toBe(tradeStatistics(coins).profitFactor);
    expect(Array.from(t.columns.openTrades as Float64Array)).toEqual([1, 0, 1]);
  });
  it("by side; includeOpen; empty; bad by", () => {
    const t = tradeStatisticsBy(trades, { by: "side", includeOpen: true });
    expect(t.columns.side).toEqual(["all", "long", "short"]);
    expect(Array.from(t.columns.trades as Float64Array)).toEqual([4, 3, 1]);
    expect(tradeStatisticsBy([]).rows).toBe(1);
    expect(() => tradeStatisticsBy(trades, { by: "day" as "coin" })).toThrow('tradeStatisticsBy: by must be "coin" or "side", got day');
    // The 0.1 positional form is refused with the new one.
    expect(() => (tradeStatisticsBy as (t: unknown, by: unknown) => unknown)(trades, "side")).toThrow(
      'tradeStatisticsBy: options must be an object, e.g. tradeStatisticsBy(trades, { by: "side" }) (options are no longer positional), got "side"',
    );
  });
});

describe("inferPeriodsPerYear", () => {
  const spaced = (ms: number, n = 5) => Array.from({ length: n }, (_, i) => i * ms);
  it("365-day year: 1m, 5m, 1h, 4h, 1d", () => {
    expect(inferPeriodsPerYear(spaced(60_000))).toBe(525_600);
    expect(inferPeriodsPerYear(spaced(300_000))).toBe(105_120);
    expect(inferPeriodsPerYear(spaced(H))).toBe(8760);
    expect(inferPeriodsPerYear(spaced(4 * H))).toBe(2190);
    expect(inferPeriodsPerYear(Float64Array.from(spaced(24 * H)))).toBe(365);
  });
  it("the median ignores a few gaps", () => {
    expect(inferPeriodsPerYear([0, H, 2 * H, 10 * H, 11 * H, 12 * H])).toBe(8760);
  });
  it("fewer than 2 times, or unsorted times, throw with the fix", () => {
    expect(() => inferPeriodsPerYear([1])).toThrow(InvalidArgumentError);
    expect(() => inferPeriodsPerYear([])).toThrow(
      "inferPeriodsPerYear: needs at least 2 bar times to measure the spacing, got 0; pass periodsPerYear explicitly instead",
    );
    expect(() => inferPeriodsPerYear([5, 4, 3])).toThrow("inferPeriodsPerYear: the median bar spacing must be positive, got -1 ms; sort the times ascending and drop duplicates");
  });
});

describe("performanceSummary", () => {
  const returns = [0.012, -0.004, 0.027, -0.019, 0.003, N, 0.008, -0.031, 0.015, 0.006, -0.002, 0.021, -0.011, 0.004, 0.0, -0.007, 0.018, -0.025, 0.01, 0.005];
  it("each number is the function of the same name; periodsPerYear inferred from time", () => {
    const time = returns.map((_, i) => i * H);
    const s = performanceSummary(returns, { time, trades, positions: new Array(20).fill(0).map((_, i) => (i % 2 ? 1 : 0)) });
    expect(s.periodsPerYear).toBe(8760);
    expect(s.sharpeRatio).toBe(sharpeRatio(returns, { periodsPerYear: 8760 }));
    expect(s.annualReturn).toBe(annualReturn(returns, { periodsPerYear: 8760 }));
    expect(s.maxDrawdown).toBe(maxDrawdown(returns));
    expect(s.maxDrawdownDurationBars).toBe(drawdownDetails(returns).maxDuration);
    expect(s.maxDrawdownDurationDays).toBeCloseTo(13 / 24, 12);
    expect(s.trades).toBe(3);
    expect(s.winRate).toBeCloseTo(2 / 3, 15);
    expect(s.exposure).toBe(0.5);
  });
  it("leading NaN (a backtest's bar 0) are dropped: CAGR spans the n - 1 real periods", () => {
    const s = performanceSummary([N, N, 0.1, 0.1], { periodsPerYear: 2 });
    expect(s.periods).toBe(2);
    expect(s.annualReturn).toBeCloseTo(0.21, 14); // 1.1 * 1.1 - 1 over exactly one year
    expect(annualReturn([N, N, 0.1, 0.1], { periodsPerYear: 2 })).toBeCloseTo(1.21 ** 0.5 - 1, 14); // empyrical counts the NaN
  });
  it("alpha and beta against a benchmark, aligned after dropping the leading NaN", () => {
    const bench = [N, 0.01, -0.02, 0.03, 0.0];
    const strat = [N, 0.02, -0.04, 0.06, 0.0];
    const s = performanceSummary(strat, { periodsPerYear: 365, benchmark: bench });
    expect(s.beta).toBeCloseTo(2, 14);
    expect(s.alpha).toBeCloseTo(0, 14);
    expect(performanceSummary(strat, { periodsPerYear: 365 }).beta).toBeNaN();
    expect(() => performanceSummary(strat, { periodsPerYear: 365, benchmark: [0.01] })).toThrow("performanceSummary: benchmark must have one return per bar (5), got 1");
  });
  it("without trades the trade fields are NaN", () => {
    const s = performanceSummary(returns, { periodsPerYear: 365 });
    expect(s.periodsPerYear).toBe(365);
    expect([s.trades, s.winRate, s.exposure]).toEqual([N, N, N]);
  });
  it("no silent daily default: without periodsPerYear or time it throws, naming both", () => {
    const call = (): unknown => performanceSummary(returns, {} as never);
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(
      "performanceSummary: annualising needs the bar length: pass periodsPerYear (365 for daily bars, 8760 hourly, 525600 one-minute) or time (bar times, epoch ms, to infer it)",
    );
    // One time stamp has no spacing to infer from: the error says so and names the fix.
    expect(() => performanceSummary([0.01], { time: [0] })).toThrow(
      "performanceSummary: cannot infer periodsPerYear from time (inferPeriodsPerYear: needs at least 2 bar times to measure the spacing, got 1; pass periodsPerYear explicitly instead); pass periodsPerYear",
    );
    // periodsPerYear wins over time: 4-hour stamps, told daily.
    expect(performanceSummary(returns, { periodsPerYear: 365, time: returns.map((_, i) => i * 4 * H) }).periodsPerYear).toBe(365);
  });
  it("does not mutate its input (it reads a Float64Array through a view)", () => {
    const typed = Float64Array.from(returns);
    performanceSummary(typed, { periodsPerYear: 365, cutoff: 0.3 });
    expect(Array.from(typed)).toEqual(returns);
  });
  it("empty input: NaN numbers, no throw", () => {
    const s = performanceSummary([], { periodsPerYear: 365 });
    expect(s.periods).toBe(0);
    expect([s.totalReturn, s.sharpeRatio, s.maxDrawdown, s.maxDrawdownDurationBars]).toEqual([N, N, N, N]);
  });
  it("bad options throw", () => {
    expect(() => performanceSummary(returns, { periodsPerYear: 0 })).toThrow("performanceSummary: periodsPerYear must be a positive finite number");
    expect(() => performanceSummary(returns, { periodsPerYear: 365, cutoff: 2 })).toThrow("performanceSummary: cutoff must be a probability in [0, 1]");
  });
});

describe("metricsByRegime", () => {
  const returns = [0.01, 0.02, -0.01, 0.03, -0.02, 0.01, 0.0, 0.02];
  const vol = Int8Array.from([0, 0, 1, 1, 0, 1, 1, 0]);
  const label = Int8Array.from([1, -1, 1, 1, 0, 0, 1, -1]);
  it("lag 1 (default): returns[t] grouped by the codes of bar t-1, plus an 'all' row", () => {
    const t = metricsByRegime(returns, { by: { vol }, periodsPerYear: 365 });
    // returns[t] for t = 1..7 grouped by vol[t-1]: vol 0 <- t = 1, 2, 5; vol 1 <- t = 3, 4, 6, 7 (t = 0 has no previous bar)
    expect(t.rows).toBe(3);
    expect(Array.from(t.columns.vol as Float64Array)).toEqual([N, 0, 1]);
    expect(Array.from(t.columns.bars as Float64Array)).toEqual([7, 3, 4]);
    const tr = t.columns.totalReturn as Float64Array;
    expect(tr[1]).toBeCloseTo(1.02 * 0.99 * 1.01 - 1, 15);
    expect(tr[2]).toBeCloseTo(1.03 * 0.98 * 1.0 * 1.02 - 1, 15);
    expect((t.columns.sharpeRatio as Float64Array)[1]).toBe(sharpeRatio([0.02, -0.01, 0.01], { periodsPerYear: 365 }));
    expect((t.columns.share as Float64Array)[2]).toBeCloseTo(4 / 7, 15);
  });
  it("two grouping variables and lag 0; custom metrics; trades grouped at entry", () => {
    const t = metricsByRegime(returns, {
      by: { vol, label },
      lag: 0,
      includeAll: false,
      metrics: { mean: (r) => r.reduce((a, b) => a + b, 0) / r.length },
      trades: [trade({ entryIndex: 2, pnl: 1, entryPrice: 100, units: 1 }), trade({ entryIndex: 3, pnl: -1 })],
    });
    const keys = Array.from({ length: t.rows }, (_, i) => `${(t.columns.vol as Float64Array)[i]},${(t.columns.label as Float64Array)[i]}`);
    expect(keys).toEqual(["0,-1", "0,0", "0,1", "1,0", "1,1"]);
    expect(Array.from(t.columns.bars as Float64Array)).toEqual([2, 1, 1, 1, 3]);
    expect((t.columns.mean as Float64Array)[0]).toBeCloseTo(0.02, 15); // t = 1 and 7
    expect(Array.from(t.columns.trades as Float64Array)).toEqual([0, 0, 0, 0, 2]);
    expect((t.columns.winRate as Float64Array)[4]).toBe(0.5);
  });
  it("NaN codes are left out; empty input gives only the all row with 0 bars", () => {
    const t = metricsByRegime([0.01, 0.02, 0.03], { by: { g: [N, 1, 1] }, lag: 0, periodsPerYear: 365 });
    expect(Array.from(t.columns.bars as Float64Array)).toEqual([2, 2]);
    const e = metricsByRegime([], { by: { g: [] }, periodsPerYear: 365 });
    expect(e.rows).toBe(1);
    expect((e.columns.totalReturn as Float64Array)[0]).toBeNaN();
  });
  it("bad arguments throw with the fix", () => {
    expect(() => metricsByRegime(returns, { by: {} })).toThrow("metricsByRegime: by must name at least one array of group codes");
    expect(() => metricsByRegime(returns, { by: { vol: [1] } })).toThrow("metricsByRegime: by.vol must have one code per return (8), got 1");
    expect(() => metricsByRegime(returns, { by: { vol }, lag: -1 })).toThrow("metricsByRegime: lag must be a non-negative integer (bars), got -1");
    expect(() => metricsByRegime(returns, { by: { vol }, metrics: { x: 3 as unknown as () => number } })).toThrow("metricsByRegime: metrics.x must be a function");
    // The default metrics annualise: they need the bar length (custom metrics do not, see the test above).
    expect(() => metricsByRegime(returns, { by: { vol } })).toThrow("metricsByRegime: annualising needs the bar length: pass periodsPerYear");
    // Inferred from time: hourly stamps give the hourly Sharpe.
    const hourly = metricsByRegime(returns, { by: { vol }, time: returns.map((_, i) => i * H) });
    expect((hourly.columns.sharpeRatio as Float64Array)[1]).toBe(sharpeRatio([0.02, -0.01, 0.01], { periodsPerYear: 8760 }));
  });
  it("toDataFrame gives the same columns", () => {
    const df = metricsByRegime(returns, { by: { vol }, periodsPerYear: 365 }).toDataFrame();
    expect(df.columns.slice(0, 3)).toEqual(["vol", "bars", "share"]);
    expect(df.shape[0]).toBe(3);
  });
});
