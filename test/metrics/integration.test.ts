/**
 * The metrics on a real pipeline: simulated market -> replayComposite ->
 * backtest -> performanceSummary / tradeStatistics / metricsByRegime, and the
 * signal evaluation of the same replay. Checks that the pieces agree with each
 * other (not reference values: those are in the other files).
 */
import { describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/index.js";
import {
  componentAttribution,
  cumReturnsFinal,
  forwardReturns,
  hitRate,
  icDecay,
  informationCoefficient,
  metricsByRegime,
  performanceSummary,
  tradeStatistics,
} from "../../src/metrics/index.js";
import { classifyVolRegimes, realizedVol, replayComposite } from "../../src/signals/index.js";
import { simulateComposites, simulateMarket } from "../../src/sim/index.js";

const market = simulateMarket({ seed: 11, start: Date.UTC(2026, 0, 1), minutes: 6000 });
const btc = market.coins.BTC;
const replay = replayComposite(simulateComposites(market, "BTC").values);
const result = backtest({ time: market.time, close: btc.close, signal: replay.label, feeBps: 2 });

describe("metrics on a backtest of the replayed composite", () => {
  it("summary: total return is the equity curve's, one-minute bars are inferred, leading NaN return dropped", () => {
    const s = performanceSummary(result.returns, { time: result.time, trades: result.trades, positions: result.positions, turnover: result.turnover });
    const e = result.equity;
    expect(s.periodsPerYear).toBe(525_600);
    expect(s.periods).toBe(e.length - 1);
    expect(s.totalReturn).toBeCloseTo((e[e.length - 1] as number) / (e[0] as number) - 1, 10);
    expect(s.trades).toBe(result.trades.filter((t) => !t.open).length);
    expect(s.exposure).toBeGreaterThan(0);
    expect(s.exposure).toBeLessThanOrEqual(1);
    expect(s.maxDrawdown).toBeLessThanOrEqual(0);
    expect(Number.isFinite(s.sharpeRatio)).toBe(true);
  });
  it("trade statistics: pnl adds up to the closed trades' cash result", () => {
    const ts = tradeStatistics(result.trades);
    const closedPnl = result.trades.filter((t) => !t.open).reduce((a, t) => a + t.pnl, 0);
    expect(ts.expectancy * ts.trades).toBeCloseTo(closedPnl, 6);
    expect(ts.winners + ts.losers).toBeLessThanOrEqual(ts.trades);
  });
  it("by regime: groups partition the returns, and group totals compound to the whole", () => {
    const vol = classifyVolRegimes(realizedVol(btc.close, { window: 60, time: market.time }));
    const t = metricsByRegime(result.returns, { by: { vol, label: replay.label }, periodsPerYear: 525_600, includeAll: true });
    const bars = t.columns.bars as Float64Array;
    const groupBars = Array.from(bars.subarray(1)).reduce((a, b) => a + b, 0);
    expect(groupBars).toBe(bars[0]);
    const tr = t.columns.totalReturn as Float64Array;
    const product = Array.from(tr.subarray(1)).reduce((a, r) => a * (1 + r), 1);
    expect(product - 1).toBeCloseTo(cumReturnsFinal(result.returns.subarray(1)), 10);
  });
});

describe("signal evaluation of the replayed composite", () => {
  const fwd = forwardReturns(btc.close, { horizons: ["5m", "1h"], time: market.time });
  it("componentAttribution rebuilds the replay's composite exactly (same IC)", () => {
    const a = componentAttribution(replay.scores, fwd["5m"] as Float64Array, { horizon: 5 });
    expect(a.compositeIc).toBe(informationCoefficient(replay.composite, fwd["5m"] as Float64Array).ic);
    expect(a.columns.component).toEqual(["imbalance", "funding", "basis_spread", "momentum_5m", "gas"]);
  });
  it("icDecay and hitRate run on minute data with duration horizons", () => {
    const d = icDecay(replay.composite, btc.close, { horizons: ["5m", "1h"], time: market.time });
    expect(Array.from(d.columns.bars as Float64Array)).toEqual([5, 60]);
    const ic = d.columns.ic as Float64Array;
    expect(Math.abs(ic[0] as number)).toBeLessThanOrEqual(1);
    const h = hitRate(replay.label, fwd["1h"] as Float64Array);
    expect(Array.from(h.columns.count as Float64Array).reduce((a, b) => a + b, 0)).toBe(6000 - 60);
  });
});
