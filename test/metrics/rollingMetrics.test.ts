/**
 * Rolling volatility, Sharpe and beta with a window in time, against pandas
 * 1.5.3 (Debian /usr/bin/python3) on fixtures/real/coinbase-btc-4h.json.gz:
 *   r = pd.Series(close).pct_change(); s = r * np.sign(r.shift(1))   # a toy momentum strategy
 *   w = 180 (30 days of 4-hour bars); ppy = 2190
 *   vol = s.rolling(w, min_periods=2).std() * sqrt(ppy)
 *   sharpe = s.rolling(w, min_periods=2).mean() / s.rolling(w, min_periods=2).std() * sqrt(ppy)
 *   rb = r.where(s.notna())   # complete pairs only, as alphaBeta
 *   beta = s.rolling(w, min_periods=2).cov(rb) / rb.rolling(w, min_periods=2).var()
 */
import { describe, expect, it } from "vitest";
import { loadRealCandles } from "../../src/load/index.js";
import { rollingBeta } from "../../src/metrics/rollingBeta.js";
import { rollingMetrics } from "../../src/metrics/rollingMetrics.js";
import { rollingVolatility } from "../../src/metrics/rollingVolatility.js";

const DAY = 86_400_000;

function near(actual: number, expected: number, tol = 1e-9): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

describe("rollingMetrics on Coinbase BTC 4h (pandas)", () => {
  const panel = loadRealCandles("coinbase-btc-4h");
  const px = panel.columns.close as Float64Array;
  const r = Float64Array.from(px, (c, i) => (i === 0 ? Number.NaN : c / (px[i - 1] as number) - 1));
  const s = Float64Array.from(r, (v, i) => (i === 0 ? Number.NaN : v * Math.sign(r[i - 1] as number)));
  const m = rollingMetrics(s, { time: panel.time, windowMs: 30 * DAY, benchmark: r });
  const col = (name: string): Float64Array => (m.columns as Readonly<Record<string, Float64Array>>)[name] as Float64Array;
  const expected: [number, number, number, number][] = [
    [179, 0.5785521865549276, 4.630077883563894, 0.5029322704317748],
    [180, 0.5951036899225144, 3.6433637646895205, 0.5340999704051771],
    [5000, 0.6102256235426327, -0.5319169587088249, -0.10283070752666083],
    [20694, 0.4249889111417317, 2.174588221144268, 0.21151311684329774],
  ];
  it("30-day windows are 180 bars; values match pandas rolling", () => {
    expect(Number.isNaN(col("volatility")[178] as number)).toBe(true);
    for (const [i, vol, sharpe, beta] of expected) {
      near(col("volatility")[i] as number, vol);
      near(col("sharpe")[i] as number, sharpe);
      near(col("beta")[i] as number, beta);
    }
    expect(Array.from(col("time"))).toEqual(Array.from(panel.time));
  });
});

describe("rolling metrics: hand cases and edges", () => {
  it("volatility: sample std times sqrt(periodsPerYear)", () => {
    // window [0.01, 0.03]: std = 0.01414..., x sqrt(4) = 0.02828...
    const v = rollingVolatility([0.01, 0.03, 0.03], { window: 2, periodsPerYear: 4 });
    expect(Number.isNaN(v[0] as number)).toBe(true);
    near(v[1] as number, Math.SQRT2 * 0.01 * 2, 1e-12);
    expect(v[2]).toBe(0); // constant window
  });

  it("beta: slope of the strategy on the benchmark; NaN for a constant benchmark", () => {
    // returns = 2 x benchmark: beta 2
    const b = rollingBeta([0.02, 0.04, -0.02, 0.0], [0.01, 0.02, -0.01, 0.0], { window: 2 });
    near(b[1] as number, 2, 1e-12);
    near(b[3] as number, 2, 1e-12);
    expect(Number.isNaN(rollingBeta([0.01, 0.02], [0.01, 0.01], { window: 2 })[1] as number)).toBe(true);
  });

  it("NaN returns skipped; empty and one point", () => {
    const v = rollingVolatility([0.01, Number.NaN, 0.03], { window: 3, periodsPerYear: 1 });
    near(v[2] as number, Math.SQRT2 * 0.01, 1e-12);
    expect(rollingVolatility([], { window: 2, periodsPerYear: 1 }).length).toBe(0);
    expect(Number.isNaN(rollingVolatility([0.1], { window: 2, periodsPerYear: 1 })[0] as number)).toBe(true);
    expect(rollingMetrics([], { time: [], windowMs: DAY, periodsPerYear: 365 }).rows).toBe(0);
    expect(Number.isNaN(rollingMetrics([0.1], { time: [0], windowMs: DAY, periodsPerYear: 365 }).columns.sharpe![0] as number)).toBe(true);
  });

  it("bad arguments name the fix; no mutation", () => {
    const time = [0, DAY, 2 * DAY];
    expect(() => rollingMetrics([0.1, 0.2, 0.3], { time, windowMs: DAY })).toThrow(/at least 2 bars/);
    expect(() => rollingMetrics([0.1, 0.2, 0.3], { time, windowMs: -1 })).toThrow(/windowMs must be a positive duration/);
    expect(() => rollingMetrics([0.1, 0.2, 0.3], { time, windowMs: 2 * DAY, benchmark: [0.1] })).toThrow(/benchmark must have one return per bar/);
    expect(() => rollingVolatility([0.1], { window: 1, periodsPerYear: 1 })).toThrow(/window must be an integer >= 2/);
    const r = Float64Array.of(0.1, 0.2, 0.3);
    rollingMetrics(r, { time, windowMs: 2 * DAY, benchmark: r });
    expect(Array.from(r)).toEqual([0.1, 0.2, 0.3]);
  });
});
